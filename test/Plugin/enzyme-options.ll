; Every Enzyme option users pass parses in opt once the plugin is loaded
; (an unknown option would stop opt before any pass runs), with Enzyme's
; types: bools bare and with =0/=1/=true/=false, integers with =N, strings.
; Options with no effect in Tapestry leave the derivative unchanged.
;
; RUN: %opt -passes=tapestry -S %s \
; RUN:   -enzyme-inline -enzyme-inline-count=12 -enzyme-loose-types \
; RUN:   -enzyme-preopt=false -enzyme-postopt -enzyme-print-perf=0 \
; RUN:   -enzyme-lapack-copy=1 -enzyme-auto-sparsity=false \
; RUN:   -enzyme-runtime-activity -enzyme-strict-aliasing=0 \
; RUN:   -enzyme-max-cache=true -enzyme-attributor -enzyme-vectorize \
; RUN:   -enzyme-coalese -enzyme-cache-always -enzyme-zero-cache \
; RUN:   -enzyme-global-activity -enzyme-truncate-all= \
; RUN:   -enzyme-detect-readthrow=0 -enzyme-print=false \
; RUN:   -enzyme-print-activity=0 -enzyme-print-type=false \
; RUN:   -enzyme-disable-preopt -enzyme-enable=1 -enzyme-omp-opt \
; RUN:   -enzyme-rust-type=0 -enzyme_nonmarkedglobals_inactiveloads=1 \
; RUN:   -enzyme-emptyfn-inactive=0 -enzyme-blas-copy -enzyme-smallbool \
; RUN:   -enzyme-new-cache -enzyme-mincut-cache -enzyme-noalias \
; RUN:   -enzyme-aggressive-aa -enzyme-lower-globals -enzyme-phi-restructure \
; RUN:   -enzyme-select-opt -enzyme-always-inline -enzyme-inactive-dynamic \
; RUN:   -enzyme-shared-forward -enzyme-name-instructions \
; RUN:   -enzyme-print-unnecessary=0 -enzyme-vectorize-at-leaf-nodes \
; RUN:   -enzyme-post-opt-level=2 -enzyme-max-type-offset=600 \
; RUN:   -enzyme-max-int-offset=50 -enzyme-max-type-depth=4 \
; RUN:   -enzyme-globals-default-inactive=0 \
; RUN:   -enzyme-print-diffuse=0 -enzyme-type-warning=0 \
; RUN:   -enzyme-memmove-warning=false -enzyme-runtime-error \
; RUN:   -enzyme-fast-math=0 -enzyme-free-internal-allocations=0 \
; RUN:   -enzyme-assume-unknown-nofree -enzyme-julia-addr-load=0 \
; RUN:   -enzyme-non-power2-cache -enzyme-loop-invariant-cache=false \
; RUN:   -enzyme-rematerialize=0 -enzyme-register-reduce \
; RUN:   -enzyme-speculate-phis -enzyme-vector-split-phi=0 \
; RUN:   -enzyme-checkpoint-split-steps \
; RUN:   -enzyme-strong-zero=0 \
; RUN:   | FileCheck %s --implicit-check-not=__enzyme_autodiff
;
; Without any: the same derivative.
; RUN: %opt -passes=tapestry -S %s | FileCheck %s \
; RUN:   --implicit-check-not=__enzyme_autodiff
;
; -enzyme-enable=false: Tapestry leaves the request alone, as Enzyme does.
; RUN: %opt -passes=tapestry -enzyme-enable=false -S %s \
; RUN:   | FileCheck %s --check-prefix=OFF
; OFF: call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
;
; -enzyme-truncate-all (Enzyme's floating-point truncation) runs every
; function in op mode, the derivative included; a format the target does
; not have is emulated (Enzyme uses MPFR): each operation rounded once
; (Synthesis/EmulatedRounding.h); one out of range is an error.
; RUN: %opt -passes=tapestry,verify -enzyme-truncate-all=64to32 -S %s \
; RUN:   | FileCheck %s --check-prefix=TRUNC
; TRUNC-LABEL: define double @f(
; TRUNC: fptrunc double %x to float
; TRUNC: fmul float
; TRUNC: %sq = fpext float
; TRUNC: fmul float
; TRUNC: %cube = fpext float
; TRUNC-LABEL: define internal {{.*}}@{{.*}}f
; TRUNC-NOT: fmul double
; TRUNC: fmul float
; RUN: %opt -passes=tapestry,verify -enzyme-truncate-all=11-52to3-7 -S %s \
; RUN:   | FileCheck %s --check-prefix=TRUNC-EMU
; TRUNC-EMU-LABEL: define double @f(
; TRUNC-EMU: %[[SQ:[0-9]+]] = fmul double
; TRUNC-EMU: call double @__tapestry_fpround.e3m7.f64.mul(double {{.*}}, double {{.*}}, double %[[SQ]])
; RUN: not %opt -passes=tapestry -enzyme-truncate-all=11-52to12-7 \
; RUN:   -disable-output %s 2>&1 | FileCheck %s --check-prefix=TRUNC-ERR
; TRUNC-ERR: error: {{.*}}tapestry: -enzyme-truncate-all=11-52to12-7: a format with 12 exponent and 7 mantissa bits needs 2 to 11 exponent bits

declare double @__enzyme_autodiff(ptr, ...)

; f(x) = x^3, f'(x) = 3x^2
define double @f(double %x) {
  %sq = fmul double %x, %x
  %cube = fmul double %sq, %x
  ret double %cube
}

; CHECK-LABEL: define double @grad(
; CHECK: call {{.*}}@[[D:[^(]+]](double %x
define double @grad(double %x) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}
