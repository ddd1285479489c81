/*===- gradcheck.c - Derivatives against finite differences -----------------===
 *
 * tapestry_check_gradient and tapestry_check_jacobian (tapestry/gradcheck.h):
 * for each checked input component j, the function is evaluated at
 * x +- h e_j and x +- 2h e_j, and every output's five-point difference is
 * compared with the given derivative, with the distance to the three-point
 * difference as the reference's own error estimate.
 *
 *===----------------------------------------------------------------------===*/
#include "tapestry/gradcheck.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MaxListed = 20 };

/* What a check compares: m outputs of a function of n inputs. */
struct target {
  tapestry_scalar_fn scalar; /* m == 1 */
  tapestry_vector_fn vector;
  void *ctx;
  int n, m;
  const double *deriv; /* m x n, row-major */
  const char *name;
};

struct settings {
  double rel_step, rtol, atol;
  int samples;
  unsigned seed;
  FILE *out; /* NULL: quiet */
};

static struct settings settingsOf(const struct tapestry_check_options *o) {
  struct settings s = {1e-3, 1e-6, 1e-9, 0, 0, stderr};
  if (!o)
    return s;
  if (o->rel_step > 0)
    s.rel_step = o->rel_step;
  if (o->rtol > 0)
    s.rtol = o->rtol;
  if (o->atol > 0)
    s.atol = o->atol;
  s.samples = o->samples;
  s.seed = o->seed;
  s.out = o->quiet ? NULL : (o->report ? o->report : stderr);
  return s;
}

static void evaluate(const struct target *t, const double *x, double *y) {
  if (t->scalar)
    y[0] = t->scalar(x, t->ctx);
  else
    t->vector(x, y, t->ctx);
}

/* The columns to check: all of them, or `samples` distinct ones drawn by a
 * partial Fisher-Yates shuffle, in increasing order. */
static int chooseColumns(int n, const struct settings *s, int *cols) {
  int k = s->samples > 0 && s->samples < n ? s->samples : n;
  unsigned state = s->seed * 2654435761u + 0x9e3779b9u;
  for (int j = 0; j < n; j++)
    cols[j] = j;
  if (k == n)
    return n;
  for (int j = 0; j < k; j++) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    int pick = j + (int)(state % (unsigned)(n - j));
    int tmp = cols[j];
    cols[j] = cols[pick];
    cols[pick] = tmp;
  }
  for (int a = 1; a < k; a++) /* insertion sort: k is small */
    for (int b = a; b > 0 && cols[b - 1] > cols[b]; b--) {
      int tmp = cols[b];
      cols[b] = cols[b - 1];
      cols[b - 1] = tmp;
    }
  return k;
}

enum verdict { Agrees, Mismatch, Uncertain };

struct entry {
  int row, col;
  enum verdict v;
  double deriv, fd, estimate;
};

static enum verdict judge(const struct settings *s, double g, double d,
                          double est, int finite) {
  double err = fabs(g - d);
  double tol = s->atol + s->rtol * fmax(fabs(g), fabs(d));
  if (!finite || !isfinite(g))
    return Uncertain;
  if (err <= tol)
    return Agrees;
  /* A reference whose own error estimate is not small against its size
   * (a kink, a branch, rounding at a huge value) cannot judge. */
  if (est > 1e-2 * fmax(1.0, fabs(d)))
    return Uncertain;
  return err <= tol + est ? Agrees : Mismatch;
}

static void label(char *buf, size_t size, const struct target *t, int row,
                  int col) {
  if (t->m == 1)
    snprintf(buf, size, "[%d]", col);
  else
    snprintf(buf, size, "dy[%d]/dx[%d]", row, col);
}

static void printEntry(FILE *out, const struct target *t,
                       const struct entry *e) {
  char where[48];
  label(where, sizeof where, t, e->row, e->col);
  fprintf(out, "  %-16s %-9s %15.8e %15.8e %10.2e %10.2e\n", where,
          e->v == Mismatch ? "MISMATCH" : "uncertain", e->deriv, e->fd,
          fabs(e->deriv - e->fd), e->estimate);
}

