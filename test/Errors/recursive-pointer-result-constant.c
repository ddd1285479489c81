// A recursive function returning a pointer into constant data (a static
// table found by bisection) whose value the caller reads: the caller
// needs the pointer's shadow, and the table has none. An error at the
// return, in the callee, naming it (not a wrong number, not a crash).
// RUN: not %clang_fplugin -O0 %s -lm -o %t 2>&1 | FileCheck %s
// RUN: not %clang_fplugin -O2 %s -lm -o %t 2>&1 | FileCheck %s
// CHECK: recursive-pointer-result-constant.c:[[#@LINE+13]]:{{[0-9]+}}: error: tapestry: cannot differentiate {{.*}}: 'bisect' stays a call (it is recursive) and returns a pointer whose shadow its caller needs, but what it returns here has none (constant data, a global, or a parameter passed without a shadow); return memory the function allocates or reaches through its arguments
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);

static const double knots[8] = {0, 0.5, 1, 2, 4, 8, 16, 32};

/* The last knot not above t in knots[lo..hi). */
__attribute__((noinline)) static const double *bisect(double t, int lo,
                                                       int hi) {
  if (hi - lo <= 1)
    return &knots[lo];
  int mid = (lo + hi) / 2;
  return t < knots[mid] ? bisect(t, lo, mid) : bisect(t, mid, hi);
}

double scaled(double t) { return t * *bisect(t, 0, 8); }

int main(void) {
  return __enzyme_autodiff((void *)scaled, enzyme_out, 3.0) > 0;
}
