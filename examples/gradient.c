/* The README's example: the gradient of f(x, y) = sin(x*y) + exp(x)/y by
 * reverse mode and a directional derivative by forward mode, each printed
 * beside a central finite-difference check. Written exactly as an Enzyme
 * user writes it: the markers and entry points are declared here. */
#include <math.h>
#include <stdio.h>

extern int enzyme_out, enzyme_dup, enzyme_const;
typedef struct {
  double dx, dy;
} Gradient;
Gradient __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double f(double x, double y) { return sin(x * y) + exp(x) / y; }

int main(void) {
  double x = 0.7, y = 1.3, h = 1e-6;
  Gradient g = __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_out, y);
  double fdx = (f(x + h, y) - f(x - h, y)) / (2 * h);
  double fdy = (f(x, y + h) - f(x, y - h)) / (2 * h);
  printf("reverse: df/dx = %.12f   finite difference %.12f\n", g.dx, fdx);
  printf("reverse: df/dy = %.12f   finite difference %.12f\n", g.dy, fdy);
  /* Forward mode: the derivative along the direction (1, 2). */
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0, enzyme_dup, y, 2.0);
  printf("forward: df.(1,2) = %.12f finite difference %.12f\n", t,
         fdx + 2 * fdy);
  int ok = fabs(g.dx - fdx) < 1e-6 && fabs(g.dy - fdy) < 1e-6 &&
           fabs(t - (fdx + 2 * fdy)) < 1e-6;
  printf("%s\n", ok ? "OK: derivatives match finite differences"
                    : "MISMATCH");
  return ok ? 0 : 1;
}
