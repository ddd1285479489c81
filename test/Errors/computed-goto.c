// A bytecode interpreter written with computed gotos (goto *table[op],
// labels' addresses &&label): the derivative's copy of the function jumped
// to the original function's labels and crashed at run time, in forward
// and reverse mode (probe25b C1). Now an error saying to write the jumps as
// a switch.
// RUN: not %clang -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -c %s -o /dev/null -DFORWARD 2>&1 | FileCheck %s
// CHECK: error: tapestry: cannot differentiate 'run': a computed goto (goto *p, with label addresses &&label) cannot be differentiated: the derivative has its own copies of the function's labels; write the jumps as a switch
extern int enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double run(double x, const unsigned char *code) {
  static void *table[] = {&&add, &&mul, &&halt};
  double acc = x;
  const unsigned char *pc = code;
  goto *table[*pc++];
add:
  acc += x;
  goto *table[*pc++];
mul:
  acc *= x;
  goto *table[*pc++];
halt:
  return acc;
}

double d(double x, const unsigned char *code) {
#ifdef FORWARD
  return __enzyme_fwddiff((void *)run, x, 1.0, enzyme_const, code);
#else
  return __enzyme_autodiff((void *)run, x, enzyme_const, code);
#endif
}
