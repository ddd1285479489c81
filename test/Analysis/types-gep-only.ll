; Types that only a GEP's element type states (no access says them) are
; printed with '?': they yield to what accesses say about the same bytes.
; A GEP into a struct states the types of all its fields.
; RUN: %opt -passes='print<tapestry-types>' -disable-output %s | FileCheck %s

%struct.Pair = type { i64, double }

declare void @use(ptr)

; CHECK-LABEL: types of 'f':
; CHECK-NEXT:    arg %p: [0] i64?, [8] double?
; CHECK-NOT:     {{^  }}
define void @f(ptr %p) {
  %q = getelementptr inbounds %struct.Pair, ptr %p, i64 0, i32 1
  call void @use(ptr %q)
  ret void
}
