; The clang front-end part (TapestryClang) is not an opt plugin. Loaded into
; opt by mistake it fails to load, with an error, instead of aborting LLVM:
; it used to bring clang's shared library, whose command-line options opt
; already has, into opt ("Option 'pgo-cold-func-opt' registered more than
; once", then an abort with a stack dump). `not` fails on a crash.
; RUN: not opt -load-pass-plugin=%clang_part -passes=tapestry -disable-output %s 2>&1 | FileCheck %s
; CHECK: Could not load library '{{.*}}TapestryClang-19.so'
; CHECK-NOT: registered more than once
; CHECK-NOT: Stack dump
define void @f() {
  ret void
}
