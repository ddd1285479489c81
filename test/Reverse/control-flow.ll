; Reverse mode through control flow: select (the adjoint goes to the chosen
; operand), a phi joining two branches (the reverse sweep replays the branch
; taken, in reverse, and sends the phi's adjoint to the incoming value of that
; edge), and a switch with three successors joining in a phi. The branches
; call C library functions, which are not speculated, so the CFG survives
; into the derivative.
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc} --check-prefix=CALL \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
; RUN: %{fc} --check-prefix=SELECT
; RUN: %{fc} --check-prefix=PHI
; RUN: %{fc} --check-prefix=SWITCH

@enzyme_out = external global i32
@enzyme_const = external global i32

declare double @__enzyme_autodiff(ptr, ...)
declare { double, double } @__enzyme_autodiff_dd(ptr, ...)

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

define void @test(double %x, double %y, i32 %k, ptr %out) {
  %m = load i32, ptr @enzyme_out
  %c = load i32, ptr @enzyme_const
  %r1 = call { double, double } (ptr, ...) @__enzyme_autodiff_dd(ptr @select_, i32 %m, double %x, i32 %m, double %y)
  store { double, double } %r1, ptr %out
  %r2 = call { double, double } (ptr, ...) @__enzyme_autodiff_dd(ptr @phi_, i32 %m, double %x, i32 %m, double %y)
  store { double, double } %r2, ptr %out
  %r3 = call double (ptr, ...) @__enzyme_autodiff(ptr @switch_, i32 %m, double %x, i32 %c, i32 %k)
  store double %r3, ptr %out
  ret void
}

; CALL-LABEL: define void @test(
; CALL:      [[R1:%.*]] = call { double, double } @select_.tapestry.rev_aa_ra(double %x, double %y, double 1.000000e+00)
; CALL-NEXT: store { double, double } [[R1]], ptr %out
; CALL:      [[R2:%.*]] = call { double, double } @phi_.tapestry.rev_aa_ra(double %x, double %y, double 1.000000e+00)
; CALL-NEXT: store { double, double } [[R2]], ptr %out
; CALL:      [[R3:%.*]] = call double @switch_.tapestry.rev_ac_ra(double %x, i32 %k, double 1.000000e+00)
; CALL-NEXT: store double [[R3]], ptr %out
; CALL:      ret void

; The adjoint goes to x where x < y, to y elsewhere.
; SELECT-LABEL: define internal { double, double } @select_.tapestry.rev_aa_ra(double %x, double %y, double %seed)
; SELECT-DAG:   [[C:%.*]] = fcmp olt double %x, %y
; SELECT-DAG:   [[DX:%.*]] = select i1 [[C]], double %seed, double 0.000000e+00
; SELECT-DAG:   [[DY:%.*]] = select i1 [[C]], double 0.000000e+00, double %seed
; SELECT:       [[V0:%.*]] = insertvalue { double, double } poison, double [[DX]], 0
; SELECT:       [[V1:%.*]] = insertvalue { double, double } [[V0]], double [[DY]], 1
; SELECT:       ret { double, double } [[V1]]
; SELECT-LABEL: {{^}}}

