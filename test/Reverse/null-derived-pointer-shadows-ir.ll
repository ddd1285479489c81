; Pointers that point to nothing in optimised IR of std::vector code: an
; empty vector's end, null + n (n is 0 where it is taken), merged with a
; block's end, and a moved-from vector reset by a store of <2 x ptr>
; zeroinitializer into memory with a shadow. Each is its own shadow (the
; derivative stores the same null-based address, and zeroes, into the
; shadow); both were refused as "the pointer ... may point to
; differentiable memory but has no shadow". End to end:
; test/Integration/cxx-vector-shapes-opt-path.cpp.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare void @__enzyme_autodiff(...)
declare ptr @malloc(i64)
@enzyme_dup = external global i32

define double @ends(ptr %x, i32 %k, ptr %slots) {
entry:
  %n = sext i32 %k to i64
  %empty = icmp eq i32 %k, 0
  br i1 %empty, label %none, label %some
none:
  %nullend = getelementptr inbounds double, ptr null, i64 %n
  br label %join
some:
  %blk = call ptr @malloc(i64 16)
  %v = load double, ptr %x
  store double %v, ptr %blk
  %blkend = getelementptr inbounds double, ptr %blk, i64 1
  %p0 = insertelement <2 x ptr> poison, ptr %blk, i64 0
  %pair = insertelement <2 x ptr> %p0, ptr %blkend, i64 1
  br label %join
join:
  %end = phi ptr [ %nullend, %none ], [ %blkend, %some ]
  %both = phi <2 x ptr> [ zeroinitializer, %none ], [ %pair, %some ]
  %slot2 = getelementptr inbounds ptr, ptr %slots, i64 2
  store ptr %end, ptr %slot2
  store <2 x ptr> %both, ptr %slots
  %r = load double, ptr %x
  ret double %r
}

define void @caller(ptr %x, ptr %dx, i32 %k, ptr %s, ptr %ds) {
  %dup = load i32, ptr @enzyme_dup
  call void (...) @__enzyme_autodiff(ptr @ends, i32 %dup, ptr %x, ptr %dx, i32 %k, i32 %dup, ptr %s, ptr %ds)
  ret void
}

; CHECK-LABEL: define internal {{.*}} @ends.tapestry.rev
; CHECK: %[[NULLEND:.*]] = getelementptr inbounds {{.*}}, ptr null, i64
; CHECK: %"end'" = phi ptr [ %[[NULLEND]], %{{.*}} ], [ %"blkend'", %{{.*}} ]
; CHECK: %"both'" = phi <2 x ptr> [ zeroinitializer, %{{.*}} ], [ %"pair'", %{{.*}} ]
; CHECK: store ptr %"end'", ptr %"slot2'"
; CHECK: store <2 x ptr> %"both'", ptr %"slots'"
