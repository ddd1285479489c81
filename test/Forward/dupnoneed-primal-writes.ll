; enzyme_dupnoneed on an output pointer: the derivative stores the tangent
; (forward) or reads the adjoint (reverse) through the shadow and leaves the
; primal memory alone, since the caller may pass an invalid pointer. An
; output the function reads back keeps its primal store.
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: %{fc} --check-prefix=FWD
; RUN: %{fc} --check-prefix=REV
; RUN: %{fc} --check-prefix=READ

@enzyme_dup = external global i32
@enzyme_dupnoneed = external global i32

declare void @__enzyme_fwddiff(ptr, ...)
declare void @__enzyme_autodiff(ptr, ...)
declare double @llvm.sin.f64(double)

; *out = sin(*x); out[1] = 0 (memset)
define void @f(ptr %x, ptr %out) {
  call void @llvm.memset.p0.i64(ptr %out, i8 0, i64 16, i1 false)
  %v = load double, ptr %x
  %s = call double @llvm.sin.f64(double %v)
  store double %s, ptr %out
  ret void
}

; *acc = *acc * *x: reads its output.
define void @g(ptr %x, ptr %acc) {
  %v = load double, ptr %x
  %a = load double, ptr %acc
  %m = fmul double %a, %v
  store double %m, ptr %acc
  ret void
}

define void @fwd(ptr %x, ptr %dx, ptr %dout) {
  call void (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dupnoneed, ptr inttoptr (i64 1 to ptr), ptr %dout)
  ret void
}

define void @rev(ptr %x, ptr %dx, ptr %dout) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dupnoneed, ptr null, ptr %dout)
  ret void
}

define void @read(ptr %x, ptr %dx, ptr %acc, ptr %dacc) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @g, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dupnoneed, ptr %acc, ptr %dacc)
  ret void
}

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

; FWD-LABEL: define internal void @f.tapestry.fwd{{.*}}(ptr %x, ptr %"x'", ptr %out, ptr %"out'")
; FWD-NOT: ptr %out,
; FWD-NOT: ptr %out{{$}}
; FWD: call void @llvm.memset.p0.i64({{.*}}%"out'", i8 0, i64 16, i1 false)
; FWD: store double %{{.*}}, ptr %"out'"
; FWD-NOT: ptr %out,
; FWD-NOT: ptr %out{{$}}
; FWD: ret void

; REV-LABEL: define internal void @f.tapestry.rev{{.*}}(ptr %x, ptr %"x'", ptr %out, ptr %"out'")
; REV-NOT: ptr %out,
; REV-NOT: ptr %out{{$}}
; REV: load double, ptr %"out'"
; REV-NOT: ptr %out,
; REV-NOT: ptr %out{{$}}
; REV: ret void

; READ-LABEL: define internal void @g.tapestry.rev{{.*}}(ptr %x, ptr %"x'", ptr %acc, ptr %"acc'")
; READ: load double, ptr %acc
; READ: store double %{{.*}}, ptr %acc
; READ: ret void
