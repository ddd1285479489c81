//===- SplitMarkerDecoding.cpp - Split mode's markers and tape ------------===//
//
// Part of the request decoder (RequestDecoderImpl.h): decodeSplitMarker reads
// split mode's request-wide markers (enzyme_allocated with the tape buffer's
// size, enzyme_tape, enzyme_nofree, tapestry_reusable_tape), decodeSplitTail
// and decodeForwardSplitTail the arguments that follow the parameters in split
// entry points (the seed and the tape), and decodeTapeArgument the tape pointer
// itself. Checking the tape's origin at the call site is
// Passes/SplitCallSites.cpp's job.
//
//===----------------------------------------------------------------------===//
#include "Passes/RequestDecoderImpl.h"

#include "Core/Diagnostics.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tapestry {

bool Decoder::decodeSplitMarker(StringRef M) {
  bool Known = M == "enzyme_allocated" || M == "enzyme_tape" ||
               M == "enzyme_nofree" || M == "tapestry_reusable_tape";
  if (!Known)
    return false;
  if (!Split && !(FwdSplit && M != "tapestry_reusable_tape")) {
    error(M +
          " is a split-mode marker; it is valid with __enzyme_augmentfwd, "
          "__enzyme_reverse, __enzyme_fwdsplit and __enzyme_augmentsize, not "
          "with " +
          entryName());
    return true;
  }
  if (M == "tapestry_reusable_tape") {
    Out.Request.ReusableTape = true;
  } else if (M == "enzyme_nofree") {
    Out.NoFree = true;
  } else if (MarkersOnly) {
    error(M + " takes a value, but " + entryName() +
          " takes markers only (no values)");
  } else if (M == "enzyme_allocated") {
    if (Value *N = nextValue("the byte size after enzyme_allocated")) {
      if (!N->getType()->isIntegerTy())
        error("enzyme_allocated must be followed by the tape buffer's size in "
              "bytes (an integer); got " +
              describe(N->getType()));
      else
        Out.AllocatedBytes =
            DryRun ? N : B.CreateZExtOrTrunc(N, B.getInt64Ty());
    }
  } else if (M == "enzyme_tape") {
    if (Value *Buf = nextValue("the tape buffer after enzyme_tape")) {
      if (!Buf->getType()->isPointerTy())
        error("enzyme_tape must be followed by a pointer to the tape buffer; "
              "got " +
              describe(Buf->getType()));
      else
        Out.TapeBuffer = Buf;
    }
  }
  return true;
}

bool Decoder::decodeSplitTail() {
  Type *RetTy = Fn->getReturnType();
  if (Out.Request.ReturnActive) {
    // Enzyme's enzyme_byref, N, &seed: the seed is read from memory (how C
    // passes a struct seed).
    bool ByRef = Next < CB.arg_size() &&
                 markerName(CB.getArgOperand(Next)) == "enzyme_byref";
    if (ByRef) {
      ++Next;
      Value *Size = nextValue("the byte size after enzyme_byref");
      if (!Size)
        return false;
      auto *N = dyn_cast<ConstantInt>(Size);
      uint64_t Want = CB.getModule()->getDataLayout().getTypeStoreSize(RetTy);
      if (!N || N->getZExtValue() != Want)
        return error("enzyme_byref before the seed of '" +
                     sourceIdentifier(*Fn) +
                     "' must be followed by its size, " + Twine(Want) +
                     " bytes (the size of " + describe(RetTy) +
                     "), and a pointer to the seed");
    }
    Value *Seed =
        nextValue("the seed of the return value of '" + sourceIdentifier(*Fn) +
                  "' (the reverse takes it after the arguments)");
    if (!Seed)
      return false;
    if (ByRef) {
      if (!Seed->getType()->isPointerTy())
        return error("enzyme_byref, N must be followed by a pointer to the "
                     "seed of '" +
                     sourceIdentifier(*Fn) + "'; got " +
                     describe(Seed->getType()));
      Seed = DryRun ? Seed : B.CreateLoad(RetTy, Seed, "seed");
      Out.Seed = Seed;
      return decodeTapeArgument("the reverse");
    }
    if (RetTy->isStructTy() && Seed->getType() != RetTy)
      return error("the return seed of '" + sourceIdentifier(*Fn) + "' is " +
                   describe(RetTy) +
                   ", which the C ABI passes in pieces; pass its address "
                   "with its size before it: enzyme_byref, sizeof(seed), "
                   "&seed (Enzyme's spelling)");
    if (!Seed->getType()->isFloatingPointTy() && Seed->getType() != RetTy)
      return error("the return seed of '" + sourceIdentifier(*Fn) +
                   "' must be " + describe(RetTy) + "; got " +
                   describe(Seed->getType()));
    Out.Seed =
        Seed->getType() == RetTy || DryRun ? Seed : B.CreateFPCast(Seed, RetTy);
  }
  return decodeTapeArgument("the reverse");
}

bool Decoder::decodeForwardSplitTail() {
  return decodeTapeArgument(entryName());
}

bool Decoder::decodeTapeArgument(const Twine &Taker) {
  if ((Out.AllocatedBytes != nullptr) != (Out.TapeBuffer != nullptr))
    return error("enzyme_allocated and enzyme_tape go together: the buffer's "
                 "size and the buffer");
  if (Out.TapeBuffer)
    return true;
  Value *Tape = nextValue("the tape returned by __enzyme_augmentfwd (" + Taker +
                          " takes it last)");
  if (!Tape)
    return false;
  if (!Tape->getType()->isPointerTy())
    return error("the last argument of " + entryName() +
                 " must be the tape (a pointer) returned by "
                 "__enzyme_augmentfwd; got " +
                 describe(Tape->getType()));
  Out.Tape = Tape;
  return true;
}

} // namespace tapestry
