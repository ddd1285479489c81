; Forward mode of a struct passed by value whose members are a pointer and
; an int, spelt at the source level (enzyme_dup, v, dv), as clang -O0 emits
; it: two pieces of each struct loaded from its coerced type. The pointer
; piece takes its shadow from the shadow struct's pointer (activity
; "dc"); it was constant ("cc") and the tangent 0 (probe22a W3; end to end
; in Integration/struct-by-value-pointer-members.c).
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s

%struct.VecI = type { ptr, i32 }

@enzyme_dup = external global i32, align 4

define dso_local double @energy(ptr %v.coerce0, i32 %v.coerce1) {
entry:
  %v = alloca %struct.VecI, align 8
  %0 = getelementptr inbounds { ptr, i32 }, ptr %v, i32 0, i32 0
  store ptr %v.coerce0, ptr %0, align 8
  %1 = getelementptr inbounds { ptr, i32 }, ptr %v, i32 0, i32 1
  store i32 %v.coerce1, ptr %1, align 8
  %data = getelementptr inbounds %struct.VecI, ptr %v, i32 0, i32 0
  %2 = load ptr, ptr %data, align 8
  %arrayidx = getelementptr inbounds double, ptr %2, i64 0
  %3 = load double, ptr %arrayidx, align 8
  %data1 = getelementptr inbounds %struct.VecI, ptr %v, i32 0, i32 0
  %4 = load ptr, ptr %data1, align 8
  %arrayidx2 = getelementptr inbounds double, ptr %4, i64 0
  %5 = load double, ptr %arrayidx2, align 8
  %mul = fmul double %3, %5
  %n = getelementptr inbounds %struct.VecI, ptr %v, i32 0, i32 1
  %6 = load i32, ptr %n, align 8
  %conv = sitofp i32 %6 to double
  %mul3 = fmul double %mul, %conv
  ret double %mul3
}

define dso_local double @tangent(ptr noundef %x, ptr noundef %dx) {
entry:
  %x.addr = alloca ptr, align 8
  %dx.addr = alloca ptr, align 8
  %v = alloca %struct.VecI, align 8
  %t = alloca %struct.VecI, align 8
  store ptr %x, ptr %x.addr, align 8
  store ptr %dx, ptr %dx.addr, align 8
  %data = getelementptr inbounds %struct.VecI, ptr %v, i32 0, i32 0
  %0 = load ptr, ptr %x.addr, align 8
  store ptr %0, ptr %data, align 8
  %n = getelementptr inbounds %struct.VecI, ptr %v, i32 0, i32 1
  store i32 2, ptr %n, align 8
  %data1 = getelementptr inbounds %struct.VecI, ptr %t, i32 0, i32 0
  %1 = load ptr, ptr %dx.addr, align 8
  store ptr %1, ptr %data1, align 8
  %n2 = getelementptr inbounds %struct.VecI, ptr %t, i32 0, i32 1
  store i32 2, ptr %n2, align 8
  %2 = load i32, ptr @enzyme_dup, align 4
  %3 = getelementptr inbounds { ptr, i32 }, ptr %v, i32 0, i32 0
  %4 = load ptr, ptr %3, align 8
  %5 = getelementptr inbounds { ptr, i32 }, ptr %v, i32 0, i32 1
  %6 = load i32, ptr %5, align 8
  %7 = getelementptr inbounds { ptr, i32 }, ptr %t, i32 0, i32 0
  %8 = load ptr, ptr %7, align 8
  %9 = getelementptr inbounds { ptr, i32 }, ptr %t, i32 0, i32 1
  %10 = load i32, ptr %9, align 8
  %call = call double (ptr, ...) @__enzyme_fwddiff(ptr noundef @energy, i32 noundef %2, ptr %4, i32 %6, ptr %8, i32 %10)
  ret double %call
}

declare double @__enzyme_fwddiff(ptr noundef, ...)




; CHECK-LABEL: define dso_local double @tangent(
; CHECK:         call double @energy.tapestry.fwd_dc_ra(ptr %{{[0-9]+}}, ptr %{{[0-9]+}}, i32 %{{[0-9]+}})
; CHECK-LABEL: define internal double @energy.tapestry.fwd_dc_ra(ptr %v.coerce0, ptr %"v.coerce0'", i32 %v.coerce1)
