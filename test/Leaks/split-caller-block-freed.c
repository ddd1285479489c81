// LeakSanitizer on split mode of a function that grows a block the caller's
// struct points to (Errors/split-caller-block-freed-lost-adjoints.c): the
// shadows of the caller's blocks its augmented forward frees are listed
// under the tape and freed when a reverse releases the tape (two tapes
// alive at once, released in the other order). No leak and no memory error
// may be reported.
// REQUIRES: lsan
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O0 %S/../Errors/split-caller-block-freed-lost-adjoints.c -lm -o %t0 && %lsan_run %t0 ok 2>&1 | FileCheck %s
// RUN: %clang -fsanitize=address -fno-omit-frame-pointer -g -O2 %S/../Errors/split-caller-block-freed-lost-adjoints.c -lm -o %t2 && %lsan_run %t2 ok 2>&1 | FileCheck %s
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
// CHECK: ALL PASSED: 0 failure(s)
// CHECK-NOT: {{FAIL|Sanitizer|ERROR}}
