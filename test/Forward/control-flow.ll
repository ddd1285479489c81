; Forward mode through control flow: select (the tangent of the chosen
; operand), a phi joining two branches (each branch computes its tangent next
; to its value, and a tangent phi joins them), and a switch with three
; successors joining in a phi. The branches call C library functions, which
; are not speculated, so the CFG survives into the derivative.
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc} --check-prefix=CALL \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
; RUN: %{fc} --check-prefix=SELECT
; RUN: %{fc} --check-prefix=PHI
; RUN: %{fc} --check-prefix=SWITCH

@enzyme_dup = external global i32
@enzyme_const = external global i32

declare double @__enzyme_fwddiff(ptr, ...)

declare double @sin(double)
declare double @cos(double)
declare double @exp(double)

; select_(x, y) = x < y ? x : y
define double @select_(double %x, double %y) {
  %c = fcmp olt double %x, %y
  %r = select i1 %c, double %x, double %y
  ret double %r
}

; phi_(x, y) = (x < y ? sin(x) : exp(y)) * x
define double @phi_(double %x, double %y) {
entry:
  %c = fcmp olt double %x, %y
  br i1 %c, label %then, label %else

then:
  %a = call double @sin(double %x)
  br label %join

else:
  %b = call double @exp(double %y)
  br label %join

join:
  %r = phi double [ %a, %then ], [ %b, %else ]
  %m = fmul double %r, %x
  ret double %m
}

; switch_(x, k) = k == 0 ? sin(x) : k == 1 ? cos(x) : exp(x)
define double @switch_(double %x, i32 %k) {
entry:
  switch i32 %k, label %other [
    i32 0, label %zero
    i32 1, label %one
  ]

zero:
  %a = call double @sin(double %x)
  br label %join

one:
  %b = call double @cos(double %x)
  br label %join

other:
  %e = call double @exp(double %x)
  br label %join

join:
  %r = phi double [ %a, %zero ], [ %b, %one ], [ %e, %other ]
  ret double %r
}

define void @test(double %x, double %dx, double %y, double %dy, i32 %n, ptr %out) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %r1 = call double (ptr, ...) @__enzyme_fwddiff(ptr @select_, i32 %d, double %x, double %dx, i32 %d, double %y, double %dy)
  store double %r1, ptr %out
  %r2 = call double (ptr, ...) @__enzyme_fwddiff(ptr @phi_, i32 %d, double %x, double %dx, i32 %d, double %y, double %dy)
  store double %r2, ptr %out
  %r3 = call double (ptr, ...) @__enzyme_fwddiff(ptr @switch_, i32 %d, double %x, double %dx, i32 %c, i32 %n)
  store double %r3, ptr %out
  ret void
}

; CALL-LABEL: define void @test(
; CALL:      [[R1:%.*]] = call double @select_.tapestry.fwd_dd_ra(double %x, double %dx, double %y, double %dy)
; CALL-NEXT: store double [[R1]], ptr %out
; CALL:      call double @phi_.tapestry.fwd_dd_ra(double %x, double %dx, double %y, double %dy)
; CALL:      [[R3:%.*]] = call double @switch_.tapestry.fwd_dc_ra(double %x, double %dx, i32 %n)
; CALL-NEXT: store double [[R3]], ptr %out
; CALL:      ret void

; SELECT-LABEL: define internal double @select_.tapestry.fwd_dd_ra(double %x, double %"x'", double %y, double %"y'")
; SELECT-DAG:   [[C:%.*]] = fcmp olt double %x, %y
; SELECT-DAG:   [[T:%.*]] = select i1 [[C]], double %"x'", double %"y'"
; SELECT:       ret double [[T]]
; SELECT-LABEL: {{^}}}

; phi_ = r x with r = sin(x) or exp(y): r' x + r x', r' = cos(x) x' on the
; then-edge and exp(y) y' on the else-edge.
; PHI-LABEL: define internal double @phi_.tapestry.fwd_dd_ra(double %x, double %"x'", double %y, double %"y'")
; PHI:       [[C:%.*]] = fcmp olt double %x, %y
; PHI-NEXT:  br i1 [[C]], label %[[THEN:.*]], label %[[ELSE:.*]]
; PHI:       [[THEN]]:
; PHI-NEXT:  [[A:%.*]] = call double @sin(double %x)
; PHI-NEXT:  [[COS:%.*]] = call double @llvm.cos.f64(double %x)
; PHI-NEXT:  [[TA:%.*]] = fmul double [[COS]], %"x'"
; PHI:       [[ELSE]]:
; PHI-NEXT:  [[B:%.*]] = call double @exp(double %y)
; PHI-NEXT:  [[TB:%.*]] = fmul double [[B]], %"y'"
; PHI-DAG:   [[R:%.*]] = phi double [ [[A]], %[[THEN]] ], [ [[B]], %[[ELSE]] ]
; PHI-DAG:   [[TR:%.*]] = phi double [ [[TA]], %[[THEN]] ], [ [[TB]], %[[ELSE]] ]
; PHI-DAG:   [[M1:%.*]] = fmul double [[TR]], %x
; PHI-DAG:   [[M2:%.*]] = fmul double [[R]], %"x'"
; PHI:       [[T:%.*]] = fadd double [[M1]], [[M2]]
; PHI-NEXT:  ret double [[T]]
; PHI-LABEL: {{^}}}

; Each case computes its partial (cos(x), -sin(x), exp(x)); the primal sin
; and cos results are unused and dropped (exp's is its own partial); the join
; multiplies the one of the case taken by x'.
; SWITCH-LABEL: define internal double @switch_.tapestry.fwd_dc_ra(double %x, double %"x'", i32 %k)
; SWITCH:       switch i32 %k, label %[[OTHER:.*]] [
; SWITCH-NEXT:    i32 0, label %[[ZERO:.*]]
; SWITCH-NEXT:    i32 1, label %[[ONE:.*]]
; SWITCH-NEXT:  ]
; SWITCH-DAG:   [[COS:%.*]] = call double @llvm.cos.f64(double %x)
; SWITCH-DAG:   [[SIN:%.*]] = call double @llvm.sin.f64(double %x)
; SWITCH-DAG:   fneg double [[SIN]]
; SWITCH-DAG:   call double @exp(double %x)
; SWITCH-DAG:   phi double
; SWITCH-DAG:   [[T:%.*]] = fmul double {{%.*}}, %"x'"
; SWITCH:       ret double [[T]]
; SWITCH-LABEL: {{^}}}
