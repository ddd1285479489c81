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

#include "tapestry/batch.h"
#include "tapestry/enzyme.h"
#include "tapestry/gradcheck.h"
#include "tapestry/runtime.h"

#endif /* TAPESTRY_TAPESTRY_H */