; The forward sweep keeps the branch; the reverse sweep branches on the same
; condition into a block per incoming edge: the then-edge multiplies cos(x)
; by r's adjoint (seed * x), the else-edge multiplies exp(y), kept from the
; forward sweep, by it. Both fall into the block that returns the adjoints:
; x gets r * seed from the product (and cos(x) * r's adjoint on the
; then-edge), y gets exp(y) * r's adjoint on the else-edge and zero on the
; then-edge. Every product's contribution is strong-zero guarded:
; select(adjoint == 0, 0, partial * adjoint).
; PHI-LABEL: define internal { double, double } @phi_.tapestry.rev_aa_ra(double %x, double %y, double %seed)
; PHI:       [[C:%.*]] = fcmp olt double %x, %y
; PHI-NEXT:  br i1 [[C]], label %[[THEN:.*]], label %[[ELSE:.*]]
; PHI:       [[THEN]]:
; PHI-NEXT:  [[A:%.*]] = call double @sin(double %x)
; PHI:       [[ELSE]]:
; PHI-NEXT:  [[B:%.*]] = call double @exp(double %y)
; PHI-DAG:   [[KEPT:%.*]] = phi double [ {{undef|poison}}, %[[THEN]] ], [ [[B]], %[[ELSE]] ]
; PHI-DAG:   [[R:%.*]] = phi double [ [[A]], %[[THEN]] ], [ [[B]], %[[ELSE]] ]
; PHI-DAG:   [[Z:%.*]] = fcmp oeq double %seed, 0.000000e+00
; PHI-DAG:   [[TR:%.*]] = fmul double %x, %seed
; PHI-DAG:   [[NAN_DR:%.*]] = fcmp uno double [[TR]], {{.*}}
; PHI-DAG:   [[DROP_DR:%.*]] = and i1 [[Z]], [[NAN_DR]]
; PHI-DAG:   [[DR:%.*]] = select i1 [[DROP_DR]], double 0.000000e+00, double [[TR]]
; PHI-DAG:   [[TX:%.*]] = fmul double [[R]], %seed
; PHI-DAG:   [[NAN_DXM:%.*]] = fcmp uno double [[TX]], {{.*}}
; PHI-DAG:   [[DROP_DXM:%.*]] = and i1 [[Z]], [[NAN_DXM]]
; PHI-DAG:   [[DXM:%.*]] = select i1 [[DROP_DXM]], double 0.000000e+00, double [[TX]]
; PHI-DAG:   [[COND:%.*]] = icmp eq i1 [[C]], true
; PHI-DAG:   br i1 [[COND]], label %[[RTHEN:.*]], label %[[RELSE:.*]]
; PHI-DAG:   [[COS:%.*]] = call double @llvm.cos.f64(double %x)
; PHI-DAG:   [[TC:%.*]] = fmul double [[COS]], [[DR]]
; PHI-DAG:   [[SC:%.*]] = select i1 [[DROP_SC:%.*]], double 0.000000e+00, double [[TC]]
; PHI-DAG:   [[DROP_SC]] = and i1 [[ZC:%.*]], [[NAN_SC:%.*]]
; PHI-DAG:   [[ZC]] = fcmp oeq double [[DR]], 0.000000e+00
; PHI-DAG:   [[NAN_SC]] = fcmp uno double [[TC]], {{.*}}
; PHI-DAG:   [[DXT:%.*]] = fadd double [[DXM]], [[SC]]
; PHI-DAG:   [[TB:%.*]] = fmul double [[KEPT]], [[DR]]
; PHI-DAG:   [[SB:%.*]] = select i1 [[DROP_SB:%.*]], double 0.000000e+00, double [[TB]]
; PHI-DAG:   [[DROP_SB]] = and i1 [[ZB:%.*]], [[NAN_SB:%.*]]
; PHI-DAG:   [[ZB]] = fcmp oeq double [[DR]], 0.000000e+00
; PHI-DAG:   [[NAN_SB]] = fcmp uno double [[TB]], {{.*}}
; PHI-DAG:   [[DY:%.*]] = phi double [ [[SB]], %[[RELSE]] ], [ {{-?}}0.000000e+00, %[[RTHEN]] ]
; PHI-DAG:   [[DX:%.*]] = phi double [ [[DXM]], %[[RELSE]] ], [ [[DXT]], %[[RTHEN]] ]
; PHI-DAG:   [[V0:%.*]] = insertvalue { double, double } poison, double [[DX]], 0
; PHI-DAG:   [[V1:%.*]] = insertvalue { double, double } [[V0]], double [[DY]], 1
; PHI-DAG:   ret { double, double } [[V1]]
; PHI-LABEL: {{^}}}

