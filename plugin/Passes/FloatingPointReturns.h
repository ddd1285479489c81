//===- FloatingPointReturns.h - Adjoints returned in SSE regs ---*- C++ -*-===//
//
// A synthesised function returning three or four doubles (the adjoints of
// a kept callee's three active arguments) returns them, under the x86-64
// C convention, in XMM0, XMM1 and the x87 stack. LLVM 19 moves the x87
// value to an SSE register through memory with the legacy `movsd`, which
// its fast register allocator (-O0) can give XMM16 to under AVX-512: an
// encoding the processor refuses (SIGILL; fuzz seed 15374). Such functions,
// which only Tapestry calls, use the regcall convention instead, which
// returns every double in an SSE register.
//
//===----------------------------------------------------------------------===//
#ifndef TAPESTRY_PASSES_FLOATINGPOINTRETURNS_H
#define TAPESTRY_PASSES_FLOATINGPOINTRETURNS_H

namespace llvm {
class Module;
} // namespace llvm

namespace tapestry {

/// Gives the x86_regcallcc convention to each synthesised function of \p M
/// (x86-64, not Windows) that returns more doubles or floats than the C
/// convention puts in SSE registers and is only called directly, and to
/// its calls. Returns true if it changed any.
bool returnFloatingPointInRegisters(llvm::Module &M);

} // namespace tapestry

#endif // TAPESTRY_PASSES_FLOATINGPOINTRETURNS_H
