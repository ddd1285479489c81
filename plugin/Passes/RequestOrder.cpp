//===- RequestOrder.cpp - The order of resolving requests -----------------===//
//
// Implements RequestOrder.h: reachableFunctions (calls, functions whose address
// reached code names, registered rules), setNestingDepths (a request's depth
// of nesting for Synthesis/FreedShadows and for the implicit shadows of
// globals), and orderRequests, which builds the
// graph of requests, functions and globals and walks it once with
// llvm::scc_iterator, reporting requests that depend on themselves or on each
// other.
//
//===----------------------------------------------------------------------===//
#include "Passes/RequestOrder.h"

#include "Analysis/GlobalShadows.h"
#include "Core/CustomRules.h"
#include "Synthesis/FreedShadows.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/GraphTraits.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include <deque>

#define DEBUG_TYPE "tapestry"

using namespace llvm;

namespace tapestry {

/// Adds to \p Out the functions with bodies and the globals with
/// initialisers that constant \p C names: itself, or through constant
/// expressions and aggregates. A function named also names the rules
/// registered for it (a call to it runs them instead of its body), whether
/// or not it has a body.
static void collectNamedGlobals(const Constant *C, const CustomRules &Rules,
                                SmallPtrSetImpl<const Constant *> &Seen,
                                SmallVectorImpl<GlobalObject *> &Out) {
  if (!Seen.insert(C).second)
    return;
  if (auto *F = dyn_cast<Function>(C)) {
    if (!F->isDeclaration())
      Out.push_back(const_cast<Function *>(F));
    for (Function *Rule : registeredRules(*F, Rules))
      collectNamedGlobals(Rule, Rules, Seen, Out);
    return;
  }
  if (auto *GV = dyn_cast<GlobalVariable>(C)) {
    if (GV->hasInitializer())
      Out.push_back(const_cast<GlobalVariable *>(GV));
    return;
  }
  if (isa<GlobalValue>(C))
    return;
  for (const Use &U : C->operands())
    if (auto *Op = dyn_cast<Constant>(U.get()))
      collectNamedGlobals(Op, Rules, Seen, Out);
}

/// The functions with bodies and globals with initialisers that \p G names:
/// in a function's instructions or a global's initialiser, with the rules
/// registered for the functions named (and for \p G itself).
static SmallVector<GlobalObject *, 8> namedGlobals(GlobalObject &G,
                                                   const CustomRules &Rules) {
  SmallPtrSet<const Constant *, 16> Seen;
  SmallVector<GlobalObject *, 8> Out;
  if (auto *GV = dyn_cast<GlobalVariable>(&G)) {
    collectNamedGlobals(GV->getInitializer(), Rules, Seen, Out);
    return Out;
  }
  auto &F = cast<Function>(G);
  for (Function *Rule : registeredRules(F, Rules))
    collectNamedGlobals(Rule, Rules, Seen, Out);
  for (Instruction &I : instructions(F))
    for (const Use &U : I.operands())
      if (auto *C = dyn_cast<Constant>(U.get()))
        collectNamedGlobals(C, Rules, Seen, Out);
  return Out;
}

SmallVector<Function *, 3> registeredRules(const Function &F,
                                           const CustomRules &Rules) {
  SmallVector<Function *, 3> Out;
  if (const CustomGradient *G = Rules.gradient(&F)) {
    Out.push_back(G->Augmented);
    Out.push_back(G->Reverse);
  }
  if (Function *Fwd = Rules.forwardDerivative(&F))
    Out.push_back(Fwd);
  erase_if(Out, [](Function *Rule) { return !Rule; });
  return Out;
}

SmallPtrSet<Function *, 16> reachableFunctions(ArrayRef<Function *> Roots,
                                               const CustomRules &Rules) {
  SmallPtrSet<Function *, 16> Functions;
  SmallPtrSet<GlobalObject *, 32> Seen;
  SmallVector<GlobalObject *, 16> Work;
  for (Function *F : Roots) {
    if (!F->isDeclaration() && Seen.insert(F).second)
      Work.push_back(F);
    // A root without a body is differentiated through its rules.
    if (F->isDeclaration())
      for (Function *Rule : registeredRules(*F, Rules))
        if (!Rule->isDeclaration() && Seen.insert(Rule).second)
          Work.push_back(Rule);
  }
  while (!Work.empty()) {
    GlobalObject *G = Work.pop_back_val();
    if (auto *F = dyn_cast<Function>(G))
      Functions.insert(F);
    for (GlobalObject *Next : namedGlobals(*G, Rules))
      if (Seen.insert(Next).second)
        Work.push_back(Next);
  }
  return Functions;
}

/// True if \p Target reaches one of \p Pieces as reachableFunctions follows
/// names: walks back from the pieces through what names them (instructions,
/// constant expressions and aggregates, initialisers of globals, and a
/// registration global to the function whose rules it registers), so the
/// cost is the code that reaches the pieces, not the code \p Target
/// reaches.
static bool reachesAny(const Function &Target, ArrayRef<Value *> Pieces,
                       const CustomRules &Rules) {
  SmallPtrSet<const Value *, 32> Seen;
  SmallVector<const Value *, 16> Work;
  for (Value *P : Pieces)
    if (Seen.insert(P).second)
      Work.push_back(P);
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (V == &Target)
      return true;
    for (const User *U : V->users()) {
      const Value *Next = nullptr;
      if (auto *I = dyn_cast<Instruction>(U)) {
        // A function with a body names what its instructions use.
        Next = I->getParent() ? I->getFunction() : nullptr;
      } else if (auto *GV = dyn_cast<GlobalVariable>(U)) {
        // A global names what its initialiser uses; a function with
        // registered rules names them (its derivatives call them).
        Next = U;
        for (const Use &Op : GV->getInitializer()->operands())
          if (auto *F = dyn_cast<Function>(Op.get()))
            if (!registeredRules(*F, Rules).empty() && Seen.insert(F).second)
              Work.push_back(F);
      } else if (isa<Constant>(U) && !isa<GlobalValue>(U)) {
        Next = U;
      }
      if (Next && Seen.insert(Next).second)
        Work.push_back(Next);
    }
  }
  return false;
}

