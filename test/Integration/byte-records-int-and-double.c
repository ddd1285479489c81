// Records packed by hand into a byte buffer, as serialisers and particle
// codes write them: an integer tag, then a double at an offset that is not
// a multiple of 8, written and read with memcpy (12-byte records: int32 at
// 0, double at 4; 10 bytes: int16, double at 2; 9 bytes: a char, double at
// 1; 20 bytes: double, int32, double). The function's address also escapes
// (a table of functions, as a finite-difference driver keeps), so it is
// analysed without its callers. The type analysis saw the 12-byte records'
// offsets as multiples of 4 only (12 * i has two trailing zero bits), could
// not place an 8-byte double at a 4-byte stride, took the records for ints
// and dropped the adjoints of the copied doubles: a gradient of 0, silently
// (probe 37). Reverse and forward, against analytic derivatives.
// RUN: %clang -O0 %s -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 %s -lm -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 %s -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 %s -lm -o %t3 && %t3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: ALL PASSED
#include "Inputs/check.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { N = 5 };

// sum x_i^2 through 12-byte records {int32 tag; double v} (v at 4).
double records12(const double *x, int n) {
  unsigned char *bytes = malloc(n * 12);
  for (int i = 0; i < n; i++) {
    int32_t tag = 7 + i;
    memcpy(bytes + i * 12, &tag, 4);
    memcpy(bytes + i * 12 + 4, &x[i], 8);
  }
  double s = 0;
  for (int i = 0; i < n; i++) {
    double v;
    int32_t tag;
    memcpy(&tag, bytes + i * 12, 4);
    memcpy(&v, bytes + i * 12 + 4, 8);
    s += tag == 7 + i ? v * v : 0;
  }
  free(bytes);
  return s;
}

// sum x_i^3 through 10-byte records {int16 tag; double v} (v at 2).
double records10(const double *x, int n) {
  unsigned char *bytes = malloc(n * 10);
  for (int i = 0; i < n; i++) {
    int16_t tag = (int16_t)i;
    memcpy(bytes + i * 10, &tag, 2);
    memcpy(bytes + i * 10 + 2, &x[i], 8);
  }
  double s = 0;
  for (int i = 0; i < n; i++) {
    double v;
    memcpy(&v, bytes + i * 10 + 2, 8);
    s += v * v * v;
  }
  free(bytes);
  return s;
}

// sum sin(x_i) through 9-byte records {char kind; double v} (v at 1).
double records9(const double *x, int n) {
  unsigned char *bytes = malloc(n * 9);
  for (int i = 0; i < n; i++) {
    bytes[i * 9] = 'a' + i;
    memcpy(bytes + i * 9 + 1, &x[i], 8);
  }
  double s = 0;
  for (int i = 0; i < n; i++) {
    double v;
    memcpy(&v, bytes + i * 9 + 1, 8);
    s += sin(v);
  }
  free(bytes);
  return s;
}

// sum x_i x_{i+1} through 20-byte records {double a; int32 id; double b}.
double records20(const double *x, int n) {
  unsigned char *bytes = malloc((n - 1) * 20);
  for (int i = 0; i + 1 < n; i++) {
    int32_t id = i;
    memcpy(bytes + i * 20, &x[i], 8);
    memcpy(bytes + i * 20 + 8, &id, 4);
    memcpy(bytes + i * 20 + 12, &x[i + 1], 8);
  }
  double s = 0;
  for (int i = 0; i + 1 < n; i++) {
    double a, b;
    memcpy(&a, bytes + i * 20, 8);
    memcpy(&b, bytes + i * 20 + 12, 8);
    s += a * b;
  }
  free(bytes);
  return s;
}

// sum (id + 1) x_id^2 through 12-byte records written at a running offset
// (pos += 12) and copied to a second buffer: the id with a 4-byte memcpy
// (integers only), the weight through a double (review 37: refused once
// the copies of records holding doubles at unplaced offsets were).
double running_offset(const double *x, int n) {
  char *a = malloc(12 * n), *b = malloc(12 * n);
  size_t pos = 0;
  for (int i = 0; i < n; i++) {
    int32_t id = i;
    double w = x[i] * x[i];
    memcpy(a + pos, &id, 4);
    memcpy(a + pos + 4, &w, 8);
    pos += 12;
  }
  for (size_t k = 0; k < pos; k += 12) {
    double w;
    memcpy(b + k, a + k, 4);
    memcpy(&w, a + k + 4, 8);
    memcpy(b + k + 4, &w, 8);
  }
  double s = 0;
  for (size_t k = 0; k < pos; k += 12) {
    double w;
    int32_t id;
    memcpy(&id, b + k, 4);
    memcpy(&w, b + k + 4, 8);
    s += w * (id + 1);
  }
  free(a);
  free(b);
  return s;
}

// Kept in a table, as a finite-difference driver keeps its objectives: the
// functions' addresses escape.
typedef double (*Objective)(const double *, int);
Objective objectives[] = {records12, records10, records9, records20,
                          running_offset};

static void check(const char *name, int k, Objective f, const double *dx,
                  const double *x) {
  for (int i = 0; i < N; i++) {
    double want;
    switch (k) {
    case 0:
      want = 2 * x[i];
      break;
    case 1:
      want = 3 * x[i] * x[i];
      break;
    case 2:
      want = cos(x[i]);
      break;
    case 4:
      want = 2 * x[i] * (i + 1);
      break;
    default:
      want = (i > 0 ? x[i - 1] : 0) + (i + 1 < N ? x[i + 1] : 0);
    }
    char what[64];
    snprintf(what, sizeof what, "%s reverse d/dx%d", name, i);
    check_close(what, dx[i], want, 1e-14);
    snprintf(what, sizeof what, "%s forward d/dx%d", name, i);
    check_close(what, dx[N + i], want, 1e-14);
  }
  (void)f;
}

// The gradient (dx[0..N)) and the forward derivatives (dx[N..2N)) of f.
#define DERIVATIVES(f, dx)                                                     \
  do {                                                                         \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);          \
    for (int i = 0; i < N; i++) {                                              \
      double e[N] = {0};                                                       \
      e[i] = 1;                                                                \
      dx[N + i] =                                                              \
          __enzyme_fwddiff((void *)f, enzyme_dup, x, e, enzyme_const, N);      \
    }                                                                          \
  } while (0)

int main(void) {
  const double x[N] = {0.7, -1.3, 2.1, 0.4, -0.9};
  double d[5][2 * N] = {{0}};
  DERIVATIVES(records12, d[0]);
  DERIVATIVES(records10, d[1]);
  DERIVATIVES(records9, d[2]);
  DERIVATIVES(records20, d[3]);
  DERIVATIVES(running_offset, d[4]);
  const char *names[] = {"records12", "records10", "records9", "records20",
                         "running_offset"};
  for (int k = 0; k < 5; k++)
    check(names[k], k, objectives[k], d[k], x);
  return check_report();
}
