/* Bad message: some errors describe LLVM IR (opcodes, IR types) instead of
 * the C source.
 *
 * Build: clang-19 -O0 -g -fpass-plugin=build/plugin/TapestryPlugin-19.so \
 *          -c tools/bugs/errors-ir-in-messages.c -o /dev/null
 *
 * History: until 04e4127 describe(const Value *) in
 * plugin/Core/Diagnostics.cpp printed the whole instruction, value names and
 * metadata included ('%6 = inttoptr i64 %5 to ptr, !dbg !23'), different at
 * each -O level. That part is fixed; it now prints a short description of
 * the instruction, which is stable across -O levels but still IR:
 *
 * Expected: C-level wording, e.g.
 *   g1: "... must be a function, e.g. (void *)f; got a pointer computed at
 *        run time (an integer cast to a pointer)"
 *   g2: "... got the value of the non-constant global 'fp'; declare it
 *        'double (*const fp)(double)' or pass the function directly"
 *   g3: "... got a function pointer parameter, not known at compile time"
 *   f:  "cannot differentiate 'f': a double is reinterpreted as a 64-bit
 *        integer here; derivatives cannot flow through bit manipulation"
 *   r4, rl, ri: "declared to return struct D4 / long / int, which ..."
 * Actual (-O0 -g):
 *   g1: got 'a inttoptr from i64 to ptr at tools/bugs/errors-ir-in-messages.c:49'
 *   g2: got 'a load producing ptr at tools/bugs/errors-ir-in-messages.c:52'
 *       (the global 'fp' is not named)
 *   g3: got 'a load producing ptr at tools/bugs/errors-ir-in-messages.c:54'
 *       (-O0 loads the parameter from its alloca; the user passed a
 *       parameter, not a load)
 *   f:  the instruction 'a bitcast from double to i64 at
 *       tools/bugs/errors-ir-in-messages.c:62' reinterprets an active
 *       floating-point value; ...
 *   r4: declared to return %struct.D4 = type { double, double, double,
 *       double }, which does not match its 3 result(s) ...
 *   rl: declared to return i64, ...   ri: declared to return i32, ...
 * The "at FILE:LINE" inside the quotes repeats the diagnostic's own location
 * (without -g it is left out). The struct type is printed with
 * Type::print's full definition ("%struct.D4 = type ..."); struct types
 * returned in registers print as literal structs ("{ double, double }"),
 * which reads acceptably. With -g the C types are in the debug info
 * (DISubprogram of the caller / DIDerivedType of the declared return type).
 * Tests: test/Errors/first-arg-runtime-pointer-message.c,
 * test/Errors/bitcast-message.c, test/Errors/return-type-spelling.c (XFAIL).
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
typedef struct { double a, b, c, d; } D4;
D4 __enzyme_autodiff_d4(void *, ...);
long __enzyme_autodiff_l(void *, ...);
int __enzyme_autodiff_i(void *, ...);
double f3(double x, double y, double z) { return x * y * z; }
D4 r4(double x) {
  return __enzyme_autodiff_d4((void *)f3, enzyme_out, x, enzyme_out, x,
                              enzyme_out, x);
}
long rl(double x) { return __enzyme_autodiff_l((void *)sq, enzyme_out, x); }
int ri(double x) { return __enzyme_autodiff_i((void *)sq, enzyme_out, x); }
