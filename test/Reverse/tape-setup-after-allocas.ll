; A reverse sweep sets up its record arrays (the tape state, the block from
; the thread's cache that fits the loop's known trip count, Synthesis/
; TapeCache.h) at the end of its entry block, after every alloca. The
; cache's helpers branch: set up among the allocas, right after the tape
; state's own, they left the allocas that follow (here the local array %r
; and its shadow) outside the entry block once inlined, where SROA does not
; promote them and they are dynamic allocas: a stack adjustment per call,
; memory traffic, and a derivative the inliner no longer inlines (bundle
; adjustment's and the LSTM's gradients at -O2, issue 16).
;
; RUN: %opt -passes=tapestry -S %s | FileCheck %s
; After -O2, no function keeps an alloca outside its entry block.
; RUN: %opt -passes='tapestry,default<O2>' -S %s \
; RUN:   | awk '/^define/ { entry = 1; first = 1; next } \
; RUN:          /^[^ ;}!a][^ ]*:/ { if (!first) entry = 0; first = 0; next } \
; RUN:          /^  / { first = 0 } \
; RUN:          /= alloca / && !entry { print "alloca outside the entry block:", $0 } \
; RUN:          END { print "scanned" }' \
; RUN:   | FileCheck %s --check-prefix=O2
@enzyme_dup = external global i32
@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)
declare double @llvm.sin.f64(double)

; s = sum_i sin(x_i) r_(i mod 2), r = (2 w, 3 w), x_i zeroed as it is read
; (the loop keeps x_i per iteration).
define double @f(ptr %x, ptr %w, i64 %n) {
entry:
  %r = alloca [2 x double]
  %w0 = load double, ptr %w
  %a = fmul double %w0, 2.0
  store double %a, ptr %r
  %r1 = getelementptr inbounds double, ptr %r, i64 1
  %b = fmul double %w0, 3.0
  store volatile double %b, ptr %r1
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s1, %loop ]
  %k = and i64 %i, 1
  %rp = getelementptr inbounds double, ptr %r, i64 %k
  %rv = load double, ptr %rp
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  store double 0.0, ptr %p
  %sv = call double @llvm.sin.f64(double %v)
  %m = fmul double %sv, %rv
  %s1 = fadd double %s, %m
  %i1 = add i64 %i, 1
  %c = icmp slt i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %s1
}

define void @grad(ptr %x, ptr %dx, ptr %w, ptr %dw, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %w, ptr %dw, ptr @enzyme_const, i64 %n)
  ret void
}

; CHECK-LABEL: define internal void @f.tapestry.rev
; CHECK-NEXT:  entry:
; CHECK-DAG:     %tape = alloca %tapestry.tape
; CHECK-DAG:     %r = alloca [2 x double]
; CHECK-DAG:     %"r'" = alloca [2 x double]
; The loop's records: max(n, 1) of 16 bytes, known exactly before the loop
; (all of them, saturated if the product overflows); the cached block that
; fits them, and one allocation of that size if none does.
; CHECK:         store ptr null, ptr %tape
; CHECK:         %[[TRIPS:[0-9]+]] = call i64 @llvm.smax.i64(i64 %n, i64 1)
; CHECK-NEXT:    %[[BYTES:[0-9]+]] = shl i64 %[[TRIPS]], 4
; CHECK-NEXT:    %[[OVER:[0-9]+]] = icmp sgt i64 %n, 1152921504606846975
; CHECK-NEXT:    %[[NEED:[0-9]+]] = select i1 %[[OVER]], i64 -1, i64 %[[BYTES]]
; CHECK-NEXT:    call void @tapestry.tape.acquire(ptr {{.*}}%tape, i64 %[[NEED]])
; CHECK-NEXT:    call void @tapestry.tape.reserve(ptr {{.*}}%tape, i64 %[[NEED]], i64 0)
; CHECK-NEXT:    br label %loop
; CHECK-NOT:     alloca
; CHECK:         call void @tapestry.tape.recycle(ptr {{.*}}%tape)

; O2-NOT: alloca outside the entry block
; O2: scanned
