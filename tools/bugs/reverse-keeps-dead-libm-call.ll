; Bug: derivatives keep primal libm calls whose result they do not use when
; that result feeds other (dead) primal code, so the -O2 gradient of
; sin(x*y) + exp(x)/y is not straight-line code under clang's default
; -fmath-errno. (A math call whose result is used by nothing at all, as in
; f(x) = sin(x), is dropped: simplifySynthesized in
; plugin/Synthesis/PrimalPreparation.cpp erases math calls with no uses, but
; only before runSimplification deletes the dead primal arithmetic that uses
; them, so sin(x) + x keeps its sin.)
;
; Reproduce:
;   opt-19 -load-pass-plugin=build/plugin/TapestryPlugin-19.so \
;     -passes=tapestry -S tools/bugs/reverse-keeps-dead-libm-call.ll
;
; f(x) = sin(x) + x calls libm's sin, declared as clang declares it under
; the default -fmath-errno (it may write errno, so it is not readnone and
; nothing deletes it). The reverse derivative needs only cos(x) * seed + seed.
;
; Expected: @f.tapestry.rev_a_ra computes cos(x) * seed + seed and does not
;   call @sin (the result is unused once the primal sum is gone; its only
;   effect is on errno, which a derivative need not reproduce; Enzyme treats
;   libm functions as memory-free, see isMemFreeLibMFunction).
; Actual:   @f.tapestry.rev_a_ra starts with `%y = call double @sin(double %x)`
;   whose result is unused. (Forward mode, @f.tapestry.fwd_d_ra, too.)
;
; Consequence at -O2 (test/Plugin/o2-straight-line-errno.c, XFAIL): clang's
; LibCallsShrinkWrap guards the dead call with `fabs(x*y) == inf`, so the
; inlined gradient has a conditional branch and a second block:
;   %4 = tail call double @llvm.fabs.f64(double %3)
;   %5 = fcmp oeq double %4, 0x7FF0000000000000
;   br i1 %5, label %6, label %8
;   6: %7 = tail call double @sin(double noundef %3)
; With -fno-math-errno (sin is llvm.sin, readnone) the gradient is one block
; (test/Plugin/o2-straight-line.c passes).

@enzyme_out = external global i32

declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

declare double @sin(double) #0

define double @f(double %x) {
  %y = call double @sin(double %x) #1
  %r = fadd double %y, %x
  ret double %r
}

define double @grad(double %x) {
  %m = load i32, ptr @enzyme_out
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %m, double %x)
  ret double %d
}

define double @tangent(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %d
}

attributes #0 = { mustprogress nofree nounwind willreturn memory(write) }
attributes #1 = { nounwind }
