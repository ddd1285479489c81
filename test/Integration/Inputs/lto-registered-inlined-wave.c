/* The other unit of lto-registered-inlined-at-compile.c: a function with a
 * registered derivative (a step with a smooth registered derivative) and
 * the function differentiated in main's unit, which calls it. */
#include <math.h>
double step(double x) { return x > 0 ? 1.0 : 0.0; }
double step_aug(double x) { return step(x); }
double step_rev(double x, double d) { return d * exp(-x * x); }
__attribute__((used)) void *__enzyme_register_gradient_step[3] = {
    (void *)step, (void *)step_aug, (void *)step_rev};
double wave(double x) { return 3 * step(x) + sin(x); }
