; A null pointer (and a vector of null pointers) stored into memory with a
; shadow clears the shadow slot too, in reverse and forward mode: a list's
; link reset to null before it is relinked (a hash table's rehash) kept
; the old node's shadow, and the shadow list looped. End to end:
; test/Integration/shadow-list-link-reset-null.c,
; test/Integration/cxx-unordered-map-argument.cpp.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare void @__enzyme_autodiff(...)
declare double @__enzyme_fwddiff(...)
@enzyme_dup = external global i32

define double @unlink(ptr %node, ptr %pair) {
  %v = load double, ptr %node
  %link = getelementptr inbounds i8, ptr %node, i64 8
  store ptr null, ptr %link
  store <2 x ptr> zeroinitializer, ptr %pair
  %r = fmul double %v, %v
  ret double %r
}

define void @caller(ptr %n, ptr %dn, ptr %p, ptr %dp) {
  %dup = load i32, ptr @enzyme_dup
  call void (...) @__enzyme_autodiff(ptr @unlink, i32 %dup, ptr %n, ptr %dn, i32 %dup, ptr %p, ptr %dp)
  %t = call double (...) @__enzyme_fwddiff(ptr @unlink, i32 %dup, ptr %n, ptr %dn, i32 %dup, ptr %p, ptr %dp)
  ret void
}

; CHECK-LABEL: define internal {{.*}} @unlink.tapestry.rev
; CHECK: store ptr null, ptr %link
; CHECK-NEXT: store ptr null, ptr %"link'"
; CHECK: store <2 x ptr> zeroinitializer, ptr %pair
; CHECK-NEXT: store <2 x ptr> zeroinitializer, ptr %"pair'"
; CHECK-LABEL: define internal {{.*}} @unlink.tapestry.fwd
; CHECK: store ptr null, ptr %link
; CHECK-NEXT: store ptr null, ptr %"link'"
; CHECK: store <2 x ptr> zeroinitializer, ptr %pair
; CHECK-NEXT: store <2 x ptr> zeroinitializer, ptr %"pair'"
