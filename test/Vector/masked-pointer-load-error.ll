; A masked load or gather of pointers from differentiated memory (rows of a
; matrix kept as an array of row pointers, read by a tail-folded vectorised
; loop) would need the shadows of the loaded pointers; Tapestry does not
; give them yet, and using the pointers without shadows would drop every
; derivative through them. A clear error.
;
; RUN: not %opt -passes=tapestry -S %s -o /dev/null 2>&1 | FileCheck %s
; RUN: sed 's/@__enzyme_autodiff(ptr @rows/@__enzyme_autodiff(ptr @gathered/' %s > %t.ll
; RUN: not %opt -passes=tapestry -S %t.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=GATHER
; CHECK: cannot differentiate 'rows': {{.*}}loads pointers from differentiated memory with a masked vector load or gather{{.*}}-fno-vectorize
; GATHER: cannot differentiate 'gathered': {{.*}}loads pointers from differentiated memory with a masked vector load or gather{{.*}}-fno-vectorize

@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare <2 x ptr> @llvm.masked.load.v2p0.p0(ptr, i32, <2 x i1>, <2 x ptr>)
declare <2 x ptr> @llvm.masked.gather.v2p0.v2p0(<2 x ptr>, i32, <2 x i1>, <2 x ptr>)

define double @rows(ptr %rows, i1 %m1) {
  %m0 = insertelement <2 x i1> <i1 true, i1 true>, i1 %m1, i64 1
  %ps = call <2 x ptr> @llvm.masked.load.v2p0.p0(ptr %rows, i32 8, <2 x i1> %m0, <2 x ptr> poison)
  %p0 = extractelement <2 x ptr> %ps, i64 0
  %p1 = extractelement <2 x ptr> %ps, i64 1
  %a = load double, ptr %p0, align 8
  %b = load double, ptr %p1, align 8
  %r = fmul double %a, %b
  ret double %r
}

define double @gathered(ptr %rows, i1 %unused) {
  %q1 = getelementptr ptr, ptr %rows, i64 2
  %v0 = insertelement <2 x ptr> poison, ptr %rows, i64 0
  %v1 = insertelement <2 x ptr> %v0, ptr %q1, i64 1
  %ps = call <2 x ptr> @llvm.masked.gather.v2p0.v2p0(<2 x ptr> %v1, i32 8, <2 x i1> <i1 true, i1 true>, <2 x ptr> poison)
  %p0 = extractelement <2 x ptr> %ps, i64 0
  %p1 = extractelement <2 x ptr> %ps, i64 1
  %a = load double, ptr %p0, align 8
  %b = load double, ptr %p1, align 8
  %r = fadd double %a, %b
  ret double %r
}

define void @grad(ptr %r, ptr %dr, i1 %m) {
  %dup = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @rows, i32 %dup, ptr %r, ptr %dr, i1 %m)
  ret void
}
