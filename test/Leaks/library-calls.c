// LeakSanitizer on the library-call programs of issue 14 item 8 (realloc in
// loops, from null and shrinking, of a dup struct's buffer; qsort, qsort_r
// and bsearch; memcpy/memmove behind void * helpers) in every mode they use:
// no leak (the permutation and scratch arrays of a sort, the shadows of
// realloc'd blocks) and no memory error may be reported, and the derivatives
// must still match.
// REQUIRES: lsan
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O0 %S/../Integration/array-realloc-loop.c -lm -o %t.r0 && %lsan_run %t.r0 2>&1 | FileCheck %s
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O2 %S/../Integration/array-realloc-loop.c -lm -o %t.r2 && %lsan_run %t.r2 2>&1 | FileCheck %s
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O2 %S/../Integration/array-copy-wrappers.c -lm -o %t.c2 && %lsan_run %t.c2 2>&1 | FileCheck %s
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
// CHECK: ALL PASSED: 0 failure(s)
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
