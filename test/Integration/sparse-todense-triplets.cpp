// Enzyme's sparse Hessian idiom as its Sparse tests write it (sqrtspring.cpp,
// with a mod-N input view): triplets pushed into a std::vector by an
// enzyme_sparse_accumulate function, and the input itself read through
// __enzyme_post_sparse_todense. (Enzyme's test passes the gradient's primal
// as enzyme_dupnoneed, (double *)0x1; Tapestry still runs the primal's
// accesses to it, so a real scratch array is passed here.) Checked against the analytic Hessian of
// f(x) = sum_{i<N-1} (sqrt(x_{i+1} - x_i) + 1)^2: with d = x_{i+1} - x_i,
// the term's second derivative in d is -1 / (2 d^(3/2)).
// RUN: %clangxx_fplugin -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx_fplugin -O1 %s -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx_fplugin -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx_fplugin -O3 %s -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"

#include <cmath>
#include <cstdint>
#include <vector>

struct Triple {
  size_t Row, Col;
  double Val;
  Triple(size_t Row, size_t Col, double Val) : Row(Row), Col(Col), Val(Val) {}
};

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const;
extern void __enzyme_autodiff(void *, ...);
extern void __enzyme_fwddiff(void *, ...);
extern double *__enzyme_todense(void *, ...) noexcept;
extern double *__enzyme_post_sparse_todense(void *, ...) noexcept;

static double f(size_t N, double *In) {
  double Out = 0;
  for (size_t I = 0; I + 1 < N; I++) {
    double Sub = In[I + 1] - In[I];
    Out += (std::sqrt(Sub) + 1) * (std::sqrt(Sub) + 1);
  }
  return Out;
}

static void grad_f(size_t N, double *In, double *DIn) {
  __enzyme_autodiff((void *)f, enzyme_const, N, enzyme_dup, In, DIn);
}

static int StrayStores;
static void ident_store(double, int64_t, size_t) { StrayStores++; }
static double ident_load(int64_t Idx, size_t I, size_t) {
  return double(Idx / int64_t(sizeof(double)) == int64_t(I));
}

__attribute__((enzyme_sparse_accumulate)) static void
inner_store(int64_t Row, int64_t Col, double Val, std::vector<Triple> &T) {
  T.emplace_back(Row, Col, Val);
}
static void sparse_store(double Val, int64_t Idx, size_t I, size_t,
                         std::vector<Triple> &T) {
  if (Val == 0.0)
    return;
  inner_store(I, Idx / sizeof(double), Val, T);
}
static double sparse_load(int64_t, size_t, size_t, std::vector<Triple> &) {
  return 0.0;
}

// The input, read through a view: element Idx of an array of N.
static void never_store(double, int64_t, double *, size_t) { StrayStores++; }
static double mod_load(int64_t Idx, double *In, size_t N) {
  return In[(Idx / sizeof(double)) % N];
}

__attribute__((noinline)) std::vector<Triple> hess_f(size_t N, double *In) {
  std::vector<Triple> Triplets;
  std::vector<double> Scratch(N);
  In = __enzyme_post_sparse_todense((void *)mod_load, (void *)never_store, In,
                                    N);
  for (size_t I = 0; I < N; I++) {
    double *DIn = __enzyme_todense((void *)ident_load, (void *)ident_store, I,
                                   N);
    double *DDIn = __enzyme_todense((void *)sparse_load, (void *)sparse_store,
                                    I, N, &Triplets);
    __enzyme_fwddiff((void *)grad_f, enzyme_const, N, enzyme_dup, In, DIn,
                     enzyme_dup, Scratch.data(), DDIn);
  }
  return Triplets;
}

int main() {
  const size_t N = 8;
  double X[N];
  for (size_t I = 0; I < N; I++)
    X[I] = (I + 1) * (I + 1);
  std::vector<Triple> T = hess_f(N, X);
  double H[N][N] = {}, W[N][N] = {};
  for (const Triple &E : T)
    H[E.Row][E.Col] += E.Val;
  for (size_t I = 0; I + 1 < N; I++) {
    double D = X[I + 1] - X[I];
    double S = -1 / (2 * D * std::sqrt(D));
    W[I][I] += S, W[I + 1][I + 1] += S;
    W[I][I + 1] -= S, W[I + 1][I] -= S;
  }
  for (size_t I = 0; I < N; I++)
    for (size_t J = 0; J < N; J++)
      check_close("H vs analytic", H[I][J], W[I][J], 1e-12);
  check_close("stores into read-only views", StrayStores, 0, 0);
  return check_report();
}
