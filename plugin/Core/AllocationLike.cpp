//===- AllocationLike.cpp - Allocators the user registers -----------------===//
//
// Implements AllocationLike.h: markAllocationLike records an
// __enzyme_allocation_like registration as string attributes on the allocator
// and the deallocator (and metadata naming the deallocator), and
// customAllocator / customFreedOperand read them back for
// Core/AllocationFunctions.cpp. Parsing and checking the registration global
// itself is Core/CustomRules.cpp's job.
//
//===----------------------------------------------------------------------===//
#include "Core/AllocationLike.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

namespace tapestry {

static constexpr StringLiteral SizeAttr = "tapestry-allocator-size";
static constexpr StringLiteral ArgsAttr = "tapestry-deallocator-args";
static constexpr StringLiteral FreedAttr = "tapestry-deallocator-frees";
static constexpr StringLiteral DeallocMD = "tapestry.deallocator";

void markAllocationLike(Function &Alloc, unsigned SizeArg,
                        ArrayRef<int> DeallocArgs, Function &Dealloc) {
  Alloc.addFnAttr(SizeAttr, utostr(SizeArg));
  std::string Args;
  for (int A : DeallocArgs)
    Args += (Args.empty() ? "" : ",") + itostr(A);
  Alloc.addFnAttr(ArgsAttr, Args);
  Alloc.setMetadata(DeallocMD, MDNode::get(Alloc.getContext(),
                                           {ValueAsMetadata::get(&Dealloc)}));
  Dealloc.addFnAttr(FreedAttr,
                    utostr(find(DeallocArgs, -1) - DeallocArgs.begin()));
}

std::optional<CustomAllocator> customAllocator(const Function &F) {
  Attribute Size = F.getFnAttribute(SizeAttr);
  Attribute Args = F.getFnAttribute(ArgsAttr);
  MDNode *MD = F.getMetadata(DeallocMD);
  if (!Size.isStringAttribute() || !Args.isStringAttribute() || !MD ||
      MD->getNumOperands() != 1)
    return std::nullopt;
  auto *VM = dyn_cast_or_null<ValueAsMetadata>(MD->getOperand(0).get());
  CustomAllocator CA;
  CA.Dealloc = VM ? dyn_cast<Function>(VM->getValue()) : nullptr;
  if (!CA.Dealloc || Size.getValueAsString().getAsInteger(10, CA.SizeArg))
    return std::nullopt;
  SmallVector<StringRef, 4> Parts;
  Args.getValueAsString().split(Parts, ',');
  for (StringRef P : Parts) {
    int I;
    if (P.getAsInteger(10, I))
      return std::nullopt;
    CA.DeallocArgs.push_back(I);
  }
  return CA;
}

std::optional<unsigned> customFreedOperand(const Function &F) {
  Attribute A = F.getFnAttribute(FreedAttr);
  unsigned I;
  if (!A.isStringAttribute() || A.getValueAsString().getAsInteger(10, I))
    return std::nullopt;
  return I;
}

} // namespace tapestry
