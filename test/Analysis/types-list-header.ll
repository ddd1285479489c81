; std::list's header is the sentinel its nodes link back to (a circular
; list): {next, prev, count}, linked to itself when empty, with its element
; count (an integer) at offset 16, where a node {next, prev, value} keeps
; its value (a double). The type analysis (plugin/Analysis/TypeAnalysis.cpp)
; keeps them apart, so the count is not taken for a double
; (test/Reverse/list-header-walk.ll differentiates such walks):
; - the header's link to itself says nothing of the other pointers its slot
;   holds: the first node, loaded from it after libstdc++'s _M_hook linked
;   it, is not the header (resolveAliases; @from_header);
; - a walk that stops at the header (it != &header) never visits it: a
;   phi's incoming pointer tested != O on its edge is not O's address
;   (PlaceWalker), here where the walk starts at the header or at the one
;   node pushed: tested alone (@begin_ne), as one condition of an && taken
;   (@begin_and) or of an || not taken, a block up (@begin_or);
; - a walk whose start is not tested against the header (@begin_untested)
;   may visit it: there the header may hold a double at offset 16.
; Before, the header had a double at offset 16 beside the count in each
; case (test/Integration/cxx-list-local-filled.cpp, probe39b F5).
; RUN: %opt -passes='print<tapestry-types>' -disable-output %s | FileCheck %s

declare ptr @malloc(i64)
declare void @_ZNSt8__detail15_List_node_base7_M_hookEPS0_(ptr, ptr)

; CHECK-LABEL: types of 'from_header':
; CHECK-NEXT:    arg %x: [0 + 8i] double
; CHECK-NEXT:    %hdr: [0] ptr, [8] ptr, [16] i64{{$}}
; CHECK-NEXT:    %node: [16] double
; CHECK-NEXT:    %first: [0] ptr, [16] double
define double @from_header(ptr %x, i64 %n) {
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

; CHECK-LABEL: types of 'begin_ne':
; CHECK-NEXT:    arg %x: [0] double
; CHECK-NEXT:    %hdr: [0] ptr, [8] ptr, [16] i64{{$}}
; CHECK-NEXT:    %node: [0] ptr, [16] double
define double @begin_ne(ptr %x, i1 %has) {
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

; CHECK-LABEL: types of 'begin_and':
; CHECK-NEXT:    arg %x: [0] double
; CHECK-NEXT:    %hdr: [0] ptr, [8] ptr, [16] i64{{$}}
; CHECK-NEXT:    %node: [0] ptr, [16] double
define double @begin_and(ptr %x, i1 %has, i1 %flag) {
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
  %ne = icmp ne ptr %begin, %hdr
  %go = select i1 %flag, i1 %ne, i1 false
  br i1 %go, label %walk, label %done
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

; CHECK-LABEL: types of 'begin_or':
; CHECK-NEXT:    arg %x: [0] double
; CHECK-NEXT:    %hdr: [0] ptr, [8] ptr, [16] i64{{$}}
; CHECK-NEXT:    %node: [0] ptr, [16] double
define double @begin_or(ptr %x, i1 %has, i1 %flag) {
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
  %eq = icmp eq ptr %begin, %hdr
  %stop = or i1 %flag, %eq
  br i1 %stop, label %done, label %ph
ph:
  br label %walk
walk:
  %it = phi ptr [ %begin, %ph ], [ %next, %walk ]
  %s = phi double [ 0.0, %ph ], [ %s1, %walk ]
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

; CHECK-LABEL: types of 'begin_untested':
; CHECK-NEXT:    arg %x: [0] double
; CHECK-NEXT:    arg %other: unknown
; CHECK-NEXT:    %hdr: [0] ptr, [8] ptr, [16] i64, [16] double{{$}}
; CHECK-NEXT:    %node: [0] ptr, [16] double
define double @begin_untested(ptr %x, i1 %has, ptr %other) {
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
  %empty = icmp eq ptr %begin, %other
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
