; count-update-tbaa-long.ll with the count flipped by xor: an error.

@enzyme_dup = external global i32
@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)

define double @flipped(ptr %x, i64 %k, i1 %c) {
  %at = getelementptr inbounds i8, ptr %x, i64 16
  %it = select i1 %c, ptr %x, ptr %at
  %v = load double, ptr %it, align 8, !tbaa !4
  %n = load i64, ptr %at, align 8, !tbaa !1
  %m = xor i64 %n, -9223372036854775808
  store i64 %m, ptr %at, align 8, !tbaa !1
  %a = load double, ptr %x, align 8, !tbaa !4
  %s = fmul double %a, %v
  ret double %s
}

define void @grad(ptr %x, ptr %dx, i64 %k, i1 %c) {
  %dup = load i32, ptr @enzyme_dup
  %const = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @flipped, i32 %dup, ptr %x, ptr %dx, i32 %const, i64 %k, i32 %const, i1 %c)
  ret void
}

!0 = !{!"Simple C++ TBAA"}
!1 = !{!2, !2, i64 0}
!2 = !{!"long", !3, i64 0}
!3 = !{!"omnipotent char", !0, i64 0}
!4 = !{!5, !5, i64 0}
!5 = !{!"double", !3, i64 0}