/// R.FreedListDepth: one deeper than the lists of the derivatives \p R's
/// target runs, in reverse mode.
static void setFreedListDepth(DiffRequest &R, const CustomRules &Rules) {
  R.FreedListDepth = 0;
  if (R.Mode != DiffMode::Reverse || !R.Fn || R.Fn->isDeclaration())
    return;
  // A list at depth d exists only while one at d - 1 does (a derivative
  // using list d runs one that uses list d - 1), so the depths in use are
  // 0, 1, ... up to the first without pieces; most modules have none.
  const Module &M = *R.Fn->getParent();
  SmallVector<SmallVector<Value *, 4>, 2> PiecesAt;
  for (unsigned D = 0;; ++D) {
    SmallVector<Function *, 4> Pieces = freedListPieces(M, D);
    if (Pieces.empty())
      break;
    PiecesAt.emplace_back(Pieces.begin(), Pieces.end());
  }
  for (unsigned D = PiecesAt.size(); D-- > 0;)
    if (reachesAny(*R.Fn, PiecesAt[D], Rules)) {
      R.FreedListDepth = D + 1;
      return;
    }
}

/// R.GlobalDepth: one deeper than the implicit shadows of globals that the
/// derivatives \p R's target runs use (GlobalShadows.h).
static void setGlobalDepth(DiffRequest &R, const CustomRules &Rules) {
  R.GlobalDepth = 0;
  if (!R.Fn || R.Fn->isDeclaration())
    return;
  SmallVector<SmallVector<Value *, 4>, 2> ShadowsAt;
  for (GlobalVariable &GV : R.Fn->getParent()->globals())
    if (GlobalShadows::isImplicitShadow(GV)) {
      unsigned D = GlobalShadows::implicitShadowDepth(GV);
      if (ShadowsAt.size() <= D)
        ShadowsAt.resize(D + 1);
      ShadowsAt[D].push_back(&GV);
    }
  for (unsigned D = ShadowsAt.size(); D-- > 0;)
    if (!ShadowsAt[D].empty() && reachesAny(*R.Fn, ShadowsAt[D], Rules)) {
      R.GlobalDepth = D + 1;
      return;
    }
}

void setNestingDepths(DiffRequest &R, const CustomRules &Rules) {
  setFreedListDepth(R, Rules);
  setGlobalDepth(R, Rules);
}

