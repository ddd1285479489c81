//===- RequestDecoderImpl.h - The request decoder's state -------*- C++ -*-===//
//
// The decoder of one request call, shared by the files that implement it:
// RequestDecoder.cpp (parameters, request-wide markers, enzyme_width and
// enzyme_interleave), SplitMarkerDecoding.cpp (split mode's tape, seed and
// buffer) and StructArgumentDecoding.cpp (structs passed by value, in their
// source spelling or in the ABI's pieces). Only these files include it;
// the rest of the plugin uses RequestDecoder.h.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_PASSES_REQUESTDECODERIMPL_H
#define TAPESTRY_PASSES_REQUESTDECODERIMPL_H

#include "Core/CustomRules.h"
#include "Passes/RequestDecoder.h"
#include "Passes/StructArguments.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/IRBuilder.h"
#include <optional>
#include <string>

namespace tapestry {

/// Decodes one request call into a DecodedCall, collecting its errors.
class Decoder {
public:
  Decoder(llvm::CallBase &CB, EntryPoint Kind, bool DryRun = false,
          const CustomRules *Rules = nullptr);

  std::optional<DecodedCall> run();

private:
  /// True if the user registered a derivative of \p F for this request's
  /// mode (a gradient for reverse and split mode, a derivative for forward).
  bool hasRegisteredRule(const llvm::Function &F) const {
    if (!Rules || FwdSplit)
      return false;
    // Declared inactive or like a math function: in every mode a call to it
    // carries its rule (its body, if it has one, is not what to
    // differentiate).
    if (!F.isVarArg() &&
        (Rules->isDeclaredInactive(&F) || !Rules->functionLike(&F).empty()))
      return true;
    return Mode == DiffMode::Forward ? Rules->forwardDerivative(&F) != nullptr
                                     : Rules->gradient(&F) != nullptr;
  }
  /// An internal function of F's type that only calls F.
  static llvm::Function &callerOfRegistered(llvm::Function &F);

  /// Records an error; run() reports them at the call when decoding ends
  /// (or, if a struct value passed in pieces explains them, that instead).
  bool error(const llvm::Twine &Msg) {
    Failed = true;
    if (!DryRun)
      Errors.push_back(Msg.str());
    return false;
  }
  std::optional<DecodedCall> decode();
  llvm::StringRef entryName() const { return entryPointName(CB); }
  /// Converts a call-site value to the parameter type, as a C call would.
  llvm::Value *convert(llvm::Value *V, llvm::Type *To, unsigned ParamNo,
                       llvm::StringRef What);
  bool decodeParam(unsigned ParamNo, std::optional<Activity> Marked,
                   bool Strided);
  /// Forward mode, a function returning a struct in memory (sret), the
  /// request declared to return it and no result object passed
  /// (`Vec3 d = __enzyme_fwddiff((void *)f, x, dx)`): the tangent goes to
  /// the request's own result memory and the primal result to a local.
  bool decodeImplicitStructResult();
  /// Reads the constant after enzyme_width.
  bool decodeWidth(unsigned MarkerPos);
  /// " (with enzyme_width N, ...)": how batch mode counts shadows, for
  /// messages about miscounted arguments.
  std::string batchHint() const;
  /// "parameter 2 'x' of 'f' (const double *)": names and source types with
  /// debug information, \p T described otherwise.
  std::string parameterText(unsigned ParamNo, llvm::Type *T) const;
  /// A split-mode marker at the current position (its operands consumed);
  /// false if \p M is not one.
  bool decodeSplitMarker(llvm::StringRef M);
  /// The values after the parameters: the reverse's seed and tape.
  bool decodeSplitTail();
  /// __enzyme_fwdsplit: the tape after the parameters.
  bool decodeForwardSplitTail();
  /// The tape after the parameters (\p Taker takes it), unless the caller
  /// gave its buffer (enzyme_allocated N, enzyme_tape buf).
  bool decodeTapeArgument(const llvm::Twine &Taker);
  /// A marker that applies to the whole request (its operands consumed);
  /// false if \p M is not one.
  bool decodeRequestMarker(llvm::StringRef M, bool &ConstReturn);
  /// The context after enzyme_context: its shadows of globals, and its
  /// width (Passes/ShadowContexts.h).
  bool decodeContext();
  /// Finds enzyme_interleave: the primal values end there and the shadows
  /// follow it, in the same order.
  bool findInterleave();
  /// The next argument, which must be a value, for \p What.
  llvm::Value *nextValue(const llvm::Twine &What);

