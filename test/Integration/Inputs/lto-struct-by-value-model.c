/* The model of lto-struct-by-value.c, in its own file: functions taking
 * small structs by value, which the C ABI passes as two values each. */
#include <complex.h>
#include <math.h>

typedef struct {
  double x, y;
} V2;

typedef struct {
  double x;
  float y;
} Mixed;

double quadratic(V2 v) { return v.x * v.x + 3 * v.y; }

double mixed(Mixed m) { return m.x * m.y + sin(m.x); }

double impedance(double complex z) {
  return creal(csqrt(z)) + 3 * cimag(z);
}
