; An integer loaded and both stored (a one-element memcpy lowered to i64)
; and, through the SLP vectoriser, inserted into an <N x i64> that is
; bitcast to <N x double> (fuzz seed 5802). Preparation builds the vector
; of doubles from a load of the double, so the integer load only copies
; bytes: its store moves the shadow bytes forward and the adjoint of the
; double back, and the vector's element 0 adds its own adjoint to c[0].
;
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: FileCheck %s --input-file=%t --check-prefix=REV
; RUN: FileCheck %s --input-file=%t --check-prefix=FWD
; RUN: FileCheck %s --input-file=%t --check-prefix=ROUND

@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare double @llvm.vector.reduce.fadd.v2f64(double, <2 x double>)

define double @g(ptr %a, ptr %c) {
  %w = load i64, ptr %c
  %d = getelementptr i8, ptr %a, i64 8
  store i64 %w, ptr %d
  %c1p = getelementptr i8, ptr %c, i64 8
  %c1 = load double, ptr %c1p
  %v0 = insertelement <2 x i64> poison, i64 %w, i64 0
  %v = bitcast <2 x i64> %v0 to <2 x double>
  %v1 = insertelement <2 x double> %v, double %c1, i64 1
  %m = fmul <2 x double> %v1, %v1
  %s = call double @llvm.vector.reduce.fadd.v2f64(double -0.0, <2 x double> %m)
  ret double %s
}

define void @rev(ptr %a, ptr %da, ptr %c, ptr %dc) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @g, ptr @enzyme_dup, ptr %a, ptr %da, ptr @enzyme_dup, ptr %c, ptr %dc)
  ret void
}

define double @fwd(ptr %a, ptr %da, ptr %c, ptr %dc) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @g, ptr @enzyme_dup, ptr %a, ptr %da, ptr @enzyme_dup, ptr %c, ptr %dc)
  ret double %r
}

; REV-LABEL: define internal void @g.tapestry.rev_dd_ra(
; REV:       %[[ADJ:.*]] = fadd <2 x double>
; REV-DAG:   %[[E1:.*]] = extractelement <2 x double> %[[ADJ]], i64 1
; REV-DAG:   %[[E0:.*]] = extractelement <2 x double> %[[ADJ]], i64 0
; REV:       %[[OLD1:.*]] = load double, ptr %"c1p'"
; REV-NEXT:  %[[NEW1:.*]] = fadd double %[[OLD1]], %[[E1]]
; REV-NEXT:  store double %[[NEW1]], ptr %"c1p'"
; The copy's adjoint: a[1]'s adjoint into the loaded word's slot ...
; REV-NEXT:  call void @tapestry.parts.adjoint.p0.0double(ptr %"d'", ptr nonnull %w.adj, i64 8)
; REV-NEXT:  %[[OLD0:.*]] = load double, ptr %"c'"
; REV-NEXT:  %[[NEW0:.*]] = fadd double %[[OLD0]], %[[E0]]
; REV-NEXT:  store double %[[NEW0]], ptr %"c'"
; ... and the slot into c[0]'s adjoint.
; REV-NEXT:  call void @tapestry.parts.adjoint.p0.0double(ptr nonnull %w.adj, ptr nonnull %"c'", i64 8)
; REV-NEXT:  ret void

; FWD-LABEL: define internal double @g.tapestry.fwd_dd_ra(
; FWD:       %[[T:.*]] = load i64, ptr %"c'"
; FWD:       store i64 %[[T]], ptr %"d'"
; FWD:       %[[TV:.*]] = insertelement <2 x i64> poison, i64 %[[T]], i64 0
; FWD-NEXT:  %[[TD:.*]] = bitcast <2 x i64> %[[TV]] to <2 x double>
; FWD:       %"v1'" = insertelement <2 x double> %[[TD]], double %"c1'", i64 1
; FWD:       %"s'" = call double @llvm.vector.reduce.fadd.v2f64(

; A computed double made an integer and inserted (the SLP vectoriser's
; shape when it packs a value it also stored as i64): the element is the
; double itself, so its derivative flows (it was "a double is reinterpreted
; as a long here"). d/dy of exp(y)^2 is 2 exp(y)^2 = 2 e * e.
define double @round(ptr %c, double %y) {
  %x = load double, ptr %c
  %e = call double @llvm.exp.f64(double %y)
  %ei = bitcast double %e to i64
  %v0 = insertelement <2 x i64> poison, i64 %ei, i64 0
  %v = bitcast <2 x i64> %v0 to <2 x double>
  %v1 = insertelement <2 x double> %v, double %x, i64 1
  %m = fmul <2 x double> %v1, %v1
  %s = call double @llvm.vector.reduce.fadd.v2f64(double -0.0, <2 x double> %m)
  ret double %s
}
declare double @llvm.exp.f64(double)

define double @rev_round(ptr %c, ptr %dc, double %y) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @round, ptr @enzyme_dup, ptr %c, ptr %dc, double %y)
  ret double %r
}

; ROUND-LABEL: define internal double @round.tapestry.rev_da_ra(
; ROUND:       %e = call double @llvm.exp.f64(double %y)
; ROUND-NEXT:  %[[V:.*]] = insertelement <2 x double> poison, double %e, i64 0
; ROUND:       %[[ADJ:.*]] = fadd <2 x double>
; ROUND:       %[[E0:.*]] = extractelement <2 x double> %[[ADJ]], i64 0
; ROUND:       fmul double %e, %[[E0]]
