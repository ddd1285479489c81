; A local std::list of doubles in the shape libstdc++ gives it: a header
; {next, prev, count} linked to itself, nodes {next, prev, value} hooked
; before it by _M_hook (in libstdc++.so, repeated on the shadows), the count
; (an integer) at offset 16 where a node keeps its value, and a walk from
; the first node until it is back at the header (it != &header). The type
; analysis keeps header and nodes apart (test/Analysis/types-list-header.ll),
; so the count's increment is integer arithmetic and the derivative is
; built: the shadow nodes receive the adjoints of the values read in the
; walk, and pass them on to x's shadow. Refused before with "an active
; floating-point value is reinterpreted as a long here" at the increment
; (probe39b F5; end to end: test/Integration/cxx-list-local-filled.cpp).
; @list_sum loads the first node from the header's self-linked slot;
; @list_begin_tested starts at the header or the one node pushed, tested
; != &header before the walk.
; RUN: %opt -passes=tapestry,verify -S %s -o %t
; RUN: FileCheck %s --input-file=%t --check-prefix=SUM
; RUN: FileCheck %s --input-file=%t --check-prefix=TESTED
@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare ptr @malloc(i64)
declare void @_ZNSt8__detail15_List_node_base7_M_hookEPS0_(ptr, ptr)

define double @list_sum(ptr %x, i64 %n) {
entry:
  %hdr = alloca { ptr, ptr, i64 }
  store ptr %hdr, ptr %hdr
  %hprev = getelementptr inbounds i8, ptr %hdr, i64 8
  store ptr %hdr, ptr %hprev
  %cnt = getelementptr inbounds i8, ptr %hdr, i64 16
  store i64 0, ptr %cnt
  br label %fill
fill:
  %i = phi i64 [ 0, %entry ], [ %i1, %fill ]
  %node = call ptr @malloc(i64 24)
  %xp = getelementptr inbounds double, ptr %x, i64 %i
  %xv = load double, ptr %xp
  %val = getelementptr inbounds i8, ptr %node, i64 16
  store double %xv, ptr %val
  call void @_ZNSt8__detail15_List_node_base7_M_hookEPS0_(ptr %node, ptr %hdr)
  %c = load i64, ptr %cnt
  %c1 = add i64 %c, 1
  store i64 %c1, ptr %cnt
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %fill, label %walk.start
walk.start:
  %first = load ptr, ptr %hdr
  %empty = icmp eq ptr %first, %hdr
  br i1 %empty, label %done, label %walk
walk:
  %it = phi ptr [ %first, %walk.start ], [ %next, %walk ]
  %s = phi double [ 0.0, %walk.start ], [ %s1, %walk ]
  %vp = getelementptr inbounds i8, ptr %it, i64 16
  %v = load double, ptr %vp
  %sq = fmul double %v, %v
  %s1 = fadd double %s, %sq
  %next = load ptr, ptr %it
  %again = icmp ne ptr %next, %hdr
  br i1 %again, label %walk, label %done
done:
  %r = phi double [ 0.0, %walk.start ], [ %s1, %walk ]
  ret double %r
}

define double @list_begin_tested(ptr %x, i1 %has) {
entry:
  %hdr = alloca { ptr, ptr, i64 }
  store ptr %hdr, ptr %hdr
  %hprev = getelementptr inbounds i8, ptr %hdr, i64 8
  store ptr %hdr, ptr %hprev
  %cnt = getelementptr inbounds i8, ptr %hdr, i64 16
  store i64 0, ptr %cnt
  br i1 %has, label %push, label %built
push:
  %node = call ptr @malloc(i64 24)
  %xv = load double, ptr %x
  %val = getelementptr inbounds i8, ptr %node, i64 16
  store double %xv, ptr %val
  call void @_ZNSt8__detail15_List_node_base7_M_hookEPS0_(ptr %node, ptr %hdr)
  %c = load i64, ptr %cnt
  %c1 = add i64 %c, 1
  store i64 %c1, ptr %cnt
  br label %built
built:
  %begin = phi ptr [ %hdr, %entry ], [ %node, %push ]
  %empty = icmp eq ptr %begin, %hdr
  br i1 %empty, label %done, label %walk
walk:
  %it = phi ptr [ %begin, %built ], [ %next, %walk ]
  %s = phi double [ 0.0, %built ], [ %s1, %walk ]
  %vp = getelementptr inbounds i8, ptr %it, i64 16
  %v = load double, ptr %vp
  %sq = fmul double %v, %v
  %s1 = fadd double %s, %sq
  %next = load ptr, ptr %it
  %again = icmp ne ptr %next, %hdr
  br i1 %again, label %walk, label %done
done:
  %r = phi double [ 0.0, %built ], [ %s1, %walk ]
  ret double %r
}

