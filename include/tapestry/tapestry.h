/*===- tapestry/tapestry.h - Everything Tapestry offers C users -----*- C -*-===
 *
 * One include for C programs: Enzyme's markers and entry points
 * (tapestry/enzyme.h), the batch-mode helpers (tapestry/batch.h), the
 * finite-difference checker (tapestry/gradcheck.h) and the runtime library's
 * functions (tapestry/runtime.h). Split mode's descriptors (tapestry/thunk.h)
 * are included separately; C++ users include <tapestry/tapestry.hpp> instead.
 *
 *===----------------------------------------------------------------------===*/
#ifndef TAPESTRY_TAPESTRY_H
#define TAPESTRY_TAPESTRY_H

/* A system header, as the standard library's are: the warnings users turn
 * on (-Wreserved-identifier) are about their code, not this header's. */
#pragma GCC system_header

#include "tapestry/batch.h"
#include "tapestry/enzyme.h"
#include "tapestry/gradcheck.h"
#include "tapestry/runtime.h"

#endif /* TAPESTRY_TAPESTRY_H */
