// __enzyme_fwdsplit frees the tape unless given enzyme_nofree (Enzyme's
// convention); a reverse on that tape afterwards stops, and its message
// named only "an earlier reverse" (probe24a M1). With enzyme_nofree on the
// fwdsplit, both halves run on the one tape. Expected: d/dr r^3 = 3 r^2.
// RUN: %clang -O2 %s -lm -o %t && not %t 2>&1 | FileCheck %s --check-prefix=FREED
// RUN: %clang -O2 -DNOFREE %s -lm -o %tn && %tn | FileCheck %s
// FREED: fwdsplit PASS
// FREED: tapestry: the tape passed to the reverse of 'cube' was not filled by its augmented forward {{.*}}, or was freed by an earlier reverse or __enzyme_fwdsplit (pass enzyme_nofree to every one of them on a tape but the last)
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "../Integration/Inputs/check.h"
#include <stdio.h>

extern int enzyme_out, enzyme_nofree;
typedef struct {
  void *tape;
  double primal;
} Aug;
Aug __enzyme_augmentfwd(void *, ...);
double __enzyme_fwdsplit(void *, ...);
double __enzyme_reverse(void *, ...);

double cube(double r) { return r * r * r; }

int main(void) {
  double r = 0.8;
  Aug a = __enzyme_augmentfwd((void *)cube, enzyme_out, r);
#ifdef NOFREE
  double t = __enzyme_fwdsplit((void *)cube, r, 1.0, enzyme_nofree, a.tape);
#else
  double t = __enzyme_fwdsplit((void *)cube, r, 1.0, a.tape);
#endif
  printf("fwdsplit %s\n", t == 3 * r * r ? "PASS" : "FAIL");
  fflush(stdout);
  check_close("fwdsplit", t, 3 * r * r, 1e-15);
  check_close("reverse",
              __enzyme_reverse((void *)cube, enzyme_out, r, 1.0, a.tape),
              3 * r * r, 1e-15);
  return check_report();
}