; Each of the three edges into the join gets its own reverse block with the
; (the sin case needs nothing from the forward sweep, so its case block is
; gone and case 0 jumps to the join)
; partial of its case: cos(x) for sin, -sin(x) for cos, exp(x) (kept from the
; forward sweep) for exp. The join records which edge was taken and the
; reverse sweep switches on that record to the block of the same edge, whose
; strong-zero guarded contribution the return phi takes from it.
; SWITCH-LABEL: define internal double @switch_.tapestry.rev_ac_ra(double %x, i32 %k, double %seed)
; SWITCH:       switch i32 %k, label %[[OTHER:.*]] [
; SWITCH-NEXT:    i32 0, label %rev.{{join|start}}
; SWITCH-NEXT:    i32 1, label %[[ONE:.*]]
; SWITCH-NEXT:  ]
; SWITCH-DAG:   [[E:%.*]] = call double @exp(double %x)
; SWITCH-DAG:   [[KEPT:%.*]] = phi double [ [[E]], %[[OTHER]] ], [ {{undef|poison}}, %[[ONE]] ], [ {{undef|poison}}, %entry ]
; SWITCH-DAG:   [[PID:%.*]] = phi i32 [ 0, %[[OTHER]] ], [ 1, %[[ONE]] ], [ 2, %entry ]
; SWITCH:       switch i32 [[PID]], label %[[ROTHER:.*]] [
; SWITCH-NEXT:    i32 1, label %[[RONE:.*]]
; SWITCH-NEXT:    i32 2, label %[[RZERO:.*]]
; SWITCH-NEXT:  ]
; SWITCH-DAG:   [[COS:%.*]] = call double @llvm.cos.f64(double %x)
; SWITCH-DAG:   [[T0:%.*]] = fmul double [[COS]], %seed
; SWITCH-DAG:   [[D0:%.*]] = select i1 [[DROP_D0:%.*]], double 0.000000e+00, double [[T0]]
; SWITCH-DAG:   [[DROP_D0]] = and i1 [[Z0:%.*]], [[NAN_D0:%.*]]
; SWITCH-DAG:   [[Z0]] = fcmp oeq double %seed, 0.000000e+00
; SWITCH-DAG:   [[NAN_D0]] = fcmp uno double [[T0]], {{.*}}
; SWITCH-DAG:   [[SIN:%.*]] = call double @llvm.sin.f64(double %x)
; SWITCH-DAG:   [[NS:%.*]] = {{fneg double|fsub double 0.000000e\+00,}} [[SIN]]
; SWITCH-DAG:   [[T1:%.*]] = fmul double [[NS]], %seed
; SWITCH-DAG:   [[D1:%.*]] = select i1 [[DROP_D1:%.*]], double 0.000000e+00, double [[T1]]
; SWITCH-DAG:   [[DROP_D1]] = and i1 [[Z1:%.*]], [[NAN_D1:%.*]]
; SWITCH-DAG:   [[Z1]] = fcmp oeq double %seed, 0.000000e+00
; SWITCH-DAG:   [[NAN_D1]] = fcmp uno double [[T1]], {{.*}}
; SWITCH-DAG:   [[T2:%.*]] = fmul double [[KEPT]], %seed
; SWITCH-DAG:   [[D2:%.*]] = select i1 [[DROP_D2:%.*]], double 0.000000e+00, double [[T2]]
; SWITCH-DAG:   [[DROP_D2]] = and i1 [[Z2:%.*]], [[NAN_D2:%.*]]
; SWITCH-DAG:   [[Z2]] = fcmp oeq double %seed, 0.000000e+00
; SWITCH-DAG:   [[NAN_D2]] = fcmp uno double [[T2]], {{.*}}
; SWITCH-DAG:   [[DX:%.*]] = phi double [ [[D2]], %[[ROTHER]] ], [ [[D0]], %[[RZERO]] ], [ [[D1]], %[[RONE]] ]
; SWITCH-DAG:   ret double [[DX]]
; SWITCH-LABEL: {{^}}}
