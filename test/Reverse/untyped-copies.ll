; Bytes moved without a type (issue 14 item 2). Which parts of the bytes
; hold floating-point data comes from the type analysis per object and
; offset; only those parts' adjoints move in the reverse sweep, and only
; the pointers' shadows are copied in the forward sweep.
;
; RUN: %opt -passes=tapestry -S %s -o %t
; RUN: FileCheck %s --input-file=%t --check-prefix=SWAP
; RUN: FileCheck %s --input-file=%t --check-prefix=PTR
; RUN: FileCheck %s --input-file=%t --check-prefix=FWD
; RUN: FileCheck %s --input-file=%t --check-prefix=GAPS
; RUN: FileCheck %s --input-file=%t --check-prefix=HOLE

@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

; Two {double, i32} records swapped as i64 words (as optimised struct
; assignments are): r[0] and r[1] are read before either is written. The
; simplifier forwards the stored words to the loads of the fields after
; the swap (a bitcast of the i64, a trunc): the double is loaded as such.
define double @swap(ptr %r) {
  %a = load i64, ptr %r
  %hi = getelementptr i8, ptr %r, i64 8
  %b = load i64, ptr %hi
  %r1 = getelementptr i8, ptr %r, i64 16
  %r1hi = getelementptr i8, ptr %r, i64 24
  %c = load i64, ptr %r1
  %d = load i64, ptr %r1hi
  store i64 %c, ptr %r
  store i64 %d, ptr %hi
  store i64 %a, ptr %r1
  store i64 %b, ptr %r1hi
  %x0 = load double, ptr %r
  %n0 = load i32, ptr %hi
  %x1 = load double, ptr %r1
  %n1 = load i32, ptr %r1hi
  %f0 = sitofp i32 %n0 to double
  %p = fmul double %x0, %f0
  %q = fmul double %x1, 3.0
  %s = fadd double %p, %q
  ret double %s
}

; SWAP-LABEL: define internal void @swap.tapestry.rev_d_ra(
; The words at offset 0 hold a double: each store's adjoint goes to its
; load's slot, each load's slot to the memory it read. The words at
; offset 8 hold an i32 and move no adjoint.
; SWAP:      call void @tapestry.parts.adjoint.p0.0double(ptr %"r1'", ptr {{.*}}%a.adj, i64 8)
; SWAP:      call void @tapestry.parts.adjoint.p0.0double(ptr %"r'", ptr {{.*}}%c.adj, i64 8)
; SWAP:      call void @tapestry.parts.adjoint.p0.0double(ptr {{.*}}%c.adj, ptr {{.*}}%"r1'", i64 8)
; SWAP:      call void @tapestry.parts.adjoint.p0.0double(ptr {{.*}}%a.adj, ptr {{.*}}%"r'", i64 8)
; SWAP-NOT:  %b.adj
; SWAP-NOT:  %d.adj
; SWAP-LABEL: {{^}}}

%struct.Node = type { ptr, double, i32 }

; A struct holding a pointer, a double and an int copied with memcpy: the
; forward sweep copies the pointer's shadow; the reverse sweep adds the
; double only (never the pointer's or the int's bytes).
define double @node(ptr %dst, ptr %src) {
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 24, i1 false)
  %wp = getelementptr inbounds %struct.Node, ptr %dst, i64 0, i32 1
  %w = load double, ptr %wp
  %np = getelementptr inbounds %struct.Node, ptr %dst, i64 0, i32 2
  %n = load i32, ptr %np
  %next = load ptr, ptr %dst
  %v = load double, ptr %next
  %f = sitofp i32 %n to double
  %t = fmul double %w, %f
  %s = fmul double %t, %v
  ret double %s
}

; PTR-LABEL: define internal void @node.tapestry.rev_dd_ra(
; PTR:       call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}%dst, ptr {{.*}}%src, i64 24, i1 false)
; PTR-NEXT:  call void @tapestry.parts.copy.p0.0ptr(ptr %"dst'", ptr %"src'", i64 24)
; PTR:       call void @tapestry.parts.adjoint.p0.8double(ptr {{.*}}%"dst'", ptr {{.*}}%"src'", i64 24)
; PTR-LABEL: {{^}}}

; Forward mode copies the integer words' shadow bytes as the loads read
; them, whatever they hold.
; FWD-LABEL: define internal {{.*}} @swap.tapestry.fwd_d_ra(
; FWD:       [[SA:%.*]] = load i64, ptr %"r'"
; FWD:       [[SC:%.*]] = load i64, ptr %"r1'"
; FWD:       store i64 [[SC]], ptr %"r'"
; FWD:       store i64 [[SA]], ptr %"r1'"
; FWD-LABEL: {{^}}}

; q[2] = q[0] through a local copy, q[1] returned: only offset 8 of the
; 24 copied bytes is read with a type. q holds doubles and no pointers, so
; the untouched elements at 0 and 16 are doubles too, and their adjoints
; move (they were once dropped, a silent wrong gradient).
define double @gaps(ptr %q) {
  %c = alloca [3 x double]
  call void @llvm.memcpy.p0.p0.i64(ptr %c, ptr %q, i64 24, i1 false)
  %q2 = getelementptr inbounds double, ptr %q, i64 2
  call void @llvm.memcpy.p0.p0.i64(ptr %q2, ptr %c, i64 8, i1 false)
  %q1 = getelementptr inbounds double, ptr %q, i64 1
  %v = load double, ptr %q1
  ret double %v
}

; GAPS-LABEL: define internal void @gaps.tapestry.rev_d_ra(
; GAPS:       call void @tapestry.parts.adjoint.p8.0double(ptr {{.*}}%"q2'", ptr {{.*}}%"c'", i64 8)
; GAPS:       call void @tapestry.parts.adjoint.p0.0double.8double.16double(ptr {{.*}}%"c'", ptr %"q'", i64 24)
; GAPS-LABEL: {{^}}}

; The same copy into another record whose middle word is loaded as a
; pointer: the bytes at 8 are the pointer's, and the untyped bytes at 16
; are not taken for a double (memory that holds pointers is no array of
; doubles): only the double at 0 moves its adjoint.
define double @hole(ptr %d, ptr %q) {
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %q, i64 24, i1 false)
  %p1 = getelementptr inbounds i8, ptr %d, i64 8
  %p = load ptr, ptr %p1
  %v0 = load double, ptr %p
  %v = load double, ptr %d
  %r = fmul double %v, %v0
  ret double %r
}

; HOLE-LABEL: define internal void @hole.tapestry.rev_dd_ra(
; HOLE:       call void @tapestry.parts.adjoint.p0.0double(ptr {{.*}}%"d'", ptr {{.*}}%"q'", i64 24)
; HOLE-LABEL: {{^}}}

define void @grad(ptr %r, ptr %dr, ptr %d, ptr %dd, ptr %s, ptr %ds) {
  %m = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @gaps, i32 %m, ptr %r, ptr %dr)
  call void (ptr, ...) @__enzyme_autodiff(ptr @hole, i32 %m, ptr %d, ptr %dd, i32 %m, ptr %s, ptr %ds)
  call void (ptr, ...) @__enzyme_autodiff(ptr @swap, i32 %m, ptr %r, ptr %dr)
  call void (ptr, ...) @__enzyme_autodiff(ptr @node, i32 %m, ptr %d, ptr %dd, i32 %m, ptr %s, ptr %ds)
  ret void
}

define double @tangent(ptr %r, ptr %dr) {
  %m = load i32, ptr @enzyme_dup
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @swap, i32 %m, ptr %r, ptr %dr)
  ret double %t
}
