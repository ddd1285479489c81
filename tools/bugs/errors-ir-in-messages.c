/* Bad message: some errors quote LLVM IR (value names, types, metadata)
 * instead of describing the C source.
 *
 * Build: clang-19 -O0 -g -fpass-plugin=build/plugin/TapestryPlugin-19.so \
 *          -c tools/bugs/errors-ir-in-messages.c -o /dev/null
 *
 * Expected: C-level wording, stable across -O levels, e.g.
 *   g1: "... must be a function, e.g. (void *)f; got a pointer computed at
 *        run time (an integer cast to a pointer)"
 *   g2: "... got the value of the non-constant global 'fp'; declare it
 *        'double (*const fp)(double)' or pass the function directly"
 *   g3: "... got a function pointer parameter, not known at compile time"
 *   f:  "cannot differentiate 'f': a double is reinterpreted as a 64-bit
 *        integer here; derivatives cannot flow through bit manipulation"
 * Actual:
 *   g1: got '%6 = inttoptr i64 %5 to ptr, !dbg !23'
 *   g2: got '%3 = load ptr, ptr @fp, align 8, !dbg !23'
 *       (-O2: '..., !dbg !29, !tbaa !30')
 *   g3: got '%5 = load ptr, ptr %3, align 8, !dbg !24'
 *   f:  the instruction '%3 = bitcast double %2 to i64, !dbg !31'
 *       reinterprets an active floating-point value; ...
 * Cause: describe(const Value *) in plugin/Core/Diagnostics.cpp prints the
 * whole instruction (with its metadata) for anything that is not a named
 * global. Related, milder: types are printed as IR types ("(ptr)", "(i32)",
 * "{ double, double }") where C spellings would be clearer.
 * Tests: test/Errors/first-arg-runtime-pointer-message.c,
 * test/Errors/bitcast-message.c (XFAIL).
 */
#include <stdint.h>
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
double sq(double x) { return x * x; }
double g1(double x, long addr) {
  return __enzyme_autodiff((void *)addr, enzyme_out, x);
}
double (*fp)(double) = sq;
double g2(double x) { return __enzyme_autodiff((void *)fp, enzyme_out, x); }
double g3(double (*h)(double), double x) {
  return __enzyme_autodiff((void *)h, enzyme_out, x);
}
double f(double x) {
  union {
    double d;
    uint64_t u;
  } v;
  v.d = x * x;
  v.u ^= 0x8000000000000000ull;
  return v.d;
}
double g4(double x) { return __enzyme_autodiff((void *)f, enzyme_out, x); }
