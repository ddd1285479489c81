/* Heap accounting for the LeakSanitizer tests (programs compiled with
 * -fsanitize=address). LSan reports, at exit, memory nothing points to any
 * more; HEAP_CHECK is stricter and local: around one derivative call it
 * counts the heap allocations made (tapes, shadows, the function's own
 * scratch) and checks that the bytes live afterwards are exactly those live
 * before, so nothing the derivative allocated is left over, reachable or not.
 *
 *   HEAP_CHECK("name", min_allocs, statement);
 *
 * checks `live bytes after == live bytes before` and `allocations during
 * the call >= min_allocs` (1 where the call must allocate a tape or a shadow,
 * so the test cannot pass because nothing was allocated). The blocks reverse
 * sweeps keep in the thread's tape cache for the next call are released
 * (tapestry_release_tape_cache(), link with the runtime) before the count:
 * what is left then is left over. */
#ifndef TAPESTRY_TEST_HEAP_H
#define TAPESTRY_TEST_HEAP_H

#include "../../Integration/Inputs/check.h"
#include <sanitizer/allocator_interface.h>
#include <stddef.h>
#include <tapestry/runtime.h>

static volatile long heap_allocs_;
static volatile int heap_counting_;

static void heap_on_malloc_(const volatile void *p, size_t n) {
  (void)p;
  (void)n;
  if (heap_counting_)
    heap_allocs_++;
}
static void heap_on_free_(const volatile void *p) { (void)p; }

__attribute__((constructor)) static void heap_install_(void) {
  /* Line-buffered: a sanitizer report ends the program with _exit, which
   * would lose a fully buffered stdout. */
  setvbuf(stdout, NULL, _IOLBF, 0);
  /* The thread-exit registration of the tape cache allocates once. */
  tapestry_prepare_tape_cache();
  __sanitizer_install_malloc_and_free_hooks(heap_on_malloc_, heap_on_free_);
}

#define HEAP_CHECK(name, min_allocs, stmt)                                     \
  do {                                                                         \
    size_t live0_ = __sanitizer_get_current_allocated_bytes();                 \
    heap_allocs_ = 0;                                                          \
    heap_counting_ = 1;                                                        \
    stmt;                                                                      \
    heap_counting_ = 0;                                                        \
    tapestry_release_tape_cache();                                             \
    long n_ = heap_allocs_;                                                    \
    long left_ = (long)(__sanitizer_get_current_allocated_bytes() - live0_);   \
    int ok_ = left_ == 0 && n_ >= (min_allocs);                                \
    if (!ok_)                                                                  \
      check_failures++;                                                        \
    printf("%s heap %s: %ld allocation(s) during the call, %ld byte(s) left "  \
           "live\n",                                                           \
           ok_ ? "PASS" : "FAIL", name, n_, left_);                            \
  } while (0)

#endif
