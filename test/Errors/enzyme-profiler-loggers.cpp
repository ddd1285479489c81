// A program written for Enzyme built with its floating-point profiler
// defines enzymeLogGrad (or enzymeLogValue) and counts Enzyme's calls of
// it, one per operation of a reverse-mode derivative (Enzyme's
// ReverseMode/logger.cpp). Tapestry does not call it: the program was
// compiled and its count silently stayed 0 (found by running Enzyme's own
// tests, probe35b). Now an error at the request, naming the logger; forward
// mode (where Enzyme does not call it) is left alone.
// RUN: not %clangxx_fplugin -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s -DLOGGER=enzymeLogGrad
// RUN: not %clangxx_fplugin -O2 -g -c %s -o /dev/null -DVALUE 2>&1 | FileCheck %s -DLOGGER=enzymeLogValue
// RUN: %clangxx_fplugin -O1 -c %s -o /dev/null -DFORWARD_ONLY
// CHECK-NOT: PLEASE submit a bug report
#include <cstdio>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

int logCount = 0;

#ifdef VALUE
extern "C" void enzymeLogValue(const char *id, double res, unsigned n,
                               double *operands) {
  ++logCount;
  std::printf("%s %g %u %p\n", id, res, n, (void *)operands);
}
#else
void enzymeLogGrad(double grad, const char *opcodeName,
                   const char *calleeName, const char *moduleName,
                   const char *functionName, unsigned blockIdx,
                   unsigned instIdx) {
  ++logCount;
  std::printf("%e %s %s %s %s %u %u\n", grad, opcodeName, calleeName,
              moduleName, functionName, blockIdx, instIdx);
}
#endif

double fun(double x) {
  double v1 = x * 3;
  double v2 = 1 - v1;
  double v3 = x * x;
  return v3 + v2 / v3;
}

double derivative(double x) {
#ifdef FORWARD_ONLY
  return __enzyme_fwddiff((void *)fun, x, 1.0);
#else
  // CHECK: enzyme-profiler-loggers.cpp:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: this program defines [[LOGGER]], a per-operation logger that Enzyme built with its floating-point profiler calls in reverse-mode derivatives; Tapestry does not call it (the derivative is the same): remove or rename [[LOGGER]]
  return __enzyme_autodiff((void *)fun, x);
#endif
}
// CHECK-NOT: error:
