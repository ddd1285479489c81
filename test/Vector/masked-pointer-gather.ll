; Pointers read from a shadowed pointer table several at once, as the loop
; vectoriser emits for rows[i][j] or tab[k][j] (fuzz seed 516): a masked
; load of pointers (a tail-folded loop over an array of row pointers), a
; gather of pointers (indices into the table), and a masked scatter of
; pointers filling a table that is then gathered back. The loaded pointers'
; shadows are read from the table's shadow the same way, under the same
; mask (masked-off lanes take the pass-through's shadow); a scatter of
; pointers writes their shadows into the table's shadow. Forward, reverse
; and batch (width 2) shapes, then a run against analytic values
; (Inputs/masked-pointer-main.c).
;
; RUN: %opt -passes=tapestry -S %s -o %t.ll
; RUN: FileCheck %s --check-prefix=FWD --input-file=%t.ll
; RUN: FileCheck %s --check-prefix=GFWD --input-file=%t.ll
; RUN: FileCheck %s --check-prefix=REV --input-file=%t.ll
; RUN: FileCheck %s --check-prefix=BATCH --input-file=%t.ll
; RUN: FileCheck %s --check-prefix=SCAT --input-file=%t.ll
; RUN: %plain_cc -O1 -Wno-override-module %t.ll %S/Inputs/masked-pointer-main.c \
; RUN:   -lm -o %t && %t | FileCheck %s --check-prefix=EXEC
; EXEC-NOT: FAIL
; EXEC: ALL PASSED

; FWD-LABEL: define internal double @rows.tapestry.fwd_dc_ra(
; FWD: %ps = call <2 x ptr> @llvm.masked.load.v2p0.p0(ptr {{.*}}%rows, i32 8, <2 x i1> %m0, <2 x ptr> poison)
; FWD: %"ps'" = call <2 x ptr> @llvm.masked.load.v2p0.p0(ptr {{.*}}%"rows'", i32 8, <2 x i1> %m0, <2 x ptr> poison)
; FWD: %"p0'" = extractelement <2 x ptr> %"ps'", i64 0
; FWD: load double, ptr %"p0'"
; GFWD-LABEL: define internal double @gathered.tapestry.fwd_dc_ra(
; GFWD: %"ps'" = call <2 x ptr> @llvm.masked.gather.v2p0.v2p0(<2 x ptr> %"v1'", i32 8, <2 x i1> <i1 true, i1 true>, <2 x ptr> poison)
; GFWD: %"q'" = getelementptr inbounds i8, <2 x ptr> %"ps'", i64 24
; GFWD: call <2 x double> @llvm.masked.gather.v2f64.v2p0(<2 x ptr> %"q'"

; REV-LABEL: define internal void @gathered.tapestry.rev_dc_ra(
; REV: %"ps'" = call <2 x ptr> @llvm.masked.gather.v2p0.v2p0(<2 x ptr> %"v1'", i32 8, <2 x i1> <i1 true, i1 true>, <2 x ptr> poison)
; REV: %"q'" = getelementptr inbounds i8, <2 x ptr> %"ps'", i64 24
; REV: extractelement <2 x ptr> %"q'", i64 0
; REV: extractelement <2 x ptr> %"q'", i64 1
; REV: ret void

; One gather per lane, from that lane's shadow of the table, and one
; gather of tangents through each lane's shadow pointers.
; BATCH-LABEL: define internal [2 x double] @gathered.tapestry.fwd_dc_ra_w2(
; BATCH: %"v1'" = insertelement <2 x ptr> %"v0'", ptr %"q1'", i64 1
; BATCH: %"v1'[[L1:[0-9]+]]" = insertelement <2 x ptr> %"v0'{{[0-9]+}}", ptr %"q1'{{[0-9]+}}", i64 1
; BATCH: %"ps'" = call <2 x ptr> @llvm.masked.gather.v2p0.v2p0(<2 x ptr> %"v1'", i32 8,
; BATCH: %"ps'[[P1:[0-9]+]]" = call <2 x ptr> @llvm.masked.gather.v2p0.v2p0(<2 x ptr> %"v1'[[L1]]", i32 8,
; BATCH: %"q'" = getelementptr inbounds i8, <2 x ptr> %"ps'", i64 24
; BATCH: %"q'[[Q1:[0-9]+]]" = getelementptr inbounds i8, <2 x ptr> %"ps'[[P1]]", i64 24
; BATCH: call <2 x double> @llvm.masked.gather.v2f64.v2p0(<2 x ptr> %"q'", i32 8,
; BATCH: call <2 x double> @llvm.masked.gather.v2f64.v2p0(<2 x ptr> %"q'[[Q1]]", i32 8,
; BATCH: ret [2 x double]

; The scattered pointers' shadows go into the table's shadow, in both modes.
; SCAT-LABEL: define internal void @scattered.tapestry.rev_dc_ra(
; SCAT: call void @llvm.masked.scatter.v2p0.v2p0(<2 x ptr> %"vals'", <2 x ptr> %"slots'", i32 8, <2 x i1> <i1 true, i1 true>)
; SCAT: %"ps'" = call <2 x ptr> @llvm.masked.gather.v2p0.v2p0(<2 x ptr> %"slots'"
; SCAT: ret void
; SCAT-LABEL: define internal double @scattered.tapestry.fwd_dc_ra(
; SCAT: call void @llvm.masked.scatter.v2p0.v2p0(<2 x ptr> %"vals'", <2 x ptr> %"slots'", i32 8, <2 x i1> <i1 true, i1 true>)

@enzyme_dup = external global i32
@enzyme_const = external global i32
@enzyme_width = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare [2 x double] @__enzyme_fwddiff2(ptr, ...)
declare <2 x ptr> @llvm.masked.load.v2p0.p0(ptr, i32, <2 x i1>, <2 x ptr>)
declare <2 x ptr> @llvm.masked.gather.v2p0.v2p0(<2 x ptr>, i32, <2 x i1>, <2 x ptr>)
declare <2 x double> @llvm.masked.gather.v2f64.v2p0(<2 x ptr>, i32, <2 x i1>, <2 x double>)
declare void @llvm.masked.scatter.v2p0.v2p0(<2 x ptr>, <2 x ptr>, i32, <2 x i1>)
declare double @llvm.vector.reduce.fadd.v2f64(double, <2 x double>)

; rows[0][0] * rows[1][0], the second row pointer masked by %m1 (when off,
; the product is rows[0][0] * rows[0][0] read through the pass-through).
define double @rows(ptr %rows, i1 %m1) {
  %m0 = insertelement <2 x i1> <i1 true, i1 true>, i1 %m1, i64 1
  %first = load ptr, ptr %rows, align 8
  %pass = insertelement <2 x ptr> poison, ptr %first, i64 1
  %ps = call <2 x ptr> @llvm.masked.load.v2p0.p0(ptr %rows, i32 8, <2 x i1> %m0, <2 x ptr> poison)
  %p0 = extractelement <2 x ptr> %ps, i64 0
  %ps2 = select i1 %m1, <2 x ptr> %ps, <2 x ptr> %pass
  %p1 = extractelement <2 x ptr> %ps2, i64 1
  %a = load double, ptr %p0, align 8
  %b = load double, ptr %p1, align 8
  %r = fmul double %a, %b
  ret double %r
}

; tab[0][3]^2 + tab[k][3]^2: the row pointers gathered, then their elements.
define double @gathered(ptr %tab, i64 %k) {
  %q1 = getelementptr ptr, ptr %tab, i64 %k
  %v0 = insertelement <2 x ptr> poison, ptr %tab, i64 0
  %v1 = insertelement <2 x ptr> %v0, ptr %q1, i64 1
  %ps = call <2 x ptr> @llvm.masked.gather.v2p0.v2p0(<2 x ptr> %v1, i32 8, <2 x i1> <i1 true, i1 true>, <2 x ptr> poison)
  %q = getelementptr inbounds double, <2 x ptr> %ps, i64 3
  %g = call <2 x double> @llvm.masked.gather.v2f64.v2p0(<2 x ptr> %q, i32 8, <2 x i1> <i1 true, i1 true>, <2 x double> poison)
  %sq = fmul <2 x double> %g, %g
  %r = call double @llvm.vector.reduce.fadd.v2f64(double 0.0, <2 x double> %sq)
  ret double %r
}

; tab[0] = data + 1, tab[1] = data + 4 by a scatter, then
; tab[0][0] * tab[1][0] = data[1] * data[4] through a gather.
define double @scattered(ptr %data, i64 %unused) {
  %tab = alloca [2 x ptr], align 8
  %e1 = getelementptr inbounds double, ptr %data, i64 1
  %e4 = getelementptr inbounds double, ptr %data, i64 4
  %a0 = insertelement <2 x ptr> poison, ptr %e1, i64 0
  %vals = insertelement <2 x ptr> %a0, ptr %e4, i64 1
  %s1 = getelementptr inbounds ptr, ptr %tab, i64 1
  %b0 = insertelement <2 x ptr> poison, ptr %tab, i64 0
  %slots = insertelement <2 x ptr> %b0, ptr %s1, i64 1
  call void @llvm.masked.scatter.v2p0.v2p0(<2 x ptr> %vals, <2 x ptr> %slots, i32 8, <2 x i1> <i1 true, i1 true>)
  %ps = call <2 x ptr> @llvm.masked.gather.v2p0.v2p0(<2 x ptr> %slots, i32 8, <2 x i1> <i1 true, i1 true>, <2 x ptr> poison)
  %g = call <2 x double> @llvm.masked.gather.v2f64.v2p0(<2 x ptr> %ps, i32 8, <2 x i1> <i1 true, i1 true>, <2 x double> poison)
  %x = extractelement <2 x double> %g, i64 0
  %y = extractelement <2 x double> %g, i64 1
  %r = fmul double %x, %y
  ret double %r
}

define void @grad_rows(ptr %r, ptr %dr, i1 %m) {
  %dup = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @rows, i32 %dup, ptr %r, ptr %dr, i32 %c, i1 %m)
  ret void
}

define double @tan_rows(ptr %r, ptr %tr, i1 %m) {
  %dup = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @rows, i32 %dup, ptr %r, ptr %tr, i32 %c, i1 %m)
  ret double %t
}

define void @grad_gathered(ptr %t, ptr %dt, i64 %k) {
  %dup = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @gathered, i32 %dup, ptr %t, ptr %dt, i32 %c, i64 %k)
  ret void
}

define double @tan_gathered(ptr %t, ptr %tt, i64 %k) {
  %dup = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @gathered, i32 %dup, ptr %t, ptr %tt, i32 %c, i64 %k)
  ret double %r
}

; Two tangents at once: the table's shadows for lanes 0 and 1.
define [2 x double] @tan2_gathered(ptr %t, ptr %t0, ptr %t1, i64 %k) {
  %w = load i32, ptr @enzyme_width
  %dup = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %r = call [2 x double] (ptr, ...) @__enzyme_fwddiff2(ptr @gathered, i32 %w, i32 2, i32 %dup, ptr %t, ptr %t0, ptr %t1, i32 %c, i64 %k)
  ret [2 x double] %r
}

define void @grad_scattered(ptr %d, ptr %dd) {
  %dup = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @scattered, i32 %dup, ptr %d, ptr %dd, i32 %c, i64 0)
  ret void
}

define double @tan_scattered(ptr %d, ptr %td) {
  %dup = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @scattered, i32 %dup, ptr %d, ptr %td, i32 %c, i64 0)
  ret double %r
}