static int check(const struct target *t, const double *x,
                 const struct settings *s,
                 struct tapestry_check_result *result) {
  int n = t->n, m = t->m;
  double *xs = malloc(sizeof(double) * (size_t)n);
  double *y = malloc(sizeof(double) * (size_t)m * 4);
  int *cols = malloc(sizeof(int) * (size_t)n);
  struct entry *listed = malloc(sizeof(struct entry) * MaxListed);
  struct tapestry_check_result r = {0, 0, 0, -1, 0.0};
  int nlisted = 0;
  if (!xs || !y || !cols || !listed) {
    free(xs), free(y), free(cols), free(listed);
    return -1;
  }
  memcpy(xs, x, sizeof(double) * (size_t)n);
  int k = chooseColumns(n, s, cols);
  for (int c = 0; c < k; c++) {
    int j = cols[c];
    double x0 = xs[j];
    volatile double up = x0 + s->rel_step * fmax(1.0, fabs(x0));
    double h = up - x0; /* exactly representable */
    static const double offsets[4] = {1, -1, 2, -2};
    for (int p = 0; p < 4; p++) {
      xs[j] = x0 + offsets[p] * h;
      evaluate(t, xs, y + (size_t)p * m);
    }
    xs[j] = x0;
    for (int i = 0; i < m; i++) {
      double fp = y[i], fm = y[m + i], f2p = y[2 * m + i], f2m = y[3 * m + i];
      int finite =
          isfinite(fp) && isfinite(fm) && isfinite(f2p) && isfinite(f2m);
      double d3 = (fp - fm) / (2 * h);
      double d5 = (8 * (fp - fm) - (f2p - f2m)) / (12 * h);
      double g = t->deriv[(size_t)i * n + j];
      double est = fabs(d5 - d3);
      enum verdict v = judge(s, g, d5, est, finite);
      r.checked++;
      if (v == Mismatch)
        r.mismatches++;
      else if (v == Uncertain)
        r.uncertain++;
      if (finite && v != Uncertain) {
        double scaled = fabs(g - d5) / fmax(1.0, fabs(d5));
        if (r.worst < 0 || scaled > r.worst_error) {
          r.worst = (long)i * n + j;
          r.worst_error = scaled;
        }
      }
      if (v != Agrees && nlisted < MaxListed)
        listed[nlisted++] = (struct entry){i, j, v, g, d5, est};
    }
  }
  if (s->out) {
    fprintf(s->out,
            "%s: %d of %d entries checked, %d mismatch%s, %d uncertain "
            "(rtol %.1e, atol %.1e, h = %.1e max(1,|x|))\n",
            t->name, r.checked, n * m, r.mismatches,
            r.mismatches == 1 ? "" : "es", r.uncertain, s->rtol, s->atol,
            s->rel_step);
    if (nlisted) {
      fprintf(s->out, "  %-16s %-9s %15s %15s %10s %10s\n", "entry", "",
              "derivative", "finite diff.", "error", "fd error");
      for (int e = 0; e < nlisted; e++)
        printEntry(s->out, t, &listed[e]);
      if (r.mismatches + r.uncertain > nlisted)
        fprintf(s->out, "  ... and %d more\n",
                r.mismatches + r.uncertain - nlisted);
    }
    if (r.worst >= 0) {
      char where[48];
      label(where, sizeof where, t, (int)(r.worst / n), (int)(r.worst % n));
      fprintf(s->out, "  largest error %.2e (relative to max(1,|fd|)) at %s\n",
              r.worst_error, where);
    }
  }
  free(xs), free(y), free(cols), free(listed);
  if (result)
    *result = r;
  return r.mismatches;
}

int tapestry_check_gradient(tapestry_scalar_fn f, void *ctx, int n,
                            const double *x, const double *grad,
                            const struct tapestry_check_options *options,
                            struct tapestry_check_result *result) {
  struct target t = {f, NULL, ctx, n, 1, grad, "tapestry_check_gradient"};
  struct settings s = settingsOf(options);
  if (!f || n <= 0 || !x || !grad)
    return -1;
  return check(&t, x, &s, result);
}

int tapestry_check_jacobian(tapestry_vector_fn f, void *ctx, int n, int m,
                            const double *x, const double *jac,
                            const struct tapestry_check_options *options,
                            struct tapestry_check_result *result) {
  struct target t = {NULL, f, ctx, n, m, jac, "tapestry_check_jacobian"};
  struct settings s = settingsOf(options);
  if (!f || n <= 0 || m <= 0 || !x || !jac)
    return -1;
  return check(&t, x, &s, result);
}
