// A stranger's program (probe 37, integers on the heap beside the math):
// self-checking against central finite differences, as its author wrote it.
// RUN: %clangxx -O0 -std=c++17 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -O1 -std=c++17 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clangxx -O2 -std=c++17 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -O3 -std=c++17 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
// A small columnar data frame (Arrow-like): columns of mixed types (int32
// category codes, uint8 validity bitmap, double measurements) live in ONE
// std::vector<unsigned char> arena at recorded offsets, written and read
// with std::memcpy. A group-by (std::unordered_map<int,int> from category
// code to group slot, std::vector<size_t> group counts) computes per-group
// weighted means, and the loss is a robust (log-cosh) deviation of each row
// from its group mean. Doubles also pass through a std::vector<uint64_t>
// delay line (bit copies). Gradient w.r.t. the measurement column (reverse)
// and forward mode, vs central differences.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <unordered_map>
#include <vector>

extern int enzyme_dup, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static int nfail = 0;
static void check(const char *name, double ad, double ref, double tol) {
  double err = std::fabs(ad - ref) / std::fmax(1.0, std::fabs(ref));
  bool ok = err < tol;
  std::printf("%s %s ad=%.12g ref=%.12g relerr=%.2e\n", ok ? "PASS" : "FAIL", name, ad, ref, err);
  if (!ok) nfail++;
}

struct Frame {
  size_t rows = 0;
  size_t off_code = 0, off_valid = 0, off_val = 0;
  std::vector<unsigned char> arena;
};

static Frame make_frame(const double *vals, const int32_t *codes, size_t n) {
  Frame f;
  f.rows = n;
  f.off_code = 0;
  f.off_valid = n * sizeof(int32_t);
  size_t end_valid = f.off_valid + (n + 7) / 8;
  f.off_val = (end_valid + 7) & ~size_t(7);
  f.arena.resize(f.off_val + n * sizeof(double));
  std::memcpy(f.arena.data() + f.off_code, codes, n * sizeof(int32_t));
  for (size_t i = 0; i < n; i++)
    if (i % 7 != 3) f.arena[f.off_valid + i / 8] |= (unsigned char)(1u << (i % 8));
  std::memcpy(f.arena.data() + f.off_val, vals, n * sizeof(double));
  return f;
}

double group_loss(const double *vals, const int32_t *codes, size_t n, int lag) {
  Frame f = make_frame(vals, codes, n);
  std::unordered_map<int, int> slot;
  std::vector<size_t> count;
  std::vector<double> sum;
  for (size_t i = 0; i < f.rows; i++) {
    if (!(f.arena[f.off_valid + i / 8] >> (i % 8) & 1)) continue;
    int32_t c; double v;
    std::memcpy(&c, f.arena.data() + f.off_code + i * sizeof(int32_t), sizeof c);
    std::memcpy(&v, f.arena.data() + f.off_val + i * sizeof(double), sizeof v);
    auto it = slot.find(c);
    int s;
    if (it == slot.end()) { s = (int)count.size(); slot.emplace(c, s); count.push_back(0); sum.push_back(0.0); }
    else s = it->second;
    count[s]++;
    sum[s] += v;
  }
  // delay line of raw bits
  std::vector<uint64_t> delay(lag, 0);
  double L = 0;
  for (size_t i = 0; i < f.rows; i++) {
    double v;
    std::memcpy(&v, f.arena.data() + f.off_val + i * sizeof(double), sizeof v);
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    uint64_t oldbits = delay[i % lag];
    delay[i % lag] = bits;
    double old;
    std::memcpy(&old, &oldbits, sizeof old);
    if (!(f.arena[f.off_valid + i / 8] >> (i % 8) & 1)) continue;
    int32_t c;
    std::memcpy(&c, f.arena.data() + f.off_code + i * sizeof(int32_t), sizeof c);
    int s = slot.at(c);
    double mean = sum[s] / double(count[s]);
    L += std::log(std::cosh(v - mean)) + 0.05 * v * old;
  }
  return L;
}

int main() {
  const size_t n = 37;
  std::vector<double> x(n), dx(n, 0.0), dir(n);
  std::vector<int32_t> code(n);
  for (size_t i = 0; i < n; i++) {
    x[i] = 2.0 * std::sin(1.3 * i + 0.2) + 0.1 * i;
    code[i] = int32_t(100 + (i * i) % 5);
    dir[i] = std::cos(0.61 * i);
  }
  const int lag = 3;
  std::printf("loss=%.12f\n", group_loss(x.data(), code.data(), n, lag));
  __enzyme_autodiff((void *)group_loss, enzyme_dup, x.data(), dx.data(), enzyme_const, code.data(),
                    enzyme_const, n, enzyme_const, lag);
  const double h = 1e-7;
  char name[64];
  double gv = 0;
  for (size_t i = 0; i < n; i++) {
    double s = x[i];
    x[i] = s + h; double fp = group_loss(x.data(), code.data(), n, lag);
    x[i] = s - h; double fm = group_loss(x.data(), code.data(), n, lag);
    x[i] = s;
    gv += dir[i] * dx[i];
    if (i % 2 == 0) {
      std::snprintf(name, sizeof name, "dL/dx[%zu]", i);
      check(name, dx[i], (fp - fm) / (2 * h), 1e-6);
    }
  }
  double t = __enzyme_fwddiff((void *)group_loss, enzyme_dup, x.data(), dir.data(), enzyme_const, code.data(),
                              enzyme_const, n, enzyme_const, lag);
  check("fwd vs grad.v", t, gv, 1e-9);
  if (nfail) { std::printf("%d FAILED\n", nfail); return 1; }
  std::printf("ALL PASSED\n");
  return 0;
}
