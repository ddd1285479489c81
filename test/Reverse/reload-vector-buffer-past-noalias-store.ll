; A buffer that a std::vector<double>(n) owns is `n ? operator new(n * 8) :
; nullptr`: a phi of the allocation and null. Loads from it in a loop are
; read again by the reverse sweep although the function later stores its
; result through a noalias (restrict) argument: neither the allocation nor
; null can be that argument's memory. Alias analysis alone answers MayAlias
; for the whole-object location of an offset from such a phi, so before
; this the loads were taped, 8 bytes per iteration (GMM's exp(q) diagonal,
; tools/bench/standard/gmm.cpp). A store through a pointer that may be the
; buffer still keeps the value on the tape (g). The buffer is filled
; backwards, so that its reads are not computed again from x instead
; (test/Reverse/forward-stored-scratch.ll).
;
; RUN: %opt -passes=tapestry -S %s -o %t -pass-remarks=tapestry -pass-remarks-missed=tapestry 2> %t.remarks
; RUN: FileCheck %s --check-prefix=REMF --input-file=%t.remarks
; RUN: FileCheck %s --check-prefix=REMG --input-file=%t.remarks
; RUN: FileCheck %s --input-file=%t
@enzyme_dup = external global i32
@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)
declare noalias nonnull ptr @_Znwm(i64)
declare void @_ZdlPv(ptr)

define void @f(ptr noalias %x, ptr noalias %err, i64 %n) {
entry:
  %nz = icmp ne i64 %n, 0
  br i1 %nz, label %alloc, label %body
alloc:
  %bytes = shl i64 %n, 3
  %m = call noalias nonnull ptr @_Znwm(i64 %bytes)
  br label %body
body:
  %buf = phi ptr [ %m, %alloc ], [ null, %entry ]
  br i1 %nz, label %fill, label %done
fill:
  %i = phi i64 [ 0, %body ], [ %i1, %fill ]
  %last = add i64 %n, -1
  %px = getelementptr inbounds double, ptr %x, i64 %i
  %vx = load double, ptr %px
  %ri = sub i64 %last, %i
  %pb = getelementptr inbounds double, ptr %buf, i64 %ri
  store double %vx, ptr %pb
  %i1 = add nuw i64 %i, 1
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %fill, label %sum
sum:
  %j = phi i64 [ 0, %fill ], [ %j1, %sum ]
  %s = phi double [ 0.0, %fill ], [ %s1, %sum ]
  %pbj = getelementptr inbounds double, ptr %buf, i64 %j
  %vb = load double, ptr %pbj
  %sq = fmul double %vb, %vb
  %s1 = fadd double %s, %sq
  %j1 = add nuw i64 %j, 1
  %more2 = icmp ult i64 %j1, %n
  br i1 %more2, label %sum, label %done
done:
  %r = phi double [ 0.0, %body ], [ %s1, %sum ]
  store double %r, ptr %err
  br i1 %nz, label %free, label %exit
free:
  call void @_ZdlPv(ptr %buf)
  br label %exit
exit:
  ret void
}

; The same with the caller's buffer %y for the allocation: the result
; pointer may point into it, so its store may overwrite what the loop read
; and the loop's loads stay on the tape.
define void @g(ptr noalias %x, ptr %err, ptr %y, i64 %n) {
entry:
  %nz = icmp ne i64 %n, 0
  br i1 %nz, label %alloc, label %body
alloc:
  br label %body
body:
  %buf = phi ptr [ %y, %alloc ], [ null, %entry ]
  br i1 %nz, label %fill, label %done
fill:
  %i = phi i64 [ 0, %body ], [ %i1, %fill ]
  %last = add i64 %n, -1
  %px = getelementptr inbounds double, ptr %x, i64 %i
  %vx = load double, ptr %px
  %ri = sub i64 %last, %i
  %pb = getelementptr inbounds double, ptr %buf, i64 %ri
  store double %vx, ptr %pb
  %i1 = add nuw i64 %i, 1
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %fill, label %sum
sum:
  %j = phi i64 [ 0, %fill ], [ %j1, %sum ]
  %s = phi double [ 0.0, %fill ], [ %s1, %sum ]
  %pbj = getelementptr inbounds double, ptr %buf, i64 %j
  %vb = load double, ptr %pbj
  %sq = fmul double %vb, %vb
  %s1 = fadd double %s, %sq
  %j1 = add nuw i64 %j, 1
  %more2 = icmp ult i64 %j1, %n
  br i1 %more2, label %sum, label %done
done:
  %r = phi double [ 0.0, %body ], [ %s1, %sum ]
  store double %r, ptr %err
  ret void
}

define void @grad(ptr %x, ptr %dx, ptr %e, ptr %de, ptr %y, ptr %dy, i64 %n) {
  call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %e, ptr %de, ptr @enzyme_const, i64 %n)
  call double (ptr, ...) @__enzyme_autodiff(ptr @g, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %e, ptr %de, ptr @enzyme_dup, ptr %y, ptr %dy, ptr @enzyme_const, i64 %n)
  ret void
}

; REMF-NOT: of 'f' caches a double read from memory
; REMF: reverse sweep of 'f' recomputes {{.*}} reloads 1 value(s) from memory nothing overwrites
; REMF-NOT: of 'f' caches a double read from memory
; REMG: reverse sweep of 'g' caches a double read from memory, 8 bytes per iteration

; CHECK-LABEL: define internal {{.*}} @f.tapestry.rev
; CHECK: %vb.re = load double
; CHECK: ret
