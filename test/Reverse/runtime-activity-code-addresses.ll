; Run-time activity (plugin/Analysis/RuntimeActivity.cpp): a pointer without
; a shadow stored into shadowed memory is its own shadow there, so a pointer
; read back from that memory may be constant: a use of it is tested at run
; time (shadow == primal), and a call that cannot test it (here a call
; through a function pointer) is refused. The address of a function (a
; std::function's invoker, a callback kept in a struct), of a virtual table
; (_ZTV..., a shared_ptr's control block) or of a string literal (also one
; of two chosen by a select, cond ? "odd" : "even") carries no derivative:
; storing it marks nothing, and a data pointer read from the same object is
; neither refused nor tested. Before, @callback, @vtable and @literal were
; refused ("argument 1 of this call is a pointer read from memory that also
; holds pointers to constant data ...") and the read in @used was tested at
; run time. A pointer into enzyme_const data stored beside a function's
; address still marks the memory: what is read back is tested where it is
; used (@const_used), and a call given it is still refused (the last RUN
; line adds the request for @const_called). End to end:
; test/Integration/cxx-library-objects-holding-code-addresses.cpp.
;
; DEFINE: %{fc} = FileCheck %s --input-file=%t
; RUN: %opt -passes=tapestry,verify -S %s -o %t
; RUN: %{fc} --check-prefix=CALLBACK
; RUN: %{fc} --check-prefix=VTABLE
; RUN: %{fc} --check-prefix=LITERAL
; RUN: %{fc} --check-prefix=USED
; RUN: %{fc} --check-prefix=CONST-USED
; RUN: sed -e 's/^;REQUEST //' %s | not %opt -passes=tapestry -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ERR
@enzyme_dup = external global i32
@enzyme_const = external global i32

declare void @__enzyme_autodiff(ptr, ...)

@.str.odd = private unnamed_addr constant [4 x i8] c"odd\00"
@.str.even = private unnamed_addr constant [5 x i8] c"even\00"
@_ZTV4Cell = constant { [3 x ptr] } { [3 x ptr] [ptr null, ptr null, ptr @square] }

define internal double @square(ptr %p) {
  %v = load double, ptr %p
  %r = fmul double %v, %v
  ret double %r
}

; {ptr data, ptr invoker}: the caller set the data pointer; the invoker is
; set here, and the data is given to a function the caller chose.
define double @callback(ptr %obj, ptr %fn) {
  %inv.slot = getelementptr inbounds i8, ptr %obj, i64 8
  store ptr @square, ptr %inv.slot
  %data = load ptr, ptr %obj
  %r = call double %fn(ptr %data)
  ret double %r
}

; {ptr vptr, ptr data}
define double @vtable(ptr %obj, ptr %fn) {
  store ptr getelementptr inbounds inrange(-16, 8) ({ [3 x ptr] }, ptr @_ZTV4Cell, i32 0, i32 0, i32 2), ptr %obj
  %data.slot = getelementptr inbounds i8, ptr %obj, i64 8
  %data = load ptr, ptr %data.slot
  %r = call double %fn(ptr %data)
  ret double %r
}

; {ptr key, ptr data}, the key one of two literals
define double @literal(ptr %obj, ptr %fn, i1 %odd) {
  %key = select i1 %odd, ptr @.str.odd, ptr @.str.even
  store ptr %key, ptr %obj
  %data.slot = getelementptr inbounds i8, ptr %obj, i64 8
  %data = load ptr, ptr %data.slot
  %r = call double %fn(ptr %data)
  ret double %r
}

; {ptr data, ptr invoker}, the data read directly
define double @used(ptr %obj) {
  %inv.slot = getelementptr inbounds i8, ptr %obj, i64 8
  store ptr @square, ptr %inv.slot
  %data = load ptr, ptr %obj
  %v = load double, ptr %data
  %r = fmul double %v, %v
  ret double %r
}

; {ptr data, ptr invoker, ptr other}: other is set here to enzyme_const data
define double @const_used(ptr %obj, ptr %seq) {
  %inv.slot = getelementptr inbounds i8, ptr %obj, i64 8
  store ptr @square, ptr %inv.slot
  %other = getelementptr inbounds i8, ptr %obj, i64 16
  store ptr %seq, ptr %other
  %data = load ptr, ptr %obj
  %v = load double, ptr %data
  %r = fmul double %v, %v
  ret double %r
}

; As @const_used, the data given to a call; requested only in the last RUN
; line (an error).
define double @const_called(ptr %obj, ptr %seq, ptr %fn) {
  %inv.slot = getelementptr inbounds i8, ptr %obj, i64 8
  store ptr @square, ptr %inv.slot
  %other = getelementptr inbounds i8, ptr %obj, i64 16
  store ptr %seq, ptr %other
  %data = load ptr, ptr %obj
  %r = call double %fn(ptr %data)
  ret double %r
}

define void @grad(ptr %obj, ptr %dobj, ptr %seq, ptr %fn, i1 %odd) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @callback, ptr @enzyme_dup, ptr %obj, ptr %dobj, ptr @enzyme_const, ptr %fn)
  call void (ptr, ...) @__enzyme_autodiff(ptr @vtable, ptr @enzyme_dup, ptr %obj, ptr %dobj, ptr @enzyme_const, ptr %fn)
  call void (ptr, ...) @__enzyme_autodiff(ptr @literal, ptr @enzyme_dup, ptr %obj, ptr %dobj, ptr @enzyme_const, ptr %fn, ptr @enzyme_const, i1 %odd)
  call void (ptr, ...) @__enzyme_autodiff(ptr @used, ptr @enzyme_dup, ptr %obj, ptr %dobj)
  call void (ptr, ...) @__enzyme_autodiff(ptr @const_used, ptr @enzyme_dup, ptr %obj, ptr %dobj, ptr @enzyme_const, ptr %seq)
;REQUEST   call void (ptr, ...) @__enzyme_autodiff(ptr @const_called, ptr @enzyme_dup, ptr %obj, ptr %dobj, ptr @enzyme_const, ptr %seq, ptr @enzyme_const, ptr %fn)
  ret void
}

