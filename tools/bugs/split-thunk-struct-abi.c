// Bug: the reverse function of a thunk (__tapestry_thunk(...)->reverse)
// returns several enzyme_out adjoints as an LLVM literal struct in
// registers, not in the C ABI shape of the struct that thunk.h tells callers
// to declare ("returns the adjoints of the enzyme_out arguments (one value,
// or a struct of them in argument order)").  Calling it through a C function
// pointer returning that struct therefore reads the wrong registers or
// passes a hidden sret pointer the reverse does not expect:
//
//   * {float, float}: C returns both floats packed in xmm0 (<2 x float>);
//     the reverse returns them in xmm0 and xmm1, so the caller sees the
//     first adjoint and garbage for the second (0 at -O0, 2.25 at -O2).
//   * {double, double, double}: C returns it in memory (hidden sret pointer
//     in rdi, arguments shift by one), so the reverse reads the sret
//     pointer as its tape and stops with "the tape passed to the reverse of
//     'f3' was not filled by its __enzyme_augmentfwd".
//
// __enzyme_reverse with the same declared struct is correct (the plugin
// adapts its call site to the declared type, deliverResults), so only the
// thunk's function pointer is affected; {double, double} and a single
// scalar happen to match the C ABI.  The fix is presumably to point the
// thunk at a reverse (or a wrapper) with the C ABI return of that struct,
// or to document and ship a different calling convention.
//
// Found by the split-mode fuzzer (tools/fuzz, feature `split`, "thunk" path):
// 125 of 600 programs of `run_campaign.py --seeds 1-600 --features
// scalar,branches,floats,api,loops,arrays,calls,recursion,structs,malloc,split`
// failed, all of them here: 122 aborts or segfaults (3 or 4 adjoints) and 3
// wrong adjoints ({float, float}, {float, float, float}, {double, float,
// float}). The reducer shrinks them to `double f(float x0, float x1, double
// x2) { return x0; }` (thunk: dx1 = 1.875 instead of 0) and `double
// f(double x0, double x1, double x2, double x3) { return 1.0; }` (abort).
// Campaigns can step around it with the opt-in feature `nostructthunk`.
//
// Expected: f2 thunk: 4 6 / f3 thunk: 18 13.5 18 (like __enzyme_reverse)
// Actual:   f2 thunk: 4 0 (-O0) or 4 2.25 (-O2) / f3: the abort above
//
// clang-19 -O0 -fpass-plugin=build/plugin/TapestryPlugin-19.so \
//     tools/bugs/split-thunk-struct-abi.c -o t -lm && ./t
#include <stdio.h>
#include <stdlib.h>

extern int enzyme_out;
typedef struct {
  void *augmented, *reverse, *release;
  unsigned long long tape_bytes;
  int reusable;
} tapestry_thunk; /* as in include/tapestry/thunk.h */
const tapestry_thunk *__tapestry_thunk(void *, ...);
typedef struct { void *tape; double p; } aug;
aug __enzyme_augmentfwd(void *, ...);

typedef struct { float a, b; } FF;
typedef struct { double a, b, c; } DDD;
FF __enzyme_reverse_ff(void *, ...);
DDD __enzyme_reverse_ddd(void *, ...);

double f2(float x, float y) { return (double)x * y * y; }
double f3(double x, double y, double z) { return x * y * z * z; }

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  /* entry points: correct */
  aug s = __enzyme_augmentfwd((void *)f2, enzyme_out, 1.5f, enzyme_out, 2.0f);
  FF e = __enzyme_reverse_ff((void *)f2, enzyme_out, 1.5f, enzyme_out, 2.0f,
                             1.0, s.tape);
  printf("f2 __enzyme_reverse: %g %g (want 4 6)\n", e.a, e.b);

  /* thunk: second float adjoint lost */
  const tapestry_thunk *t =
      __tapestry_thunk((void *)f2, enzyme_out, enzyme_out);
  void *tape = calloc(1, t->tape_bytes ? t->tape_bytes : 1);
  ((double (*)(float, float, void *))t->augmented)(1.5f, 2.0f, tape);
  FF g = ((FF(*)(float, float, double, void *))t->reverse)(1.5f, 2.0f, 1.0,
                                                           tape);
  printf("f2 thunk: %g %g (want 4 6)\n", g.a, g.b);
  ((void (*)(void *))t->release)(tape);
  free(tape);

  /* thunk: three doubles go through sret memory in C: abort */
  t = __tapestry_thunk((void *)f3, enzyme_out, enzyme_out, enzyme_out);
  tape = calloc(1, t->tape_bytes ? t->tape_bytes : 1);
  ((double (*)(double, double, double, void *))t->augmented)(1.5, 2.0, 3.0,
                                                             tape);
  DDD h = ((DDD(*)(double, double, double, double, void *))t->reverse)(
      1.5, 2.0, 3.0, 1.0, tape);
  printf("f3 thunk: %g %g %g (want 18 13.5 18)\n", h.a, h.b, h.c);
  ((void (*)(void *))t->release)(tape);
  free(tape);
  return 0;
}
