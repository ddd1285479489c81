; A request whose function has no body in this unit, in the compile half of
; -flto=thin ("EnableSplitLTOUnit" without "ThinLTO"), is an error at
; compile time: ThinLTO's link-time backend optimises each unit on its own
; and never runs the plugin, so deferring it (as full LTO may) would end in
; a link error about enzyme_out and __enzyme_autodiff. The compile-start
; pass runs in opt's default<O0> pipeline as in clang's.
; RUN: not %opt -passes='default<O0>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=THIN
; THIN: tapestry: 'other' has no body in this translation unit, and ThinLTO (-flto=thin) optimises each file on its own
; Full LTO ("ThinLTO" = 0) leaves the request for the link, where the whole
; program is one module.
; RUN: sed 's/"EnableSplitLTOUnit"/"ThinLTO"/; s/i32 1}$/i32 0}/' %s | %opt -passes='default<O0>' -S | FileCheck %s --check-prefix=FULL
; FULL: call double (...) @__enzyme_autodiff(ptr @other
declare double @__enzyme_autodiff(...)
declare double @other(double)
@enzyme_out = external global i32

define double @test(double %x) {
  %r = call double (...) @__enzyme_autodiff(ptr @other, ptr @enzyme_out, double %x)
  ret double %r
}

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"EnableSplitLTOUnit", i32 1}
