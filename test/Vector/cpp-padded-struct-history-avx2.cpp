// The program of Integration/cpp-padded-struct-history.cpp from -O3
// -ffast-math IR vectorised for AVX2 (the opt flow). It was refused as
// "cannot tell what the memory this instruction copies holds" (XFAIL in
// session 25): the vectoriser reads one double member of the structs with
// a <16 x double> load whose lanes go through fmul before a shuffle picks
// every fourth, and the other lanes, over the int member and the padding,
// were taken for doubles. Lanes are now followed through lane-wise
// arithmetic to the shuffle (TypeAnalysis lanesPicked). The other build
// lines are in that test, which holds the program (compiled from there,
// not copied).
// RUN: %plain_cxx -O3 -ffast-math -march=x86-64-v3 -S -emit-llvm %S/../Integration/cpp-padded-struct-history.cpp -o - | %any_x86_cpu > %t.ll
// RUN: %opt -passes=tapestry %t.ll -o %t.bc
// RUN: %plain_cxx -O2 %t.bc -o %t && %t | FileCheck %S/../Integration/cpp-padded-struct-history.cpp
