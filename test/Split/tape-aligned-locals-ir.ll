; A stack slot aligned beyond its type (align 16 on [2 x double], as
; _Alignas(16) and Eigen's fixed-size matrices declare) kept on the tape:
; its field, and its shadow's, sit at 16-byte multiples of the tape (padding
; before them where the type alone would place them lower), and the tape
; starts at the first 16-byte-aligned address of the tape memory, which
; need only be 8-byte aligned (a caller's buffer): the augmented forward,
; the reverse and the release realign the same memory alike, and the size
; has room for the realignment. The callees' halves only read the local
; and do not keep its address (readonly, nocapture: ParamAccess), so the
; reverse reads it in place and accumulates into its own copy of the
; shadow, aligned as the slot: the tape stays reusable. (The derivative's
; own accesses assume no more than a double's alignment, since a shadow
; need not be aligned as its primal: the memset of the shadow field.)
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare ptr @__enzyme_augmentfwd(...)
declare void @__enzyme_reverse(...)
declare i64 @__enzyme_augmentsize(...)
@enzyme_dup = external global i32
@enzyme_allocated = external global i32
@enzyme_tape = external global i32

define internal void @fill(ptr %v, ptr %x) #0 {
  %a = load double, ptr %x, align 8
  %sq = fmul double %a, %a
  store <2 x double> zeroinitializer, ptr %v, align 16
  store double %sq, ptr %v, align 16
  ret void
}

define internal double @use(ptr %v) #0 {
  %p1 = getelementptr inbounds double, ptr %v, i64 1
  %a = load double, ptr %v, align 16
  %b = load double, ptr %p1, align 8
  %m = fmul double %a, %a
  %s = fadd double %m, %b
  ret double %s
}

define void @f(ptr %x, ptr %y) {
entry:
  %n = alloca i32, align 4
  %v = alloca [2 x double], align 16
  call void @fill(ptr %v, ptr %x)
  %r = call double @use(ptr %v)
  store double %r, ptr %y, align 8
  ret void
}

define i64 @size() {
  %s = call i64 (...) @__enzyme_augmentsize(ptr @f, ptr @enzyme_dup, ptr @enzyme_dup)
  ret i64 %s
}

define void @grad(ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %buf) {
  call ptr (...) @__enzyme_augmentfwd(ptr @f, ptr @enzyme_allocated, i64 96, ptr @enzyme_tape, ptr %buf, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %y, ptr %dy)
  call void (...) @__enzyme_reverse(ptr @f, ptr @enzyme_allocated, i64 96, ptr @enzyme_tape, ptr %buf, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %y, ptr %dy)
  ret void
}
attributes #0 = { noinline }

; CHECK: %f.tape = type { i64, ptr, ptr, [8 x i8], [2 x double], [2 x double], ptr, ptr }
; CHECK-LABEL: define i64 @size()
; CHECK-NEXT: ret i64 96

; CHECK-LABEL: define internal void @f.tapestry.split_dd.augmented(
; CHECK: [[A:%.*]] = ptrtoint ptr %tape to i64
; CHECK-NEXT: [[N:%.*]] = sub i64 0, [[A]]
; CHECK-NEXT: [[P:%.*]] = and i64 [[N]], 15
; CHECK-NEXT: %tape.aligned = getelementptr i8, ptr %tape, i64 [[P]]
; CHECK: [[V:%.*]] = getelementptr inbounds i8, ptr %tape.aligned, i64 32
; CHECK: [[DV:%.*]] = getelementptr inbounds i8, ptr %tape.aligned, i64 48
; CHECK: call void @llvm.memset.p0.i64(ptr {{.*}}align 8 {{.*}}[[DV]], i8 0, i64 16
; CHECK: call ptr @fill.tapestry.split_dd.call.kept.fwd(ptr nonnull [[V]], ptr nonnull [[DV]],

; CHECK-LABEL: define internal void @f.tapestry.split_dd.reverse(
; CHECK: [[LOCAL:%"v'[0-9]*"]] = alloca [2 x double], align 16
; CHECK: [[A:%.*]] = ptrtoint ptr %tape to i64
; CHECK-NEXT: [[N:%.*]] = sub i64 0, [[A]]
; CHECK-NEXT: [[P:%.*]] = and i64 [[N]], 15
; CHECK-NEXT: %tape.aligned = getelementptr i8, ptr %tape, i64 [[P]]
; CHECK-NEXT: [[NULL:%.*]] = icmp eq ptr %tape, null
; CHECK-NEXT: [[HP:%.*]] = select i1 [[NULL]], ptr @tapestry.null.tape.state, ptr %tape.aligned
; CHECK-NEXT: load i64, ptr [[HP]], align 8
; CHECK: [[V:%.*]] = getelementptr inbounds i8, ptr %tape.aligned, i64 32
; CHECK: [[DV:%.*]] = getelementptr inbounds i8, ptr %tape.aligned, i64 48
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}align 16 {{.*}}[[LOCAL]], ptr {{.*}}[[DV]], i64 16,
; CHECK: call void @use.tapestry.split_d_ra.reverse(ptr nonnull [[V]], ptr nonnull [[LOCAL]],

; CHECK-LABEL: define internal void @f.tapestry.split_dd.release(
; CHECK: %tape.aligned = getelementptr i8, ptr %tape, i64
; CHECK: store i64 {{.*}}, ptr {{.*}}, align 8
