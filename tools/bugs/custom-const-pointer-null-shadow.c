/* Crash (undocumented convention): when a function with a registered
 * gradient/derivative is called with a pointer argument that is CONSTANT at
 * that call (here a static const table), the rules receive a NULL shadow for
 * it, silently. A rule written to the documented convention ("aug takes f's
 * arguments, each pointer followed by its shadow"; "fwd takes every
 * floating-point or pointer argument followed by its tangent or shadow",
 * README) dereferences it and segfaults.
 *
 * Build: clang-19 -O0 -fpass-plugin=build/plugin/TapestryPlugin-19.so \
 *          tools/bugs/custom-const-pointer-null-shadow.c -lm -o /tmp/a.out
 *        && /tmp/a.out          (same at -O2)
 *
 * Expected: one of (a) a defined and documented convention that rules can
 *   rely on (e.g. README/API.md: "the shadow of an argument that is
 *   constant at the call is NULL; a rule must check it"), ideally with a
 *   compile-time note when a rule is used with a constant pointer argument;
 *   (b) a zero-filled scratch shadow where the size is known; or (c) a
 *   compile-time error naming the argument. (What Enzyme does here should
 *   be checked and followed.) Output would then be
 *     db = 1 3.2 0.5 want 1 3.2 0.5
 *     fwd 3.2 want 3.2
 * Actual: wmul_rev(a=K, da=0x0, ...) -> SIGSEGV at 'da[i] += ...'
 *   (the IR passes 'ptr null' as the shadow of @K to wmul_aug and wmul_rev;
 *   forward mode passes null to wmul_fwd too). Rules that test for NULL
 *   (if (da) ...) get the right numbers.
 */
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) void wmul(const double *a, const double *b,
                                    double *x, int n) {
  for (int i = 0; i < n; i++)
    x[i] = a[i] * b[i];
}
void *wmul_aug(const double *a, const double *da, const double *b,
               const double *db, double *x, double *dx, int n) {
  (void)da;
  (void)db;
  (void)dx;
  wmul(a, b, x, n);
  return 0;
}
void wmul_rev(const double *a, double *da, const double *b, double *db,
              double *x, double *dx, int n, void *tape) {
  (void)x;
  (void)tape;
  for (int i = 0; i < n; i++) {
    da[i] += b[i] * dx[i]; /* da is NULL when a is constant */
    db[i] += a[i] * dx[i];
    dx[i] = 0;
  }
}
void wmul_fwd(const double *a, const double *da, const double *b,
              const double *db, double *x, double *dx, int n) {
  for (int i = 0; i < n; i++) {
    x[i] = a[i] * b[i];
    dx[i] = da[i] * b[i] + a[i] * db[i];
  }
}
void *__enzyme_register_gradient_wmul[3] = {(void *)wmul, (void *)wmul_aug,
                                            (void *)wmul_rev};
void *__enzyme_register_derivative_wmul[2] = {(void *)wmul, (void *)wmul_fwd};

static const double K[3] = {1.0, -2.0, 0.5};
double loss(const double *b) {
  double x[3];
  wmul(K, b, x, 3);
  return x[0] + x[1] * x[1] + x[2];
}
int main(void) {
  double b[3] = {0.3, 0.4, 0.5}, db[3] = {0};
  __enzyme_autodiff((void *)loss, enzyme_dup, b, db);
  printf("db = %g %g %g want %g %g %g\n", db[0], db[1], db[2], K[0],
         2 * K[1] * K[1] * b[1], K[2]);
  double tb[3] = {0, 1, 0};
  printf("fwd %g want %g\n", __enzyme_fwddiff((void *)loss, enzyme_dup, b, tb),
         2 * K[1] * K[1] * b[1]);
  return 0;
}
