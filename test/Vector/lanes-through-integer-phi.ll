; GVN's PRE can merge two bitcasts of double vectors to one integer in a phi
; ahead of a lane read: `phi i256 [bitcast <4 x double> %wa to i256],
; [bitcast <4 x double> %wb to i256]`, then lshr/trunc/bitcast back to
; double. The phi is a phi of the vectors, and the lanes are read as
; extractelement. Once "cannot differentiate 'f': a vector of 8 double is
; reinterpreted as a 512-bit integer" (fuzz seed 835 of the all-feature
; campaign, -O3 -march=native -ffast-math -fveclib=libmvec, with the phi
; made by the plugin's own GVN after inlining). Shapes, then a run against
; analytic values.
;
; RUN: %opt -passes=tapestry -S %s -o %t.ll
; RUN: FileCheck %s --input-file=%t.ll
; RUN: %plain_cc -O1 -Wno-override-module %t.ll \
; RUN:   %S/Inputs/lanes-phi-main.c -lm -o %t && %t | FileCheck %s --check-prefix=EXEC
; EXEC-NOT: FAIL
; EXEC: ALL PASSED

; CHECK-LABEL: define internal void @lanes_phi.tapestry.rev_dc_ra(
; CHECK-NOT: i256
; CHECK: ret void
; CHECK-LABEL: define internal double @lanes_phi.tapestry.fwd_dc_ra(
; CHECK-NOT: i256
; CHECK: ret double

@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

; c < 0:  x[0] *= c, w = x             r = w0 w1 + w2 w3 = c x0 x1 + x2 x3
; c >= 0: w = 2 x (x unchanged)        r = 4 x0 x1 + 4 x2 x3
define double @lanes_phi(ptr %x, double %c) {
entry:
  %v = load <4 x double>, ptr %x, align 8
  %neg = fcmp olt double %c, 0.0
  br i1 %neg, label %scale, label %twice

scale:
  %x0 = extractelement <4 x double> %v, i64 0
  %x0c = fmul double %x0, %c
  store double %x0c, ptr %x, align 8
  %wa = load <4 x double>, ptr %x, align 8
  %ia = bitcast <4 x double> %wa to i256
  br label %join

twice:
  %wb = fmul <4 x double> %v, <double 2.0, double 2.0, double 2.0, double 2.0>
  store <4 x double> %v, ptr %x, align 8
  %ib = bitcast <4 x double> %wb to i256
  br label %join

join:
  %i = phi i256 [ %ia, %scale ], [ %ib, %twice ]
  %t0 = trunc i256 %i to i64
  %w0 = bitcast i64 %t0 to double
  %s1 = lshr i256 %i, 64
  %t1 = trunc i256 %s1 to i64
  %w1 = bitcast i64 %t1 to double
  %s2 = lshr i256 %i, 128
  %t2 = trunc i256 %s2 to i64
  %w2 = bitcast i64 %t2 to double
  %s3 = lshr i256 %i, 192
  %t3 = trunc i256 %s3 to i64
  %w3 = bitcast i64 %t3 to double
  %p = fmul double %w0, %w1
  %q = fmul double %w2, %w3
  %r = fadd double %p, %q
  ret double %r
}

define void @grad_lanes_phi(ptr %x, ptr %dx, double %c) {
  %dup = load i32, ptr @enzyme_dup
  %con = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @lanes_phi, i32 %dup, ptr %x,
                                          ptr %dx, i32 %con, double %c)
  ret void
}

define double @tan_lanes_phi(ptr %x, ptr %tx, double %c) {
  %dup = load i32, ptr @enzyme_dup
  %con = load i32, ptr @enzyme_const
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @lanes_phi, i32 %dup,
                                                ptr %x, ptr %tx, i32 %con,
                                                double %c)
  ret double %t
}
