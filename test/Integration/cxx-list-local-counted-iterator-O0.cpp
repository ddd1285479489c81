// cxx-list-local-counted-iterator.cpp at -O0, where clang emits no TBAA.
// The list's header keeps its element count at offset 16, where a node
// keeps its value, and the type analysis merges the header with the nodes
// (a counted iterator may reach either, as far as it can tell). At -O1
// and above the count's TBAA tag (`long`) says no double is read there; at
// -O0 the GEP that addresses the count names it as the header struct's
// `long` member, and the count is updated in place (read, += n, stored
// back where it was read). (An XFAIL until session 44; a double's bits
// stepped in place through a union stays an error:
// test/Errors/float-bits-counted-in-union-struct.c.)
// RUN: %clangxx -O0 %S/cxx-list-local-counted-iterator.cpp -o %t0 && %t0 | FileCheck %S/cxx-list-local-counted-iterator.cpp
