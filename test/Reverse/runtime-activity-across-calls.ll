; Run-time activity across calls differentiated on their own
; (Analysis/RuntimeActivity.h):
;  - upward: a callee (@make) stores the enzyme_const pointer it is given
;    into the struct it is given; its derivative writes the pointer itself
;    (the marker) into the struct's shadow, so the caller must test what it
;    reads back there at run time;
;  - downward: the caller holds the constant pointer in a struct it passes
;    on; the callee's derivative is the "_rt" variant, told that the memory
;    behind its parameter (digit 2) and behind pointers read from there
;    (digit 4) may hold markers, and tests what it reads there;
;  - a callee that stores only a block it allocates itself (@init) marks
;    nothing: the caller pays no test.
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc} --check-prefix=UP
; RUN: %{fc} --check-prefix=DOWN
; RUN: %{fc} --check-prefix=DOWNCALLEE
; RUN: %{fc} --check-prefix=FRESH
@enzyme_dup = external global i32
@enzyme_const = external global i32

declare void @__enzyme_autodiff(ptr, ...)
declare noalias ptr @malloc(i64)

%struct.Diff = type { ptr, ptr, double }

; Stores the pointers it is given into the struct it is given (and a
; scale, floating-point work that keeps it a call): the constant %b's
; shadow there is %b itself (the marker).
define void @make(ptr %d, ptr %a, ptr %b, double %s) noinline {
  store ptr %a, ptr %d
  %f = getelementptr %struct.Diff, ptr %d, i64 0, i32 1
  store ptr %b, ptr %f
  %g = getelementptr %struct.Diff, ptr %d, i64 0, i32 2
  %s2 = fmul double %s, 2.0
  store double %s2, ptr %g
  ret void
}

; Stores a fresh block into the struct: no pointer it was given.
define void @init(ptr %d, ptr %unused, double %v) noinline {
  %m = call ptr @malloc(i64 8)
  %v2 = fmul double %v, %v
  store double %v2, ptr %m
  store ptr %m, ptr %d
  %f = getelementptr %struct.Diff, ptr %d, i64 0, i32 1
  store ptr %m, ptr %f
  ret void
}

; Reads both pointers of the struct it is given.
define double @use(ptr %d) noinline {
  %a = load ptr, ptr %d
  %f = getelementptr %struct.Diff, ptr %d, i64 0, i32 1
  %b = load ptr, ptr %f
  %x = load double, ptr %a
  %y = load double, ptr %b
  %r = fsub double %x, %y
  %s = fmul double %r, %r
  ret double %s
}

define double @upward(ptr %p, ptr %t) {
  %d = alloca %struct.Diff
  call void @make(ptr %d, ptr %p, ptr %t, double 0.5)
  %a = load ptr, ptr %d
  %f = getelementptr %struct.Diff, ptr %d, i64 0, i32 1
  %b = load ptr, ptr %f
  %x = load double, ptr %a
  %y = load double, ptr %b
  %r = fsub double %x, %y
  %s = fmul double %r, %r
  ret double %s
}

define double @downward(ptr %p, ptr %t) {
  %d = alloca %struct.Diff
  store ptr %p, ptr %d
  %f = getelementptr %struct.Diff, ptr %d, i64 0, i32 1
  store ptr %t, ptr %f
  %s = call double @use(ptr %d)
  ret double %s
}

define double @fresh(ptr %p, ptr %t) {
  %d = alloca %struct.Diff
  call void @init(ptr %d, ptr %t, double 3.0)
  %a = load ptr, ptr %d
  %x = load double, ptr %a
  %y = load double, ptr %p
  %s = fmul double %x, %y
  ret double %s
}

define void @grads(ptr %p, ptr %dp, ptr %t) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @upward, ptr @enzyme_dup, ptr %p, ptr %dp, ptr @enzyme_const, ptr %t)
  call void (ptr, ...) @__enzyme_autodiff(ptr @downward, ptr @enzyme_dup, ptr %p, ptr %dp, ptr @enzyme_const, ptr %t)
  call void (ptr, ...) @__enzyme_autodiff(ptr @fresh, ptr @enzyme_dup, ptr %p, ptr %dp, ptr @enzyme_const, ptr %t)
  ret void
}

; UP-LABEL: define internal void @upward.tapestry.rev_dc_ra(
; UP: call {{.*}} @make.tapestry.{{.*}}_rt{{[0-9]+}}.call.fwd(
; UP: %shadow.is.primal{{[0-9]*}} = icmp eq ptr %"b'", %b
; UP: %shadow.is.primal{{[0-9]*}} = icmp eq ptr %"a'", %a
; UP: ret void

; DOWN-LABEL: define internal void @downward.tapestry.rev_dc_ra(
; DOWN: store ptr %t, ptr %"f'"
; DOWN: call { ptr, double } @use.tapestry.split_d_ra_rt6.call.fwd(
; DOWN: ret void

; DOWNCALLEE-LABEL: define internal void @use.tapestry.split_d_ra_rt6.reverse(
; DOWNCALLEE-DAG: icmp eq ptr %"a'.tape", %a.tape
; DOWNCALLEE-DAG: icmp eq ptr %"b'.tape", %b.tape
; DOWNCALLEE: ret void

; FRESH-LABEL: define internal void @fresh.tapestry.rev_dc_ra(
; FRESH-NOT: shadow.is.primal
; FRESH-NOT: _rt
; FRESH: ret void
