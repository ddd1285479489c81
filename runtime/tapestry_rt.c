/*===- tapestry_rt.c - Tapestry's C runtime ---------------------------------===
 *
 * One-shot requests need no runtime: the plugin emits everything they use. This
 * file holds the small part of the public C API (tapestry/runtime.h) that is
 * not inline: the version string, tapestry_tape_free for split-mode tapes, the
 * tape high-water counter that code built with -tapestry-tape-stats adds to,
 * and the per-thread tape cache's and tape arena's weak definitions with
 * their release (tapestry_release_tape_cache, also run at thread exit). No
 * LLVM and no plugin here.
 *
 *===----------------------------------------------------------------------===*/
#include "tapestry/runtime.h"

#include <stdlib.h>

const char *tapestry_version(void) { return TAPESTRY_VERSION_STRING; }

void tapestry_tape_free(void *tape) { free(tape); }

/* Written by derivative code compiled with -mllvm -tapestry-tape-stats. */
unsigned long long __tapestry_tape_high_water;

unsigned long long tapestry_tape_high_water(void) {
  return __tapestry_tape_high_water;
}

void tapestry_tape_reset_high_water(void) { __tapestry_tape_high_water = 0; }

/* The per-thread cache of record arrays that derivative code defines in
 * every module with a reverse sweep (plugin/Synthesis/TapeCache.h,
 * TapeCacheSlots blocks); this weak definition stands in where none does. */
struct tapestry_tape_block {
  void *block;
  unsigned long long capacity;
};
/* clang-format 14 takes C11's _Thread_local for a name and would break
 * these two declarations inside __attribute__((weak)). */
/* clang-format off */
__attribute__((weak)) _Thread_local struct tapestry_tape_block
    __tapestry_tape_cache[8];

/* Set once a thread's cache is to be freed at the thread's exit. */
__attribute__((weak)) _Thread_local unsigned char
    __tapestry_tape_cache_registered;
/* clang-format on */

/* The per-thread arena of the tapes of calls that one-shot derivatives do not
 * inline (plugin/Synthesis/TapeCache.h): the next free byte and the end of
 * the chunk in use, and that chunk. Each chunk starts with a 32-byte header,
 * its neighbours in the list of chunks and its end. */
struct tapestry_arena_chunk {
  struct tapestry_arena_chunk *prev, *next;
  char *end;
  unsigned long long unused;
};
struct tapestry_arena {
  char *top, *end;
  struct tapestry_arena_chunk *chunk;
};
/* clang-format off */
__attribute__((weak)) _Thread_local struct tapestry_arena
    __tapestry_tape_arena;
/* clang-format on */

static void free_chunks(struct tapestry_arena_chunk *c) {
  while (c) {
    struct tapestry_arena_chunk *next = c->next;
    free(c);
    c = next;
  }
}

int __cxa_thread_atexit_impl(void (*)(void *), void *, void *);
extern void *__dso_handle;

static void release_at_exit(void *unused) {
  (void)unused;
  tapestry_release_tape_cache();
}

void tapestry_prepare_tape_cache(void) {
  if (__tapestry_tape_cache_registered)
    return;
  __tapestry_tape_cache_registered = 1;
  __cxa_thread_atexit_impl(release_at_exit, 0, &__dso_handle);
}

void tapestry_release_tape_cache(void) {
  for (int i = 0; i < 8; ++i) {
    free(__tapestry_tape_cache[i].block);
    __tapestry_tape_cache[i].block = 0;
    __tapestry_tape_cache[i].capacity = 0;
  }
  /* The arena's chunks past the one in use are empty; all of them are when
   * the top is at the start of the first chunk (no derivative is running). */
  struct tapestry_arena *a = &__tapestry_tape_arena;
  struct tapestry_arena_chunk *c = a->chunk;
  if (!c)
    return;
  free_chunks(c->next);
  c->next = 0;
  if (!c->prev && a->top == (char *)(c + 1)) {
    free(c);
    a->top = a->end = 0;
    a->chunk = 0;
  }
}
