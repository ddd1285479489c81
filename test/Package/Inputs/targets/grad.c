#include <math.h>
#include <stdio.h>
#include <tapestry/tapestry.h>

double f(double x) { return x * sin(x); }

int main(void) {
  double x = 0.5;
  double d = __enzyme_autodiff((void *)f, enzyme_out, x);
  double want = sin(x) + x * cos(x);
  printf("%s C %s\n", fabs(d - want) < 1e-12 ? "OK" : "WRONG",
         tapestry_version());
  return fabs(d - want) >= 1e-12;
}
