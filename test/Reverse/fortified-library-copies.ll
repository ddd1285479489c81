; glibc's checked copy (-D_FORTIFY_SOURCE) and a plain memset call
; (-fno-builtin) in a differentiated function: they become LLVM's
; intrinsics, the checked copy after its check (n > dstlen calls
; __chk_fail), and the reverse moves the copied adjoints. Refused before
; ("no derivative is known for external function '__memcpy_chk'").
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s

declare ptr @__memcpy_chk(ptr, ptr, i64, i64)
declare ptr @memset(ptr, i32, i64)
declare void @__enzyme_autodiff(...)

define double @f(ptr %x, i64 %n) {
entry:
  %buf = alloca [4 x double], align 16
  %z = call ptr @memset(ptr %buf, i32 0, i64 32)
  %bytes = shl i64 %n, 3
  %c = call ptr @__memcpy_chk(ptr %buf, ptr %x, i64 %bytes, i64 32)
  %a = load double, ptr %buf, align 16
  %p1 = getelementptr inbounds double, ptr %buf, i64 1
  %b = load double, ptr %p1, align 8
  %m = fmul double %a, %b
  ret double %m
}

define void @gradient(ptr %x, ptr %dx, i64 %n) {
  call void (...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx, i64 %n)
  ret void
}

; CHECK-LABEL: define internal void @f.tapestry.rev_dc_ra(
; CHECK-NOT: call ptr @memset
; CHECK: %[[OVER:.*]] = icmp ugt i64 %{{.*}}, 32
; CHECK: br i1 %[[OVER]]
; CHECK: call void @__chk_fail()
; CHECK-NEXT: unreachable
; CHECK-NOT: call ptr @__memcpy_chk
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}%buf, ptr {{.*}}%x, i64 %bytes
; CHECK: call void @tapestry.parts.adjoint.p8.0double(
; CHECK: ret void
