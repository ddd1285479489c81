; Enzyme users run the pass by Enzyme's name, alone or inside a pipeline
; with the clean-up passes Enzyme's own IR tests use, and with Enzyme's
; options: `-passes=enzyme` is Tapestry's pass (a name opt does not know
; stops it before any pass runs: "unknown pass name 'enzyme'").
; RUN: %opt -passes=enzyme -S %s | FileCheck %s
; RUN: %opt -enzyme-preopt=false -S %s \
; RUN:   -passes="enzyme,function(mem2reg,instsimplify,adce,loop-deletion,correlated-propagation,simplifycfg)" \
; RUN:   | FileCheck %s --check-prefix=CLEAN
; CHECK-NOT: __enzyme_autodiff
; CHECK-LABEL: define double @test_derivative(double %x)
; CHECK-NEXT: entry:
; CHECK-NEXT: call double @tester.tapestry.rev_a_ra(double %x, double 1.0
; CHECK-LABEL: define internal double @tester.tapestry.rev_a_ra(
; CHECK-NOT: __enzyme_autodiff
; d(x*x)/dx = x*seed + x*seed: after the clean-up, one product added to
; itself.
; CLEAN-LABEL: define double @test_derivative(double %x)
; CLEAN-NEXT: entry:
; CLEAN-NEXT: call double @tester.tapestry.rev_a_ra(double %x, double 1.0
; CLEAN-LABEL: define internal double @tester.tapestry.rev_a_ra(double %x, double %seed)
; CLEAN: %[[P:[0-9]+]] = fmul double %x, %seed
; CLEAN: %[[A:[0-9]+]] = select i1 %{{[0-9]+}}, double 0.0{{.*}}, double %[[P]]
; CLEAN-NEXT: %[[D:[0-9]+]] = fadd double %[[A]], %[[A]]
; CLEAN-NEXT: ret double %[[D]]
; CLEAN-NOT: __enzyme_autodiff

define double @tester(double %x) {
entry:
  %0 = fmul fast double %x, %x
  ret double %0
}

define double @test_derivative(double %x) {
entry:
  %0 = tail call double (double (double)*, ...) @__enzyme_autodiff(double (double)* nonnull @tester, double %x)
  ret double %0
}

declare double @__enzyme_autodiff(double (double)*, ...)
