; The registrations Tapestry's clang part makes for Enzyme's attributes
; (__enzyme_<kind>_autoreg_<name>, internal, kept by llvm.compiler.used)
; are used up once the module's requests are resolved (here, or in a
; module with none) and erased, so that an extern global or function they
; name but the program never defines (its only use optimised away) is not
; needed at link time. A registration the user wrote stays. Without
; requests and with one. The C++ program is
; test/Frontend/inactive-extern-never-defined.cpp (with -flto too).
; RUN: %opt -passes=tapestry -S %s | FileCheck %s
; RUN: sed -e 's/^;REQ //' %s | %opt -passes=tapestry -S | FileCheck %s
; (Unused declarations of @mem_kind and @trace_event may stay: they
; reference nothing in the object file.)
; CHECK-NOT: autoreg
; CHECK-NOT: ptr @mem_kind
; CHECK-NOT: ptr @trace_event
; CHECK: @__enzyme_inactivefn = global [1 x ptr] [ptr @user_listed]
; CHECK-NOT: autoreg
; CHECK-NOT: ptr @mem_kind
; CHECK-NOT: ptr @trace_event

@mem_kind = external global i32
declare void @trace_event(ptr)
declare void @user_listed()
@__enzyme_inactive_global_autoreg_mem_kind = internal global [1 x ptr] [ptr @mem_kind]
@__enzyme_inactivefn_autoreg_trace_event = internal global [1 x ptr] [ptr @trace_event]
@__enzyme_inactivefn = global [1 x ptr] [ptr @user_listed]
@llvm.compiler.used = appending global [2 x ptr] [ptr @__enzyme_inactive_global_autoreg_mem_kind, ptr @__enzyme_inactivefn_autoreg_trace_event], section "llvm.metadata"

define double @f(double %x) {
  %y = fmul double %x, %x
  ret double %y
}

;REQ declare double @__enzyme_autodiff(ptr, ...)
;REQ define double @df(double %x) {
;REQ   %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
;REQ   ret double %d
;REQ }
