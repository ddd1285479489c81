// The front end's table of struct copies (plugin/Frontend/CopyTypes.cpp):
// for each copy clang lowers to a memcpy, the enclosing function's symbol,
// the copy expression's source range, the stride, the size, and the
// scalars at their offsets, from clang's own record layouts. The pass
// reads and removes it (test/Reverse/untyped-copy-typed-by-front-end.ll).
// RUN: %clangxx_fplugin -std=c++17 -O0 -Xclang -disable-llvm-passes -S -emit-llvm %s -o - \
// RUN:   | sed -n 's/^@__tapestry_copy_types = .*c"\(.*\)".*/\1/p' \
// RUN:   | sed -e 's/\\09/ /g' -e 's/\\0A/\n/g' | FileCheck %s
// With the pass the table is gone from the output.
// RUN: %clangxx_fplugin -std=c++17 -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=GONE
// GONE-NOT: __tapestry_copy_types
#include <cstring>
struct Pair { int key; double value; };
struct Bits { unsigned a : 3, b : 7; float f; };
struct Ints { int a, b; };
union Either { double d; long l; };
struct Long { long double x; void *p; };
struct Base { float w; };
struct Derived : Base { int n; double *data; };
struct Point { float xy[2]; _Complex double z; };

// A trivial copy constructor.
// CHECK: _Z8copyCtorRK4Pair {{.*}}copy-types-table.cpp [[@LINE+1]]:39 [[@LINE+1]]:45 0 16 0:i32,8:d
Pair copyCtor(const Pair &p) { return Pair(p); }
// A trivial copy assignment.
// CHECK-NEXT: _Z6assignR4PairRKS_ {{.*}}copy-types-table.cpp [[@LINE+1]]:39 [[@LINE+1]]:43 0 16 0:i32,8:d
void assign(Pair &a, const Pair &b) { a = b; }
// Bit-fields are the bytes they occupy, once each.
// CHECK-NEXT: _Z4bitsR4BitsRKS_ {{.*}} 0 8 0:i8,1:i8,4:f
void bits(Bits &a, const Bits &b) { a = b; }
// Integers only, and a union: nothing a derivative follows, or nothing
// certain; not described.
void ints(Ints &a, const Ints &b) { a = b; }
void either(Either &a, const Either &b) { a = b; }
// x87 long double and a pointer.
// CHECK-NEXT: _Z5longsR4LongRKS_ {{.*}} 0 32 0:x,16:p
void longs(Long &a, const Long &b) { a = b; }
// A base class's members first.
// CHECK-NEXT: _Z7derivedR7DerivedRKS_ {{.*}} 0 16 0:f,4:i32,8:p
void derived(Derived &a, const Derived &b) { a = b; }
// Arrays and complex numbers, element by element.
// CHECK-NEXT: _Z5pointR5PointRKS_ {{.*}} 0 24 0:f,4:f,8:d,16:d
void point(Point &a, const Point &b) { a = b; }
// memcpy of typed pointers: an array of the pointee, so a stride.
// CHECK-NEXT: _Z4manyP4PairPKS_i {{.*}} 16 16 0:i32,8:d
void many(Pair *a, const Pair *b, int n) { std::memcpy(a, b, n * sizeof(Pair)); }
// memcpy between different types, or of void pointers: not described.
void reinterpret(double *a, const long *b) { std::memcpy(a, b, 8); }
void untyped(void *a, const void *b, int n) { std::memcpy(a, b, n); }
// Each instantiation of a template, under its own symbol.
template <class T> T same(const T &t) { return T(t); }
// CHECK-NEXT: _Z4sameI4PairET_RKS1_ {{.*}} 0 16 0:i32,8:d
template Pair same<Pair>(const Pair &);
// CHECK-NEXT: _Z4sameI4LongET_RKS1_ {{.*}} 0 32 0:x,16:p
template Long same<Long>(const Long &);
// A constructor's copies are named for both of its symbols.
struct Holder {
  Pair p;
  // CHECK-NEXT: _ZN6HolderC1ERK4Pair;_ZN6HolderC2ERK4Pair
  Holder(const Pair &q) : p(q) {}
};
Holder makeHolder(const Pair &q) { return Holder(q); }
// CHECK-NEXT: {{^}}\00{{$}}
