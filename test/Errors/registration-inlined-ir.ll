; The inlined-registration check on IR (the opt flow): @f holds code of
; @step inlined by an earlier optimisation (its !dbg location says so:
; scope step, inlinedAt f), and step has a registered derivative, so
; differentiating f would take step's body instead of its rule: an error
; at the inlined code. @g only calls step (not inlined): no error. The
; same module with step marked noinline is quiet.
;
; RUN: not %opt -passes=tapestry -disable-output %s 2>&1 | FileCheck %s
; RUN: sed 's/^define double @step(double %%x) !dbg/define double @step(double %%x) noinline !dbg/' %s > %t.ll
; RUN: %opt -passes=tapestry -disable-output %t.ll 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
; CHECK: inl.c:3:{{.*}}in function f {{.*}}code of 'step', which has a registered derivative (__enzyme_register_gradient_step), was inlined into 'f' by the optimiser before Tapestry ran
; CHECK-NOT: inlined into 'g'
; QUIET-NOT: tapestry

@enzyme_out = external global i32
@__enzyme_register_gradient_step = global [3 x ptr] [ptr @step, ptr @step_aug, ptr @step_rev]
declare double @__enzyme_autodiff(ptr, ...)

define double @step(double %x) !dbg !5 {
  %c = fcmp ogt double %x, 0.0
  %r = select i1 %c, double 1.0, double 0.0
  ret double %r
}
define double @step_aug(double %x) {
  %r = call double @step(double %x)
  ret double %r
}
define double @step_rev(double %x, double %d) {
  ret double %d
}

define double @f(double %x) !dbg !10 {
  %c = fcmp ogt double %x, 0.0, !dbg !13
  %s = select i1 %c, double 1.0, double 0.0, !dbg !13
  %r = fmul double %s, 3.0, !dbg !14
  ret double %r, !dbg !14
}

define double @g(double %x) !dbg !15 {
  %s = call double @step(double %x), !dbg !16
  ret double %s, !dbg !16
}

define double @df(double %x) {
  %a = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  %b = call double (ptr, ...) @__enzyme_autodiff(ptr @g, double %x)
  %r = fadd double %a, %b
  ret double %r
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "inl.c", directory: "/tmp")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "step", scope: !1, file: !1, line: 3, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!10 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 7, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!12 = !DILocation(line: 7, column: 28, scope: !10)
!13 = !DILocation(line: 3, column: 33, scope: !5, inlinedAt: !12)
!14 = !DILocation(line: 7, column: 35, scope: !10)
!15 = distinct !DISubprogram(name: "g", scope: !1, file: !1, line: 8, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!16 = !DILocation(line: 8, column: 20, scope: !15)
