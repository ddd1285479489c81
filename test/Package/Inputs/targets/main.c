#include <math.h>
#include <stdio.h>
#include <tapestry/enzyme.h>

double wave(double x, double y); /* in wave.c */

int main(void) {
  double x = 0.7, y = 2.0;
  double d = __enzyme_autodiff((void *)wave, enzyme_out, x, enzyme_const, y);
  double want = y * cos(x * y);
  printf("%s LTO\n", fabs(d - want) < 1e-14 ? "OK" : "WRONG");
  return fabs(d - want) >= 1e-14;
}
