; Records of 12 bytes in a byte buffer, an int at offset 0 and a double at
; offset 4, addressed as buf + 12 * i (+ 4): the stride is 12, not the 4 the
; offset's trailing zero bits show. With 4, the double (8 bytes at a 4-byte
; stride) could not be placed and the records looked like ints only: the
; gradient through the memcpy into them was silently 0 (probe 37). The
; product is seen through a zext of a multiplication that cannot wrap, a
; sext of one that cannot wrap signed, a shift and a sum.
; RUN: %opt -passes='print<tapestry-types>' -disable-output %s | FileCheck %s

; CHECK-LABEL: types of 'records':
; CHECK:         %buf: [0 + 12i] i32, [4 + 12i] double
define double @records(i32 %i) {
  %buf = call ptr @malloc(i64 120)
  %off = mul nuw nsw i32 %i, 12
  %off64 = zext nneg i32 %off to i64
  %rec = getelementptr inbounds i8, ptr %buf, i64 %off64
  store i32 7, ptr %rec
  %at = getelementptr inbounds i8, ptr %rec, i64 4
  %v = load double, ptr %at, align 1
  ret double %v
}

; CHECK-LABEL: types of 'shifted':
; CHECK:         %buf: [0 + 24i] i32, [8 + 24i] double, [16 + 24i] i64
define double @shifted(i64 %i, i64 %j) {
  %buf = call ptr @malloc(i64 240)
  %three = mul nsw i64 %i, 3
  %off = shl nsw i64 %three, 3
  %rec = getelementptr inbounds i8, ptr %buf, i64 %off
  store i32 7, ptr %rec
  %jj = mul nsw i64 %j, 24
  %sum = add nsw i64 %off, %jj
  %rec2 = getelementptr inbounds i8, ptr %buf, i64 %sum
  %at = getelementptr inbounds i8, ptr %rec2, i64 8
  %v = load double, ptr %at, align 8
  %tail = getelementptr inbounds i8, ptr %rec, i64 16
  store i64 0, ptr %tail
  ret double %v
}

; A zext of a product that may wrap keeps nothing but its low zero bits.
; CHECK-LABEL: types of 'wraps':
; CHECK:         %buf: [0 + 4i] i32
define i32 @wraps(i32 %i) {
  %buf = call ptr @malloc(i64 120)
  %off = mul i32 %i, 12
  %off64 = zext i32 %off to i64
  %rec = getelementptr inbounds i8, ptr %buf, i64 %off64
  store i32 7, ptr %rec
  ret i32 0
}

declare ptr @malloc(i64)
