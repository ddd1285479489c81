// A stranger's program: a 2-D convolution written with Eigen's Tensor
// module (unsupported/Eigen/CXX11/Tensor), `out = in.convolve(k, {0, 1})`
// over a 3-D tensor (rows, columns, channels), the whole function
// differentiated in reverse mode with respect to the kernel and the input.
// out(i, j, c) = sum_{a,b} in(i + a, j + b, c) k(a, b), so with seed s:
//   dk(a, b) = sum_{i,j,c} s(i, j, c) in(i + a, j + b, c),
//   din(p, q, c) = sum_{a,b} s(p - a, q - b, c) k(a, b) (inside the output).
// (-O0: strangers-eigen-tensor-convolution-O0.cpp, a known bug.)
// RUN: %clangxx -O1 %eigen_flags %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %eigen_flags %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %eigen_flags %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <unsupported/Eigen/CXX11/Tensor>

extern "C" void __enzyme_autodiff(void *, ...);
extern "C" int enzyme_dup, enzyme_const;

using Tensor3 = Eigen::Tensor<double, 3>;
using Tensor2 = Eigen::Tensor<double, 2>;

__attribute__((noinline)) void blur(const Tensor2 *k, const Tensor3 *in,
                                    Tensor3 *out) {
  Eigen::array<ptrdiff_t, 2> dims({0, 1});
  *out = in->convolve(*k, dims);
}

int main() {
  Tensor3 in(5, 4, 2), din(5, 4, 2), out(4, 3, 2), dout(4, 3, 2);
  Tensor2 k(2, 2), dk(2, 2);
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 4; j++)
      for (int c = 0; c < 2; c++)
        in(i, j, c) = std::sin(1.0 + i + 2 * j + 3 * c);
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      k(i, j) = 0.5 + i - 0.25 * j;
  din.setZero();
  dk.setZero();
  out.setZero();
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 3; j++)
      for (int c = 0; c < 2; c++)
        dout(i, j, c) = std::cos(i + j + c);
  Tensor3 seed = dout;
  __enzyme_autodiff((void *)blur, enzyme_dup, &k, &dk, enzyme_dup, &in, &din,
                    enzyme_dup, &out, &dout);
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 2; b++) {
      double want = 0;
      for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++)
          for (int c = 0; c < 2; c++)
            want += seed(i, j, c) * in(i + a, j + b, c);
      check_close("dk", dk(a, b), want, 1e-12);
    }
  for (int p = 0; p < 5; p++)
    for (int q = 0; q < 4; q++)
      for (int c = 0; c < 2; c++) {
        double want = 0;
        for (int a = 0; a < 2; a++)
          for (int b = 0; b < 2; b++) {
            int i = p - a, j = q - b;
            if (i >= 0 && i < 4 && j >= 0 && j < 3)
              want += seed(i, j, c) * k(a, b);
          }
        check_close("din", din(p, q, c), want, 1e-12);
      }
  // The shadow tensor is the user's object: its dimensions stay as made.
  check_close("dout rows", dout.dimension(0), 4, 0);
  check_close("dout columns", dout.dimension(1), 3, 0);
  check_close("dout channels", dout.dimension(2), 2, 0);
  return check_report();
}
