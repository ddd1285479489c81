// Reverse mode, an output std::vector the caller seeded that the function
// replaces by a new block: a move assignment (`out = sq(z)`) or a swap
// frees the block whose shadow holds the caller's seeds, and nothing reads
// them; a seeded element updated in place (`h[0] += ...`) and then grown by
// push_back leaves the adjoint of its old value in the old block's shadow.
// The caller's shadow vector then points to a fresh shadow block, and the
// gradient was 0 with no error (probe39b F1, docs/no-silent-wrong-numbers.md).
// libstdc++ frees with the sized operator delete, which states the block's
// size: a seed still in the freed shadow when the request ends stops the
// program with a message. Writing the elements of an output the caller
// sized, or copying into it, gives the analytic derivative
// d/dz_i sum_j dout_j (z_j)^2 = 2 z_i dout_i, also when it is a vector the
// function grows from empty (its first block is the function's own).
// RUN: %clangxx -std=c++17 -O0 %s -o %t0
// RUN: %t0 ok | FileCheck %s
// RUN: not --crash %t0 move 2>&1 | FileCheck %s --check-prefix=MOVE
// RUN: not --crash %t0 swap 2>&1 | FileCheck %s --check-prefix=SWAP
// RUN: not --crash %t0 grow 2>&1 | FileCheck %s --check-prefix=GROW
// RUN: %clangxx -std=c++17 -O2 %s -o %t2
// RUN: %t2 ok | FileCheck %s
// RUN: not --crash %t2 move 2>&1 | FileCheck %s --check-prefix=MOVE
// RUN: not --crash %t2 swap 2>&1 | FileCheck %s --check-prefix=SWAP
// RUN: not --crash %t2 grow 2>&1 | FileCheck %s --check-prefix=GROW
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// MOVE: tapestry: the reverse derivative of 'sqInto({{.*}})' lost adjoints:
// MOVE-SAME: or the seeds the caller gave that shadow (an output's adjoints) stayed there unused.
// MOVE-NOT: d/dz
// SWAP: tapestry: the reverse derivative of 'sqSwap({{.*}})' lost adjoints:
// SWAP-NOT: d/dz
// GROW: tapestry: the reverse derivative of 'bumpThenGrow({{.*}})' lost adjoints:
// GROW-NOT: d/dz
#include "../Integration/Inputs/check.h"
#include <algorithm>
#include <cstring>
#include <enzyme/enzyme>
#include <vector>

static std::vector<double> sq(const std::vector<double> &z) {
  std::vector<double> e(z.size());
  for (size_t i = 0; i < z.size(); i++)
    e[i] = z[i] * z[i];
  return e;
}

void sqInto(const std::vector<double> &z, std::vector<double> &out) {
  out = sq(z);
}

void sqSwap(const std::vector<double> &z, std::vector<double> &out) {
  std::vector<double> t = sq(z);
  out.swap(t);
}

void sqCopy(const std::vector<double> &z, std::vector<double> &out) {
  std::vector<double> t = sq(z);
  std::copy(t.begin(), t.end(), out.begin());
}

void sqElements(const std::vector<double> &z, std::vector<double> &out) {
  for (size_t i = 0; i < z.size(); i++)
    out[i] = z[i] * z[i];
}

// h[0] += z0^2, then h grows: h[1] = z1^2 appended.
void bumpThenGrow(const std::vector<double> &z, std::vector<double> &h) {
  h[0] += z[0] * z[0];
  h.push_back(z[1] * z[1]);
}

// Appends z_i^2 to an output the caller passes empty.
void sqAppend(const std::vector<double> &z, std::vector<double> &out) {
  for (size_t i = 0; i < z.size(); i++)
    out.push_back(z[i] * z[i]);
}

using Fn = void(const std::vector<double> &, std::vector<double> &);

template <Fn *f> static void gradient(const char *what) {
  std::vector<double> z{0.3, 1.2}, dz(2, 0.0), out(2), dout{1.0, 0.5};
  enzyme::autodiff<enzyme::Reverse>(
      f, enzyme::Duplicated<const std::vector<double> &>(z, dz),
      enzyme::Duplicated<std::vector<double> &>(out, dout));
  for (int i = 0; i < 2; i++) {
    printf("d/dz%d %g\n", i, dz[i]);
    check_close(what, dz[i], 2 * z[i] * (i ? 0.5 : 1.0), 1e-12);
  }
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "ok";
  if (!strcmp(mode, "move")) {
    gradient<sqInto>("move-assigned output");
  } else if (!strcmp(mode, "swap")) {
    gradient<sqSwap>("swapped output");
  } else if (!strcmp(mode, "grow")) {
    std::vector<double> z{0.3, 1.2}, dz(2, 0.0), h{2.0}, dh{1.0};
    enzyme::autodiff<enzyme::Reverse>(
        bumpThenGrow, enzyme::Duplicated<const std::vector<double> &>(z, dz),
        enzyme::Duplicated<std::vector<double> &>(h, dh));
    printf("d/dz0 %g\n", dz[0]);
  } else {
    gradient<sqCopy>("copied into output");
    gradient<sqElements>("elements written");
    // Grown from empty: every block the function frees is its own, and
    // nothing stops (the appended elements have no seeds to give).
    std::vector<double> z{0.3, 1.2}, dz(2, 0.0), out, dout;
    enzyme::autodiff<enzyme::Reverse>(
        sqAppend, enzyme::Duplicated<const std::vector<double> &>(z, dz),
        enzyme::Duplicated<std::vector<double> &>(out, dout));
    check_close("appended output's size", (double)out.size(), 2.0, 0);
    check_close("appended output's value", out[1], 1.44, 1e-12);
  }
  return check_report();
}
