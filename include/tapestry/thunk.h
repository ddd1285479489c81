/*===- tapestry/thunk.h - Split-mode descriptors and reusable tapes -*- C -*-===
 *
 * A thunk describes the split-mode derivative of one function for one
 * activity signature, as constant data computed at compile time:
 *
 *   const tapestry_thunk *t = __tapestry_thunk((void *)f, enzyme_dup,
 *                                              enzyme_const);
 *   void *tape = tapestry_tape_new(t);       // t->tape_bytes, malloc'd
 *   ((double (*)(double *, double *, int, void *))t->augmented)(x, dx, n,
 *                                                              tape);
 *   double da;
 *   ((void (*)(double *, double *, int, double, double, void *, void *))
 *        t->reverse)(x, dx, n, a, 1.0, tape, &da);
 *   tapestry_tape_delete(t, tape);
 *
 * `augmented` takes f's arguments, each pointer followed by its shadow as
 * its marker says, then the tape, and returns f's result. `reverse` takes
 * the same arguments, then the seed of an active return (if f returns a
 * floating-point value; if f returns a struct of them by value, such as a
 * double complex, a seed of that struct type, passed by value), then the
 * tape, then a pointer to where it writes
 * the adjoints of the enzyme_out arguments (one value, or a struct of them
 * in argument order; NULL when there are none) and returns nothing: the
 * adjoints go through memory so that any C declaration of them works.
 *
 * `reusable` is the compiler's answer to "may I run the reverse again on this
 * tape?": 1 when the reverse neither changes nor frees the tape and reads
 * nothing the caller may change between the halves (so one forward serves
 * any number of reverse sweeps with different seeds), 0 otherwise. Running a
 * reverse that is not reusable twice on one tape stops the program with a
 * message saying why. Pass the marker tapestry_reusable_tape to demand a
 * reusable tape: the compiler then makes the reverse replayable or rejects
 * the request with the reason.
 *
 * Thunks are stateless: call them from any thread, any number of times;
 * each forward call fills the tape it is given.
 *
 *===----------------------------------------------------------------------===*/
#ifndef TAPESTRY_THUNK_H
#define TAPESTRY_THUNK_H

/* A system header, as the standard library's are: the warnings users turn
 * on (-Wreserved-identifier) are about their code, not this header's. */
#pragma GCC system_header

#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tapestry_thunk {
  void *augmented; /* (args..., void *tape) -> f's result */
  void *reverse;   /* void (args..., [seed], void *tape, void *adjoints) */
  void *release;   /* void (void *tape): frees what the tape owns */
  unsigned long long tape_bytes;
  int reusable;
} tapestry_thunk;

/* Demands a reusable tape (with __tapestry_thunk, __enzyme_augmentfwd,
 * __enzyme_reverse and __enzyme_augmentsize). */
extern int tapestry_reusable_tape;

#ifndef TAPESTRY_NO_ENTRY_POINTS
/* (f, markers...): markers only, no values. */
const tapestry_thunk *__tapestry_thunk(void *, ...);
#endif

/* A fresh tape for one forward call of the thunk. */
static inline void *tapestry_tape_new(const tapestry_thunk *__t) {
  return calloc(1, __t->tape_bytes ? __t->tape_bytes : 1);
}

/* Frees a tape and everything it owns. */
static inline void tapestry_tape_delete(const tapestry_thunk *__t,
                                        void *__tape) {
  if (!__tape)
    return;
  ((void (*)(void *))__t->release)(__tape);
  free(__tape);
}

#ifdef __cplusplus
}
#endif

#endif /* TAPESTRY_THUNK_H */
