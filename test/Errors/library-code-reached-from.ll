; An error inside code the user did not write (a library header's function
; differentiated as a call) also names the user's call that reached it:
; clang points at the header, where the user can change nothing (probe46a:
; every refusal inside libstdc++ named only stl_tree.h or stl_algo.h).
; Without debug information, the user's function is named instead. In the
; user's own code nothing is added.
; RUN: not %opt -passes=tapestry -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: /usr/include/c++/12/bits/flip.h:42:12: in function flipSign
; CHECK-SAME: a double is reinterpreted as a long here
; CHECK-SAME: (reached from the call at physics.cpp:6:14 in 'energy')
; RUN: sed -e 's#/usr/include/c++/12/bits/flip.h#/home/user/flip.h#' %s \
; RUN:   | not %opt -passes=tapestry -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=OWN
; OWN: error: /home/user/flip.h:42:12: in function flipSign
; OWN-NOT: reached from
; RUN: sed -e 's#, !dbg ![0-9]*##' -e 's# !dbg ![0-9]* {# {#' %s \
; RUN:   | %opt -strip-debug -S | not %opt -passes=tapestry -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=NODEBUG
; NODEBUG: in function flipSign
; NODEBUG-SAME: (reached from a call in 'energy')
declare double @__enzyme_autodiff(ptr, ...)

define internal double @flipSign(double %x) noinline !dbg !10 {
  %b = bitcast double %x to i64, !dbg !11
  %f = add i64 %b, 1, !dbg !11
  %d = bitcast i64 %f to double, !dbg !11
  ret double %d, !dbg !11
}

define double @energy(double %x) !dbg !20 {
  %n = call double @flipSign(double %x), !dbg !21
  %m = fmul double %n, %x, !dbg !22
  ret double %m, !dbg !22
}

define double @grad(double %x) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @energy, double %x)
  ret double %d
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: NoDebug)
!1 = !DIFile(filename: "physics.cpp", directory: "/home/user")
!2 = !DIFile(filename: "/usr/include/c++/12/bits/flip.h", directory: "")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!9 = !DISubroutineType(types: !{})
!10 = distinct !DISubprogram(name: "flipSign", scope: !2, file: !2, line: 40, type: !9, scopeLine: 40, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DILocation(line: 42, column: 12, scope: !10)
!20 = distinct !DISubprogram(name: "energy", scope: !1, file: !1, line: 5, type: !9, scopeLine: 5, spFlags: DISPFlagDefinition, unit: !0)
!21 = !DILocation(line: 6, column: 14, scope: !20)
!22 = !DILocation(line: 7, column: 3, scope: !20)
