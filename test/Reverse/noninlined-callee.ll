; A callee that is not inlined (noinline) is differentiated once for its two
; calls: the caller's forward sweep calls its augmented forward (which
; takes the callee's tape from the thread's tape arena and returns it with
; the primal), the reverse sweep calls its reverse in the opposite order
; with each call's seed and tape, which gives the tape back to the arena. The derivative of sin, a cos, appears once in the module.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare double @__enzyme_autodiff(...)
declare double @llvm.sin.f64(double)

define double @leaf(double %x) noinline {
  %s = call double @llvm.sin.f64(double %x)
  %m = fmul double %s, %x
  ret double %m
}

define double @f(double %x) {
  %a = call double @leaf(double %x)
  %h = fmul double %x, 5.000000e-01
  %b = call double @leaf(double %h)
  %r = fadd double %a, %b
  ret double %r
}

define double @caller(double %x) {
  %d = call double (...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}

; CHECK-LABEL: define internal double @f.tapestry.rev_a_ra(double %x, double %seed)
; CHECK:         [[A:%.*]] = call { ptr, double } @leaf.tapestry.split_a_ra.call.fwd(double %x)
; CHECK:         [[B:%.*]] = call { ptr, double } @leaf.tapestry.split_a_ra.call.fwd(double %h)
; CHECK:         call double @leaf.tapestry.split_a_ra.call.rev(double %h, double %seed, ptr %b.tape)
; CHECK:         call double @leaf.tapestry.split_a_ra.call.rev(double %x, double %seed, ptr %a.tape)
; CHECK-LABEL: define internal { ptr, double } @leaf.tapestry.split_a_ra.call.fwd(double %0)
; CHECK:         [[T:%.*]] = call ptr @tapestry.arena.alloc(i64 {{[0-9]+}})
; CHECK:         call double @leaf.tapestry.split_a_ra.augmented(double %0, ptr [[T]])
; CHECK-LABEL: define internal double @leaf.tapestry.split_a_ra.call.rev(double %0, double %1, ptr %2)
; CHECK:         call double @leaf.tapestry.split_a_ra.reverse(double %0, double %1, ptr %2)
; The release frees nothing that the reset does not give back: it runs only
; where the arena's calls become malloc and free (a derivative that is
; differentiated again; tapestry.arena.nested is then true).
; CHECK-NEXT:    [[N:%.*]] = call i1 @tapestry.arena.nested()
; CHECK-NEXT:    br i1 [[N]], label %release, label %reset
; CHECK:       release:
; CHECK-NEXT:    call void @leaf.tapestry.split_a_ra.release(ptr %2)
; CHECK:       reset:
; CHECK-NEXT:    call void @tapestry.arena.reset(ptr %2)
; CHECK:       call double @llvm.cos.f64(double %x)
; CHECK-NOT:   call double @llvm.cos.f64(
