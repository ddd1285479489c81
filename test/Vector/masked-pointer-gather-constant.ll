; A gather of pointers from a table that also holds a pointer to constant
; data (an enzyme_const argument stored beside a duplicated one): whether
; each gathered pointer is constant is only known at run time (its shadow
; is the pointer itself, Enzyme's runtime activity). The gather of doubles
; through them tests shadow == pointer lane by lane: the tangent is zero in
; those lanes, and the reverse sweep sends their adjoints to a scratch slot
; instead of the constant memory. The run checks the gradient and that the
; constant array is not written (Inputs/masked-pointer-constant-main.c).
;
; RUN: %opt -passes=tapestry -S %s -o %t.ll
; RUN: FileCheck %s --input-file=%t.ll
; RUN: %plain_cc -O1 -Wno-override-module %t.ll %S/Inputs/masked-pointer-constant-main.c \
; RUN:   -lm -o %t && %t | FileCheck %s --check-prefix=EXEC
; EXEC-NOT: FAIL
; EXEC: ALL PASSED

; CHECK-LABEL: define internal void @mixed.tapestry.rev_cd_ra(
; CHECK: %shadow.is.primal = icmp ne <2 x ptr> %"ps'", %ps
; CHECK: %[[L0:.*]] = extractelement <2 x i1> %shadow.is.primal, i64 0
; CHECK: br i1 %[[L0]]
; CHECK: %[[L1:.*]] = extractelement <2 x i1> %shadow.is.primal, i64 1
; CHECK: br i1 %[[L1]]
; CHECK-LABEL: define internal double @mixed.tapestry.fwd_cd_ra(
; CHECK: %[[G:.*]] = call <2 x double> @llvm.masked.gather.v2f64.v2p0(<2 x ptr> %"ps'"
; CHECK: %shadow.is.primal = icmp eq <2 x ptr> %"ps'", %ps
; CHECK: %"g'" = select <2 x i1> %shadow.is.primal, <2 x double> zeroinitializer, <2 x double> %[[G]]

@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare <2 x ptr> @llvm.masked.gather.v2p0.v2p0(<2 x ptr>, i32, <2 x i1>, <2 x ptr>)
declare <2 x double> @llvm.masked.gather.v2f64.v2p0(<2 x ptr>, i32, <2 x i1>, <2 x double>)
declare double @llvm.vector.reduce.fadd.v2f64(double, <2 x double>)

define double @mixed(ptr %c, ptr %d) {
  %tab = alloca [2 x ptr], align 8
  %s1 = getelementptr inbounds ptr, ptr %tab, i64 1
  store ptr %c, ptr %tab, align 8
  store ptr %d, ptr %s1, align 8
  %v0 = insertelement <2 x ptr> poison, ptr %tab, i64 0
  %v1 = insertelement <2 x ptr> %v0, ptr %s1, i64 1
  %ps = call <2 x ptr> @llvm.masked.gather.v2p0.v2p0(<2 x ptr> %v1, i32 8, <2 x i1> <i1 true, i1 true>, <2 x ptr> poison)
  %g = call <2 x double> @llvm.masked.gather.v2f64.v2p0(<2 x ptr> %ps, i32 8, <2 x i1> <i1 true, i1 true>, <2 x double> poison)
  %sq = fmul <2 x double> %g, %g
  %r = call double @llvm.vector.reduce.fadd.v2f64(double 0.0, <2 x double> %sq)
  ret double %r
}

define void @grad_mixed(ptr %c, ptr %d, ptr %dd) {
  %dup = load i32, ptr @enzyme_dup
  %k = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @mixed, i32 %k, ptr %c, i32 %dup, ptr %d, ptr %dd)
  ret void
}

define double @tan_mixed(ptr %c, ptr %d, ptr %td) {
  %dup = load i32, ptr @enzyme_dup
  %k = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @mixed, i32 %k, ptr %c, i32 %dup, ptr %d, ptr %td)
  ret double %r
}
