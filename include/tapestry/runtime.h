/*===- tapestry/runtime.h - Tapestry's runtime library --------------*- C -*-===
 *
 * The declarations of libtapestry-rt's own entry points
 * (runtime/tapestry_rt.c): the version, the release of a split-mode tape, the
 * tape statistics that code compiled with -tapestry-tape-stats records, and
 * control of the per-thread cache of record arrays that reverse sweeps reuse.
 * Programs that make only one-shot requests need none of it. C, no LLVM;
 * included by <tapestry/tapestry.h>.
 *
 *===----------------------------------------------------------------------===*/
#ifndef TAPESTRY_RUNTIME_H
#define TAPESTRY_RUNTIME_H

/* A system header, as the standard library's are: the warnings users turn
 * on (-Wreserved-identifier) are about their code, not this header's. */
#pragma GCC system_header

#define TAPESTRY_VERSION_STRING "0.1.0"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the runtime library, "major.minor.patch". */
const char *tapestry_version(void);

/* Releases a tape that a split-mode forward pass allocated. */
void tapestry_tape_free(void *__tape);

/* The bytes of tape that reverse sweeps have allocated since the last reset,
 * recorded by code compiled with `-fplugin=<plugin> -mllvm
 * -tapestry-tape-stats`; always 0 otherwise. For benchmarks. */
unsigned long long tapestry_tape_high_water(void);
void tapestry_tape_reset_high_water(void);
/* Reverse sweeps keep their record arrays in a per-thread cache for the next
 * call, and the tapes of the calls they do not inline (recursion) in a
 * per-thread arena that grows to the deepest recursion and is reused (a
 * thread's cache and arena are freed when the thread exits). This frees the
 * calling thread's cached blocks and its arena's unused memory now, e.g.
 * after a burst of large gradients (called outside a derivative, that is
 * all of the arena). */
void tapestry_release_tape_cache(void);
/* Registers now, instead of at the first reverse sweep, the release of the
 * calling thread's tape cache when the thread exits (that registration
 * allocates a few bytes once per thread): for code that must not allocate
 * during its first gradient, and for heap accounting in tests. */
void tapestry_prepare_tape_cache(void);

#ifdef __cplusplus
}
#endif

#endif /* TAPESTRY_RUNTIME_H */
