; An address rounded up through an integer (a hand-made aligned allocator:
; inttoptr((ptrtoint(p) & -32) + 32)) has a shadow: p's shadow at the
; same byte offset, right whatever the shadow block's alignment (rounding
; the shadow itself would move it by a different amount when its
; alignment differs from p's). And strtod's end
; pointer, a pointer into the text stored through its second argument, has
; one: the same offset into the text's shadow.
; RUN: %opt -passes=tapestry,verify -S %s -o %t
; RUN: FileCheck %s --input-file=%t --check-prefix=ROUND
; RUN: FileCheck %s --input-file=%t --check-prefix=CURSOR
@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)
declare double @strtod(ptr, ptr)

define double @rounded(ptr %x) {
  %orig = call ptr @malloc(i64 64)
  %a = ptrtoint ptr %orig to i64
  %m = and i64 %a, -32
  %r = add i64 %m, 32
  %al = inttoptr i64 %r to ptr
  %v = load double, ptr %x
  %sq = fmul double %v, %v
  store double %sq, ptr %al
  %w = load double, ptr %al
  call void @free(ptr %orig)
  ret double %w
}

define double @cursor(ptr %text, ptr %x) {
  %slot = alloca ptr
  %n = call double @strtod(ptr %text, ptr %slot)
  %end = load ptr, ptr %slot
  %c = load double, ptr %end
  %v = load double, ptr %x
  %r = fmul double %v, %c
  ret double %r
}

define void @grad(ptr %x, ptr %dx, ptr %t, ptr %dt) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @rounded, ptr @enzyme_dup, ptr %x, ptr %dx)
  call void (ptr, ...) @__enzyme_autodiff(ptr @cursor, ptr @enzyme_dup, ptr %t, ptr %dt, ptr @enzyme_dup, ptr %x, ptr %dx)
  ret void
}

; ROUND-LABEL: define internal void @rounded.tapestry.rev_d_ra(
; ROUND: %"orig'" = call {{.*}}ptr @malloc(i64 64)
; ROUND: %a = ptrtoint ptr %orig to i64
; ROUND: %r = add i64 %m, 32
; ROUND: %al.offset = sub i64 %r, %a
; ROUND-NEXT: %"al'" = getelementptr i8, ptr %"orig'", i64 %al.offset
; ROUND: load double, ptr %"al'"

; The adjoint of the number read through the end pointer goes to the
; text's shadow at the same offset.
; CURSOR-LABEL: define internal void @cursor.tapestry.rev_dd_ra(
; CURSOR: call double @strtod(ptr %text, ptr {{.*}}%slot)
; CURSOR-NEXT: %strto.end = load ptr, ptr %slot
; CURSOR: [[OFF:%.*]] = sub i64
; CURSOR-NEXT: [[SEND:%.*]] = getelementptr i8, ptr %"text'", i64 [[OFF]]
; CURSOR: [[ADJ:%.*]] = load double, ptr [[SEND]]
; CURSOR: store double {{%.*}}, ptr [[SEND]]
