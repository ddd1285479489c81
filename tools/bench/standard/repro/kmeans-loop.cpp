// farm-bench driver: tools/bench/standard/kmeans.cpp's gradient and Hessian
// diagonal by forward over reverse, reps times, at (n, k, d).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);
template <class T>
T dist2(int d, const double *__restrict p, const T *__restrict c) {
  T s = 0;
  for (int i = 0; i < d; i++)
    s += (p[i] - c[i]) * (p[i] - c[i]);
  return s;
}
template <class T>
void objective(int n, int k, int d, const double *__restrict points,
               const T *__restrict centroids, T *__restrict err) {
  T cost = 0;
  for (int i = 0; i < n; i++) {
    T closest = INFINITY;
    for (int j = 0; j < k; j++) {
      T dj = dist2(d, &points[i * d], &centroids[j * d]);
      if (dj < closest)
        closest = dj;
    }
    cost += closest;
  }
  *err = cost;
}
void kmeansGradient(int n, int k, int d, const double *points,
                    const double *centroids, double *grad) {
  double err = 0, derr = 1;
  __enzyme_autodiff((void *)objective<double>, enzyme_const, n, enzyme_const, k,
                    enzyme_const, d, enzyme_const, points, enzyme_dup,
                    centroids, grad, enzyme_dup, &err, &derr);
}
int main(int argc, char **argv) {
  int n = atoi(argv[1]), k = atoi(argv[2]), d = atoi(argv[3]),
      reps = atoi(argv[4]);
  std::vector<double> P(n * d), C(k * d), got(2 * k * d), ones(k * d, 1.0);
  for (int i = 0; i < n * d; i++)
    P[i] = (i * 7919 % 1013) / 1013.0;
  for (int i = 0; i < k * d; i++)
    C[i] = (i * 104729 % 997) / 997.0;
  for (int r = 0; r < reps; r++) {
    std::fill(got.begin(), got.end(), 0.0);
    __enzyme_fwddiff((void *)kmeansGradient, enzyme_const, n, enzyme_const, k,
                     enzyme_const, d, enzyme_const, P.data(), enzyme_dup,
                     C.data(), ones.data(), enzyme_dup, got.data(),
                     got.data() + k * d);
  }
  double sg = 0, sh = 0;
  for (int i = 0; i < k * d; i++)
    sg += got[i], sh += got[k * d + i];
  std::printf("%.15g %.15g\n", sg, sh);
  return 0;
}
