; std::list links and unlinks its nodes in libstdc++.so (_M_hook,
; _M_unhook): calls that only move pointers. The derivative repeats each on
; the shadows (the shadow node hooked before the shadow position), so that
; the shadow list has the primal's shape; they were refused as "no
; derivative is known for external function
; 'std::__detail::_List_node_base::_M_hook(...)'". End to end:
; test/Integration/cxx-list-argument.cpp.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare void @_ZNSt8__detail15_List_node_base7_M_hookEPS0_(ptr, ptr)
declare void @_ZNSt8__detail15_List_node_base9_M_unhookEv(ptr)
declare void @__enzyme_autodiff(...)
@enzyme_dup = external global i32

; Hooks %node before %pos, reads the value after the node's links, then
; unhooks %old.
define double @relink(ptr %node, ptr %pos, ptr %old) {
  call void @_ZNSt8__detail15_List_node_base7_M_hookEPS0_(ptr %node, ptr %pos)
  call void @_ZNSt8__detail15_List_node_base9_M_unhookEv(ptr %old)
  %val = getelementptr inbounds i8, ptr %node, i64 16
  %v = load double, ptr %val
  %r = fmul double %v, %v
  ret double %r
}

define void @caller(ptr %n, ptr %dn, ptr %p, ptr %dp, ptr %o, ptr %do) {
  %dup = load i32, ptr @enzyme_dup
  call void (...) @__enzyme_autodiff(ptr @relink, i32 %dup, ptr %n, ptr %dn, i32 %dup, ptr %p, ptr %dp, i32 %dup, ptr %o, ptr %do)
  ret void
}

; CHECK-LABEL: define internal {{.*}} @relink.tapestry.rev
; CHECK: call void @_ZNSt8__detail15_List_node_base7_M_hookEPS0_(ptr %node, ptr %pos)
; CHECK-NEXT: call void @_ZNSt8__detail15_List_node_base7_M_hookEPS0_(ptr %"node'", ptr %"pos'")
; CHECK: call void @_ZNSt8__detail15_List_node_base9_M_unhookEv(ptr %old)
; CHECK-NEXT: call void @_ZNSt8__detail15_List_node_base9_M_unhookEv(ptr %"old'")
