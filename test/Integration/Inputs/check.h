/* Helpers for end-to-end tests: compare a derivative with its expected value
 * (from an analytic formula or a central finite difference) and count
 * failures. A test's main() ends with `return check_report();`. */
#ifndef TAPESTRY_TEST_CHECK_H
#define TAPESTRY_TEST_CHECK_H

#include <math.h>
#include <stdio.h>

/* A NaN must fail even where the test is compiled with -ffast-math, which
 * lets the compiler assume no value is NaN or infinite: the comparisons
 * below are compiled with precise floating-point semantics. */
#ifdef __clang__
#pragma float_control(precise, on, push)
#endif

static int check_failures = 0;

/* |got - want| <= tol * (1 + |want|) */
static void check_close(const char *what, double got, double want,
                        double tol) {
  int ok = !isnan(got) && fabs(got - want) <= tol * (1.0 + fabs(want));
  if (!ok)
    check_failures++;
  printf("%s %s: got %.15g want %.15g\n", ok ? "PASS" : "FAIL", what, got,
         want);
}

static int check_report(void) {
  printf("%s: %d failure(s)\n", check_failures ? "FAILED" : "ALL PASSED",
         check_failures);
  return check_failures != 0;
}

#ifdef __clang__
#pragma float_control(pop)
#endif

/* Central finite difference of a function of one double. */
#define CENTRAL_DIFF(expr_of_t, x0, h)                                         \
  ({                                                                           \
    double t_ = (x0) + (h);                                                    \
    double fp_ = (expr_of_t);                                                  \
    t_ = (x0) - (h);                                                           \
    double fm_ = (expr_of_t);                                                  \
    (fp_ - fm_) / (2 * (h));                                                   \
  })

#endif