; Each derivative exists; the data pointer read back has its shadow read
; from the shadow object and is given to the callee's derivative (the
; dispatch on %fn) as it is, with no shadow == primal test.
; CALLBACK-LABEL: define internal void @callback.tapestry.rev_dc_ra(ptr %obj, ptr %"obj'", ptr %fn, double %seed)
; CALLBACK-NOT:     icmp eq ptr %"data'", %data
; CALLBACK:         store ptr @square, ptr %"inv.slot'"
; CALLBACK:         %data = load ptr, ptr %obj
; CALLBACK-NEXT:    %"data'" = load ptr, ptr %"obj'"
; CALLBACK-NEXT:    icmp eq ptr %fn, @square
; CALLBACK-NOT:     icmp eq ptr %"data'", %data
; CALLBACK:         load double, ptr %data
; CALLBACK-NOT:     icmp eq ptr %"data'", %data
; CALLBACK:         store double %{{.*}}, ptr %"data'"
; CALLBACK-NOT:     icmp eq ptr %"data'", %data
; CALLBACK:         {{^}}}

; VTABLE-LABEL: define internal void @vtable.tapestry.rev_dc_ra(ptr %obj, ptr %"obj'", ptr %fn, double %seed)
; VTABLE-NOT:     icmp eq ptr %"data'", %data
; VTABLE:         store ptr getelementptr inbounds inrange(-16, 8) (i8, ptr @_ZTV4Cell, i64 16), ptr %"obj'"
; VTABLE:         %data = load ptr, ptr %data.slot
; VTABLE-NEXT:    %"data'" = load ptr, ptr %"data.slot'"
; VTABLE-NEXT:    icmp eq ptr %fn, @square
; VTABLE-NOT:     icmp eq ptr %"data'", %data
; VTABLE:         store double %{{.*}}, ptr %"data'"
; VTABLE-NOT:     icmp eq ptr %"data'", %data
; VTABLE:         {{^}}}

; LITERAL-LABEL: define internal void @literal.tapestry.rev_dcc_ra(ptr %obj, ptr %"obj'", ptr %fn, i1 %odd, double %seed)
; LITERAL-NOT:     icmp eq ptr %"data'", %data
; LITERAL:         %key = select i1 %odd, ptr @.str.odd, ptr @.str.even
; LITERAL:         store ptr %key, ptr %"obj'"
; LITERAL:         %data = load ptr, ptr %data.slot
; LITERAL-NEXT:    %"data'" = load ptr, ptr %"data.slot'"
; LITERAL-NEXT:    icmp eq ptr %fn, @square
; LITERAL-NOT:     icmp eq ptr %"data'", %data
; LITERAL:         store double %{{.*}}, ptr %"data'"
; LITERAL-NOT:     icmp eq ptr %"data'", %data
; LITERAL:         {{^}}}

; The adjoint of the read goes into the shadow, untested.
; USED-LABEL: define internal void @used.tapestry.rev_d_ra(ptr %obj, ptr %"obj'", double %seed)
; USED:         %"data'" = load ptr, ptr %"obj'"
; USED-NOT:     icmp eq ptr %"data'", %data
; USED:         %[[OLD:.*]] = load double, ptr %"data'"
; USED-NEXT:    %[[NEW:.*]] = fadd double %[[OLD]],
; USED-NEXT:    store double %[[NEW]], ptr %"data'"
; USED-NEXT:    ret void

; Beside enzyme_const data, the read is tested at run time.
; CONST-USED-LABEL: define internal void @const_used.tapestry.rev_dc_ra(ptr %obj, ptr %"obj'", ptr %seq, double %seed)
; CONST-USED:         store ptr %seq, ptr %"other'"
; CONST-USED:         %"data'" = load ptr, ptr %"obj'"
; CONST-USED:         %[[TEST:.*]] = icmp eq ptr %"data'", %data
; CONST-USED-NEXT:    br i1 %[[TEST]],

; ERR: tapestry: cannot differentiate 'const_called': argument 1 of this call is a pointer read from memory that also holds pointers to constant data (enzyme_const or global), so whether it points to constant data is only known at run time, and this call cannot test it
; ERR-NOT: Stack dump
