; Vector math routines of other libraries than libmvec (here SVML's, which
; clang -fveclib=SVML has the loop vectoriser call) have no derivative: a
; clear error names the routine and the option to drop.
;
; RUN: not %opt -passes=tapestry -S %s -o /dev/null 2>&1 | FileCheck %s
; CHECK: cannot differentiate 'svml': '__svml_sin4' is a vector math routine of SVML, which the loop vectoriser calls when compiling with -fveclib=SVML; Tapestry has no derivative for it: compile without -fveclib=SVML (or with -fveclib=libmvec, whose _ZGV... variants it knows)

@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare <4 x double> @__svml_sin4(<4 x double>)

define void @svml(ptr %p) {
  %v = load <4 x double>, ptr %p, align 8
  %s = call <4 x double> @__svml_sin4(<4 x double> %v)
  store <4 x double> %s, ptr %p, align 8
  ret void
}

define void @grad(ptr %p, ptr %dp) {
  %dup = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @svml, i32 %dup, ptr %p, ptr %dp)
  ret void
}
