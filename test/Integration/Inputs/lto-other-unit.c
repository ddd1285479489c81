/* The second translation unit of test/Integration/lto-two-units.c. */
#include <math.h>

double wave(double x, double y) { return sin(x * y); }

/* Writes through a pointer and loops: reverse mode needs its memory. */
void smooth(double *u, int n, double c) {
  for (int i = 1; i < n; i++)
    u[i] += c * u[i - 1] * u[i - 1];
}
