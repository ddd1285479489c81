; Masked memory accesses as the vectorisers emit them: llvm.masked.load
; and llvm.masked.store with a computed mask, llvm.masked.gather with a
; constant mask and repeated addresses, llvm.masked.scatter through a
; vector of pointers built by insertelement/shufflevector/getelementptr
; (which gets a shadow vector of pointers) with lanes writing the same
; element. Shadows are accessed under the same masks; the reverse sweep
; accumulates the gather's adjoints lane by lane (so repeated addresses add
; up) and takes the scatter's from the last lane back (the lane that wrote
; an element last takes its adjoint). Shapes, then a run against analytic
; values (Inputs/masked-main.c).
;
; RUN: %opt -passes=tapestry -S %s -o %t.ll
; RUN: FileCheck %s --check-prefix=MFWD --input-file=%t.ll
; RUN: FileCheck %s --check-prefix=MREV --input-file=%t.ll
; RUN: FileCheck %s --check-prefix=GFWD --input-file=%t.ll
; RUN: FileCheck %s --check-prefix=GREV --input-file=%t.ll
; RUN: %plain_cc -O1 -Wno-override-module %t.ll %S/Inputs/masked-main.c \
; RUN:   -lm -o %t && %t | FileCheck %s --check-prefix=EXEC
; EXEC-NOT: FAIL
; EXEC: ALL PASSED

