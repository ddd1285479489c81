; A memcpy whose bytes nothing in the IR types, described by Tapestry's
; front-end part (plugin/Frontend/CopyTypes.cpp): clang lowers a trivial
; copy constructor to a memcpy without !tbaa.struct, as libstdc++'s
; new_allocator::construct copies a std::map node's pair<const int,
; double>. The front end writes the copy's enclosing function, source range
; and scalars into @__tapestry_copy_types; the pass finds the memcpy by its
; location and function (Passes/SourceCopyTypes.cpp), gives it
; !tapestry.copy.types and removes the table. Both functions below copy at
; the same line and column (two instantiations of one template): each
; takes its own entry, so the pair's double gets its adjoint and the two
; pointers are copied as pointers. A memmove of a run of such structs
; (std::copy of a vector<Pair>: memmove given typed pointers, n elements)
; is described with a stride: every element's double gets its adjoint.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
; CHECK-NOT: __tapestry_copy_types
; CHECK-LABEL: define internal void @copyMany.tapestry.rev_ddc(
; CHECK: call void @tapestry.parts.adjoint.move.p16.8double(ptr %"d'", ptr %"s'", i64 %bytes)
; CHECK-LABEL: define internal void @copyLinks.tapestry.rev_dd(
; CHECK: call void @tapestry.parts.copy.p0.0ptr.8ptr(ptr %"d'", ptr %"s'", i64 16)
; CHECK-LABEL: define internal void @copyValue.tapestry.rev_dd(
; CHECK: call void @tapestry.parts.adjoint.p0.8double(ptr %"d'", ptr %"s'", i64 16)
;
; An entry of another function (a lambda's body belongs to the enclosing
; function's entry) is used only if every entry at the location agrees:
; here they disagree, and copyLinks is refused while copyValue, with its
; own entry, is not.
; RUN: sed -e 's/0AcopyLinks/0AcopyOther/' %s | not %opt -passes=tapestry \
; RUN:   -disable-output 2>&1 | FileCheck %s --check-prefix=OTHER
; OTHER: error: {{.*}}new_allocator.h:175:23: in function copyLinks
; OTHER-SAME: cannot tell what the memory this instruction copies holds
; OTHER-NOT: error:
;
; Without the table (-fpass-plugin alone: no front end) the error says to
; load it, and the run of structs is refused too.
; RUN: sed -e 's/ptr @__tapestry_copy_types/ptr @unread/' \
; RUN:     -e 's/@__tapestry_copy_types = /@unread = /' %s \
; RUN:   | not %opt -passes=tapestry -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=BARE
; BARE: in function {{copyLinks|copyMany}}
; BARE-SAME: if it copies a struct or class, compile with clang -fplugin=TapestryPlugin-19.so, whose front-end part tells Tapestry what each struct copy moves
; RUN: sed -e 's/ptr @__tapestry_copy_types/ptr @unread/' \
; RUN:     -e 's/@__tapestry_copy_types = /@unread = /' \
; RUN:     -e 's/ptr @copyValue,/ptr @copyMany,/' -e 's/ptr @copyLinks,/ptr @copyMany,/' %s \
; RUN:   | not %opt -passes=tapestry -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=MANY
; MANY: particles.cpp:12:20: in function copyMany
; MANY-SAME: cannot tell what the memory this instruction copies holds
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32
@__tapestry_copy_types = internal constant [215 x i8] c"copyValue\09/usr/include/c++/12/bits/new_allocator.h\09175:23\09175:57\090\0916\090:i32,8:d\0AcopyLinks\09/usr/include/c++/12/bits/new_allocator.h\09175:23\09175:57\090\0916\090:p,8:p\0AcopyMany\09/work/particles.cpp\0912:3\0912:40\0916\0916\090:i32,8:d\0A\00"
@llvm.compiler.used = appending global [1 x ptr] [ptr @__tapestry_copy_types], section "llvm.metadata"

declare void @__enzyme_autodiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)

define void @copyValue(ptr %d, ptr %s) !dbg !10 {
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %d, ptr align 8 %s, i64 16, i1 false), !dbg !11
  ret void
}

define void @copyLinks(ptr %d, ptr %s) !dbg !12 {
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %d, ptr align 8 %s, i64 16, i1 false), !dbg !13
  ret void
}

define void @copyMany(ptr %d, ptr %s, i64 %n) !dbg !14 {
  %bytes = mul i64 %n, 16
  call void @llvm.memmove.p0.p0.i64(ptr align 8 %d, ptr align 8 %s, i64 %bytes, i1 false), !dbg !15
  ret void
}

define void @grad(ptr %a, ptr %da, ptr %b, ptr %db, ptr %c, ptr %dc, ptr %e, ptr %de) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @copyValue, ptr @enzyme_dup, ptr %a, ptr %da, ptr @enzyme_dup, ptr %b, ptr %db)
  call void (ptr, ...) @__enzyme_autodiff(ptr @copyLinks, ptr @enzyme_dup, ptr %a, ptr %da, ptr @enzyme_dup, ptr %b, ptr %db)
  call void (ptr, ...) @__enzyme_autodiff(ptr @copyMany, ptr @enzyme_dup, ptr %c, ptr %dc, ptr @enzyme_dup, ptr %e, ptr %de, i64 4)
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: NoDebug)
!1 = !DIFile(filename: "map.cpp", directory: "/work")
!2 = !DIFile(filename: "/usr/lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12/bits/new_allocator.h", directory: "")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!9 = !DISubroutineType(types: !{})
!10 = distinct !DISubprogram(name: "construct<std::pair<const int, double>>", scope: !2, file: !2, line: 173, type: !9, scopeLine: 175, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DILocation(line: 175, column: 23, scope: !10)
!12 = distinct !DISubprogram(name: "construct<std::pair<void *, void *>>", scope: !2, file: !2, line: 173, type: !9, scopeLine: 175, spFlags: DISPFlagDefinition, unit: !0)
!13 = !DILocation(line: 175, column: 23, scope: !12)
!16 = !DIFile(filename: "particles.cpp", directory: "/work")
!14 = distinct !DISubprogram(name: "copyMany", scope: !16, file: !16, line: 10, type: !9, scopeLine: 10, spFlags: DISPFlagDefinition, unit: !0)
!15 = !DILocation(line: 12, column: 20, scope: !14)