  // Structs passed by value (StructArguments.h).
  /// The struct parameter of Fn that IR parameter \p ParamNo belongs to.
  const AbiStruct *structParamOf(unsigned ParamNo) const;
  /// Decodes struct parameter \p S when the call passes a struct value
  /// there in its source spelling; sets \p Handled if it did (else the
  /// pieces are decoded one by one, as Enzyme does).
  /// The pieces of struct parameter \p S as the call gives a value of it at
  /// operand \p At: its pieces, or loads of them from a copy passed in
  /// memory (a variadic call out of registers); the operands it takes, or
  /// 0 if there is no such value there. Without \p Emit, loads are not
  /// made (poison stands for them).
  unsigned structPiecesAt(const AbiStruct &S, unsigned At,
                          llvm::SmallVectorImpl<llvm::Value *> &Pieces,
                          bool Emit = true);
  bool decodeStructParam(const AbiStruct &S, std::optional<Activity> Marked,
                         bool Strided, bool &Handled);
  /// Every struct value the call passes in pieces must give all its pieces
  /// the same role (values, or tangents/shadows) of consecutive parameters:
  /// the message saying how one does not, if one does not.
  std::optional<std::string> structMisalignment() const;
  /// A struct returned in registers (an IR literal struct with a
  /// floating-point member): forward mode returns its tangent, a struct of
  /// the same type; reverse mode seeds every member with 1 (Enzyme's rule),
  /// split mode's reverse takes the seed (enzyme_byref, N, &seed).
  void decodeStructReturn(llvm::Type *RetTy);
  /// Markers without values (__tapestry_thunk, __enzyme_augmentsize) apply
  /// to the ABI's pieces: one marker per source parameter, when a struct is
  /// split, means something else than it says.
  void checkMarkersOnlyStructs();
  /// The activity markers of a markers-only call, and the function's
  /// parameters as the source declares them (a struct the ABI splits
  /// counts once).
  unsigned activityMarkers() const;
  unsigned sourceParams() const;
  /// What role \p Role of parameter \p ParamNo is, for messages.
  std::string roleName(unsigned ParamNo, unsigned Role) const;
  /// A copy of the struct at \p Ptr (of type \p Ty), made before the call:
  /// what a byval parameter receives.
  llvm::Value *copyByVal(llvm::Value *Ptr, llvm::Type *Ty);
  /// Records that operand \p OpNo is the value (\p Role 0) or shadow
  /// Role - 1 of parameter \p ParamNo.
  void noteRole(unsigned OpNo, unsigned ParamNo, unsigned Role) {
    Roles[OpNo] = {ParamNo, Role};
  }

  llvm::CallBase &CB;
  /// Decode without reporting errors or inserting conversions.
  /// Derivatives the user registered (null: none known).
  const CustomRules *Rules;
  bool DryRun;
  DiffMode Mode;
  EntryPoint Kind;
  bool Split;
  /// __enzyme_fwdsplit: forward mode with the tape of an augmented forward.
  bool FwdSplit;
  /// One past the last operand that can be a primal value or marker:
  /// enzyme_interleave's position, else the number of operands.
  unsigned PrimalEnd = 0;
  /// With enzyme_interleave: the next shadow operand.
  std::optional<unsigned> ShadowNext;
  /// With enzyme_interleave, an unmarked parameter takes the activity of
  /// the one before it (Enzyme's rule; enzyme_dup for the first).
  Activity LastActivity = Activity::Dup;
  /// __enzyme_augmentsize and thunks name activities without values.
  bool MarkersOnly;
  /// The C++ API's thunk markers, one per source parameter, a struct the
  /// ABI splits into pieces taking one for all.
  bool MarkersPerSourceParam = false;
  llvm::IRBuilder<> B;
  DecodedCall Out;
  llvm::Function *Fn = nullptr;
  unsigned Next = 0;
  unsigned Width = 1;
  bool Failed = false;
  /// Fn's parameters that are structs passed by value.
  llvm::SmallVector<AbiStruct, 4> StructParams;
  /// Call operands consumed as values or shadows: (parameter, role).
  llvm::DenseMap<unsigned, std::pair<unsigned, unsigned>> Roles;
  /// Parameters decoded piece by piece whose activity a marker gave.
  llvm::SmallVector<unsigned, 8> MarkedParams;
  /// Call operands decoded as whole struct values (their pieces together).
  llvm::SmallVector<unsigned, 4> WholeValues;
  llvm::SmallVector<std::string, 2> Errors;
};
} // namespace tapestry

#endif // TAPESTRY_PASSES_REQUESTDECODERIMPL_H
