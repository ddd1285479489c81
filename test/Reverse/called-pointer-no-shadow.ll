; A pointer that is only called (here cast back from the integer a pointer
; to member function holds, as clang's member-pointer calls do) points to
; code, not data: it gets no shadow, and the call is dispatched on the
; primal pointer. Was "the pointer 'a pointer computed at run time (an
; integer cast to a pointer)' may point to differentiable memory but has no
; shadow". End to end: test/Integration/cpp-member-function-pointers.cpp.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
@enzyme_dup = external global i32
declare double @__enzyme_autodiff(ptr, ...)

define double @square(ptr %self, double %x) {
  %pa = getelementptr inbounds i8, ptr %self, i64 8
  %a = load double, ptr %pa
  %m = fmul double %x, %x
  %r = fmul double %a, %m
  ret double %r
}

define double @cube(ptr %self, double %x) {
  %pa = getelementptr inbounds i8, ptr %self, i64 8
  %a = load double, ptr %pa
  %m = fmul double %x, %x
  %c = fmul double %m, %x
  %r = fmul double %a, %c
  ret double %r
}

@table = constant [2 x ptr] [ptr @square, ptr @cube]

; (self->*mfp)(x) as clang emits it: an odd member pointer is a vtable
; offset plus one, an even one the function's address as an integer.
define double @f(ptr %self, double %x, i64 %mfp) {
entry:
  %virt = and i64 %mfp, 1
  %isv = icmp ne i64 %virt, 0
  br i1 %isv, label %v, label %nv
v:
  %vt = load ptr, ptr %self
  %off = sub i64 %mfp, 1
  %slot = getelementptr i8, ptr %vt, i64 %off
  %vf = load ptr, ptr %slot
  br label %call
nv:
  %nf = inttoptr i64 %mfp to ptr
  br label %call
call:
  %fp = phi ptr [ %vf, %v ], [ %nf, %nv ]
  %r = call double %fp(ptr %self, double %x)
  ret double %r
}

define double @grad(ptr %p, ptr %dp, double %x) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %p, ptr %dp, double %x, i64 ptrtoint (ptr @cube to i64))
  ret double %d
}

; CHECK-LABEL: define internal {{.*}} @f.tapestry.rev
; CHECK-NOT: %"nf'"
; CHECK-NOT: %"fp'"
; CHECK: icmp eq ptr %fp, @
; CHECK: ret double
