/*===- tapestry_rt.c - Tapestry's C runtime ---------------------------------===
 *
 * One-shot requests need no runtime: the plugin emits everything they use.
 * This library holds what the public C API offers on top: version queries
 * and tape release for split mode as it lands.
 *
 *===------------------------------------------------------------------------===*/
#include "tapestry/runtime.h"

#include <stdlib.h>

const char *tapestry_version(void) { return TAPESTRY_VERSION_STRING; }

void tapestry_tape_free(void *tape) { free(tape); }

/* Written by derivative code compiled with TAPESTRY_TAPE_STATS=1. */
unsigned long long __tapestry_tape_high_water;

unsigned long long tapestry_tape_high_water(void) {
  return __tapestry_tape_high_water;
}

void tapestry_tape_reset_high_water(void) { __tapestry_tape_high_water = 0; }
