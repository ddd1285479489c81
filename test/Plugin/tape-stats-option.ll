; -tapestry-tape-stats (clang: -fplugin=<plugin> -mllvm -tapestry-tape-stats)
; makes reverse sweeps add the bytes of record array they take to
; @__tapestry_tape_high_water (runtime/tapestry_rt.c, for benchmarks): when a
; record array grows (tapestry.tape.reserve) and when one is taken from the
; thread's cache (tapestry.tape.acquire). Without the option no derivative
; code touches the counter, and the environment of the compiler changes
; nothing (TAPESTRY_TAPE_STATS was once read there).
;
; RUN: %opt -passes=tapestry -tapestry-tape-stats -S %s | FileCheck %s
; DEFINE: %{off} = FileCheck %s --check-prefix=OFF \
; DEFINE:   --implicit-check-not=__tapestry_tape_high_water
; RUN: %opt -passes=tapestry -tapestry-tape-stats=false -S %s | %{off}
; RUN: %opt -passes=tapestry -S %s | %{off}
; RUN: env TAPESTRY_TAPE_STATS=1 %opt -passes=tapestry -S %s | %{off}
@enzyme_dup = external global i32
@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)
declare double @llvm.sin.f64(double)

; s = sum sin(x[i]) * x[i] over i < n; the loop's records are taped.
define double @f(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s1, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  store double 0.0, ptr %p
  %sv = call double @llvm.sin.f64(double %v)
  %m = fmul double %sv, %v
  %s1 = fadd double %s, %m
  %i1 = add i64 %i, 1
  %c = icmp slt i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %s1
}

define void @grad(ptr %x, ptr %dx, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_const, i64 %n)
  ret void
}

; CHECK: @__tapestry_tape_high_water = external global i64
; CHECK-LABEL: define internal void @tapestry.tape.reserve(
; CHECK:       grow:
; CHECK:         call ptr @realloc(ptr %{{[0-9]+}}, i64 %[[NEWCAP:[0-9]+]])
; CHECK:         %[[GROWN:.*]] = sub i64 %[[NEWCAP]],
; CHECK-NEXT:    %[[HW:.*]] = load i64, ptr @__tapestry_tape_high_water
; CHECK-NEXT:    %[[SUM:.*]] = add i64 %[[HW]], %[[GROWN]]
; CHECK-NEXT:    store i64 %[[SUM]], ptr @__tapestry_tape_high_water
; CHECK-LABEL: define internal void @tapestry.tape.acquire(
; CHECK:       take:
; The capacity of the block taken, stored into the state, is counted.
; CHECK:         store i64 %[[CAP:[0-9]+]], ptr
; CHECK:         %[[HW2:.*]] = load i64, ptr @__tapestry_tape_high_water
; CHECK-NEXT:    %[[SUM2:.*]] = add i64 %[[HW2]], %[[CAP]]
; CHECK-NEXT:    store i64 %[[SUM2]], ptr @__tapestry_tape_high_water

; OFF: define internal void @tapestry.tape.reserve(
; OFF: define internal void @tapestry.tape.acquire(
