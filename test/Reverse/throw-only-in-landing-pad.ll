; A throw reached only from a landing pad (catch, then rethrow): the
; derivative follows the path on which nothing is thrown, so once invokes
; become calls the landing pad and its rethrow are unreachable and
; removed. The rethrow's block was still listed among the throws whose
; messages the doomed paths print, and the next step read the erased block
; (opt segfaulted on a probe's -O1 IR of an unordered_map<std::string,
; double>; valgrind reports the read on this smaller case). Now only the
; throws that remain are listed.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
; RUN: %valgrind %opt -passes=tapestry -disable-output %s
; CHECK-LABEL: define internal double @f.tapestry.rev_a_ra(
; CHECK-NOT: __cxa_rethrow
; CHECK: fmul double
; CHECK-LABEL: {{^}}}
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
define void @check(double %x) {
  ret void
}
declare i32 @__gxx_personality_v0(...)
declare ptr @__cxa_begin_catch(ptr)
declare void @__cxa_rethrow()

define double @f(double %x) personality ptr @__gxx_personality_v0 {
entry:
  invoke void @check(double %x) to label %ok unwind label %lp
ok:
  %m = fmul double %x, %x
  ret double %m
lp:
  %l = landingpad { ptr, i32 } catch ptr null
  %e = extractvalue { ptr, i32 } %l, 0
  %c = call ptr @__cxa_begin_catch(ptr %e)
  call void @__cxa_rethrow()
  unreachable
}

define double @grad(double %x) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}
