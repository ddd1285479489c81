/*===- tapestry/runtime.h - Tapestry's runtime library ----------*- C -*-===*/
#ifndef TAPESTRY_RUNTIME_H
#define TAPESTRY_RUNTIME_H

#define TAPESTRY_VERSION_STRING "0.1.0"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the runtime library, "major.minor.patch". */
const char *tapestry_version(void);

/* Releases a tape that a split-mode forward pass allocated. */
void tapestry_tape_free(void *tape);

#ifdef __cplusplus
}
#endif

#endif /* TAPESTRY_RUNTIME_H */
