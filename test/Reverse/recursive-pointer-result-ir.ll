; A recursive function returning a pointer to memory it allocates and
; fills with active values stays a call. Reverse mode: its split's
; augmented forward returns {primal, shadow}, the wrapper the caller calls
; returns {tape, primal, shadow}, the caller reads the copied values
; through the returned shadow, and the callee's reverse takes no seed for
; a pointer. Forward mode: the callee's derivative returns the shadow as
; the result's tangent.
;
; RUN: %opt -passes=tapestry,verify -S %s -o %t
; RUN: FileCheck %s --input-file=%t --check-prefix=REV
; RUN: FileCheck %s --input-file=%t --check-prefix=FWD

@enzyme_dup = external global i32
@enzyme_out = external global i32
declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)

; A list copied with every value scaled by s.
define ptr @scaled_copy(ptr %c, double %s) {
entry:
  %empty = icmp eq ptr %c, null
  br i1 %empty, label %done, label %copy

copy:
  %d = call ptr @malloc(i64 16)
  %v = load double, ptr %c
  %sv = fmul double %s, %v
  store double %sv, ptr %d
  %nextp = getelementptr inbounds i8, ptr %c, i64 8
  %next = load ptr, ptr %nextp
  %rest = call ptr @scaled_copy(ptr %next, double %s)
  %dnext = getelementptr inbounds i8, ptr %d, i64 8
  store ptr %rest, ptr %dnext
  br label %done

done:
  %r = phi ptr [ null, %entry ], [ %d, %copy ]
  ret ptr %r
}

; The first copied value (the list is never empty here).
define double @first(ptr %c, double %s) {
  %d = call ptr @scaled_copy(ptr %c, double %s)
  %v = load double, ptr %d
  ret double %v
}

define double @grad(ptr %c, ptr %dc, double %s) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @first, ptr @enzyme_dup, ptr %c, ptr %dc, ptr @enzyme_out, double %s)
  ret double %r
}

define double @tangent(ptr %c, ptr %dc, double %s, double %ds) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @first, ptr @enzyme_dup, ptr %c, ptr %dc, double %s, double %ds)
  ret double %r
}

; The caller takes the shadow from the call and adds its seed there.
; REV-LABEL: define internal double @first.tapestry.rev_da_ra(
; REV: [[CALL:%.*]] = call { ptr, ptr, ptr } @scaled_copy.tapestry.split_da_ra.call.fwd(ptr %c, ptr %"c'", double %s)
; REV: [[SHADOW:%.*]] = extractvalue { ptr, ptr, ptr } [[CALL]], 2
; REV: [[ADJ:%.*]] = load double, ptr [[SHADOW]]
; REV: [[SUM:%.*]] = fadd double [[ADJ]], %seed
; REV: store double [[SUM]], ptr [[SHADOW]]
; REV: call double @scaled_copy.tapestry.split_da_ra.call.rev(ptr %c, ptr %"c'", double %s, ptr

; The wrapper: {tape, primal, shadow}.
; REV-LABEL: define internal { ptr, ptr, ptr } @scaled_copy.tapestry.split_da_ra.call.fwd(
; REV: [[R:%.*]] = call { ptr, ptr } @scaled_copy.tapestry.split_da_ra.augmented(
; REV: extractvalue { ptr, ptr } [[R]], 0
; REV: extractvalue { ptr, ptr } [[R]], 1

; The augmented forward returns the new cell and its shadow (null for
; null); the recursive call's shadow is stored beside the link.
; REV-LABEL: define internal { ptr, ptr } @scaled_copy.tapestry.split_da_ra.augmented(
; REV: [[REST:%.*]] = call { ptr, ptr, ptr } @scaled_copy.tapestry.split_da_ra.call.kept.fwd(
; REV: [[RESTSH:%.*]] = extractvalue { ptr, ptr, ptr } [[REST]], 2
; REV: store ptr [[RESTSH]], ptr %"dnext'"
; REV: [[PRIMAL:%.*]] = phi ptr {{\[ %d, %copy \], \[ null, %entry \]|\[ null, %entry \], \[ %d, %copy \]}}
; REV: [[SH:%.*]] = phi ptr {{\[ %"d'", %copy \], \[ null, %entry \]|\[ null, %entry \], \[ %"d'", %copy \]}}
; REV: [[P1:%.*]] = insertvalue { ptr, ptr } poison, ptr [[PRIMAL]], 0
; REV: [[P2:%.*]] = insertvalue { ptr, ptr } [[P1]], ptr [[SH]], 1
; REV: ret { ptr, ptr } [[P2]]

; No seed parameter for a pointer result: primal, shadow, s, then the tape.
; REV-LABEL: define internal double @scaled_copy.tapestry.split_da_ra.reverse(ptr {{.*}}%c, ptr {{.*}}%"c'", double %s, ptr {{.*}}%tape)

; FWD-LABEL: define internal double @first.tapestry.fwd_dd_ra(
; FWD: [[C:%.*]] = call { ptr, ptr } @scaled_copy.tapestry.fwd_dd_ra_rp(
; FWD: [[S:%.*]] = extractvalue { ptr, ptr } [[C]], 1
; FWD: load double, ptr [[S]]
; FWD-LABEL: define internal { ptr, ptr } @scaled_copy.tapestry.fwd_dd_ra_rp(
; FWD: [[D:%.*]] = call { ptr, ptr } @scaled_copy.tapestry.fwd_dd_ra_rp(
; FWD: [[DS:%.*]] = extractvalue { ptr, ptr } [[D]], 1
; FWD: store ptr [[DS]], ptr %"dnext'"
; FWD: ret { ptr, ptr }
