/* Misplaced diagnostic: an error about a malformed registration global is
 * reported at the first function defined in the file, which has nothing to
 * do with the registration.
 *
 * Build: clang-19 -O0 -g -fpass-plugin=build/plugin/TapestryPlugin-19.so \
 *          -c tools/bugs/registration-error-location.c -o /dev/null
 *
 * Expected: the error at the registration, line 25 (with -g the global has
 *   a DIGlobalVariable with its line; without -g at least not at an
 *   unrelated function: e.g. at the registered function 'k' or at the use):
 *   registration-error-location.c:25:7: error: tapestry: in
 *   '__enzyme_register_gradient_k': a gradient registration must be
 *   {(void *)f, (void *)aug, (void *)rev}
 * Actual (-O0 and -O2, with or without -g):
 *   registration-error-location.c:22:8: error: tapestry: in
 *   '__enzyme_register_gradient_k': ...
 *   i.e. at 'unrelated', the first function of the module.
 * Test: test/Errors/custom-registration-location.c (XFAIL).
 */
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
double unrelated(double x) { return x + 1; }
__attribute__((noinline)) double k(double x) { return x * x; }
double k_aug(double x) { return k(x); }
void *__enzyme_register_gradient_k[2] = {(void *)k, (void *)k_aug};
double use_k(double x) { return k(x) + 1; }
double gk(double x) { return __enzyme_autodiff((void *)use_k, enzyme_out, x); }
