// The other unit of lto-registrations-other-unit.c: a lookup-table sine
// (piecewise constant: its body's derivative is zero) with registered
// derivatives, and a step-size heuristic declared inactive. Nothing in
// this file refers to the registrations.
#include <math.h>

static double table[4096];
static int ready;

double table_sin(double x) {
  if (!ready) {
    for (int i = 0; i < 4096; i++)
      table[i] = sin(i * (2 * M_PI / 4096));
    ready = 1;
  }
  int k = (int)floor(x * (4096 / (2 * M_PI)));
  return table[((k % 4096) + 4096) % 4096];
}

double table_sin_fwd(double x, double dx) { return cos(x) * dx; }
double table_sin_aug(double x) { return table_sin(x); }
double table_sin_rev(double x, double d) { return cos(x) * d; }
void *__enzyme_register_derivative_table_sin[2] = {(void *)table_sin,
                                                    (void *)table_sin_fwd};
void *__enzyme_register_gradient_table_sin[3] = {
    (void *)table_sin, (void *)table_sin_aug, (void *)table_sin_rev};

double step_size(double x) { return 0.1 * x * x; }
void *__enzyme_inactivefn[] = {(void *)step_size};
