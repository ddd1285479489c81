; Constant addresses on the path where a buffer is null: the -O3 pipeline
; folds `&g[2]` and `g[26] = -a[0]` on the path where g stayed null (a
; buffer grown from null by realloc in a loop that may not run) into
; `inttoptr (i64 16 to ptr)` merged into a phi of real addresses, and a
; store of an active value to `inttoptr (i64 208 to ptr)`. No object lies
; behind such an address, so it is its own shadow and a store to it loses
; nothing. Were "the pointer 'a constant pointer' may point to
; differentiable memory but has no shadow" and "an active value is stored
; to memory that has no shadow (a constant pointer)" (fuzz seeds 13885 and
; 14516, staged -O3 -march=native). Shapes, then a run against analytic
; derivatives of r = g[2] (g[0] + g[1]) = x (a1 x + a0) for m > 0 (the
; null path is undefined and never taken):
; dr/dx = 2 a1 x + a0, dr/da1 = x^2, dr/da0 = x.
; RUN: %opt -passes=tapestry -S %s -o %t.ll
; RUN: FileCheck %s --input-file=%t.ll
; RUN: %plain_cc -O1 -Wno-override-module %t.ll %S/Inputs/constant-addresses-main.c -lm -o %t && %t | FileCheck %s --check-prefix=EXEC
; EXEC-NOT: FAIL
; EXEC: ALL PASSED
; The preparation's GVN moves the load of g[2] into the paths; the array
; summed in a loop keeps its phi, whose shadow takes the constant as it is.
; CHECK-LABEL: define internal {{.*}} @f.tapestry.rev
; CHECK: store double %n, ptr inttoptr (i64 208 to ptr)
; CHECK: phi ptr [ %g, %alloc ], [ inttoptr (i64 8 to ptr), %none ]
; CHECK: phi ptr [ %"g'", %alloc ], [ inttoptr (i64 8 to ptr), %none ]
; CHECK: ret
; CHECK-LABEL: define internal {{.*}} @f.tapestry.fwd
; CHECK: store double %n, ptr inttoptr (i64 208 to ptr)
; CHECK: phi ptr [ %g, %alloc ], [ inttoptr (i64 8 to ptr), %none ]
; CHECK: phi ptr [ %"g'", %alloc ], [ inttoptr (i64 8 to ptr), %none ]
; CHECK: ret

@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)

define double @f(double %x, ptr %a, i32 %m) {
entry:
  %pos = icmp sgt i32 %m, 0
  br i1 %pos, label %alloc, label %none
alloc:
  %g = call ptr @malloc(i64 64)
  %a1p = getelementptr inbounds i8, ptr %a, i64 8
  %a1 = load double, ptr %a1p, align 8
  %v = fmul double %a1, %x
  store double %v, ptr %g, align 8
  %a0g = load double, ptr %a, align 8
  %g1 = getelementptr inbounds i8, ptr %g, i64 8
  store double %a0g, ptr %g1, align 8
  %g2 = getelementptr inbounds i8, ptr %g, i64 16
  store double %x, ptr %g2, align 8
  br label %join
none:
  %a0 = load double, ptr %a, align 8
  %n = fneg double %a0
  store double %n, ptr inttoptr (i64 208 to ptr), align 16
  br label %join
join:
  %p = phi ptr [ %g2, %alloc ], [ inttoptr (i64 16 to ptr), %none ]
  %q = phi ptr [ %g, %alloc ], [ inttoptr (i64 8 to ptr), %none ]
  %base = phi ptr [ %g, %alloc ], [ null, %none ]
  %y = load double, ptr %p, align 8
  br label %sum
sum:
  %i = phi i64 [ 0, %join ], [ %i.next, %sum ]
  %acc = phi double [ 0.0, %join ], [ %acc.next, %sum ]
  %qi = getelementptr inbounds double, ptr %q, i64 %i
  %z = load double, ptr %qi, align 8
  %acc.next = fadd double %acc, %z
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, 2
  br i1 %more, label %sum, label %done
done:
  %r = fmul double %y, %acc.next
  call void @free(ptr %base)
  ret double %r
}

define double @grad_f(double %x, ptr %a, ptr %da, i32 %m) {
  %dup = load i32, ptr @enzyme_dup
  %const = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %dup, ptr %a, ptr %da, i32 %const, i32 %m)
  ret double %r
}

define double @tangent_f(double %x, double %dx, ptr %a, ptr %da, i32 %m) {
  %dup = load i32, ptr @enzyme_dup
  %const = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %dup, double %x, double %dx, i32 %dup, ptr %a, ptr %da, i32 %const, i32 %m)
  ret double %r
}
