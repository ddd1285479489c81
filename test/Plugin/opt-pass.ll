; The plugin's module pass through opt: by name (-passes=tapestry), and in
; opt's default pipelines, where the plugin adds it at the pipeline start like
; clang's. Requests are replaced, no entry point or marker is left, and equal
; requests share one derivative (memoised per request), while a different
; mode or activity gets its own.
;
; RUN: %opt -passes=tapestry -S %s | FileCheck %s --check-prefixes=CHECK,CALLS \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_ \
; RUN:   --implicit-check-not=tapestry.rev_a_ra.
; RUN: %opt -passes='default<O0>' -S %s | FileCheck %s --check-prefixes=CHECK,CALLS \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_ \
; RUN:   --implicit-check-not=tapestry.rev_a_ra.
; RUN: %opt -passes='default<O2>' -S %s | FileCheck %s --check-prefixes=CHECK,O2 \
; RUN:   --implicit-check-not=__enzyme_ --implicit-check-not=@enzyme_
;
; Without requests the pass changes nothing.
; RUN: %opt -passes=tapestry -S %S/Inputs/no-requests.ll \
; RUN:   | FileCheck %S/Inputs/no-requests.ll

@enzyme_out = external global i32
@enzyme_dup = external global i32

declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

declare double @llvm.sin.f64(double)

define double @f(double %x) {
  %s = call double @llvm.sin.f64(double %x)
  %r = fmul double %s, %x
  ret double %r
}

define double @grad1(double %x) {
  %m = load i32, ptr @enzyme_out
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %m, double %x)
  ret double %d
}

; The same request again, without the marker (a double is enzyme_out by
; default in reverse mode).
define double @grad2(double %x) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}

define double @tangent(double %x) {
  %m = load i32, ptr @enzyme_dup
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %m, double %x, double 1.0)
  ret double %d
}

; CHECK-LABEL: define {{.*}}double @grad1(double %x)
; CALLS:       [[G:%.*]] = call double @f.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALLS-NEXT:  ret double [[G]]
; O2-DAG:      call double @llvm.sin.f64(double %x)
; O2-DAG:      call double @llvm.cos.f64(double %x)
; O2:          ret double

; CHECK-LABEL: define {{.*}}double @grad2(double %x)
; CALLS:       [[G:%.*]] = call double @f.tapestry.rev_a_ra(double %x, double 1.000000e+00)
; CALLS-NEXT:  ret double [[G]]
; O2-DAG:      call double @llvm.sin.f64(double %x)
; O2-DAG:      call double @llvm.cos.f64(double %x)
; O2:          ret double

; CHECK-LABEL: define {{.*}}double @tangent(double %x)
; CALLS:       [[T:%.*]] = call double @f.tapestry.fwd_d_ra(double %x, double 1.000000e+00)
; CALLS-NEXT:  ret double [[T]]
; O2-DAG:      call double @llvm.cos.f64(double %x)
; O2-DAG:      call double @llvm.sin.f64(double %x)
; O2:          ret double

; The derivatives are internal functions; at -O2 they were inlined and are
; gone.
; CALLS-DAG:   define internal double @f.tapestry.rev_a_ra(double %x, double %seed)
; CALLS-DAG:   define internal double @f.tapestry.fwd_d_ra(double %x, double %"x'")
; O2-NOT:      tapestry
