// Malformed __enzyme_allocation_like registrations are errors at the
// registration saying what is wrong, and so is a free the reverse sweep
// cannot mirror (a block that may come from the caller, freed by a
// deallocator that needs more than the pointer).
// clang-format off
// RUN: not %clang -O0 -g -c %s -o /dev/null -DSIZE 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: not %clang -O2 -g -c %s -o /dev/null -DSIZE 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: not %clang -O0 -g -c %s -o /dev/null -DNOPTR 2>&1 | FileCheck %s --check-prefix=NOPTR
// RUN: not %clang -O0 -g -c %s -o /dev/null -DINDEX 2>&1 | FileCheck %s --check-prefix=INDEX
// RUN: not %clang -O0 -g -c %s -o /dev/null -DTYPE 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCOUNT 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not %clang -O0 -g -c %s -o /dev/null -DELTS 2>&1 | FileCheck %s --check-prefix=ELTS
// RUN: not %clang -O0 -g -c %s -o /dev/null -DNOTFN 2>&1 | FileCheck %s --check-prefix=NOTFN
// RUN: not %clang -O0 -g -c %s -o /dev/null -DCALLER 2>&1 | FileCheck %s --check-prefix=CALLER
// RUN: not %clang -O2 -g -c %s -o /dev/null -DCALLER 2>&1 | FileCheck %s --check-prefix=CALLER
// CHECK-NOT: PLEASE submit a bug report
#include <stdlib.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

void *pool_alloc(int pool, size_t n) { return malloc(n); }
void pool_free(void *p, int pool) { free(p); }
void pool_free_long(void *p, long pool) { free(p); }

#ifdef SIZE
// SIZE: allocation-like.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: in '__enzyme_allocation_like': an allocation-like registration is {(void *)alloc, (void *)N, (void *)"INDICES", (void *)dealloc}, where argument N of alloc is the size in bytes {{.*}}; argument 2 of 'pool_alloc' is not an integer size (arguments count from 0, and 'pool_alloc' has 2)
void *__enzyme_allocation_like[4] = {(void *)pool_alloc, (void *)2, (void *)"-1,0", (void *)pool_free};
#endif
#ifdef NOPTR
// NOPTR: error: tapestry: in '__enzyme_allocation_like2': {{.*}}; "0" must list -1 (the pointer to free) exactly once
void *__enzyme_allocation_like2[4] = {(void *)pool_alloc, (void *)1, (void *)"0", (void *)pool_free};
#endif
#ifdef INDEX
// INDEX: error: tapestry: in '__enzyme_allocation_like': {{.*}}; "-1,2" has '2', which is neither -1 nor an argument of 'pool_alloc' (it has 2)
void *__enzyme_allocation_like[4] = {(void *)pool_alloc, (void *)1, (void *)"-1,2", (void *)pool_free};
#endif
#ifdef TYPE
// TYPE: error: tapestry: in '__enzyme_allocation_like': {{.*}}; parameter 1 of 'pool_free_long' does not have the type of argument 0 of 'pool_alloc'
void *__enzyme_allocation_like[4] = {(void *)pool_alloc, (void *)1, (void *)"-1,0", (void *)pool_free_long};
#endif
#ifdef COUNT
// COUNT: error: tapestry: in '__enzyme_allocation_like': {{.*}}; 'pool_free' takes 2 parameter(s) but "-1" lists 1
void *__enzyme_allocation_like[4] = {(void *)pool_alloc, (void *)1, (void *)"-1", (void *)pool_free};
#endif
#ifdef ELTS
// ELTS: error: tapestry: in '__enzyme_allocation_like': {{.*}}; this one has 3 elements, not 4
void *__enzyme_allocation_like[3] = {(void *)pool_alloc, (void *)1, (void *)"-1,0"};
#endif
#ifdef NOTFN
// NOTFN: error: tapestry: in '__enzyme_allocation_like': {{.*}}; its fourth element must be the function that frees
void *__enzyme_allocation_like[4] = {(void *)pool_alloc, (void *)1, (void *)"-1,0", (void *)"pool_free"};
#endif
#ifdef CALLER
void *__enzyme_allocation_like[4] = {(void *)pool_alloc, (void *)1, (void *)"-1,0", (void *)pool_free};
// The block comes from the caller: its shadow would have to be freed after
// the reverse sweep, by pool_free(shadow, pool) with the pool unknown then.
double consume(double *buf, double x) {
  buf[0] = x * x;
  double s = buf[0] * x;
  // CALLER: allocation-like.c:[[@LINE+1]]:{{[0-9]+}}: error: tapestry: {{.*}}'pool_free' frees a block that may not have been allocated in the differentiated function, and takes arguments besides the pointer
  pool_free(buf, 3);
  return s;
}
void grad(double *buf, double *dbuf, double x) {
  __enzyme_autodiff((void *)consume, enzyme_dup, buf, dbuf, x);
}
#else
double sq(double x) { return x * x; }
void grad(double x) { __enzyme_autodiff((void *)sq, x); }
#endif
// clang-format on
// CHECK-NOT: PLEASE submit a bug report
