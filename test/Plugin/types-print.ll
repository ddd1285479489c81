; print<tapestry-types> shows, per pointer argument and memory root, the
; scalar types seen at each byte offset ([offset] type, or [offset + stride
; i] type for an array indexed by a variable), inferred from loads, stores,
; GEP element types, copies (both ends hold the same data) and what a callee
; does with its parameter. A type only a GEP's element types state ends in
; '?': it yields to what accesses say about the same bytes.
; RUN: %opt -passes='print<tapestry-types>' -disable-output %s | FileCheck %s

; CHECK-LABEL: types of 'callee':
; CHECK-NEXT:    arg %q: [0] float
define float @callee(ptr %q) {
  %v = load float, ptr %q
  ret float %v
}

; CHECK-LABEL: types of 'f':
; CHECK-NEXT:    arg %d: [24] double
; CHECK-NEXT:    arg %copied: [0] double
; CHECK-NEXT:    arg %mixed: [0] double, [8] i32
; CHECK-NEXT:    arg %passed: [4] float
; CHECK-NEXT:    arg %untouched: unknown
; CHECK-NEXT:    %buf: [0] double
define double @f(ptr %d, ptr %copied, ptr %mixed, ptr %passed, ptr %untouched) {
  %p = getelementptr double, ptr %d, i64 3
  %x = load double, ptr %p
  %buf = call ptr @malloc(i64 64)
  store double %x, ptr %buf
  call void @llvm.memcpy.p0.p0.i64(ptr %copied, ptr %buf, i64 64, i1 false)
  store double %x, ptr %mixed
  %m = getelementptr i8, ptr %mixed, i64 8
  store i32 1, ptr %m
  %pp = getelementptr i8, ptr %passed, i64 4
  %c = call float @callee(ptr %pp)
  ret double %x
}

%struct.Item = type { i32, i32, double }

; A null shared by two pointers that may be null is no object: the double
; buffer's type does not leak into the array of structs (issue 14 item 3).
; The struct's fields repeat every 16 bytes.
; CHECK-LABEL: types of 'null_init':
; CHECK-NEXT:    %items: [0 + 16i] i32?, [4 + 16i] i32, [8 + 16i] double?
; CHECK-NEXT:    %buf: [0 + 8i] double
; CHECK-NEXT:    %it: [0 + 16i] i32?, [4 + 16i] i32, [8 + 16i] double?
; CHECK-NEXT:    %b: [0 + 8i] double
define void @null_init(i64 %n, i64 %i, double %x) {
  %pos = icmp sgt i64 %n, 0
  %sz = mul i64 %n, 16
  %items = call ptr @malloc(i64 %sz)
  %buf = call ptr @malloc(i64 %sz)
  %it = select i1 %pos, ptr %items, ptr null
  %b = select i1 %pos, ptr %buf, ptr null
  %e = getelementptr inbounds %struct.Item, ptr %it, i64 %i, i32 1
  store i32 3, ptr %e
  %bi = getelementptr inbounds double, ptr %b, i64 %i
  store double %x, ptr %bi
  ret void
}

; An integer load whose only use is a store moves bytes (an optimised
; struct copy): it says nothing of their type, which comes from the other
; accesses through copies. A TBAA tag on such a load types it; clang's
; !tbaa.struct on a memcpy types the fields it moves.
; CHECK-LABEL: types of 'copies':
; CHECK-NEXT:    arg %src: [0] double, [8] i32
; CHECK-NEXT:    arg %dst: [0] double, [8] i32
; CHECK-NEXT:    arg %tagged: [0] double
; CHECK-NEXT:    arg %s2: [0] float, [8] double, [16] i32
; CHECK-NEXT:    arg %d2: [0] float, [8] double, [16] i32
define void @copies(ptr %src, ptr %dst, ptr %tagged, ptr %s2, ptr %d2) {
  %a = load double, ptr %src
  %ni = getelementptr i8, ptr %src, i64 8
  %n = load i32, ptr %ni
  %w = load i64, ptr %src
  store i64 %w, ptr %dst
  %w2 = load i64, ptr %ni
  %dn = getelementptr i8, ptr %dst, i64 8
  store i64 %w2, ptr %dn
  %t = load i64, ptr %tagged, !tbaa !5
  store i64 %t, ptr %tagged
  call void @llvm.memcpy.p0.p0.i64(ptr %d2, ptr %s2, i64 24, i1 false), !tbaa.struct !6
  ret void
}

declare ptr @malloc(i64)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

!0 = !{!"Simple C/C++ TBAA"}
!1 = !{!"omnipotent char", !0, i64 0}
!2 = !{!"double", !1, i64 0}
!3 = !{!"float", !1, i64 0}
!4 = !{!"int", !1, i64 0}
!5 = !{!2, !2, i64 0}
!6 = !{i64 0, i64 4, !7, i64 8, i64 8, !5, i64 16, i64 4, !8}
!7 = !{!3, !3, i64 0}
!8 = !{!4, !4, i64 0}
