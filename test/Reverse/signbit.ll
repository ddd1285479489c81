; signbit of an active value (a bitcast to i64 and a signed comparison, as
; clang emits it) is not bit manipulation that would lose a derivative: the
; integer only feeds a comparison. g(x) = signbit(x) ? -x : x is
; differentiated in both modes, with derivative -1 where the sign bit is set
; and 1 elsewhere.
;
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: FileCheck %s --input-file=%t \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
; RUN: FileCheck %s --input-file=%t --check-prefix=REV
; RUN: FileCheck %s --input-file=%t --check-prefix=FWD

@enzyme_out = external global i32

declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

; g(x) = signbit(x) ? -x : x
define double @g(double %x) {
  %bits = bitcast double %x to i64
  %neg = icmp slt i64 %bits, 0
  %mx = fneg double %x
  %r = select i1 %neg, double %mx, double %x
  ret double %r
}

define double @grad(double %x) {
  %m = load i32, ptr @enzyme_out
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @g, i32 %m, double %x)
  ret double %d
}

define double @tangent(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @g, double %x, double 1.0)
  ret double %d
}

; CHECK-LABEL: define double @grad(
; CHECK:       call double @g.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CHECK-LABEL: define double @tangent(
; CHECK:       call double @g.tapestry.fwd_d_ra(double %x, double 1.000000e+00)

; REV-LABEL: define internal double @g.tapestry.rev_a_ra(double %x, double %seed)
; REV-DAG:   [[BITS:%.*]] = bitcast double %x to i64
; REV-DAG:   [[NEG:%.*]] = icmp slt i64 [[BITS]], 0
; REV-DAG:   [[M:%.*]] = {{fneg double|fsub double -?0.000000e\+00,}} %seed
; REV:       [[D:%.*]] = select i1 [[NEG]], double [[M]], double %seed
; REV-NEXT:  ret double [[D]]
; REV-LABEL: {{^}}}

; FWD-LABEL: define internal double @g.tapestry.fwd_d_ra(double %x, double %"x'")
; FWD-DAG:   [[BITS:%.*]] = bitcast double %x to i64
; FWD-DAG:   [[NEG:%.*]] = icmp slt i64 [[BITS]], 0
; FWD-DAG:   [[M:%.*]] = {{fneg double|fsub double -?0.000000e\+00,}} %"x'"
; FWD:       [[D:%.*]] = select i1 [[NEG]], double [[M]], double %"x'"
; FWD-NEXT:  ret double [[D]]
; FWD-LABEL: {{^}}}
