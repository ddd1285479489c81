; A value read out of a wide floating-point vector load through integers,
; of another type than the vector's lanes: optimised IR (GVN forwarding a
; wide load to the narrow loads it covers) reads the double of a
; {float w; double x} struct out of a <4 x float> as bits 64..127, and the
; int members of {int; double} structs out of <N x double> the same way.
; Such a value is loaded again from its own bytes where the wide load reads
; them, so it is the memory's own (a double with its own adjoint, an int
; with none) instead of "a vector of 4 float reinterpreted as a 128-bit
; integer". test/Vector/struct-int-members-in-wide-load.c runs the int case.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
@enzyme_dup = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @f(ptr %p) {
  %v = load <4 x float>, ptr %p, align 8
  %w = extractelement <4 x float> %v, i64 0
  %bits = bitcast <4 x float> %v to i128
  %hi = lshr i128 %bits, 64
  %xi = trunc i128 %hi to i64
  %x = bitcast i64 %xi to double
  %wd = fpext float %w to double
  %r = fmul double %wd, %x
  ret double %r
}

define void @g(ptr %p, ptr %dp) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %p, ptr %dp)
  ret void
}

; CHECK-LABEL: define internal void @f.tapestry.rev
; CHECK: %[[XP:.*]] = getelementptr inbounds i8, ptr %p, i64 8
; CHECK: %[[DXP:.*]] = getelementptr inbounds i8, ptr %"p'", i64 8
; CHECK: %xi.reloaded = load double, ptr %[[XP]]
; CHECK-NOT: lshr
; The adjoint of x (w * seed) goes to the double at byte 8 of the shadow.
; CHECK: %[[DX:.*]] = fmul double %wd, %seed
; CHECK: load double, ptr %[[DXP]]
; CHECK: store double {{.*}}, ptr %[[DXP]]
; The <4 x float> load's adjoint goes to lane 0 only: the other lanes of
; its shadow hold x's adjoint, whose bytes are kept as they are (adding
; 0.0f to them as floats would turn a signalling-NaN pattern or -0.0 in
; them into other bits).
; CHECK: %[[OLD:.*]] = load <4 x float>, ptr %"p'"
; CHECK-NEXT: %[[SUM:.*]] = fadd <4 x float> %[[OLD]],
; CHECK-NEXT: %[[KEPT:.*]] = shufflevector <4 x float> %[[SUM]], <4 x float> %[[OLD]], <4 x i32> <i32 0, i32 5, i32 6, i32 7>
; CHECK-NEXT: store <4 x float> %[[KEPT]], ptr %"p'"
