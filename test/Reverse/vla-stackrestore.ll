; A variable-length array (clang's `double tmp[n]`: llvm.stacksave, a
; dynamic alloca, llvm.stackrestore at the end of its scope). In reverse
; mode the array and its shadow must outlive the forward sweep: the reverse
; sweep accumulates into the shadow after the scope has ended, and memory
; released by stackrestore is reused by the calls that follow (a silently
; wrong gradient before). The derivative drops the stackrestore (the stack
; is released when it returns). The run checks
; d/dx_i of sum_i sin(x_i)^2 = 2 sin(x_i) cos(x_i).
;
; RUN: %opt -passes=tapestry -S %s -o %t.ll
; RUN: FileCheck %s --input-file=%t.ll
; RUN: %plain_cc -O0 -Wno-override-module %t.ll -x c %S/Inputs/vla-main.c -lm -o %t && %t | FileCheck %s --check-prefix=EXEC
; EXEC-NOT: FAIL
; EXEC: ALL PASSED

; CHECK-LABEL: define internal void @squares.tapestry.rev_dc_ra(
; CHECK: %tmp = alloca double, i64 %n
; CHECK: %"tmp'" = alloca double, i64 %n
; CHECK-NOT: call void @llvm.stackrestore
; CHECK: ret void

@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare double @sin(double)
declare ptr @llvm.stacksave.p0()
declare void @llvm.stackrestore.p0(ptr)

; double tmp[n]; tmp[i] = sin(x[i]); s = sum tmp[i] * tmp[i]
define double @squares(ptr %x, i64 %n) {
entry:
  %save = call ptr @llvm.stacksave.p0()
  %tmp = alloca double, i64 %n, align 16
  br label %fill

fill:
  %i = phi i64 [ 0, %entry ], [ %i1, %fill ]
  %px = getelementptr inbounds double, ptr %x, i64 %i
  %xv = load double, ptr %px, align 8
  %sv = call double @sin(double %xv)
  %pt = getelementptr inbounds double, ptr %tmp, i64 %i
  store double %sv, ptr %pt, align 8
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %fill, label %sum

sum:
  %j = phi i64 [ 0, %fill ], [ %j1, %sum ]
  %acc = phi double [ 0.0, %fill ], [ %acc1, %sum ]
  %pj = getelementptr inbounds double, ptr %tmp, i64 %j
  %t = load double, ptr %pj, align 8
  %sq = fmul double %t, %t
  %acc1 = fadd double %acc, %sq
  %j1 = add i64 %j, 1
  %more2 = icmp ult i64 %j1, %n
  br i1 %more2, label %sum, label %done

done:
  call void @llvm.stackrestore.p0(ptr %save)
  ret double %acc1
}

define void @grad_squares(ptr %x, ptr %dx, i64 %n) {
  %dup = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @squares, i32 %dup, ptr %x, ptr %dx, i32 %c, i64 %n)
  ret void
}

define double @tan_squares(ptr %x, ptr %tx, i64 %n) {
  %dup = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @squares, i32 %dup, ptr %x, ptr %tx, i32 %c, i64 %n)
  ret double %r
}
