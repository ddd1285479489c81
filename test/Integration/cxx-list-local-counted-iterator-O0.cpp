// cxx-list-local-counted-iterator.cpp at -O0.
// XFAIL: *
// Known bug: refused at -O0 with "an active floating-point value is
// reinterpreted as a long here". The list's header keeps its element count
// at offset 16, where a node keeps its value, and the type analysis merges
// the header with the nodes (a counted iterator may reach either, as far
// as it can tell). At -O1 and above the count's TBAA tag (`long`) says no
// double is read there; at -O0 clang emits no TBAA, and nothing else tells
// a count updated in place from a double's bits changed by integer
// arithmetic.
// RUN: %clangxx -O0 %S/cxx-list-local-counted-iterator.cpp -o %t0 && %t0 | FileCheck %S/cxx-list-local-counted-iterator.cpp
