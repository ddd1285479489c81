/*===- tapestry/enzyme.h - Enzyme's C API, as Tapestry accepts it ---*- C -*-===
 *
 * Include this instead of writing the externs yourself. Programs that declare
 * the markers and entry points themselves, as Enzyme users do, work too.
 *
 *   #include <tapestry/enzyme.h>
 *   double f(double x, double y);
 *   double dfdx = __enzyme_autodiff((void *)f, enzyme_out, x,
 *                                   enzyme_const, y);
 *
 * Several enzyme_out arguments return a struct of their adjoints in argument
 * order: declare your own entry point whose name contains __enzyme_autodiff,
 * e.g. `grad2 __enzyme_autodiff_2(void *, ...);` with
 * `typedef struct { double dx, dy; } grad2;`.
 *
 * Define TAPESTRY_NO_ENTRY_POINTS before including to declare the markers
 * only (for code that declares its own prototypes).
 *
 *===----------------------------------------------------------------------===*/
#ifndef TAPESTRY_ENZYME_H
#define TAPESTRY_ENZYME_H

/* A system header, as the standard library's are: the warnings users turn
 * on (-Wreserved-identifier) are about their code, not this header's. */
#pragma GCC system_header

#ifdef __cplusplus
extern "C" {
#endif

/* Activity markers: pass one before the argument(s) it describes. */
extern int enzyme_const;     /* value: not differentiated */
extern int enzyme_dup;       /* value, shadow (or tangent in forward mode) */
extern int enzyme_dupnoneed; /* like enzyme_dup; primal result not needed */
extern int enzyme_out;       /* active scalar: reverse mode returns adjoint */

/* Batch mode (see tapestry/batch.h): `enzyme_width, N` first, N a
 * compile-time constant; enzyme_dup is then followed by the value and N
 * shadows, and enzyme_dupv / enzyme_dupnoneedv by a byte stride, the value
 * and the first shadow (shadow k at base + k * stride). Batched results
 * come back as N values: declare an entry point returning a struct of N. */
extern int enzyme_width;
extern int enzyme_dupv;
extern int enzyme_dupnoneedv;

/* __enzyme_batch (the primal on N lanes, `enzyme_width, N` first):
 * enzyme_vector before an argument passes N values, one per lane (the
 * default); enzyme_scalar passes one value shared by all lanes. */
extern int enzyme_vector;
extern int enzyme_scalar;

/* Request-wide markers. */
extern int enzyme_primal_return;   /* also return the primal result, first */
extern int enzyme_const_return;    /* the return value is not differentiated */
extern int enzyme_noret;           /* do not return the primal (the default) */
extern int enzyme_active_return;   /* a floating-point return is active (the */
extern int enzyme_dup_return;      /* default in Tapestry) */
extern int enzyme_not_overwritten; /* a hint Tapestry does not need */
extern int enzyme_nocache;         /* a hint Tapestry does not need */
/* Values first, then enzyme_interleave, then the shadows in the same order;
 * an unmarked argument takes the marker of the one before it. */
extern int enzyme_interleave;
/* Enzyme's run-time activity; Tapestry tests activity at run time where it
 * must anyway. A shadow equal to its value (Enzyme's run-time inactive
 * argument) stops the program with a message: pass enzyme_const instead. */
extern int enzyme_runtime_activity;

/* `enzyme_context, ctx` (ctx from __enzyme_context in the same function):
 * the derivative uses the context's shadows of global variables, and has
 * the context's width. */
extern int enzyme_context;
/* Split mode (__enzyme_augmentfwd / __enzyme_reverse): put the tape in a
 * caller buffer with `enzyme_allocated, N, enzyme_tape, buf`; enzyme_nofree
 * makes the reverse leave the tape and what it owns alive. */
extern int enzyme_allocated;
extern int enzyme_tape;
extern int enzyme_nofree;

#ifndef TAPESTRY_NO_ENTRY_POINTS
/* Reverse mode: returns the adjoint of the enzyme_out argument. */
double __enzyme_autodiff(void *, ...);
/* Forward mode: returns the tangent of the result. */
double __enzyme_fwddiff(void *, ...);
/* Split mode, forward half of a void function: returns the tape (or nothing
 * with enzyme_allocated). For a function returning T, declare your own,
 * e.g. `struct { void *tape; double primal; } __enzyme_augmentfwd_d(...)`. */
void *__enzyme_augmentfwd(void *, ...);
/* Split mode, reverse half: (f, args..., [return seed], tape). */
void __enzyme_reverse(void *, ...);
/* Split forward mode: (f, args and tangents..., tape) after
 * __enzyme_augmentfwd; returns the tangent of the result and frees the tape
 * (unless enzyme_nofree). Tapestry runs the primal again for the tangent, so
 * pass the same values as to __enzyme_augmentfwd. */
double __enzyme_fwdsplit(void *, ...);
/* The tape's size in bytes for (f, markers...): a compile-time constant. */
unsigned long __enzyme_augmentsize(void *, ...);
/* Shadow contexts: __enzyme_context(W) (W a compile-time constant) makes a
 * context holding W lanes of shadow of every global variable, each call in
 * the source one context; __enzyme_shadow(ctx, &g, k) is the address of lane
 * k of g's shadow there (g a global, or a member or element of one);
 * __enzyme_zero_shadows(ctx) zeroes the context's shadows (pointers in them
 * keep pointing to the shadows of what they point to). Pass the context to
 * a request with `enzyme_context, ctx`. */
void *__enzyme_context(int);
void *__enzyme_shadow(void *, void *, int);
void __enzyme_zero_shadows(void *);
#endif

#ifdef __cplusplus
}
#endif

#endif /* TAPESTRY_ENZYME_H */
