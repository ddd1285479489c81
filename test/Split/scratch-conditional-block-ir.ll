; A heap block allocated on only some paths is the tape's (issue 17 item 1):
; the shape of std::vector<double> g(n) at -O1 and above, where operator new
; runs only when n != 0 and the sized operator delete runs when the pointer,
; a phi of {block, null}, is not null. In split mode the forward half records
; the block, its shadow and the shadow's size in tape slots that start null/0
; as it allocates them; the reverse zeroes the recorded shadow before its
; sweep and frees nothing; the release frees what was recorded with the
; unsized operator delete (the size was known only at run time; deleting
; null is a no-op on the paths that did not allocate); the split is reusable.
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare ptr @__tapestry_thunk(...)
declare noalias nonnull ptr @_Znwm(i64)
declare void @_ZdlPvm(ptr, i64)
declare double @sin(double)
declare double @llvm.fmuladd.f64(double, double, double)
@enzyme_dup = external global i32
@enzyme_const = external global i32

; s = sum_j sin(a[j]) * a[j] through g = n ? operator new(8 n) : null.
define double @scratch(ptr %a, i64 %n) {
entry:
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %have, label %alloc
alloc:
  %bytes = shl i64 %n, 3
  %blk = call ptr @_Znwm(i64 %bytes)
  br label %have
have:
  %g = phi ptr [ %blk, %alloc ], [ null, %entry ]
  %pos = icmp sgt i64 %n, 0
  br i1 %pos, label %fill, label %mid
fill:
  %i = phi i64 [ %i.next, %fill ], [ 0, %have ]
  %ai = getelementptr inbounds double, ptr %a, i64 %i
  %x = load double, ptr %ai
  %sx = call double @sin(double %x)
  %gi = getelementptr inbounds double, ptr %g, i64 %i
  store double %sx, ptr %gi
  %i.next = add nuw nsw i64 %i, 1
  %d1 = icmp eq i64 %i.next, %n
  br i1 %d1, label %mid, label %fill
mid:
  br i1 %pos, label %sum, label %done
sum:
  %j = phi i64 [ %j.next, %sum ], [ 0, %mid ]
  %s = phi double [ %s.next, %sum ], [ 0.0, %mid ]
  %gj = getelementptr inbounds double, ptr %g, i64 %j
  %y = load double, ptr %gj
  %aj = getelementptr inbounds double, ptr %a, i64 %j
  %z = load double, ptr %aj
  %s.next = call double @llvm.fmuladd.f64(double %y, double %z, double %s)
  %j.next = add nuw nsw i64 %j, 1
  %d2 = icmp eq i64 %j.next, %n
  br i1 %d2, label %done, label %sum
done:
  %r = phi double [ 0.0, %mid ], [ %s.next, %sum ]
  %isnull = icmp eq ptr %g, null
  br i1 %isnull, label %exit, label %del
del:
  %size = shl i64 %n, 3
  call void @_ZdlPvm(ptr %g, i64 %size)
  br label %exit
exit:
  ret double %r
}

define ptr @thunk() {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %t = call ptr (...) @__tapestry_thunk(ptr @scratch, i32 %d, i32 %c)
  ret ptr %t
}

; CHECK: @scratch.tapestry.[[S:[a-z_]+]].thunk = private constant { ptr, ptr, ptr, i64, i32 } { ptr @scratch.tapestry.[[S]].augmented, ptr @{{[^,]+}}, ptr @scratch.tapestry.[[S]].release, i64 {{[0-9]+}}, i32 1 }

; The slots start null and zero on every path; the allocating path records
; the block, its shadow and the bytes.
; CHECK-LABEL: define internal double @scratch.tapestry.{{[a-z_]+}}.augmented(
; CHECK:         store i64 0, ptr [[BYTESLOT:%[0-9]+]]
; CHECK-NEXT:    store ptr null, ptr [[SHADOWSLOT:%[0-9]+]]
; CHECK-NEXT:    store ptr null, ptr [[BLOCKSLOT:%[0-9]+]]
; CHECK:         br i1 %empty, label %have, label %alloc
; CHECK:       alloc:
; CHECK-NEXT:    %bytes = shl i64 %n, 3
; CHECK-NEXT:    %blk = call ptr @_Znwm(i64 %bytes)
; CHECK-NEXT:    %"blk'" = call ptr @_Znwm(i64 %bytes)
; CHECK-NEXT:    store ptr %blk, ptr [[BLOCKSLOT]]
; CHECK-NEXT:    store ptr %"blk'", ptr [[SHADOWSLOT]]
; CHECK-NEXT:    store i64 %bytes, ptr [[BYTESLOT]]
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr nonnull align 8 %"blk'", i8 0, i64 %bytes, i1 false)
; CHECK-NEXT:    br label %have
; CHECK-NOT:     @_ZdlPv
; CHECK:         ret double

; The reverse zeroes the recorded shadow (as many bytes as were recorded:
; none where nothing was allocated) and deletes nothing.
; CHECK-LABEL: define internal void @scratch.tapestry.{{[a-z_]+}}.reverse(
; CHECK-NOT:     @_ZdlPv
; CHECK:       tape.ok:
; CHECK-NOT:     @_ZdlPv
; CHECK:         [[N:%[0-9]+]] = load i64, ptr %{{[0-9]+}}
; CHECK-NEXT:    [[P:%[0-9]+]] = load ptr, ptr %{{[0-9]+}}
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr align 1 [[P]], i8 0, i64 [[N]], i1 false)
; CHECK-NOT:     @_ZdlPv
; CHECK:       {{^}}}

; The release deletes the block and its shadow, unsized.
; CHECK-LABEL: define internal void @scratch.tapestry.{{[a-z_]+}}.release(
; CHECK-NOT:     @_ZdlPvm
; CHECK:         call void @_ZdlPv(ptr
; CHECK-NOT:     @_ZdlPvm
; CHECK:         call void @_ZdlPv(ptr
; CHECK-NOT:     @_ZdlPvm
; CHECK:         ret void
