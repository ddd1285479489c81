; A heap block the forward half allocates and the reverse only reads is the
; tape's (issue 17 item 1): the reverse frees neither the block nor its
; shadow and zeroes the shadow before it starts; the release frees both,
; whether the reverse ran or not; the split is reusable (the thunk's last
; field is 1).
; RUN: %opt -passes=tapestry,verify -S %s | FileCheck %s
declare ptr @__enzyme_augmentfwd(...)
declare void @__enzyme_reverse(...)
declare ptr @__tapestry_thunk(...)
declare ptr @malloc(i64)
declare void @free(ptr)
declare double @llvm.sin.f64(double)
@enzyme_dup = external global i32
@enzyme_const = external global i32

; s = sum_j sin(a[j]) * a[j], through g = malloc(8 n).
define double @scratch(ptr %a, i64 %n) {
entry:
  %bytes = shl i64 %n, 3
  %g = call ptr @malloc(i64 %bytes)
  br label %fill
fill:
  %i = phi i64 [ 0, %entry ], [ %i.next, %fill ]
  %ai = getelementptr inbounds double, ptr %a, i64 %i
  %x = load double, ptr %ai
  %sx = call double @llvm.sin.f64(double %x)
  %gi = getelementptr inbounds double, ptr %g, i64 %i
  store double %sx, ptr %gi
  %i.next = add nuw nsw i64 %i, 1
  %d1 = icmp eq i64 %i.next, %n
  br i1 %d1, label %sum, label %fill
sum:
  %j = phi i64 [ 0, %fill ], [ %j.next, %sum ]
  %s = phi double [ 0.0, %fill ], [ %s.next, %sum ]
  %gj = getelementptr inbounds double, ptr %g, i64 %j
  %y = load double, ptr %gj
  %aj = getelementptr inbounds double, ptr %a, i64 %j
  %z = load double, ptr %aj
  %p = fmul double %y, %z
  %s.next = fadd double %s, %p
  %j.next = add nuw nsw i64 %j, 1
  %d2 = icmp eq i64 %j.next, %n
  br i1 %d2, label %exit, label %sum
exit:
  call void @free(ptr %g)
  ret double %s.next
}

define ptr @thunk() {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %t = call ptr (...) @__tapestry_thunk(ptr @scratch, i32 %d, i32 %c)
  ret ptr %t
}

; CHECK: @scratch.tapestry.[[S:[a-z_]+]].thunk = private constant { ptr, ptr, ptr, i64, i32 } { ptr @scratch.tapestry.[[S]].augmented, ptr @{{[^,]+}}, ptr @scratch.tapestry.[[S]].release, i64 {{[0-9]+}}, i32 1 }

; The forward half allocates the block and its zeroed shadow and keeps both.
; CHECK-LABEL: define internal double @scratch.tapestry.{{[a-z_]+}}.augmented(
; CHECK:         %g = call ptr @malloc(i64 %bytes)
; CHECK-NEXT:    %"g'" = call ptr @malloc(i64 %bytes)
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr align 8 %"g'", i8 0, i64 %bytes, i1 false)
; CHECK-NOT:     call void @free
; CHECK:       exit:
; CHECK:         store ptr %g, ptr [[GF:%[0-9]+]]
; CHECK:         store ptr %"g'", ptr [[SF:%[0-9]+]]
; CHECK:         ret double

; The reverse zeroes the shadow it reads from the tape before it starts,
; and frees nothing.
; CHECK-LABEL: define internal void @scratch.tapestry.{{[a-z_]+}}.reverse(
; CHECK-NOT:     @tapestry.freed.take
; CHECK:         i64 [[LIVE:-?[0-9]+]], label %tape.ok
; CHECK-NOT:     @tapestry.freed.take
; The owner of the tape (below) marks it live again as it returns; a sweep's
; own shadow is freed.
; CHECK:         store atomic i64 [[LIVE]], ptr %tape release
; CHECK:         call void @free(ptr
; CHECK-NOT:     call void @free
; CHECK:       tape.ok:
; CHECK-NOT:     store {{.*}}, ptr %tape
; CHECK:         %"g'.tape" = load ptr, ptr
; CHECK-NEXT:    %bytes.re = shl i64 %n, 3
; The first sweep on the tape marks it busy and zeroes the tape's shadow; a
; sweep that finds it busy (another thread's) zeroes a shadow of its own.
; CHECK-NEXT:    [[X:%.*]] = cmpxchg ptr %tape, i64 [[LIVE]], i64 {{-?[0-9]+}} acquire monotonic
; CHECK-NEXT:    %tape.owned = extractvalue { i64, i1 } [[X]], 1
; CHECK-NEXT:    br i1 %tape.owned, label %shadow.shared, label %shadow.own
; CHECK:       shadow.shared:
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr align 1 %"g'.tape", i8 0, i64 %bytes.re, i1 false)
; CHECK:       shadow.own:
; CHECK-NEXT:    %"g'.tape.own" = call ptr @calloc(i64 %bytes.re, i64 1)
; CHECK:       shadow.ready:
; CHECK:         %"g'.tape.sweep" = phi ptr [ %"g'.tape", %shadow.shared ], [ %"g'.tape.own", %shadow.own ]
; CHECK-NOT:     call void @free
; CHECK:       }

; The release frees the record arrays, then the shadow and the block,
; unconditionally: the reverse (which may have run any number of times)
; never frees them.
; CHECK-LABEL: define internal void @scratch.tapestry.{{[a-z_]+}}.release(ptr %tape)
; CHECK-NEXT:  entry:
; CHECK-COUNT-2: call void @free(
; CHECK-NEXT:    [[F1:%.*]] = getelementptr inbounds %scratch.tape, ptr %tape, i32 0, i32 6
; CHECK-NEXT:    [[P1:%.*]] = load ptr, ptr [[F1]], align 8
; CHECK-NEXT:    call void @free(ptr [[P1]])
; CHECK-NEXT:    [[F2:%.*]] = getelementptr inbounds %scratch.tape, ptr %tape, i32 0, i32 5
; CHECK-NEXT:    [[P2:%.*]] = load ptr, ptr [[F2]], align 8
; CHECK-NEXT:    call void @free(ptr [[P2]])
; CHECK-NEXT:    getelementptr inbounds %scratch.tape, ptr %tape, i32 0, i32 0
; CHECK-NEXT:    store i64 {{-?[0-9]+}}, ptr
; CHECK-NEXT:    ret void
