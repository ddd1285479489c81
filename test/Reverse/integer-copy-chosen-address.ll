; A stored integer chosen among two integer loads (two floats memcpy'd into
; a uint64_t on two paths, copied out after they merge), with a write on
; each path that cannot change the loaded memory (%w is noalias): the
; choice is made among the addresses and the store's value loaded there,
; so the copy's reverse moves out's adjoint to the element the path read.
; Was a gradient without that term and no error (the phi of loads was taken
; for integer data). Without noalias the write may change a[k]: an error
; (test/Errors/integer-copy-chosen-on-paths.c). (Where the 8 bytes are
; known to be one double, the choice is made among double loads instead:
; test/Integration/integer-copy-chosen-read-as-double.c.)
; RUN: %opt -passes=tapestry -S %s -o - | FileCheck %s
; RUN: sed -e 's/ptr noalias %%w/ptr %%w/' %s | not %opt -passes=tapestry -disable-output 2>&1 | FileCheck %s --check-prefix=ALIAS
; ALIAS: this store copies memory that may hold floating-point data as an integer ('long') chosen among values read on different paths
; CHECK-LABEL: define internal {{.*}} @f.tapestry.rev
; CHECK: %bits.addr = select i1 %c, ptr %a, ptr %a1p
; CHECK: %"bits.addr'" = select i1 %c, ptr %"a'", ptr %"a1p'"
; CHECK: %bits.copied = load i64, ptr %bits.addr
; CHECK: store i64 %bits.copied, ptr %out
; CHECK: call void @tapestry.parts.adjoint.p0.0float.4float(ptr %"out'", ptr {{.*}}%bits.copied.adj, i64 8)
; CHECK: call void @tapestry.parts.adjoint.p0.0float.4float(ptr {{.*}}%bits.copied.adj, ptr %"bits.addr'", i64 8)
; CHECK: ret void

@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)

define float @f(ptr %a, ptr %out, ptr noalias %w, i1 %c) {
entry:
  br i1 %c, label %first, label %second
first:
  %l0 = load i64, ptr %a, align 8
  store i32 1, ptr %w, align 4
  br label %merge
second:
  %a1p = getelementptr inbounds double, ptr %a, i64 1
  %l1 = load i64, ptr %a1p, align 8
  store i32 2, ptr %w, align 4
  br label %merge
merge:
  %bits = phi i64 [ %l0, %first ], [ %l1, %second ]
  store i64 %bits, ptr %out, align 8
  %x = load float, ptr %a, align 8
  %a4 = getelementptr inbounds i8, ptr %a, i64 4
  %y = load float, ptr %a4, align 4
  %r = fmul float %x, %y
  ret float %r
}

define void @grad(ptr %a, ptr %da, ptr %out, ptr %dout, ptr %w, i1 %c) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %a, ptr %da, ptr @enzyme_dup, ptr %out, ptr %dout, ptr @enzyme_const, ptr %w, ptr @enzyme_const, i1 %c)
  ret void
}
