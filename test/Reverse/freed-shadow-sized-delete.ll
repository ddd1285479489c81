; A caller's block freed by C++14's sized operator delete (what libstdc++'s
; containers call): @replace moves a new block into the caller's slot and
; frees the old one, whose shadow holds the caller's seeds. The forward
; sweep lists the old shadow with the size the delete states (16, the
; fourth operand of push); unsized delete and free state none (0), and
; their shadows are checked only for words that changed. The check
; (@tapestry.freed.lost) stops the program, within the stated size, on a
; word that still holds a double of normal magnitude when the request ends:
; a seed nothing used (test/Errors/cxx-output-vector-replaced-seeds-lost.cpp
; runs it).
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare double @__enzyme_autodiff(...)
declare ptr @_Znwm(i64)
declare void @_ZdlPvm(ptr, i64)
declare void @_ZdlPv(ptr)
@enzyme_dup = external global i32

define void @replace(ptr %slot, ptr %x) {
  %old = load ptr, ptr %slot
  %new = call ptr @_Znwm(i64 16)
  %x0 = load double, ptr %x
  %sq = fmul double %x0, %x0
  store double %sq, ptr %new
  store ptr %new, ptr %slot
  call void @_ZdlPvm(ptr %old, i64 16)
  ret void
}

define void @replaceUnsized(ptr %slot, ptr %x) {
  %old = load ptr, ptr %slot
  %new = call ptr @_Znwm(i64 16)
  %x0 = load double, ptr %x
  store double %x0, ptr %new
  store ptr %new, ptr %slot
  call void @_ZdlPv(ptr %old)
  ret void
}

define void @caller(ptr %s, ptr %ds, ptr %x, ptr %dx) {
  %dup = load i32, ptr @enzyme_dup
  call double (...) @__enzyme_autodiff(ptr @replace, i32 %dup, ptr %s, ptr %ds, i32 %dup, ptr %x, ptr %dx)
  call double (...) @__enzyme_autodiff(ptr @replaceUnsized, i32 %dup, ptr %s, ptr %ds, i32 %dup, ptr %x, ptr %dx)
  ret void
}

; CHECK-LABEL: define internal {{.*}} @replaceUnsized.tapestry.rev_
; CHECK: call void @tapestry.freed.push(ptr %{{.*}}, i64 1, i64 -2, i64 0)
; CHECK-NEXT: call void @_ZdlPv(

; The entry keeps the stated size (its sixth field), and dispose passes it on.
; CHECK-LABEL: define internal void @tapestry.freed.push(ptr %0, i64 %1, i64 %2, i64 %3)
; CHECK: store i64 %3, ptr %{{.*}}
; CHECK-LABEL: define internal i1 @tapestry.freed.lost(ptr %0, ptr %1, i64 %2, i64 %3)
; Words within the stated size: exponent (bits 52-62) neither 0 nor 0x7ff.
; CHECK: %[[EXACT:.*]] = lshr i64 %3, 3
; CHECK: lshr i64 %{{.*}}, 52
; CHECK-NEXT: and i64 %{{.*}}, 2047
; CHECK: icmp ult i64 %{{.*}}, %[[EXACT]]
; CHECK-LABEL: define internal void @tapestry.freed.dispose(
; CHECK: getelementptr inbounds { ptr, i64, i64, ptr, ptr, i64 }, ptr %0, i32 0, i32 5
; CHECK-NEXT: %[[STATED:.*]] = load i64, ptr %{{.*}}
; CHECK: call i1 @tapestry.freed.lost(ptr %{{.*}}, ptr %{{.*}}, i64 %{{.*}}, i64 %[[STATED]])

; CHECK-LABEL: define internal {{.*}} @replace.tapestry.rev_
; CHECK: call void @tapestry.freed.push(ptr %{{.*}}, i64 1, i64 -2, i64 16)
; CHECK-NEXT: call void @_ZdlPvm(
