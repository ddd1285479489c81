// A function returning a struct the C ABI returns in memory (a 24-byte
// Vec3) takes that memory as its first IR parameter (sret). Called with only
// the source's arguments, the request lines up a double with it; the error
// names the result (its source type with -g), not the first source
// parameter ('r' before), and says what to pass first. In reverse mode the same for enzyme_out on it.
// RUN: not %clang -O0 -g -c %s -o /dev/null -DFORWARD 2>&1 | FileCheck %s --check-prefixes=FWD,FWD-G
// RUN: not %clang -O2 -c %s -o /dev/null -DFORWARD 2>&1 | FileCheck %s --check-prefixes=FWD,FWD-NOG
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REV
// RUN: not %clang -O2 -g -c %s -o /dev/null -DPOINTER_FIRST 2>&1 | FileCheck %s --check-prefix=PTR
// FWD-NOT: PLEASE submit a bug report
// REV-NOT: PLEASE submit a bug report
// PTR-NOT: PLEASE submit a bug report
#include <math.h>
typedef struct {
  double x, y, z;
} Vec3;
extern int enzyme_out;
double __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);

Vec3 spherical(double r, double th, double ph) {
  Vec3 p = {r * sin(th) * cos(ph), r * sin(th) * sin(ph), r * cos(th)};
  return p;
}

#ifdef POINTER_FIRST
// The first source parameter a pointer: it lines up with the result's
// memory, so the request runs out of values one early; the error says
// why the count is one more than the source shows (probe28).
Vec3 observe(const double *s) {
  Vec3 o = {s[0] * s[1], s[2], s[1] * s[1]};
  return o;
}
extern int enzyme_dup;
void gradient(double *s, double *ds) {
  // PTR: sret-result-first.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: too few arguments: 'observe' takes 2 parameters but the call to __enzyme_autodiff ends before the value of parameter 2; its result is a struct returned in memory, whose object is its first parameter: pass a result object and its shadow first, as enzyme_dup, &out, &dout in reverse mode or enzyme_dupnoneed, &out, &dout in forward mode, then the arguments
  __enzyme_autodiff((void *)observe, enzyme_dup, s, ds);
}
#elif defined(FORWARD)
double tangent(double r, double th, double ph) {
  // FWD-G: sret-result-first.c:[[@LINE+2]]:{{[0-9]+}}: error: tapestry: the value passed for the Vec3 result of 'spherical' (which the C ABI returns in memory the caller passes first) has type double, not the parameter's type (pass a result object and its shadow first, as enzyme_dupnoneed, &out, &dout in forward mode or enzyme_dup, &out, &dout in reverse mode, then the arguments)
  // FWD-NOG: sret-result-first.c:{{[0-9]+}}:{{[0-9]+}}: error: tapestry: the value passed for the struct result of 'spherical' (which the C ABI returns in memory the caller passes first) has type double, not the parameter's type (pass a result object and its shadow first, as enzyme_dupnoneed, &out, &dout in forward mode or enzyme_dup, &out, &dout in reverse mode, then the arguments)
  return __enzyme_fwddiff((void *)spherical, r, 0.0, th, 1.0, ph, 0.0);
}
#else
void gradient(double r, double th, double ph) {
  // REV: sret-result-first.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: enzyme_out marks an active floating-point value, but the Vec3 result of 'spherical' (which the C ABI returns in memory the caller passes first) (pass a result object and its shadow first, as enzyme_dup or, in forward mode, enzyme_dupnoneed, or return a floating-point value) is not one; use enzyme_dup with a shadow for pointers or enzyme_const
  __enzyme_autodiff((void *)spherical, enzyme_out, r, enzyme_out, th,
                    enzyme_out, ph);
}
#endif