; MFWD-LABEL: define internal double @masked.tapestry.fwd_ddd_ra(
; MFWD: %m = fcmp ogt <4 x double> %v, zeroinitializer
; MFWD: %"l'" = call <4 x double> @llvm.masked.load.v4f64.p0(ptr %"x'", i32 8, <4 x i1> %m, <4 x double> %"pass'")
; MFWD: call void @llvm.masked.store.v4f64.p0(<4 x double> %"sq'", ptr %"out'", i32 8, <4 x i1> %m)

; The store's adjoint is taken from the shadow and zeroed under its mask;
; the load's is added to the shadow under its mask and the pass-through
; gets the masked-off lanes.
; MREV-LABEL: define internal void @masked.tapestry.rev_ddd_ra(
; MREV: call <4 x double> @llvm.masked.load.v4f64.p0(ptr %"out'", i32 8, <4 x i1> %m, <4 x double> zeroinitializer)
; MREV: call void @llvm.masked.store.v4f64.p0(<4 x double> zeroinitializer, ptr %"out'", i32 8, <4 x i1> %m)
; MREV: %[[OLD:.*]] = call <4 x double> @llvm.masked.load.v4f64.p0(ptr %"x'", i32 8, <4 x i1> %m, <4 x double> zeroinitializer)
; MREV: call void @llvm.masked.store.v4f64.p0(<4 x double> %{{.*}}, ptr %"x'", i32 8, <4 x i1> %m)
; MREV: select <4 x i1> %m, <4 x double> zeroinitializer, <4 x double>
; MREV: ret void

; GFWD-LABEL: define internal double @gather_scatter.tapestry.fwd_dcdc_ra(
; GFWD: %"ptrs'" = getelementptr inbounds double, ptr %"x'", <4 x i64> %ie
; GFWD: %"g'" = call <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr> %"ptrs'", i32 8, <4 x i1> <i1 true, i1 true, i1 false, i1 true>,
; GFWD: %"base'" = insertelement <4 x ptr> poison, ptr %"out'", i64 0
; GFWD: %"bases'" = shufflevector <4 x ptr> %"base'", <4 x ptr> poison, <4 x i32> zeroinitializer
; GFWD: %"dst'" = getelementptr inbounds double, <4 x ptr> %"bases'", <4 x i64> %je
; GFWD: call void @llvm.masked.scatter.v4f64.v4p0(<4 x double> %"g3'", <4 x ptr> %"dst'", i32 8,

; Scatter: lanes 3, 2, 1, 0 in turn take and zero their element's adjoint.
; Gather: lanes 0, 1 and 3 (lane 2 is masked off) add theirs in turn.
; GREV-LABEL: define internal void @gather_scatter.tapestry.rev_dcdc_ra(
; GREV: extractelement <4 x ptr> %"dst'", i64 3
; GREV: store double 0.000000e+00
; GREV: extractelement <4 x ptr> %"dst'", i64 2
; GREV: extractelement <4 x ptr> %"dst'", i64 1
; GREV: extractelement <4 x ptr> %"dst'", i64 0
; GREV: extractelement <4 x ptr> %"ptrs'", i64 0
; GREV: extractelement <4 x ptr> %"ptrs'", i64 1
; GREV-NOT: extractelement <4 x ptr> %"ptrs'", i64 2
; GREV: extractelement <4 x ptr> %"ptrs'", i64 3
; GREV: ret void

@enzyme_dup = external global i32
@enzyme_const = external global i32

declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare double @llvm.vector.reduce.fadd.v4f64(double, <4 x double>)
declare <4 x double> @llvm.masked.load.v4f64.p0(ptr, i32, <4 x i1>, <4 x double>)
declare void @llvm.masked.store.v4f64.p0(<4 x double>, ptr, i32, <4 x i1>)
declare <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr>, i32, <4 x i1>, <4 x double>)
declare void @llvm.masked.scatter.v4f64.v4p0(<4 x double>, <4 x ptr>, i32, <4 x i1>)

; Lanes of x where x > 0 (masked-off lanes take the pass-through y lanes,
; times 2), squared and stored to out under the same mask; returns the sum
; of the loaded lanes times weights 1..4.
define double @masked(ptr %x, ptr %y, ptr %out) {
  %v = load <4 x double>, ptr %x, align 8
  %m = fcmp ogt <4 x double> %v, zeroinitializer
  %yv = load <4 x double>, ptr %y, align 8
  %pass = fmul <4 x double> %yv, <double 2.0, double 2.0, double 2.0, double 2.0>
  %l = call <4 x double> @llvm.masked.load.v4f64.p0(ptr %x, i32 8, <4 x i1> %m, <4 x double> %pass)
  %sq = fmul <4 x double> %l, %l
  call void @llvm.masked.store.v4f64.p0(<4 x double> %sq, ptr %out, i32 8, <4 x i1> %m)
  %w = fmul <4 x double> %l, <double 1.0, double 2.0, double 3.0, double 4.0>
  %r = call reassoc double @llvm.vector.reduce.fadd.v4f64(double -0.0, <4 x double> %w)
  ret double %r
}

; x[idx[i]] for the lanes where the mask constant allows (lane 2 is off
; and takes 0), with repeated indices; then the gathered values cubed are
; scattered to out[idx2[i]] (where lanes write the same element the last
; one wins). Returns sum_i (i + 1) gathered_i.
define double @gather_scatter(ptr %x, ptr %idx, ptr %out, ptr %idx2) {
  %iv = load <4 x i32>, ptr %idx, align 4
  %ie = sext <4 x i32> %iv to <4 x i64>
  %ptrs = getelementptr inbounds double, ptr %x, <4 x i64> %ie
  %g = call <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr> %ptrs, i32 8, <4 x i1> <i1 1, i1 1, i1 0, i1 1>, <4 x double> zeroinitializer)
  %g2 = fmul <4 x double> %g, %g
  %g3 = fmul <4 x double> %g2, %g
  %jv = load <4 x i32>, ptr %idx2, align 4
  %je = sext <4 x i32> %jv to <4 x i64>
  %base = insertelement <4 x ptr> poison, ptr %out, i64 0
  %bases = shufflevector <4 x ptr> %base, <4 x ptr> poison, <4 x i32> zeroinitializer
  %dst = getelementptr inbounds double, <4 x ptr> %bases, <4 x i64> %je
  call void @llvm.masked.scatter.v4f64.v4p0(<4 x double> %g3, <4 x ptr> %dst, i32 8, <4 x i1> <i1 1, i1 1, i1 1, i1 1>)
  %w = fmul <4 x double> %g, <double 1.0, double 2.0, double 3.0, double 4.0>
  %r = call reassoc double @llvm.vector.reduce.fadd.v4f64(double -0.0, <4 x double> %w)
  ret double %r
}

define void @grad_masked(ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %out, ptr %dout) {
  %dup = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_autodiff(ptr @masked, i32 %dup, ptr %x, ptr %dx, i32 %dup, ptr %y, ptr %dy, i32 %dup, ptr %out, ptr %dout)
  ret void
}
define double @tan_masked(ptr %x, ptr %tx, ptr %y, ptr %ty, ptr %out, ptr %tout) {
  %dup = load i32, ptr @enzyme_dup
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @masked, i32 %dup, ptr %x, ptr %tx, i32 %dup, ptr %y, ptr %ty, i32 %dup, ptr %out, ptr %tout)
  ret double %r
}
define void @grad_gs(ptr %x, ptr %dx, ptr %idx, ptr %out, ptr %dout, ptr %idx2) {
  %dup = load i32, ptr @enzyme_dup
  %const = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @gather_scatter, i32 %dup, ptr %x, ptr %dx, i32 %const, ptr %idx, i32 %dup, ptr %out, ptr %dout, i32 %const, ptr %idx2)
  ret void
}
define double @tan_gs(ptr %x, ptr %tx, ptr %idx, ptr %out, ptr %tout, ptr %idx2) {
  %dup = load i32, ptr @enzyme_dup
  %const = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @gather_scatter, i32 %dup, ptr %x, ptr %tx, i32 %const, ptr %idx, i32 %dup, ptr %out, ptr %tout, i32 %const, ptr %idx2)
  ret double %r
}
