; __enzyme_fwdsplit runs the function again, so memory it reads must not
; change between __enzyme_augmentfwd and __enzyme_fwdsplit. A function that
; reads only its own stack frame (clang -O0 spills its arguments to allocas)
; reruns the same whatever is written in between: a counter incremented
; between the two calls was refused (split21 probe F3; end to end in
; EntryPoints/fwdsplit-unrelated-store.c). A function that reads a global
; written in between is still refused.
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt -passes=tapestry,verify -S %t/frame.ll | FileCheck %s --check-prefix=FRAME
; RUN: not %opt -passes=tapestry -disable-output %t/global.ll 2>&1 | FileCheck %s --check-prefix=GLOBAL

;--- frame.ll
declare { ptr, double } @__enzyme_augmentfwd(...)
declare double @__enzyme_fwdsplit(...)
@enzyme_out = external global i32
@enzyme_dup = external global i32
@counter = global i32 0
@scale = global double 2.0

; f(a, b) = a b^2 (as clang -O0 writes it) reads nothing but its own frame.
define double @f(double %a, double %b) {
  %a.addr = alloca double
  %b.addr = alloca double
  store double %a, ptr %a.addr
  store double %b, ptr %b.addr
  %a1 = load double, ptr %a.addr
  %b1 = load double, ptr %b.addr
  %ab = fmul double %a1, %b1
  %b2 = load double, ptr %b.addr
  %r = fmul double %ab, %b2
  ret double %r
}

define double @tangent_f(double %a, double %b) {
  %o = load i32, ptr @enzyme_out
  %d = load i32, ptr @enzyme_dup
  %aug = call { ptr, double } (...) @__enzyme_augmentfwd(ptr @f, i32 %o, double %a, i32 %o, double %b)
  %tape = extractvalue { ptr, double } %aug, 0
  %c = load i32, ptr @counter
  %c1 = add i32 %c, 1
  store i32 %c1, ptr @counter
  %t = call double (...) @__enzyme_fwdsplit(ptr @f, i32 %d, double %a, double 1.0, i32 %d, double %b, double 0.5, ptr %tape)
  ret double %t
}


; The second call releases the tape and becomes the forward derivative with
; the tangents 1 and 0.5.
; FRAME-LABEL: define double @tangent_f(
; FRAME:         store i32 %c1, ptr @counter
; FRAME:         call void @free(ptr %tape)
; FRAME-NEXT:    %[[T:[0-9]+]] = call double @f.tapestry.fwd_dd_ra(double %a, double 1.000000e+00, double %b, double 5.000000e-01)
; FRAME-NEXT:    ret double %[[T]]
; FRAME-LABEL: define internal double @f.tapestry.fwd_dd_ra(

;--- global.ll
declare { ptr, double } @__enzyme_augmentfwd(...)
declare double @__enzyme_fwdsplit(...)
@enzyme_out = external global i32
@enzyme_dup = external global i32
@counter = global i32 0
@scale = global double 2.0

; h(a) = scale * a reads a global.
define double @h(double %a) {
  %s = load double, ptr @scale
  %r = fmul double %s, %a
  ret double %r
}

define double @tangent_h(double %a) {
  %o = load i32, ptr @enzyme_out
  %d = load i32, ptr @enzyme_dup
  %aug = call { ptr, double } (...) @__enzyme_augmentfwd(ptr @h, i32 %o, double %a)
  %tape = extractvalue { ptr, double } %aug, 0
  store double 3.0, ptr @scale
  %t = call double (...) @__enzyme_fwdsplit(ptr @h, i32 %d, double %a, double 1.0, ptr %tape)
  ret double %t
}

; GLOBAL: error: {{.*}}in function tangent_h {{.*}}__enzyme_fwdsplit computes the tangent by running 'h' again {{.*}} but memory it may read may be written in between;
