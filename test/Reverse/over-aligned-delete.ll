; Blocks from C++17 over-aligned operator new (new(size_t, align_val_t)) are
; heap blocks: the shadow comes from the same call with the same alignment,
; and every block or shadow Tapestry frees itself goes back through the
; aligned delete with that alignment, by way of an internal one-argument
; wrapper (tapestry.delete.align<N>, tapestry.delete_array.align<N>) that
; the free lists and the loop block lists can call like free.
; Gradient of @f: the reverse frees the shadow of one block. Thunk of @g:
; a block per iteration is kept in the loop block list, whose release frees
; block and shadow with the array form.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare void @__enzyme_autodiff(...)
declare ptr @__tapestry_thunk(...)
declare ptr @_ZnwmSt11align_val_t(i64, i64)
declare void @_ZdlPvSt11align_val_t(ptr, i64)
declare ptr @_ZnamSt11align_val_t(i64, i64)
declare void @_ZdaPvSt11align_val_t(ptr, i64)
declare double @llvm.sin.f64(double)
@enzyme_dup = external global i32
@enzyme_const = external global i32

; f(x) = sin(x) * x through a 32-byte-aligned block holding sin(x) twice,
; read at index k (0 or 1): a read at a known index would be folded into
; the stored value, and a block written and freed unread is deleted before
; differentiation.
define double @f(ptr %x, i64 %k) {
entry:
  %b = call ptr @_ZnwmSt11align_val_t(i64 32, i64 32)
  %x0 = load double, ptr %x
  %s = call double @llvm.sin.f64(double %x0)
  store double %s, ptr %b
  %b1 = getelementptr double, ptr %b, i64 1
  store double %s, ptr %b1
  %bk = getelementptr double, ptr %b, i64 %k
  %y = load double, ptr %bk
  %r = fmul double %y, %x0
  call void @_ZdlPvSt11align_val_t(ptr %b, i64 32)
  ret double %r
}

define void @grad(ptr %x, ptr %dx, i64 %k) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  call void (...) @__enzyme_autodiff(ptr @f, i32 %d, ptr %x, ptr %dx, i32 %c, i64 %k)
  ret void
}

; g(x, n) = sum_i sin(x_i) * x_i through a 64-byte-aligned block per i
; (read at index k likewise).
define double @g(ptr %x, i64 %n, i64 %k) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %loop ]
  %b = call ptr @_ZnamSt11align_val_t(i64 64, i64 64)
  %xi = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %xi
  %s = call double @llvm.sin.f64(double %v)
  store double %s, ptr %b
  %b1 = getelementptr double, ptr %b, i64 1
  store double %s, ptr %b1
  %bk = getelementptr double, ptr %b, i64 %k
  %y = load double, ptr %bk
  %p = fmul double %y, %v
  %acc.next = fadd double %acc, %p
  call void @_ZdaPvSt11align_val_t(ptr %b, i64 64)
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %acc.next
}

define ptr @thunk() {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %t = call ptr (...) @__tapestry_thunk(ptr @g, i32 %d, i32 %c, i32 %c)
  ret ptr %t
}

; CHECK-LABEL: define internal void @f.tapestry.rev_dc_ra(
; CHECK:         %"b'" = call {{.*}}ptr @_ZnwmSt11align_val_t(i64 32, i64 32)
; CHECK:         call void @tapestry.delete.align32(ptr nonnull %"b'")
; CHECK-NOT:     call void @free(ptr {{.*}}%"b'")
; CHECK:         ret void

; CHECK-LABEL: define internal void @tapestry.delete.align32(ptr %0)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void @_ZdlPvSt11align_val_t(ptr %0, i64 32)
; CHECK-NEXT:    ret void

; CHECK-LABEL: define internal void @tapestry.delete_array.align64(ptr %0)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void @_ZdaPvSt11align_val_t(ptr %0, i64 64)
; CHECK-NEXT:    ret void

; The forward half allocates block and shadow with the same aligned call.
; CHECK-LABEL: define internal double @g.tapestry.split_dcc_ra.augmented(
; CHECK:         %b = call {{.*}}ptr @_ZnamSt11align_val_t(i64 64, i64 64)
; CHECK:         %"b'" = call {{.*}}ptr @_ZnamSt11align_val_t(i64 64, i64 64)

; CHECK-LABEL: define internal void @g.tapestry.split_dcc_ra.release(
; CHECK:         call void @tapestry.loopblocks.release.tapestry.delete_array.align64(

; CHECK-LABEL: define internal void @tapestry.loopblocks.release.tapestry.delete_array.align64(
; CHECK:         %block = load ptr
; CHECK-NEXT:    call void @tapestry.delete_array.align64(ptr %block)
; CHECK:         %shadow = load ptr
; CHECK-NEXT:    call void @tapestry.delete_array.align64(ptr %shadow)
; CHECK-NOT:     call void @free(ptr %block)
; CHECK-NOT:     call void @free(ptr %shadow)
