; A vector function ABI variant (_ZGV...) of a function the rules table
; does not know (a user's function under #pragma omp declare simd, say):
; a clear error names the scalar function.
;
; RUN: not %opt -passes=tapestry -S %s -o /dev/null 2>&1 | FileCheck %s
; CHECK: cannot differentiate 'variant': '_ZGVdN4v_foo' is the 4-lane vector variant of 'foo', which Tapestry has no derivative for; give 'foo' a derivative, or compile without -fveclib (or #pragma omp declare simd) so that it is called lane by lane

@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare <4 x double> @_ZGVdN4v_foo(<4 x double>)

define void @variant(ptr %p) {
  %v = load <4 x double>, ptr %p, align 8
  %s = call <4 x double> @_ZGVdN4v_foo(<4 x double> %v)
  store <4 x double> %s, ptr %p, align 8
  ret void
}

define void @grad(ptr %p, ptr %dp) {
  %dup = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @variant, i32 %dup, ptr %p, ptr %dp)
  ret void
}
