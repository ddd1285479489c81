; The IR shape of shadow contexts (Passes/ShadowContexts.h):
; - __enzyme_context becomes the address of a constant descriptor of the
;   context; __enzyme_shadow the address of the lane's shadow global (at the
;   member's offset); __enzyme_zero_shadows a call of the context's zeroing
;   function, which zeroes every shadow of the context (a shadow holding a
;   pointer to another shadow is copied back from its initial value).
; - A request in a context uses the context's shadows: a read-only global
;   that the program queries gets one, and its loads get tangents.
; - A context of width 2 has a shadow per lane; its requests have width 2.
; - A descriptor's shadow points to the shadow of its data.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s

@enzyme_context = external global i32
@g = global double 2.0
@blk = global { double, double } { double 1.0, double 3.0 }
@data = global [2 x double] [double 1.0, double 2.0]
@desc = global { ptr, i64 } { ptr @data, i64 2 }

declare ptr @__enzyme_context(i32)
declare ptr @__enzyme_shadow(ptr, ptr, i32)
declare void @__enzyme_zero_shadows(ptr)
declare double @__enzyme_fwddiff(...)
declare [2 x double] @__enzyme_fwddiff2(...)
declare double @__enzyme_autodiff(...)

define double @f(double %x) {
entry:
  %gv = load double, ptr @g
  %b = load double, ptr getelementptr inbounds (i8, ptr @blk, i64 8)
  %m = fmul double %gv, %x
  %r = fadd double %m, %b
  ret double %r
}

define double @first(double %x) {
entry:
  %p = load ptr, ptr @desc
  %v = load double, ptr %p
  %r = fmul double %v, %x
  ret double %r
}

; CHECK-DAG: @tapestry.shadow_context.1 = private constant i32 1, !tapestry.shadow_context ![[C1:[0-9]+]]
; CHECK-DAG: @tapestry.shadow_context.2 = private constant i32 2, !tapestry.shadow_context ![[C2:[0-9]+]]
; CHECK-DAG: @g.tapestry.ctx1 = internal global double 0.000000e+00
; CHECK-DAG: @blk.tapestry.ctx1 = internal global { double, double } zeroinitializer
; CHECK-DAG: @g.tapestry.ctx2 = internal global double 0.000000e+00
; CHECK-DAG: @g.tapestry.ctx2.1 = internal global double 0.000000e+00
; CHECK-DAG: @desc.tapestry.ctx1 = internal global { ptr, i64 } { ptr @data.tapestry.ctx1, i64 2 }
; CHECK-DAG: @data.tapestry.ctx1 = internal global [2 x double] zeroinitializer
; CHECK-DAG: @desc.tapestry.ctx1.initial = private constant { ptr, i64 } { ptr @data.tapestry.ctx1, i64 2 }

; CHECK-LABEL: define double @width1(double %x)
; CHECK-NOT: __enzyme_
; CHECK: call void @tapestry.zero_shadows.1()
; CHECK: store double 1.000000e+00, ptr @g.tapestry.ctx1
; CHECK: store double 0.000000e+00, ptr getelementptr (i8, ptr @blk.tapestry.ctx1, i64 8)
; CHECK: call double @f.tapestry.fwd_d_ra_ctx1(double %x, double 0.000000e+00)
; CHECK: call double @first.tapestry.fwd_d_ra_ctx1(double %x, double 0.000000e+00)
define double @width1(double %x) {
entry:
  %ctx = call ptr @__enzyme_context(i32 1)
  %dg = call ptr @__enzyme_shadow(ptr %ctx, ptr @g, i32 0)
  %db = call ptr @__enzyme_shadow(ptr %ctx, ptr getelementptr inbounds (i8, ptr @blk, i64 8), i32 0)
  %dd = call ptr @__enzyme_shadow(ptr %ctx, ptr @desc, i32 0)
  call void @__enzyme_zero_shadows(ptr %ctx)
  store double 1.0, ptr %dg
  store double 0.0, ptr %db
  %t = call double (...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_context, ptr %ctx, double %x, double 0.0)
  %t2 = call double (...) @__enzyme_fwddiff(ptr @first, ptr @enzyme_context, ptr %ctx, double %x, double 0.0)
  %s = fadd double %t, %t2
  ret double %s
}

; CHECK-LABEL: define [2 x double] @width2(double %x)
; CHECK: store double 1.000000e+00, ptr @g.tapestry.ctx2.1
; CHECK: call [2 x double] @f.tapestry.fwd_d_ra_w2_ctx2(double %x, <2 x double> zeroinitializer)
define [2 x double] @width2(double %x) {
entry:
  %ctx = call ptr @__enzyme_context(i32 2)
  %dg1 = call ptr @__enzyme_shadow(ptr %ctx, ptr @g, i32 1)
  store double 1.0, ptr %dg1
  %t = call [2 x double] (...) @__enzyme_fwddiff2(ptr @f, ptr @enzyme_context, ptr %ctx, double %x, double 0.0, double 0.0)
  ret [2 x double] %t
}

; The zeroing function: every shadow of context 1.
; CHECK-LABEL: define internal void @tapestry.zero_shadows.1()
; CHECK-DAG: call void @llvm.memset.{{.*}}(ptr {{.*}}@g.tapestry.ctx1, i8 0, i64 8, i1 false)
; CHECK-DAG: call void @llvm.memset.{{.*}}(ptr {{.*}}@blk.tapestry.ctx1, i8 0, i64 16, i1 false)
; CHECK-DAG: call void @llvm.memset.{{.*}}(ptr {{.*}}@data.tapestry.ctx1, i8 0, i64 16, i1 false)
; CHECK-DAG: call void @llvm.memcpy.{{.*}}(ptr {{.*}}@desc.tapestry.ctx1, ptr {{.*}}@desc.tapestry.ctx1.initial, i64 16, i1 false)
; CHECK: ret void

; The descriptor's shadow gives the shadow of the data it points to.
; CHECK-LABEL: define internal double @first.tapestry.fwd_d_ra_ctx1(
; CHECK: %"p'" = load ptr, ptr @desc.tapestry.ctx1
; CHECK: %"v'" = load double, ptr %"p'"

; The forward derivative of f in context 1 reads the tangents of g and of
; blk.b from their shadows in the context.
; CHECK-LABEL: define internal double @f.tapestry.fwd_d_ra_ctx1(
; CHECK: %"gv'" = load double, ptr @g.tapestry.ctx1
; CHECK: %"b'" = load double, ptr getelementptr inbounds (i8, ptr @blk.tapestry.ctx1, i64 8)

; Width 2: both lanes' shadows.
; CHECK-LABEL: define internal [2 x double] @f.tapestry.fwd_d_ra_w2_ctx2(
; CHECK: load double, ptr @g.tapestry.ctx2,
; CHECK: load double, ptr @g.tapestry.ctx2.1,

; CHECK: ![[C1]] = !{i32 1, i32 1}
; CHECK: ![[C2]] = !{i32 2, i32 2}

