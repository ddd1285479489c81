// An MFEM-like memory manager whose allocators are registered with
// __enzyme_allocation_like as `inline static` members of the class, as
// MFEM does (MemoryManager::New_ with "-1,2,3" freed by a wrapper taking
// the flags by reference, and the six-argument New_ with "-1,2,4" freed by
// Delete_): vectors built in the differentiated function allocate through
// them, and their shadows are allocated by calling New_ again and freed by
// the registered deallocator, once each. Reverse and forward mode against
// the analytic gradient of f(x) = sum_i sin(x_i^2) x_i + 0.5 x_i^2.
// RUN: %clangxx -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <set>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum class MemoryType { HOST, HOST_64 };
enum : unsigned { REGISTERED = 1, OWNS_HOST = 2, VALID = 4 };

struct MemoryManager {
  static inline long Allocs = 0, Frees = 0, BadFrees = 0;
  static std::set<void *> &live() {
    static std::set<void *> Live;
    return Live;
  }
  static void *Allocate(size_t Bytes) {
    void *P = std::malloc(Bytes);
    std::memset(P, 0x7b, Bytes); // garbage: shadows must be zeroed
    live().insert(P);
    ++Allocs;
    return P;
  }
  __attribute__((noinline)) static void *New_(void *HTmp, size_t Bytes,
                                              MemoryType MT, unsigned &Flags) {
    Flags = REGISTERED | OWNS_HOST | (unsigned)MT << 4;
    return Allocate(Bytes);
  }
  __attribute__((noinline)) static void *New_(void *HTmp, size_t Bytes,
                                              MemoryType HMT, MemoryType DMT,
                                              unsigned ValidFlags,
                                              unsigned &Flags) {
    Flags = REGISTERED | OWNS_HOST | ValidFlags;
    return Allocate(Bytes);
  }
  __attribute__((noinline)) static MemoryType Delete_(void *HPtr, MemoryType MT,
                                                      unsigned Flags) {
    if (!(Flags & REGISTERED) || !(Flags & OWNS_HOST) || !live().erase(HPtr)) {
      ++BadFrees; // unknown block, freed twice, or wrong flags
      return MT;
    }
    ++Frees;
    std::free(HPtr);
    return MT;
  }
  static void myfree(void *Mem, MemoryType MT, unsigned &Flags) {
    Delete_(Mem, MT, Flags);
  }
  __attribute__((used)) inline static void *__enzyme_allocation_like1[4] = {
      (void *)static_cast<void *(*)(void *, size_t, MemoryType, unsigned &)>(
          MemoryManager::New_),
      (void *)1, (void *)"-1,2,3", (void *)myfree};
  __attribute__((used)) inline static void *__enzyme_allocation_like2[4] = {
      (void *)static_cast<void *(*)(void *, size_t, MemoryType, MemoryType,
                                    unsigned, unsigned &)>(MemoryManager::New_),
      (void *)1, (void *)"-1,2,4", (void *)MemoryManager::Delete_};
};

struct Vector {
  double *Data;
  unsigned Flags;
  MemoryType MT = MemoryType::HOST;
  int Size;
  explicit Vector(int N) : Size(N) {
    Data =
        (double *)MemoryManager::New_(nullptr, N * sizeof(double), MT, Flags);
  }
  ~Vector() { MemoryManager::myfree(Data, MT, Flags); }
  double &operator[](int I) { return Data[I]; }
};

struct DeviceVector {
  double *Data;
  unsigned Flags;
  unsigned Valid = REGISTERED | OWNS_HOST | VALID;
  MemoryType HMT = MemoryType::HOST_64;
  explicit DeviceVector(int N) {
    Data = (double *)MemoryManager::New_(nullptr, N * sizeof(double), HMT,
                                         MemoryType::HOST, Valid, Flags);
  }
  ~DeviceVector() { MemoryManager::Delete_(Data, HMT, Valid); }
  double &operator[](int I) { return Data[I]; }
};

double energy(const double *X, int N) {
  Vector Sq(N);
  for (int I = 0; I < N; ++I)
    Sq[I] = X[I] * X[I];
  DeviceVector W(N);
  for (int I = 0; I < N; ++I)
    W[I] = std::sin(Sq[I]);
  double S = 0;
  for (int I = 0; I < N; ++I)
    S += W[I] * X[I] + 0.5 * Sq[I];
  return S;
}

int main() {
  const int N = 5;
  double X[N] = {0.3, -0.8, 1.1, 0.05, -1.7};
  double Want[N];
  for (int I = 0; I < N; ++I)
    Want[I] =
        2 * X[I] * X[I] * std::cos(X[I] * X[I]) + std::sin(X[I] * X[I]) + X[I];
  double DX[N] = {0};
  long A0 = MemoryManager::Allocs, F0 = MemoryManager::Frees;
  __enzyme_autodiff((void *)energy, enzyme_dup, X, DX, enzyme_const, N);
  check_close("reverse: blocks allocated (2 primal, 2 shadow)",
              double(MemoryManager::Allocs - A0), 4, 0);
  check_close("reverse: blocks freed", double(MemoryManager::Frees - F0), 4, 0);
  for (int I = 0; I < N; ++I)
    check_close("reverse vs analytic", DX[I], Want[I], 1e-12);
  for (int J = 0; J < N; ++J) {
    double T[N] = {0};
    T[J] = 1;
    A0 = MemoryManager::Allocs, F0 = MemoryManager::Frees;
    double D =
        __enzyme_fwddiff((void *)energy, enzyme_dup, X, T, enzyme_const, N);
    check_close("forward vs analytic", D, Want[J], 1e-12);
    check_close("forward: blocks allocated (2 primal, 2 shadow)",
                double(MemoryManager::Allocs - A0), 4, 0);
    check_close("forward: blocks freed", double(MemoryManager::Frees - F0), 4,
                0);
  }
  check_close("blocks still live", double(MemoryManager::live().size()), 0, 0);
  check_close("bad frees", double(MemoryManager::BadFrees), 0, 0);
  return check_report();
}