define void @grad(ptr %x, ptr %dx, i64 %n, i1 %has) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @list_sum, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_const, i64 %n)
  call void (ptr, ...) @__enzyme_autodiff(ptr @list_begin_tested, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_const, i1 %has)
  ret void
}

; SUM-LABEL: define internal void @list_sum.tapestry.rev_dc_ra(ptr %x, ptr %"x'", i64 %n, double %seed)
; SUM:         %"hdr'" = alloca { ptr, ptr, i64 }
; SUM:         store ptr %"hdr'", ptr %"hdr'"
; SUM-NOT:     %"cnt'"
; SUM:         call void @_ZNSt8__detail15_List_node_base7_M_hookEPS0_(ptr %node, ptr nonnull %hdr)
; SUM-NEXT:    call void @_ZNSt8__detail15_List_node_base7_M_hookEPS0_(ptr %"node'", ptr nonnull %"hdr'")
; SUM-NEXT:    %c = load i64, ptr %cnt
; SUM-NEXT:    %c1 = add i64 %c, 1
; SUM-NEXT:    store i64 %c1, ptr %cnt
; SUM-NOT:     %"cnt'"
; The first node's shadow is read from the header's shadow.
; SUM:         %first = load ptr, ptr %hdr
; SUM:         %"it'.in" = phi ptr [ %"it'", %walk ], [ %"hdr'", %walk.start ]
; SUM-NEXT:    %"it'" = load ptr, ptr %"it'.in"
; SUM:         %"vp'.re" = getelementptr inbounds i8, ptr %"it'.tape", i64 16
; SUM-NEXT:    %[[OLD:.*]] = load double, ptr %"vp'.re"
; SUM-NEXT:    %[[NEW:.*]] = fadd double %[[OLD]],
; SUM-NEXT:    store double %[[NEW]], ptr %"vp'.re"
; SUM-NOT:     %"cnt'"
; SUM:         {{^}}}

; The header's shadow is a zeroed stack object linked to itself; the count
; has no shadow.
; TESTED-LABEL: define internal void @list_begin_tested.tapestry.rev_dc_ra(ptr %x, ptr %"x'", i1 %has, double %seed)
; TESTED:         %"hdr'" = alloca { ptr, ptr, i64 }
; TESTED:         store ptr %"hdr'", ptr %"hdr'"
; TESTED-NOT:     %"cnt'"
; TESTED:         call void @_ZNSt8__detail15_List_node_base7_M_hookEPS0_(ptr %node, ptr nonnull %hdr)
; TESTED-NEXT:    call void @_ZNSt8__detail15_List_node_base7_M_hookEPS0_(ptr %"node'", ptr nonnull %"hdr'")
; TESTED-NEXT:    %c = load i64, ptr %cnt
; TESTED-NEXT:    %c1 = add i64 %c, 1
; TESTED-NEXT:    store i64 %c1, ptr %cnt
; TESTED-NOT:     %"cnt'"
; TESTED:         %"begin'" = phi ptr [ %"node'", %push ], [ %"hdr'", %entry ]
; The walk's adjoints go to the value in the shadow node.
; TESTED:         %"vp'.re" = getelementptr inbounds i8, ptr %"it'.tape", i64 16
; TESTED-NEXT:    %[[OLD:.*]] = load double, ptr %"vp'.re"
; TESTED-NEXT:    %[[NEW:.*]] = fadd double %[[OLD]],
; TESTED-NEXT:    store double %[[NEW]], ptr %"vp'.re"
; And from there to x's shadow.
; TESTED:         %"val'.re" = getelementptr inbounds i8, ptr %"node'.cache.0", i64 16
; TESTED-NEXT:    %[[ADJ:.*]] = load double, ptr %"val'.re"
; TESTED-NEXT:    store double 0.000000e+00, ptr %"val'.re"
; TESTED-NEXT:    %[[DX:.*]] = load double, ptr %"x'"
; TESTED-NEXT:    %[[TOTAL:.*]] = fadd double %[[DX]], %[[ADJ]]
; TESTED-NEXT:    store double %[[TOTAL]], ptr %"x'"
; TESTED-NOT:     %"cnt'"
; TESTED:         {{^}}}
