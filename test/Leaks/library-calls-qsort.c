// LeakSanitizer on the qsort/qsort_r/bsearch program of issue 14 item 8:
// no leak (the permutation and scratch arrays of a sort) and no memory error
// may be reported, and the derivatives must still match.
// REQUIRES: lsan
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O0 %S/../Integration/array-qsort-bsearch.c -lm -o %t.q0 && %lsan_run %t.q0 2>&1 | FileCheck %s
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O2 %S/../Integration/array-qsort-bsearch.c -lm -o %t.q2 && %lsan_run %t.q2 2>&1 | FileCheck %s
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
// CHECK: ALL PASSED: 0 failure(s)
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
