// A marker that does not fit its parameter names the parameter in source
// terms: with -g its name and declared type (a struct pointer, a const
// pointer), without debug information its position and the IR's type.
// RUN: not %clang -g -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEBUG
// RUN: not %clang -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAIN
extern int enzyme_out, enzyme_const;
double __enzyme_autodiff(void *, ...);
struct Body {
  double m, v;
};
double energy(const struct Body *b, const double *scale, int n) {
  return 0.5 * b->m * b->v * b->v * scale[0] * n;
}
double g(struct Body *b, double *s) {
  // DEBUG: marker-param-source-terms.c:[[@LINE+2]]:{{[0-9]+}}: error: tapestry: enzyme_out marks an active floating-point value, but parameter 1 'b' of 'energy' (const struct Body *) is not one
  // PLAIN: error: tapestry: enzyme_out marks an active floating-point value, but parameter 1 of 'energy' (pointer) is not one
  return __enzyme_autodiff((void *)energy, enzyme_out, b, enzyme_const, s,
                           enzyme_const, 2);
}
