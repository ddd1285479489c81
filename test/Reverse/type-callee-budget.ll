; The type analysis looks into callees once per call site and path, so a
; call tree with several calls per function grows exponentially with the
; depth it looks: eight calls per level over the twelve levels of the
; retry before an untyped copy is rejected would be 8^12 callee copies.
; A budget of callee bodies per analysed function bounds it; the first
; path down is followed to the end, so types deep in the tree are still
; seen. What the budget leaves unseen is unknown, and an untyped copy of
; unknown memory is an error that names the option raising the budget.
;
; RUN: %opt -passes='print<tapestry-types>' -tapestry-type-callee-budget=10 \
; RUN:   -disable-output %s 2>&1 | FileCheck %s --check-prefix=PRINT
; RUN: %opt -passes=tapestry -S %s | FileCheck %s --check-prefix=DEEP
; RUN: not %opt -passes=tapestry -tapestry-type-callee-budget=5 -S %s \
; RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUDGET

@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

; PRINT-LABEL: types of 'f':
; PRINT:       callee budget reached: 10 callee bodies analysed, the rest unseen
; PRINT-LABEL: types of 'g7':
; PRINT-NOT:   callee budget

; The eight bytes copied into %tmp are read as a double only in @g7, seven
; levels down: past the four levels of the first analysis, within the
; retry's twelve, and on the first path the retry follows.
; DEEP-LABEL: define internal void @f.tapestry.rev_
; DEEP:       call void @g1.tapestry.split_dd.call.rev(
; DEEP-NEXT:  call void @tapestry.parts.adjoint.p0.0double(ptr nonnull %"tmp'", ptr %"x'", i64 8)
; DEEP-LABEL: {{^}}}

; With a budget of five callee bodies the retry stops at @g5.
; BUDGET: cannot tell what the memory this instruction copies holds
; BUDGET-SAME: stopped after looking into 5 callee bodies
; BUDGET-SAME: -mllvm -tapestry-type-callee-budget=N

define void @f(ptr %x, ptr %out) {
  %tmp = alloca [8 x i8]
  call void @llvm.memcpy.p0.p0.i64(ptr %tmp, ptr %x, i64 8, i1 false)
  call void @g1(ptr %tmp, ptr %out)
  ret void
}

define void @g1(ptr %t, ptr %out) noinline {
  call void @g2(ptr %t, ptr %out)
  call void @g2(ptr %t, ptr %out)
  call void @g2(ptr %t, ptr %out)
  call void @g2(ptr %t, ptr %out)
  call void @g2(ptr %t, ptr %out)
  call void @g2(ptr %t, ptr %out)
  call void @g2(ptr %t, ptr %out)
  call void @g2(ptr %t, ptr %out)
  ret void
}

define void @g2(ptr %t, ptr %out) noinline {
  call void @g3(ptr %t, ptr %out)
  call void @g3(ptr %t, ptr %out)
  call void @g3(ptr %t, ptr %out)
  call void @g3(ptr %t, ptr %out)
  call void @g3(ptr %t, ptr %out)
  call void @g3(ptr %t, ptr %out)
  call void @g3(ptr %t, ptr %out)
  call void @g3(ptr %t, ptr %out)
  ret void
}

define void @g3(ptr %t, ptr %out) noinline {
  call void @g4(ptr %t, ptr %out)
  call void @g4(ptr %t, ptr %out)
  call void @g4(ptr %t, ptr %out)
  call void @g4(ptr %t, ptr %out)
  call void @g4(ptr %t, ptr %out)
  call void @g4(ptr %t, ptr %out)
  call void @g4(ptr %t, ptr %out)
  call void @g4(ptr %t, ptr %out)
  ret void
}

define void @g4(ptr %t, ptr %out) noinline {
  call void @g5(ptr %t, ptr %out)
  call void @g5(ptr %t, ptr %out)
  call void @g5(ptr %t, ptr %out)
  call void @g5(ptr %t, ptr %out)
  call void @g5(ptr %t, ptr %out)
  call void @g5(ptr %t, ptr %out)
  call void @g5(ptr %t, ptr %out)
  call void @g5(ptr %t, ptr %out)
  ret void
}

define void @g5(ptr %t, ptr %out) noinline {
  call void @g6(ptr %t, ptr %out)
  call void @g6(ptr %t, ptr %out)
  call void @g6(ptr %t, ptr %out)
  call void @g6(ptr %t, ptr %out)
  call void @g6(ptr %t, ptr %out)
  call void @g6(ptr %t, ptr %out)
  call void @g6(ptr %t, ptr %out)
  call void @g6(ptr %t, ptr %out)
  ret void
}

define void @g6(ptr %t, ptr %out) noinline {
  call void @g7(ptr %t, ptr %out)
  call void @g7(ptr %t, ptr %out)
  call void @g7(ptr %t, ptr %out)
  call void @g7(ptr %t, ptr %out)
  call void @g7(ptr %t, ptr %out)
  call void @g7(ptr %t, ptr %out)
  call void @g7(ptr %t, ptr %out)
  call void @g7(ptr %t, ptr %out)
  ret void
}

define void @g7(ptr %t, ptr %out) noinline {
  %v = load double, ptr %t
  %o = load double, ptr %out
  %s = fadd double %o, %v
  store double %s, ptr %out
  ret void
}

define void @grad(ptr %x, ptr %dx, ptr %out, ptr %dout) {
  %d = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %d, ptr %x, ptr %dx, i32 %d, ptr %out, ptr %dout)
  ret void
}
