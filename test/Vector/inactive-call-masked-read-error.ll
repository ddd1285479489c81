; A function declared inactive (__enzyme_inactivefn) that writes a local
; buffer later read with a derivative is an error (its writes would carry no
; derivative). The read may be vectorised: a masked load or a gather counts
; as a read like a plain load (once, it did not, and the gradient was
; silently zero).
;
; RUN: not %opt -passes=tapestry -S %s -o /dev/null 2>&1 | FileCheck %s
; RUN: sed 's/@__enzyme_autodiff(ptr @masked/@__enzyme_autodiff(ptr @gathered/' %s > %t.ll
; RUN: not %opt -passes=tapestry -S %t.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=GATHER
; CHECK: cannot differentiate 'masked': 'copy_vec' is declared inactive (__enzyme_inactivefn) but may write floating-point data through its argument 1 {{.*}} which is read with a derivative afterwards
; GATHER: cannot differentiate 'gathered': 'copy_vec' is declared inactive (__enzyme_inactivefn) but may write floating-point data through its argument 1 {{.*}} which is read with a derivative afterwards

@enzyme_dup = external global i32
@__enzyme_inactivefn = global [1 x ptr] [ptr @copy_vec]
declare void @__enzyme_autodiff(ptr, ...)
declare void @copy_vec(ptr, ptr)
declare <4 x double> @llvm.masked.load.v4f64.p0(ptr, i32, <4 x i1>, <4 x double>)
declare <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr>, i32, <4 x i1>, <4 x double>)

define double @masked(ptr %in, <4 x i1> %m) {
  %buf = alloca [4 x double], align 8
  call void @copy_vec(ptr %buf, ptr %in)
  %v = call <4 x double> @llvm.masked.load.v4f64.p0(ptr %buf, i32 8, <4 x i1> %m, <4 x double> zeroinitializer)
  %sq = fmul <4 x double> %v, %v
  %s = call reassoc double @llvm.vector.reduce.fadd.v4f64(double 0.0, <4 x double> %sq)
  ret double %s
}

define double @gathered(ptr %in, <4 x i1> %m) {
  %buf = alloca [4 x double], align 8
  call void @copy_vec(ptr %buf, ptr %in)
  %ps = getelementptr double, ptr %buf, <4 x i64> <i64 3, i64 2, i64 1, i64 0>
  %v = call <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr> %ps, i32 8, <4 x i1> %m, <4 x double> zeroinitializer)
  %sq = fmul <4 x double> %v, %v
  %s = call reassoc double @llvm.vector.reduce.fadd.v4f64(double 0.0, <4 x double> %sq)
  ret double %s
}

declare double @llvm.vector.reduce.fadd.v4f64(double, <4 x double>)

define void @grad(ptr %in, ptr %din, <4 x i1> %m) {
  %dup = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @masked, i32 %dup, ptr %in, ptr %din, <4 x i1> %m)
  ret void
}
