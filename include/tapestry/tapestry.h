/*===- tapestry/tapestry.h - Everything Tapestry offers C users -*- C -*-===*/
#ifndef TAPESTRY_TAPESTRY_H
#define TAPESTRY_TAPESTRY_H

#include "tapestry/batch.h"
#include "tapestry/enzyme.h"
#include "tapestry/gradcheck.h"
#include "tapestry/runtime.h"

#endif /* TAPESTRY_TAPESTRY_H */
