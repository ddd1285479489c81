// Shared driver of the standard AD benchmark problems (tools/bench/standard).
//
// Each problem is one C++ source compiled once per tool, the tool chosen by
// a macro:
//   -DTOOL_HAND      the hand-written derivative (checked against central
//                    finite differences on a sample of coordinates);
//   -DTOOL_TAPESTRY  Tapestry, through Enzyme's API (__enzyme_autodiff, ...);
//   -DTOOL_ADOLC     ADOL-C (tape, then a driver such as gradient());
//   -DTOOL_SACADO    Sacado (Rad for gradients, Fad for Jacobians).
// Every tool's derivative except the hand-written one is checked against the
// hand-written derivative. A run prints one line:
//   RESULT problem=<p> size=<s> tool=<t> primal_ms=<t> deriv_ms=<t>
//          tape_bytes=<b|-> check=<OK|FAIL> maxerr=<e>
// (tools/bench/standard.sh collects these lines into tables).
//   <binary> <small|medium|large> [--once]
// --once computes each derivative once and checks it, without timing (the
// lit tests use it); --dump also prints the derivative, one %a per line
// (the determinism test compares two runs bit for bit).
#ifndef TAPESTRY_BENCH_STANDARD_COMMON_H
#define TAPESTRY_BENCH_STANDARD_COMMON_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <time.h>
#include <vector>

#if defined(TOOL_TAPESTRY)
#define TOOL_NAME "tapestry"
// As an Enzyme user declares them.
extern "C" {
extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;
extern int enzyme_width, enzyme_dupv, enzyme_dupnoneedv;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff_ret(void *, ...);
double __enzyme_fwddiff_ret(void *, ...);
unsigned long long tapestry_tape_high_water(void) __attribute__((weak));
void tapestry_tape_reset_high_water(void) __attribute__((weak));
}
#elif defined(TOOL_ADOLC)
#define TOOL_NAME "adolc"
#include <adolc/adolc.h>
// The bytes of ADOL-C's tape `tag`: operations, locations and values.
inline long long adolcTapeBytes(short tag) {
  size_t st[STAT_SIZE];
  tapestats(tag, st);
  return (long long)(st[NUM_OPERATIONS] + st[NUM_LOCATIONS] * sizeof(locint) +
                     st[NUM_VALUES] * sizeof(double));
}
#elif defined(TOOL_SACADO)
#define TOOL_NAME "sacado"
#include <Sacado_trad.hpp> // Rad (reverse); see README for Fad
#elif defined(TOOL_HAND)
#define TOOL_NAME "hand"
#else
#error "define one of TOOL_HAND, TOOL_TAPESTRY, TOOL_ADOLC, TOOL_SACADO"
#endif

