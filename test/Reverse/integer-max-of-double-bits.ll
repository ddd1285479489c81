; The larger of two non-negative doubles picked by comparing their bits as
; integers, as `opt -O2` leaves it: two i64 loads, llvm.umax, an i64 store.
; Nothing in the function reads the bytes as a double; the caller does
; (its arrays hold doubles). The store stores the doubles' choice, a
; select on the same unsigned comparison of the bits, whose adjoint goes
; to the double picked (the primal store may be simplified back to the
; integer maximum: the same bytes). Was a gradient of 0
; with no error (the compared loads typed the memory as integers). Then a
; run against analytic values: out = max(a0, a1), d out/d a = the one
; picked.
; RUN: %opt -passes=tapestry -S %s -o %t.ll
; RUN: FileCheck %s --input-file=%t.ll
; RUN: %plain_cc -O1 -Wno-override-module %t.ll %S/Inputs/integer-max-of-double-bits-main.c -o %t && %t | FileCheck %s --check-prefix=EXEC
; EXEC-NOT: FAIL
; EXEC: ALL PASSED
; CHECK-LABEL: define internal {{.*}} @larger.tapestry.rev
; CHECK: %[[PICKS:.*]] = icmp ugt i64 %b0, %b1
; CHECK: store {{.*}}, ptr %out
; CHECK: %[[ADJ:.*]] = load double, ptr %"out'"
; CHECK: select i1 %[[PICKS]], double %[[ADJ]], double 0.0
; CHECK: select i1 %[[PICKS]], double 0.0{{.*}}, double %[[ADJ]]
; CHECK: ret void

@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)

define void @larger(ptr %a, ptr %out) {
  %b0 = load i64, ptr %a, align 8
  %a1 = getelementptr inbounds i8, ptr %a, i64 8
  %b1 = load i64, ptr %a1, align 8
  %m = call i64 @llvm.umax.i64(i64 %b0, i64 %b1)
  store i64 %m, ptr %out, align 8
  ret void
}

define void @grad_larger(ptr %a, ptr %da, ptr %out, ptr %dout) {
  store double 0.0, ptr %out, align 8
  %x = load double, ptr %a, align 8
  %a1 = getelementptr inbounds i8, ptr %a, i64 8
  %y = load double, ptr %a1, align 8
  call void (ptr, ...) @__enzyme_autodiff(ptr @larger, ptr @enzyme_dup, ptr %a, ptr %da, ptr @enzyme_dup, ptr %out, ptr %dout)
  ret void
}

declare i64 @llvm.umax.i64(i64, i64)
