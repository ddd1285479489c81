; A gather of pointers from a table that also holds a pointer to constant
; data (an enzyme_const argument stored beside a duplicated one): whether
; each gathered pointer is constant is only known at run time, and the
; gather of doubles through them cannot test it yet, so the program is
; rejected with a clear error, never differentiated into the constant
; memory (test/Fuzz/constptr-gather-constant-table.c is the XFAIL for
; differentiating it).
;
; RUN: not %opt -passes=tapestry -S %s -o /dev/null 2>&1 | FileCheck %s
; CHECK: cannot differentiate 'mixed': argument 1 of this call is a pointer read from memory that also holds pointers to constant data

@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)
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

define void @grad(ptr %c, ptr %d, ptr %dd) {
  %dup = load i32, ptr @enzyme_dup
  %k = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @mixed, i32 %k, ptr %c, i32 %dup, ptr %d, ptr %dd)
  ret void
}
