; GVN forwards a wide vector store to a narrower load at an offset through
; integers: `bitcast <8 x double> to i512`, `trunc` to i256 (the bytes the
; narrower store kept), `lshr` by 128 and `trunc` to i64 read lane 2. The
; shifts and truncations between the vector and the last trunc are lane
; reads too, and differentiated as extractelement (fuzz seed 11543: a
; 512-bit store, then a 4-wide copy in a callee, under -O3 -march=native,
; was refused as "a vector of 8 double is reinterpreted as a 512-bit
; integer"). A chain whose bits would come partly from a shift's zeros is
; not a lane read and stays an error (test/Vector/lanes-through-integers.ll
; has the single-shift shapes). The same shifts out of a wider integer
; load (SROA reading the doubles of a struct of two loaded as i128) were
; taken for constants, a gradient of 0 with no error: each double is loaded
; from its own bytes now (@wide). Shapes, then a run against analytic
; values.
;
; RUN: %opt -passes=tapestry -S %s -o %t.ll
; RUN: FileCheck %s --input-file=%t.ll
; RUN: %plain_cc -O1 -Wno-override-module %t.ll \
; RUN:   %S/Inputs/truncated-lanes-main.c -lm -o %t && %t \
; RUN:   | FileCheck %s --check-prefix=EXEC
; RUN: not %opt -passes=tapestry -S %S/Inputs/lanes-shifted-in-zeros.ll \
; RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZEROS
; EXEC-NOT: FAIL
; EXEC: ALL PASSED
; ZEROS: cannot differentiate 'zeros': a vector of 8 double is reinterpreted as a 512-bit integer

; CHECK-LABEL: define internal void @wide.tapestry.rev_d_ra(
; CHECK-NOT: i128
; CHECK: ret void
; CHECK-LABEL: define internal void @lanes.tapestry.rev_d_ra(
; CHECK-NOT: i512
; CHECK-NOT: i256
; CHECK: ret void
; CHECK-LABEL: define internal double @lanes.tapestry.fwd_d_ra(
; CHECK-NOT: i512
; CHECK-NOT: i256
; CHECK: ret double

@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

; v = 2 x (8 lanes), stored back; r = v2 * v7 + v3 + <v4, v5> summed * v1,
; with v2 and v3 read through i512 -> i256 -> lshr; v7 through lshr ->
; trunc -> lshr; <v4, v5> through lshr -> trunc i256 -> trunc i128.
define double @lanes(ptr %x) {
  %v = load <8 x double>, ptr %x, align 8
  %w = fmul <8 x double> %v, <double 2.0, double 2.0, double 2.0, double 2.0, double 2.0, double 2.0, double 2.0, double 2.0>
  store <8 x double> %w, ptr %x, align 8
  %i = bitcast <8 x double> %w to i512
  %low = trunc i512 %i to i256
  %s2 = lshr i256 %low, 128
  %t2 = trunc i256 %s2 to i64
  %v2 = bitcast i64 %t2 to double
  %s3 = lshr i256 %low, 192
  %t3 = trunc i256 %s3 to i64
  %v3 = bitcast i64 %t3 to double
  %s1 = lshr i256 %low, 64
  %t1 = trunc i256 %s1 to i64
  %v1 = bitcast i64 %t1 to double
  %hi = lshr i512 %i, 256
  %hit = trunc i512 %hi to i256
  %s7 = lshr i256 %hit, 192
  %t7 = trunc i256 %s7 to i64
  %v7 = bitcast i64 %t7 to double
  %t45 = trunc i256 %hit to i128
  %v45 = bitcast i128 %t45 to <2 x double>
  %p = fmul double %v2, %v7
  %q = fadd double %p, %v3
  %h = call double @llvm.vector.reduce.fadd.v2f64(double -0.0, <2 x double> %v45)
  %m = fmul double %h, %v1
  %r = fadd double %q, %m
  ret double %r
}
declare double @llvm.vector.reduce.fadd.v2f64(double, <2 x double>)

define void @grad_lanes(ptr %x, ptr %dx) {
  %dup = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @lanes, i32 %dup, ptr %x, ptr %dx)
  ret void
}

define double @tan_lanes(ptr %x, ptr %tx) {
  %dup = load i32, ptr @enzyme_dup
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @lanes, i32 %dup, ptr %x, ptr %tx)
  ret double %t
}

; w = hi * hi * lo with lo, hi the two doubles of an i128 load.
define double @wide(ptr %x) {
  %i = load i128, ptr %x, align 8
  %s = lshr i128 %i, 64
  %t = trunc i128 %s to i64
  %hi = bitcast i64 %t to double
  %u = trunc i128 %i to i64
  %lo = bitcast i64 %u to double
  %h2 = fmul double %hi, %hi
  %r = fmul double %h2, %lo
  ret double %r
}

define void @grad_wide(ptr %x, ptr %dx) {
  %dup = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @wide, i32 %dup, ptr %x, ptr %dx)
  ret void
}
