; print<tapestry-activity> prints, for each function with the attribute
; "tapestry-activity"="<one letter per argument>" (c const, d dup,
; n dupnoneed, a active), the activity of every argument and value:
; active (carries a derivative), shadowed (a pointer to memory with a
; shadow), varied (depends on an active input but does not reach the result)
; or inactive. Integer index arithmetic is inactive even where it addresses
; active memory, and so is everything computed only from enzyme_const
; inputs, even where it feeds an active value.
;
; RUN: %opt -passes='print<tapestry-activity>' -disable-output %s | FileCheck %s

declare double @llvm.sin.f64(double)
declare double @llvm.exp.f64(double)

; f(a, n, x, c) = x < 0 ? x * a[2n+1] * (sin(c*c) + n) : sin(c*c) + n
define double @mixed(ptr %a, i64 %n, double %x, double %c) #0 {
entry:
  %i2 = mul i64 %n, 2
  %idx = add i64 %i2, 1
  %p = getelementptr inbounds double, ptr %a, i64 %idx
  %v = load double, ptr %p
  %cc = fmul double %c, %c
  %cs = call double @llvm.sin.f64(double %cc)
  %nf = sitofp i64 %n to double
  %k = fadd double %cs, %nf
  %xv = fmul double %x, %v
  %r = fmul double %xv, %k
  %xi = fptosi double %x to i64
  %unused = call double @llvm.exp.f64(double %x)
  %neg = fcmp olt double %x, 0.0
  %sel = select i1 %neg, double %r, double %k
  ret double %sel
}

; CHECK-LABEL: activity of 'mixed':
; CHECK-NEXT:    arg %a: shadowed
; CHECK-NEXT:    arg %n: inactive
; CHECK-NEXT:    arg %x: active
; CHECK-NEXT:    arg %c: inactive
; Index arithmetic: inactive; the address into the dup array has a shadow.
; CHECK-NEXT:    %i2: inactive
; CHECK-NEXT:    %idx: inactive
; CHECK-NEXT:    %p: shadowed
; CHECK-NEXT:    %v: active
; Computed only from the constant c and n: inactive, though %k feeds %r.
; CHECK-NEXT:    %cc: inactive
; CHECK-NEXT:    %cs: inactive
; CHECK-NEXT:    %nf: inactive
; CHECK-NEXT:    %k: inactive
; CHECK-NEXT:    %xv: active
; CHECK-NEXT:    %r: active
; An integer made from x carries no derivative; exp(x) is unused.
; CHECK-NEXT:    %xi: inactive
; CHECK-NEXT:    %unused: varied
; CHECK-NEXT:    %neg: inactive
; CHECK-NEXT:    %sel: active
; CHECK-NOT:     {{^  }}

; s(a, n, x) = sum over i < n of a[i] * x, with an integer induction
; variable and a pointer walk.
define double @loop(ptr %a, i64 %n, double %x) #1 {
entry:
  br label %body

body:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %body ]
  %p = getelementptr inbounds double, ptr %a, i64 %i
  %v = load double, ptr %p
  %t = fmul double %v, %x
  %acc.next = fadd double %acc, %t
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %body, label %exit

exit:
  ret double %acc.next
}

; CHECK-LABEL: activity of 'loop':
; CHECK-NEXT:    arg %a: shadowed
; CHECK-NEXT:    arg %n: inactive
; CHECK-NEXT:    arg %x: active
; CHECK-NEXT:    %i: inactive
; CHECK-NEXT:    %acc: active
; CHECK-NEXT:    %p: shadowed
; CHECK-NEXT:    %v: active
; CHECK-NEXT:    %t: active
; CHECK-NEXT:    %acc.next: active
; CHECK-NEXT:    %i.next: inactive
; CHECK-NEXT:    %more: inactive
; CHECK-NOT:     {{^  }}

; Every argument constant: nothing is active, not even the float math.
define double @allconst(ptr %a, i64 %n, double %c) #2 {
  %p = getelementptr inbounds double, ptr %a, i64 %n
  %v = load double, ptr %p
  %s = call double @llvm.sin.f64(double %c)
  %r = fmul double %v, %s
  ret double %r
}

; CHECK-LABEL: activity of 'allconst':
; CHECK-NEXT:    arg %a: inactive
; CHECK-NEXT:    arg %n: inactive
; CHECK-NEXT:    arg %c: inactive
; CHECK-NEXT:    %p: inactive
; CHECK-NEXT:    %v: inactive
; CHECK-NEXT:    %s: inactive
; CHECK-NEXT:    %r: inactive
; CHECK-NOT:     {{^  }}

; Functions without the attribute are not printed.
define double @unmarked(double %x) {
  ret double %x
}
; CHECK-NOT: activity of 'unmarked'

attributes #0 = { "tapestry-activity"="dcac" }
attributes #1 = { "tapestry-activity"="dca" }
attributes #2 = { "tapestry-activity"="ccc" }
