// Tapes in the caller's memory from C++ (issue 17 item 3): a thunk's
// forward half writes its tape into a tapestry::TapeBuffer<N> on the stack
// or into TapeMemory from the caller's allocator (Enzyme's enzyme_allocated
// buffers, typed). The function has no loops and no heap (three inputs, two
// outputs, sin/exp/cos); the inputs are overwritten after the forward half,
// and the reverse runs three times on one buffer with different seeds,
// against the analytic Jacobian at the original inputs. A one-shot pullback
// of a function whose tape owns heap scratch also runs in a caller buffer
// (the Tape must release what the tape owns but never free the buffer). Buffers too small or misaligned stop the program with the sizes.
// RUN: %clangxx -std=c++17 -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++20 -O3 %s -o %t3 && %t3 | FileCheck %s
// RUN: not %t0 small 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: not %t2 small 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: not %t2 misaligned 2>&1 | FileCheck %s --check-prefix=ALIGN
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// SMALL: tapestry: the caller's tape memory holds 8 bytes, but this thunk's tape needs {{[0-9]+}} (Thunk::tape_bytes()); give it a larger TapeBuffer or TapeMemory
// ALIGN: tapestry: the caller's tape memory at {{.*}} is not aligned to 16 bytes
#include "../Integration/Inputs/check.h"
#include <tapestry/tapestry.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>

static const double TOL = 1e-12;

static void check(const char *what, bool ok) {
  check_close(what, ok ? 1 : 0, 1, 0);
}

// out0 = sin(x0) exp(x1), out1 = x2 cos(x0) + x1^2
void two_outputs(const double *in, double *out) {
  out[0] = std::sin(in[0]) * std::exp(in[1]);
  out[1] = in[2] * std::cos(in[0]) + in[1] * in[1];
}

// y = x^3 through malloc'd scratch, which the tape owns (its release frees
// it): reusable since issue 17 item 1.
void scratch(const double *x, double *y, int n) {
  double *t = static_cast<double *>(std::malloc(n * sizeof(double)));
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  for (int i = 0; i < n; i++)
    y[i] = t[i] * x[i];
  std::free(t);
}

using tapestry::Const;
using tapestry::Duplicated;

// J^T s at x: J = [[c0 e1, s0 e1, 0], [-x2 s0, 2 x1, c0]].
static void vjp(const double *x, const double *s, double *g) {
  double s0 = std::sin(x[0]), c0 = std::cos(x[0]), e1 = std::exp(x[1]);
  g[0] = s[0] * c0 * e1 - s[1] * x[2] * s0;
  g[1] = s[0] * s0 * e1 + s[1] * 2 * x[1];
  g[2] = s[1] * c0;
}

static void check_replays(const char *what, double *in, double *din,
                          double *dout, const double *x0,
                          const std::function<void()> &reverse) {
  const double seeds[3][2] = {{1, 0}, {0, 1}, {0.5, -2}};
  // The caller changes the inputs after the forward half: the reverse must
  // read only its tape.
  in[0] = 100;
  in[1] = -100;
  in[2] = 7;
  for (const auto &s : seeds) {
    std::memset(din, 0, 3 * sizeof(double));
    dout[0] = s[0];
    dout[1] = s[1];
    reverse();
    double g[3];
    vjp(x0, s, g);
    for (int i = 0; i < 3; i++)
      check_close(what, din[i], g[i], TOL);
  }
}

static int small() {
  auto t = tapestry::thunk<two_outputs, tapestry::Reusable,
                           Duplicated<const double *>, Duplicated<double *>>();
  double in[3] = {0.3, 0.2, 1.5}, din[3] = {0}, out[2], dout[2] = {0};
  tapestry::TapeBuffer<8> buf;
  t.forward_in(buf, in, din, out, dout);
  std::puts("a tape fitted in 8 bytes");
  return 0;
}

static int misaligned() {
  auto t = tapestry::thunk<two_outputs, tapestry::Reusable,
                           Duplicated<const double *>, Duplicated<double *>>();
  double in[3] = {0.3, 0.2, 1.5}, din[3] = {0}, out[2], dout[2] = {0};
  tapestry::TapeBuffer<4096> buf;
  tapestry::TapeMemory m = buf;
  t.forward_in({static_cast<char *>(m.data) + 1, m.bytes - 1}, in, din, out,
               dout);
  std::puts("a misaligned tape was accepted");
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && !std::strcmp(argv[1], "small"))
    return small();
  if (argc > 1 && !std::strcmp(argv[1], "misaligned"))
    return misaligned();

  const double x0[3] = {0.3, 0.2, 1.5};
  auto t = tapestry::thunk<two_outputs, tapestry::Reusable,
                           Duplicated<const double *>, Duplicated<double *>>();
  check("a demanded reusable thunk is reusable", t.reusable());

  // Stack buffer, raw halves: forward_in, then reverse three times.
  {
    double in[3] = {x0[0], x0[1], x0[2]}, din[3], out[2], dout[2];
    tapestry::TapeBuffer<4096> buf;
    check("the tape fits the stack buffer", t.tape_bytes() <= buf.capacity());
    tapestry::Tape tape = t.forward_in(buf, in, din, out, dout).tape;
    check("the tape lives in the caller's buffer",
          tape.in_caller_memory() && tape.get() == buf.memory().data);
    check_close("primal out0", out[0], std::sin(x0[0]) * std::exp(x0[1]),
                TOL);
    check_close("primal out1",
                out[1], x0[2] * std::cos(x0[0]) + x0[1] * x0[1], TOL);
    check_replays("stack buffer: reverse", in, din, dout, x0,
                  [&] { t.reverse(in, din, out, dout, tape); });
  }

  // The caller's allocator, through a ReusablePullback used as a
  // std::function.
  {
    std::size_t bytes = (t.tape_bytes() + 63) / 64 * 64;
    void *mem = std::aligned_alloc(64, bytes);
    double in[3] = {x0[0], x0[1], x0[2]}, din[3], out[2], dout[2];
    {
      auto [pb] = t.pullback_in(tapestry::TapeMemory{mem, bytes}, in, din,
                                out, dout);
      std::function<std::tuple<>()> f = pb;
      check_replays("allocator: pullback", in, din, dout, x0, [&] { f(); });
    }
    std::free(mem); // the caller's to free, after the pullback is gone
  }

  // A one-shot pullback of a tape that owns heap memory: the Tape runs the
  // release, and the stack buffer is never freed.
  {
    auto s = tapestry::thunk<scratch, Duplicated<const double *>,
                             Duplicated<double *>, Const<int>>();
    check("scratch's tape owns its scratch and is reusable", s.reusable());
    double x[3] = {0.5, -1.0, 2.0}, dx[3] = {0}, y[3], dy[3] = {1, 1, 1};
    tapestry::TapeBuffer<4096> buf;
    auto [pb] = s.pullback_in(buf, x, dx, y, dy, 3);
    std::move(pb)();
    for (int i = 0; i < 3; i++)
      check_close("scratch: d(x^3)/dx", dx[i], 3 * x[i] * x[i], TOL);
  }
  return check_report();
}
