/* Leak: a thunk's release does not free the memory whose free the function
 * performs (a malloc'd scratch block and its shadow) when the tape is
 * released without running the reverse: the augmented forward defers the
 * primal free(t) to the reverse and keeps both blocks in the tape, and
 * release frees only the loop caches.
 *
 * Build: clang-19 -O0 -I include -fpass-plugin=build/plugin/TapestryPlugin-19.so \
 *          tools/bugs/thunk-release-leaks-deferred-frees.c -o /tmp/a.out && /tmp/a.out
 *        (same at -O2)
 *
 * Expected: heap growth ~0, exit 0 (<tapestry/thunk.h>: "release(tape) frees
 *           what the tape owns"; issue 5: a forward whose reverse is never
 *           run must be releasable, e.g. a one-shot pullback dropped unused).
 * Actual:   "heap growth after 1000 forward-only tapes: 97456 bytes", exit 1
 *           (two 40-byte blocks per tape: scratch.tapestry.split_ddc.release
 *           frees fields 1 and 2, not the pointers stored at offsets 72/80).
 * A forward followed by the reverse and release does not leak (the reverse
 * frees them). Fix: release frees the deferred blocks unless the reverse
 * already did (the tape header says whether it was consumed; a replayable
 * reverse never frees them, so release always must).
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <tapestry/thunk.h>
extern int enzyme_dup, enzyme_const;
/* y = x^3 through malloc'd scratch */
void scratch(const double *x, double *y, int n) {
  double *t = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) t[i] = x[i] * x[i];
  for (int i = 0; i < n; i++) y[i] = t[i] * x[i];
  free(t);
}
typedef void (*aug_t)(const double *, double *, double *, double *, int, void *);
int main(void) {
  double x[5] = {1, 2, 3, 4, 5}, dx[5] = {0}, y[5], dy[5] = {0};
  const tapestry_thunk *t = __tapestry_thunk((void *)scratch, enzyme_dup, enzyme_dup, enzyme_const);
  size_t before = mallinfo2().uordblks;
  for (int r = 0; r < 1000; r++) {
    void *tape = tapestry_tape_new(t);
    ((aug_t)t->augmented)(x, dx, y, dy, 5, tape);
    tapestry_tape_delete(t, tape); /* no reverse: release must free the scratch */
  }
  long growth = (long)(mallinfo2().uordblks - before);
  printf("heap growth after 1000 forward-only tapes: %ld bytes (want ~0)\n", growth);
  return growth > 1000;
}
