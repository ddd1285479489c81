; A call that gets no derivative code (here std::string's _M_construct, on
; Core/KnownInactive's list) may store pointers into the stack object it is
; given, and writes nothing into the shadow object. A pointer loaded from
; those bytes afterwards has no shadow (the shadow memory holds what was
; there before: the shadow string's own small-string buffer, which was then
; listed as a freed heap shadow and passed to free, probe21a C1). A pointer
; loaded from bytes of the same object that the call cannot reach (its
; dereferenceable(32) ends before them) keeps its shadow, and so does one
; loaded from an object no such call sees.
; RUN: %opt -passes='print<tapestry-activity>' -disable-output %s | FileCheck %s

declare void @_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE12_M_constructEmc(ptr dereferenceable(32), i64, i8)
declare void @_ZdlPvm(ptr, i64)

define double @f(ptr %x) #0 {
  %rec = alloca { [32 x i8], ptr }
  %other = alloca ptr
  %sso = getelementptr inbounds i8, ptr %rec, i64 16
  store ptr %sso, ptr %rec
  %valsfield = getelementptr inbounds i8, ptr %rec, i64 32
  store ptr %x, ptr %valsfield
  store ptr %x, ptr %other
  call void @_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE12_M_constructEmc(ptr %rec, i64 40, i8 35)
  %data = load ptr, ptr %rec
  %vals = load ptr, ptr %valsfield
  %v = load double, ptr %vals
  %o = load ptr, ptr %other
  %w = load double, ptr %o
  %p = fmul double %v, %w
  call void @_ZdlPvm(ptr %data, i64 41)
  ret double %p
}

; CHECK-LABEL: activity of 'f':
; CHECK-NEXT:    arg %x: shadowed
; CHECK-NEXT:    %rec: shadowed
; CHECK-NEXT:    %other: shadowed
; CHECK-NEXT:    %sso: shadowed
; CHECK-NEXT:    %valsfield: shadowed
; CHECK-NEXT:    %data: inactive
; CHECK-NEXT:    %vals: shadowed
; CHECK-NEXT:    %v: active
; CHECK-NEXT:    %o: shadowed
; CHECK-NEXT:    %w: active
; CHECK-NEXT:    %p: active
; CHECK-NOT:     {{^  }}

attributes #0 = { "tapestry-activity"="d" }