namespace {

/// A request, a function or global, or the root that leads to every
/// request in the order given.
struct OrderNode {
  const PendingRequest *Req = nullptr;
  GlobalObject *Global = nullptr;
  SmallVector<OrderNode *, 4> Succs;
};

/// Requests lead to their targets, functions and globals to what they name
/// and functions also to the requests they make: a request is reachable
/// from another exactly when the other's target reaches the function that
/// makes it.
struct OrderGraph {
  OrderGraph(ArrayRef<PendingRequest> Pending, const CustomRules &Rules);

  OrderNode Root;

private:
  OrderNode *nodeOf(GlobalObject *G);

  const CustomRules &Rules;
  std::deque<OrderNode> Nodes;
  DenseMap<GlobalObject *, OrderNode *> NodeOf;
  DenseMap<Function *, SmallVector<OrderNode *, 2>> RequestsIn;
};

} // namespace

OrderGraph::OrderGraph(ArrayRef<PendingRequest> Pending,
                       const CustomRules &Rules)
    : Rules(Rules) {
  for (const PendingRequest &P : Pending) {
    OrderNode &N = Nodes.emplace_back();
    N.Req = &P;
    Root.Succs.push_back(&N);
    RequestsIn[P.CB->getFunction()].push_back(&N);
  }
  for (OrderNode *N : Root.Succs)
    if (Function *Target = requestTarget(*N->Req->CB)) {
      if (!Target->isDeclaration())
        N->Succs.push_back(nodeOf(Target));
      else
        for (Function *Rule : registeredRules(*Target, Rules))
          if (!Rule->isDeclaration())
            N->Succs.push_back(nodeOf(Rule));
    }
}

/// The node of \p G, made with its edges (and those of every global it
/// reaches) the first time.
OrderNode *OrderGraph::nodeOf(GlobalObject *G) {
  if (OrderNode *N = NodeOf.lookup(G))
    return N;
  SmallVector<OrderNode *, 16> Work;
  auto Make = [&](GlobalObject *Gl) {
    auto [It, New] = NodeOf.try_emplace(Gl, nullptr);
    if (New) {
      It->second = &Nodes.emplace_back();
      It->second->Global = Gl;
      Work.push_back(It->second);
    }
    return It->second;
  };
  OrderNode *First = Make(G);
  while (!Work.empty()) {
    OrderNode *N = Work.pop_back_val();
    for (GlobalObject *Next : namedGlobals(*N->Global, Rules))
      N->Succs.push_back(Make(Next));
    if (auto *F = dyn_cast<Function>(N->Global))
      append_range(N->Succs, RequestsIn.lookup(F));
  }
  return First;
}

} // namespace tapestry

namespace llvm {
template <> struct GraphTraits<tapestry::OrderGraph *> {
  using NodeRef = tapestry::OrderNode *;
  using ChildIteratorType = SmallVectorImpl<NodeRef>::iterator;
  static NodeRef getEntryNode(tapestry::OrderGraph *G) { return &G->Root; }
  static ChildIteratorType child_begin(NodeRef N) { return N->Succs.begin(); }
  static ChildIteratorType child_end(NodeRef N) { return N->Succs.end(); }
};
} // namespace llvm

namespace tapestry {

SmallVector<OrderedRequest, 8> orderRequests(ArrayRef<PendingRequest> Pending,
                                             const CustomRules &Rules) {
  OrderGraph G(Pending, Rules);
  SmallVector<OrderedRequest, 8> Order;
  // Strongly connected components come dependencies first: a request's
  // after those its target reaches.
  for (scc_iterator<OrderGraph *> I = scc_begin(&G); !I.isAtEnd(); ++I) {
    bool InCycle = I.hasCycle();
    for (OrderNode *N : *I) {
      if (!N->Req)
        continue;
      Ordering How = Ordering::Resolve;
      if (InCycle) {
        // Only here (a request that cannot be resolved) does one target's
        // reach get walked again.
        Function *Target = requestTarget(*N->Req->CB);
        How = Target && reachableFunctions({Target}, Rules)
                            .count(N->Req->CB->getFunction())
                  ? Ordering::DependsOnItself
                  : Ordering::Cycle;
      }
      LLVM_DEBUG(dbgs() << "tapestry: resolve the request in "
                        << N->Req->CB->getFunction()->getName()
                        << (How == Ordering::Resolve ? "" : " (cycle)")
                        << "\n");
      Order.push_back({*N->Req, How});
    }
  }
  return Order;
}

} // namespace tapestry
