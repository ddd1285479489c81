; Constructs a truncated copy cannot follow are errors, never silently
; wrong or silently untruncated numbers.
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt -passes=tapestry -disable-output %t/bits.ll 2>&1 | FileCheck %s --check-prefix=BITS
; RUN: not %opt -passes=tapestry -disable-output %t/frexp.ll 2>&1 | FileCheck %s --check-prefix=FREXP
; RUN: not %opt -passes=tapestry -disable-output %t/strict.ll 2>&1 | FileCheck %s --check-prefix=STRICT
; RUN: not %opt -passes=tapestry -disable-output %t/atomic.ll 2>&1 | FileCheck %s --check-prefix=ATOMIC
; RUN: not %opt -passes=tapestry -disable-output %t/nobody.ll 2>&1 | FileCheck %s --check-prefix=NOBODY
; RUN: not %opt -passes=tapestry -disable-output %t/result.ll 2>&1 | FileCheck %s --check-prefix=RESULT

;--- bits.ll
; Mem mode: the bits of a double are those of a packed float.
; BITS: error: {{.*}}in function bits {{.*}}__enzyme_truncate_mem_func cannot compute 'bits' in float instead of double: it reinterprets the bits of a double value, which in mem mode holds a float in its first bytes
declare ptr @__enzyme_truncate_mem_func(...)
define i64 @bits(double %x) {
  %b = bitcast double %x to i64
  ret i64 %b
}
define ptr @request() {
  %a = call ptr (...) @__enzyme_truncate_mem_func(ptr @bits, i64 64, i64 32)
  ret ptr %a
}

;--- frexp.ll
; An intrinsic returning a struct of doubles.
; FREXP: error: {{.*}}__enzyme_truncate_op_func cannot compute 'parts' in float instead of double: Tapestry does not truncate the intrinsic llvm.frexp.f64.i32
declare ptr @__enzyme_truncate_op_func(...)
declare { double, i32 } @llvm.frexp.f64.i32(double)
define double @parts(double %x) {
  %fr = call { double, i32 } @llvm.frexp.f64.i32(double %x)
  %m = extractvalue { double, i32 } %fr, 0
  ret double %m
}
define ptr @request() {
  %a = call ptr (...) @__enzyme_truncate_op_func(ptr @parts, i64 64, i64 32)
  ret ptr %a
}

;--- strict.ll
; Constrained (strict floating-point) operations.
; STRICT: error: {{.*}}__enzyme_truncate_op_func cannot compute 'strict' in float instead of double: Tapestry does not truncate the intrinsic llvm.experimental.constrained.fadd.f64
declare ptr @__enzyme_truncate_op_func(...)
declare double @llvm.experimental.constrained.fadd.f64(double, double, metadata, metadata)
define double @strict(double %x) strictfp {
  %s = call double @llvm.experimental.constrained.fadd.f64(double %x, double %x, metadata !"round.dynamic", metadata !"fpexcept.strict") strictfp
  ret double %s
}
define ptr @request() {
  %a = call ptr (...) @__enzyme_truncate_op_func(ptr @strict, i64 64, i64 32)
  ret ptr %a
}

;--- atomic.ll
; An atomic floating-point update.
; ATOMIC: error: {{.*}}__enzyme_truncate_op_func cannot compute 'accumulate' in float instead of double: Tapestry does not truncate the instruction 'atomicrmw' on double values
declare ptr @__enzyme_truncate_op_func(...)
define void @accumulate(ptr %p, double %x) {
  %old = atomicrmw fadd ptr %p, double %x seq_cst
  ret void
}
define ptr @request() {
  %a = call ptr (...) @__enzyme_truncate_op_func(ptr @accumulate, i64 64, i64 32)
  ret ptr %a
}

;--- nobody.ll
; NOBODY: error: {{.*}}__enzyme_truncate_op_func: the body of 'elsewhere' is not in this file, so Tapestry cannot truncate it
declare ptr @__enzyme_truncate_op_func(...)
declare double @elsewhere(double)
define ptr @request() {
  %a = call ptr (...) @__enzyme_truncate_op_func(ptr @elsewhere, i64 64, i64 32)
  ret ptr %a
}

;--- result.ll
; RESULT: error: {{.*}}__enzyme_truncate_op_func: it returns a pointer to the truncated function; declare it to return a function pointer
declare double @__enzyme_truncate_op_func(...)
define double @sq(double %x) {
  %m = fmul double %x, %x
  ret double %m
}
define double @request() {
  %a = call double (...) @__enzyme_truncate_op_func(ptr @sq, i64 64, i64 32)
  ret double %a
}
