// Tapestry's __enzyme_fwdsplit runs the primal again for the tangent
// (Enzyme reads the values from the tape). Where that could compute other
// values than the first run, or the values are not passed (Enzyme lets the
// primal pointers be null), it is an error at the call, not a wrong tangent.
// RUN: not %clang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
extern int enzyme_dup, enzyme_const;
void *__enzyme_augmentfwd(void *, ...);
typedef struct {
  void *tape;
  double primal;
} aug_d;
aug_d __enzyme_augmentfwd_d(void *, ...);
void __enzyme_fwdsplit(void *, ...);

/* In place: a second run squares the squares. */
void square_in_place(double *x, int n) {
  for (int i = 0; i < n; ++i)
    x[i] = x[i] * x[i];
}

void scale(const double *x, double *y, int n) {
  for (int i = 0; i < n; ++i)
    y[i] = 3 * x[i];
}

int counter;
double counted(double x) { return x * ++counter; }

void in_place(double *x, double *dx) {
  void *t = __enzyme_augmentfwd((void *)square_in_place, x, dx, enzyme_const, 4);
  // CHECK-DAG: fwdsplit-rerun.c:[[@LINE+1]]:3: error: tapestry: Tapestry's __enzyme_fwdsplit computes the tangent by running 'square_in_place' again (Enzyme reads the values from the tape instead), and a second run could compute other values: it reads memory it also writes (parameter 1 'x'); use __enzyme_fwddiff, which runs the primal once
  __enzyme_fwdsplit((void *)square_in_place, x, dx, enzyme_const, 4, t);
}

void aliased(double *x, double *dx) {
  void *t = __enzyme_augmentfwd((void *)scale, x, dx, x, dx, enzyme_const, 4);
  // CHECK-DAG: fwdsplit-rerun.c:[[@LINE+1]]:3: error: tapestry: {{.*}} a second run could compute other values: the call passes the same memory as parameter 2 'y', which it writes, and parameter 1 'x', which it reads; use __enzyme_fwddiff
  __enzyme_fwdsplit((void *)scale, x, dx, x, dx, enzyme_const, 4, t);
}

void global_state(double x) {
  void *t = __enzyme_augmentfwd_d((void *)counted, x).tape;
  // CHECK-DAG: fwdsplit-rerun.c:[[@LINE+1]]:3: error: tapestry: {{.*}} it reads memory it also writes (the global 'counter')
  __enzyme_fwdsplit((void *)counted, x, 1.0, t);
}

void null_values(double *x, double *dx, double *y, double *dy) {
  void *t = __enzyme_augmentfwd((void *)scale, x, (double *)0, y, (double *)0,
                                enzyme_const, 4);
  // CHECK-DAG: fwdsplit-rerun.c:[[@LINE+1]]:3: error: tapestry: {{.*}} so it needs the values of the arguments, but the value of parameter 1 is a null pointer; pass the same values as to __enzyme_augmentfwd
  __enzyme_fwdsplit((void *)scale, (double *)0, dx, (double *)0, dy,
                    enzyme_const, 4, t);
}
// CHECK-NOT: PLEASE submit a bug report
