// Byte and text comparison, search and copy functions (memcmp, bcmp,
// memchr, strchr, strstr, strcpy, ...) inside a differentiated function,
// on memory that has shadows: parameters looked up by name in a table
// passed enzyme_dup. They carry no derivative: integers, pointers into the
// text, characters. Each was "no derivative is known for external function"
// (bcmp is what clang makes of a memcmp compared with zero; std::string's
// == and std::map's string keys become memcmp/bcmp once optimised).
// f(p, x) = alpha x^2 + beta x + gamma (names found four different ways),
// so df/dalpha = x^2, df/dbeta = x, df/dgamma = 1, df/dx = 2 alpha x + beta.
// RUN: %clang -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);

struct param {
  char name[16];
  double value;
};

static double find(const struct param *p, int n, const char *key) {
  for (int i = 0; i < n; ++i)
    if (memcmp(p[i].name, key, strlen(key) + 1) == 0)
      return p[i].value;
  return 0;
}

double model(const struct param *p, int n, double x) {
  double alpha = find(p, n, "alpha");
  double beta = 0, gamma = 0;
  char label[16];
  for (int i = 0; i < n; ++i) {
    if (memchr(p[i].name, 'b', 1) && strstr(p[i].name, "eta"))
      beta = p[i].value;
    strcpy(label, p[i].name);
    if (strchr(label, 'g') == label && strncmp(label, "gamma", 5) == 0)
      gamma = p[i].value;
  }
  return alpha * x * x + beta * x + gamma;
}

int main(void) {
  struct param p[3] = {{"gamma", 0.25}, {"beta", -1.5}, {"alpha", 2.0}};
  struct param dp[3];
  memcpy(dp, p, sizeof p);
  for (int i = 0; i < 3; ++i)
    dp[i].value = 0;
  double x = 1.75;
  double dx = __enzyme_autodiff((void *)model, enzyme_dup, p, dp,
                                enzyme_const, 3, enzyme_out, x);
  check_close("d/dgamma", dp[0].value, 1.0, 1e-14);
  check_close("d/dbeta", dp[1].value, x, 1e-14);
  check_close("d/dalpha", dp[2].value, x * x, 1e-14);
  check_close("d/dx", dx, 2 * 2.0 * x - 1.5, 1e-14);
  return check_report();
}
