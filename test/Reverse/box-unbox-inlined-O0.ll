; At -O0 (optnone, noinline on every function) a NaN-boxing interpreter's
; box and unbox helpers (a double to its bits through a union, and back)
; are inlined into the differentiated function, as the optimiser would do:
; on its own each would be bit manipulation with no derivative, and the
; request was refused. Inlined, the bits are seen to be the same value and
; the derivative flows: d(x0 x1)/dx = (x1, x0).
; RUN: %opt -passes=tapestry -tapestry-print-prepared -disable-output %s 2>&1 | FileCheck %s --check-prefix=PREP
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
; PREP-LABEL: define internal double @f.tapestry.primal(ptr %x)
; PREP-NOT: call {{.*}}@box
; PREP-NOT: call {{.*}}@unbox
; PREP: ret double
; CHECK-LABEL: define void @gradient(
; CHECK: call {{.*}}@[[D:[^(]+]](
; CHECK: define {{.*}}@[[D]](
; CHECK-NOT: call {{.*}}@box
; CHECK-NOT: call {{.*}}@unbox
; CHECK: fmul
; CHECK: ret
; CHECK-NOT: error
declare void @__enzyme_autodiff(...)
@enzyme_dup = external global i32

define i64 @box(double %d) noinline optnone {
entry:
  %d.addr = alloca double, align 8
  %b = alloca double, align 8
  store double %d, ptr %d.addr, align 8
  %0 = load double, ptr %d.addr, align 8
  store double %0, ptr %b, align 8
  %1 = load i64, ptr %b, align 8
  ret i64 %1
}

define double @unbox(i64 %u) noinline optnone {
entry:
  %u.addr = alloca i64, align 8
  %b = alloca double, align 8
  store i64 %u, ptr %u.addr, align 8
  %0 = load i64, ptr %u.addr, align 8
  store i64 %0, ptr %b, align 8
  %1 = load double, ptr %b, align 8
  ret double %1
}

define double @f(ptr %x) noinline optnone {
entry:
  %x.addr = alloca ptr, align 8
  %s = alloca i64, align 8
  store ptr %x, ptr %x.addr, align 8
  %0 = load ptr, ptr %x.addr, align 8
  %1 = load double, ptr %0, align 8
  %call = call i64 @box(double %1)
  store i64 %call, ptr %s, align 8
  %2 = load i64, ptr %s, align 8
  %call1 = call double @unbox(i64 %2)
  %3 = load ptr, ptr %x.addr, align 8
  %arrayidx2 = getelementptr inbounds double, ptr %3, i64 1
  %4 = load double, ptr %arrayidx2, align 8
  %mul = fmul double %call1, %4
  ret double %mul
}

define void @gradient(ptr %x, ptr %dx) noinline optnone {
entry:
  call void (...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx)
  ret void
}
