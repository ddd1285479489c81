; A call through a function pointer dispatched over two candidates, one of
; which cannot be differentiated (it calls an external function without a
; derivative). The derivative is built: its branch for 'opaque' flushes
; stdio, prints why and aborts instead of calling it; the branch for
; 'square' is differentiated; a remark names the stopped candidate. The
; message is completed with the reason after the candidates were tried, so
; it is not a constant the simplifier could have taken the length of.
; RUN: %opt -passes=tapestry -S %s -pass-remarks-analysis=tapestry 2>%t.remarks | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; Only the message of the stop in the derivative is left.
; CHECK-NOT: @tapestry.stopped.candidate{{.*}}cannot differentiate it\0A
; CHECK: [[MSG:@tapestry.stopped.candidate[.0-9]*]] = private global [{{[0-9]+}} x i8] c"Tapestry: the derivative of 'apply' calls 'opaque' through a function pointer, and cannot differentiate it: cannot differentiate 'apply': no derivative is known for external function 'ext'
; CHECK-NOT: @tapestry.stopped.candidate{{.*}}cannot differentiate it\0A
; CHECK-LABEL: define internal double @apply.tapestry.rev
; CHECK: icmp eq ptr %f, @square
; CHECK: icmp eq ptr %f, @opaque
; CHECK: call i32 @fflush(ptr null)
; CHECK-NEXT: %[[ERR:.*]] = load ptr, ptr @stderr
; CHECK-NEXT: call i32 @fputs(ptr nonnull [[MSG]], ptr %[[ERR]])
; CHECK-NEXT: call void @abort()
; CHECK-NEXT: unreachable
; CHECK-NOT: call double @opaque
; CHECK-NOT: call double @ext
; REMARK: remark: {{.*}}the derivative of 'apply' calls 'opaque' through a function pointer, and stops at run time if the pointer holds it: cannot differentiate 'apply': no derivative is known for external function 'ext'

@table = global [2 x ptr] [ptr @square, ptr @opaque]
@enzyme_const = external global i32
@enzyme_out = external global i32

define internal double @square(double %x) {
  %r = fmul double %x, %x
  ret double %r
}

define internal double @opaque(double %x) {
  %r = call double @ext(double %x)
  ret double %r
}

define double @apply(ptr %f, double %x) {
  %v = call double %f(double %x)
  %r = fmul double %v, %x
  ret double %r
}

define double @grad(i32 %i, double %x) {
  %c = load i32, ptr @enzyme_const
  %o = load i32, ptr @enzyme_out
  %slot = getelementptr inbounds [2 x ptr], ptr @table, i64 0, i32 %i
  %f = load ptr, ptr %slot
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @apply, i32 %c, ptr %f, i32 %o, double %x)
  ret double %d
}

declare double @__enzyme_autodiff(ptr, ...)
declare double @ext(double)