namespace bench {

// Seconds of CPU time used by the process (user + system, every thread):
// on a shared machine wall-clock time also counts the time the process waits
// for a core, which inflates a call longer than a scheduler time slice far
// more than a short one (BA small's derivative, 5.5 ms of CPU, measured
// 18-80 ms of wall time at a load average of 8 on 2 cores, while the 2.8 ms
// hand-written one measured 2.8 ms). BENCH_WALL=1 times wall-clock instead.
inline double now() {
  static const char *w = getenv("BENCH_WALL");
  static const bool wall = w && w[0] == '1';
  struct timespec t;
  clock_gettime(wall ? CLOCK_MONOTONIC : CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

// The fixed-seed generator of every generated input: splitmix64, seeded with
// the problem's seed, uniform doubles in [0, 1).
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed) {}
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return (next() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
};

inline std::string dataDir() {
  const char *d = getenv("ADBENCH_DATA");
  return d ? d : "../shared/data/adbench";
}

inline FILE *openData(const std::string &rel) {
  std::string p = dataDir() + "/" + rel;
  FILE *f = fopen(p.c_str(), "r");
  if (!f) {
    fprintf(stderr, "cannot open %s (set ADBENCH_DATA)\n", p.c_str());
    exit(2);
  }
  return f;
}

inline void readDoubles(FILE *f, double *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (fscanf(f, "%lf", &v[i]) != 1) {
      fprintf(stderr, "short input file\n");
      exit(2);
    }
}

static volatile double sink;

// Milliseconds per call of `body`: the best of 3 batches, each repeating the
// call until it has run for at least 20 ms.
inline double timeMs(const std::function<void()> &body) {
  double t0 = now();
  body();
  double one = now() - t0;
  long reps = one > 0.02 ? 1 : (long)(0.02 / std::max(one, 1e-7)) + 1;
  double best = one;
  for (int b = 0; b < 3; b++) {
    t0 = now();
    for (long r = 0; r < reps; r++)
      body();
    best = std::min(best, (now() - t0) / reps);
  }
  return best * 1e3;
}

// Largest error of `got` against `ref`, each relative to max(|ref_i|, the
// reference's largest magnitude times 1e-3), so tiny entries of a large
// gradient are compared on the gradient's scale.
inline double maxRelErr(const std::vector<double> &got,
                        const std::vector<double> &ref) {
  if (got.size() != ref.size())
    return INFINITY;
  double scale = 0;
  for (double r : ref)
    scale = std::max(scale, std::fabs(r));
  double worst = 0;
  for (size_t i = 0; i < ref.size(); i++) {
    double den = std::max(std::fabs(ref[i]), 1e-3 * scale);
    double e = std::fabs(got[i] - ref[i]) / (den > 0 ? den : 1);
    if (!(e <= worst)) // also catches NaN
      worst = std::isnan(e) ? INFINITY : e;
  }
  return worst;
}

struct Args {
  std::string size = "small";
  bool once = false, dump = false;
  Args(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
      if (!strcmp(argv[i], "--once"))
        once = true;
      else if (!strcmp(argv[i], "--dump"))
        once = dump = true;
      else
        size = argv[i];
    }
    if (size != "small" && size != "medium" && size != "large") {
      fprintf(stderr, "size must be small, medium or large\n");
      exit(2);
    }
  }
  int pick(int s, int m, int l) const {
    return size == "small" ? s : size == "medium" ? m : l;
  }
  const char *pick(const char *s, const char *m, const char *l) const {
    return size == "small" ? s : size == "medium" ? m : l;
  }
};

// Central finite differences of `f` at `x` on up to `samples` coordinates;
// returns the largest error of `grad` on those coordinates (for the
// hand-written derivative's own check).
inline double fdCheck(std::vector<double> &x, const std::function<double()> &f,
                      const std::vector<double> &grad, int samples = 12) {
  double worst = 0, scale = 0;
  for (double g : grad)
    scale = std::max(scale, std::fabs(g));
  size_t step = std::max<size_t>(1, x.size() / samples);
  for (size_t i = 0; i < x.size(); i += step) {
    double old = x[i], h = 1e-5 * std::max(1.0, std::fabs(old));
    x[i] = old + h;
    double fp = f();
    x[i] = old - h;
    double fm = f();
    x[i] = old;
    double fd = (fp - fm) / (2 * h);
    double den = std::max({std::fabs(fd), 1e-3 * scale, 1e-12});
    worst = std::max(worst, std::fabs(fd - grad[i]) / den);
  }
  return worst;
}

// The result line. tape < 0: not known for this tool.
inline int report(const char *problem, const Args &a, double primalMs,
                  double derivMs, long long tape, double err, double tol) {
  bool ok = err <= tol;
  char tb[32] = "-";
  if (tape >= 0)
    snprintf(tb, sizeof tb, "%lld", tape);
  printf("RESULT problem=%s size=%s tool=%s primal_ms=%.5g deriv_ms=%.5g "
         "tape_bytes=%s check=%s maxerr=%.3g\n",
         problem, a.size.c_str(), TOOL_NAME, primalMs, derivMs, tb,
         ok ? "OK" : "FAIL", err);
  return ok ? 0 : 1;
}

// Runs the benchmark: `primal` once per call, `deriv` computing the tool's
// derivative into `got`; `ref` is the hand-written derivative; `fdErr`
// (hand tool only) the hand-written derivative's finite-difference error.
// `tapeBytes` measures the tape of one derivative call where known.
struct Runner {
  const char *problem;
  const Args &args;
  double tol = 1e-8;
  double fdTol = 1e-4;
  Runner(const char *p, const Args &a) : problem(p), args(a) {}

  int run(const std::function<void()> &primal,
          const std::function<void()> &deriv, const std::vector<double> &got,
          const std::function<std::vector<double>()> &ref,
          const std::function<double()> &fdErr,
          const std::function<long long()> &tapeBytes = nullptr) {
    double pt = 0, dt = 0;
    deriv();
    long long tape = -1;
#if defined(TOOL_TAPESTRY)
    if (tapestry_tape_reset_high_water && getenv("BENCH_TAPE_STATS")) {
      tapestry_tape_reset_high_water();
      deriv();
      tape = (long long)tapestry_tape_high_water();
    }
#endif
    if (tapeBytes)
      tape = tapeBytes();
    std::vector<double> mine = got;
    if (args.dump)
      for (double v : mine)
        printf("%a\n", v);
    if (!args.once) {
      pt = timeMs(primal);
      dt = timeMs(deriv);
    }
#if defined(TOOL_HAND)
    double err = fdErr();
    return report(problem, args, pt, dt, tape, err, fdTol);
#else
    (void)fdErr;
    double err = maxRelErr(mine, ref());
    return report(problem, args, pt, dt, tape, err, tol);
#endif
  }
};

} // namespace bench

#endif
