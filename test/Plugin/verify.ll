; Every synthesised function passes the IR verifier, on inputs whose
; derivatives need more than straight-line code: nested loops over a
; duplicated array, an in-place update with an early exit, a three-way switch
; inside a loop, a loop-carried product, and scratch memory from malloc filled
; by memcpy. opt fails if `verify` finds a broken function; the checks make
; sure each request was synthesised (in both modes) and its call replaced.
; The plugin also verifies each derivative itself before simplifying it, and
; reports an internal error instead of emitting it.
;
; RUN: %opt -passes=tapestry,verify -S %s \
; RUN:   | FileCheck %s --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
; RUN: %opt -passes='tapestry,verify,default<O2>,verify' -disable-output %s

@enzyme_dup = external global i32
@enzyme_const = external global i32
@enzyme_out = external global i32

declare double @llvm.exp.f64(double)
declare double @sin(double)
declare double @cos(double)
declare double @hypot(double, double)
declare ptr @malloc(i64)
declare void @free(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_autodiff_d(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare void @__enzyme_fwddiff_v(ptr, ...)

; sum over i < n, j < m of exp(a[i + j]^2)
define double @nest(ptr %a, i32 %n, i32 %m) {
entry:
  br label %outer

outer:
  %i = phi i32 [ 0, %entry ], [ %i1, %outer.latch ]
  %acc = phi double [ 0.0, %entry ], [ %s, %outer.latch ]
  br label %inner

inner:
  %j = phi i32 [ 0, %outer ], [ %j1, %inner ]
  %acc1 = phi double [ %acc, %outer ], [ %s, %inner ]
  %k = add i32 %i, %j
  %ke = sext i32 %k to i64
  %p = getelementptr inbounds double, ptr %a, i64 %ke
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  %e = call double @llvm.exp.f64(double %sq)
  %s = fadd double %acc1, %e
  %j1 = add i32 %j, 1
  %cj = icmp slt i32 %j1, %m
  br i1 %cj, label %inner, label %outer.latch

outer.latch:
  %i1 = add i32 %i, 1
  %ci = icmp slt i32 %i1, %n
  br i1 %ci, label %outer, label %exit

exit:
  ret double %s
}

; a[i] = sin(a[i]) * b[i] for i < n, stopping after the first negative value
define void @update(ptr %a, ptr %b, i32 %n) {
entry:
  %none = icmp sle i32 %n, 0
  br i1 %none, label %exit, label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %next ]
  %ie = zext i32 %i to i64
  %pa = getelementptr inbounds double, ptr %a, i64 %ie
  %pb = getelementptr inbounds double, ptr %b, i64 %ie
  %va = load double, ptr %pa
  %vb = load double, ptr %pb
  %sn = call double @sin(double %va)
  %m = fmul double %sn, %vb
  store double %m, ptr %pa
  %neg = fcmp olt double %m, 0.0
  br i1 %neg, label %exit, label %next

next:
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

; a loop whose body switches on i mod 3
define double @cycle(double %x, i32 %n) {
entry:
  br label %head

head:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  %acc = phi double [ %x, %entry ], [ %v, %latch ]
  %r = urem i32 %i, 3
  switch i32 %r, label %c2 [
    i32 0, label %c0
    i32 1, label %c1
  ]

c0:
  %a = call double @sin(double %acc)
  br label %latch

c1:
  %b = call double @cos(double %acc)
  br label %latch

c2:
  %c = fmul double %acc, %x
  br label %latch

latch:
  %v = phi double [ %a, %c0 ], [ %b, %c1 ], [ %c, %c2 ]
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %head, label %exit

exit:
  ret double %v
}

; hypot of a two-double struct copied into malloc'ed scratch memory
define double @scratch(ptr %p) {
  %buf = call ptr @malloc(i64 16)
  call void @llvm.memcpy.p0.p0.i64(ptr %buf, ptr %p, i64 16, i1 false)
  %x = load double, ptr %buf
  %yp = getelementptr inbounds { double, double }, ptr %buf, i32 0, i32 1
  %y = load double, ptr %yp
  %h = call double @hypot(double %x, double %y)
  call void @free(ptr %buf)
  ret double %h
}

define void @test(ptr %a, ptr %da, ptr %b, ptr %db, double %x, i32 %n, i32 %m, ptr %out) {
  %dup = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %o = load i32, ptr @enzyme_out
  call void (ptr, ...) @__enzyme_autodiff(ptr @nest, i32 %dup, ptr %a, ptr %da, i32 %c, i32 %n, i32 %c, i32 %m)
  call void (ptr, ...) @__enzyme_autodiff(ptr @update, ptr %a, ptr %da, ptr %b, ptr %db, i32 %n)
  %r1 = call double (ptr, ...) @__enzyme_autodiff_d(ptr @cycle, i32 %o, double %x, i32 %n)
  store double %r1, ptr %out
  call void (ptr, ...) @__enzyme_autodiff(ptr @scratch, ptr %a, ptr %da)
  %t1 = call double (ptr, ...) @__enzyme_fwddiff(ptr @nest, ptr %a, ptr %da, i32 %n, i32 %m)
  store double %t1, ptr %out
  call void (ptr, ...) @__enzyme_fwddiff_v(ptr @update, ptr %a, ptr %da, i32 %c, ptr %b, i32 %n)
  %t2 = call double (ptr, ...) @__enzyme_fwddiff(ptr @cycle, double %x, double 1.0, i32 %n)
  store double %t2, ptr %out
  %t3 = call double (ptr, ...) @__enzyme_fwddiff(ptr @scratch, ptr %a, ptr %da)
  store double %t3, ptr %out
  ret void
}

; CHECK-LABEL: define void @test(
; CHECK:       call void @nest.tapestry.rev_dcc_ra(ptr %a, ptr %da, i32 %n, i32 %m, double 1.000000e+00)
; CHECK:       call void @update.tapestry.rev_ddc(ptr %a, ptr %da, ptr %b, ptr %db, i32 %n)
; CHECK:       call double @cycle.tapestry.rev_ac_ra(double %x, i32 %n, double 1.000000e+00)
; CHECK:       call void @scratch.tapestry.rev_d_ra(ptr %a, ptr %da, double 1.000000e+00)
; CHECK:       call double @nest.tapestry.fwd_dcc_ra(ptr %a, ptr %da, i32 %n, i32 %m)
; CHECK:       call void @update.tapestry.fwd_dcc(ptr %a, ptr %da, ptr %b, i32 %n)
; CHECK:       call double @cycle.tapestry.fwd_dc_ra(double %x, double 1.000000e+00, i32 %n)
; CHECK:       call double @scratch.tapestry.fwd_d_ra(ptr %a, ptr %da)
; CHECK:       ret void

; CHECK-DAG:   define internal void @nest.tapestry.rev_dcc_ra(
; CHECK-DAG:   define internal void @update.tapestry.rev_ddc(
; CHECK-DAG:   define internal double @cycle.tapestry.rev_ac_ra(
; CHECK-DAG:   define internal void @scratch.tapestry.rev_d_ra(
; CHECK-DAG:   define internal double @nest.tapestry.fwd_dcc_ra(
; CHECK-DAG:   define internal void @update.tapestry.fwd_dcc(
; CHECK-DAG:   define internal double @cycle.tapestry.fwd_dc_ra(
; CHECK-DAG:   define internal double @scratch.tapestry.fwd_d_ra(
