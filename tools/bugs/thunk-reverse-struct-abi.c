/* Wrong results / abort: a thunk's reverse returning several adjoints does
 * not follow the C ABI that <tapestry/thunk.h> documents ("returns the
 * adjoints of the enzyme_out arguments (one value, or a struct of them in
 * argument order)").
 *
 * Build: clang-19 -O0 -I include -fpass-plugin=build/plugin/TapestryPlugin-19.so \
 *          tools/bugs/thunk-reverse-struct-abi.c -o /tmp/a.out && /tmp/a.out
 *        (same at -O2)
 *
 * Expected: "ff 12 12 4" and "ddd 24 12 8 6".
 * Actual:   "ff 12 12 0" (the second float adjoint is lost), then
 *           "tapestry: the tape passed to the reverse of 'f3' was not filled
 *           by its __enzyme_augmentfwd ..." and abort.
 *
 * Cause: the reverse (TapeSplitter::buildReverse) returns the one-shot
 * gradient's IR return type, a literal struct ({float, float},
 * {double, double, double}), which LLVM returns in XMM0..XMM2. The C ABI
 * returns struct { float a, b; } packed in XMM0 (<2 x float>) and a struct
 * of three doubles in memory through a hidden sret pointer in %rdi, so the
 * caller's tape pointer arrives in the wrong register. Two doubles, and a
 * float with a double, happen to agree. __enzyme_autodiff / __enzyme_reverse
 * are fine (the plugin rewrites their call sites). Fix: give the thunk's
 * reverse (a wrapper around it) the C ABI of the struct of the adjoints, as
 * clang would lower it, or return them through an out-pointer.
 * <tapestry/split.hpp> rejects these shapes at compile time meanwhile.
 */
#include <stdio.h>
#include <tapestry/thunk.h>
extern int enzyme_out;
float ff(float a, float b) { return a * a * b; }
double f3(double a, double b, double c) { return a * b * c; }
typedef struct { float a, b; } rff;
typedef struct { double a, b, c; } r3;
int main(void) {
  const tapestry_thunk *t = __tapestry_thunk((void *)ff, enzyme_out, enzyme_out);
  void *tape = tapestry_tape_new(t);
  float y = ((float (*)(float, float, void *))t->augmented)(2, 3, tape);
  rff q = ((rff(*)(float, float, float, void *))t->reverse)(2, 3, 1.0f, tape);
  printf("ff %g %g %g\n", y, q.a, q.b);
  fflush(stdout);
  tapestry_tape_delete(t, tape);

  const tapestry_thunk *t3 =
      __tapestry_thunk((void *)f3, enzyme_out, enzyme_out, enzyme_out);
  tape = tapestry_tape_new(t3);
  double z = ((double (*)(double, double, double, void *))t3->augmented)(
      2, 3, 4, tape);
  r3 r = ((r3(*)(double, double, double, double, void *))t3->reverse)(
      2, 3, 4, 1.0, tape);
  printf("ddd %g %g %g %g\n", z, r.a, r.b, r.c);
  tapestry_tape_delete(t3, tape);
  return 0;
}
