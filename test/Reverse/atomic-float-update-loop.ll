; A compare-exchange loop that retries until it has added (clang's C11
; _Atomic double +=, libstdc++'s std::atomic<double>::fetch_add) is an
; atomic add: the derivative adds to the global with atomicrmw, reads the
; adjoint of the addend from the global's shadow (which it has because the
; global is written), and keeps no compare-exchange of the bits. Without
; Synthesis/AtomicFloatUpdates this was refused as bit manipulation.
; RUN: %opt -passes=tapestry -S %s | FileCheck %s
; CHECK-LABEL: define internal double @add.tapestry.rev
; CHECK-NOT: cmpxchg
; CHECK: atomicrmw fadd ptr @total, double
; CHECK-NOT: cmpxchg
; CHECK: store double %{{.*}}, ptr @total.tapestry.shadow
; CHECK: %[[ADJ:.*]] = load atomic double, ptr @total.tapestry.shadow
; CHECK: fmul double %[[ADJ]], %x
; CHECK-NOT: cmpxchg
; CHECK: ret double

@total = global double 0.0
@enzyme_out = external global i32

define double @add(double %x) {
entry:
  %sq = fmul double %x, %x
  %start = load atomic double, ptr @total seq_cst, align 8
  br label %retry

retry:
  %old = phi double [ %start, %entry ], [ %found, %retry ]
  %new = fadd double %old, %sq
  %oldbits = bitcast double %old to i64
  %newbits = bitcast double %new to i64
  %pair = cmpxchg ptr @total, i64 %oldbits, i64 %newbits seq_cst seq_cst, align 8
  %foundbits = extractvalue { i64, i1 } %pair, 0
  %ok = extractvalue { i64, i1 } %pair, 1
  %found = bitcast i64 %foundbits to double
  br i1 %ok, label %done, label %retry

done:
  %r = load atomic double, ptr @total seq_cst, align 8
  ret double %r
}

define double @grad(double %x) {
  %o = load i32, ptr @enzyme_out
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @add, i32 %o, double %x)
  ret double %d
}

declare double @__enzyme_autodiff(ptr, ...)
