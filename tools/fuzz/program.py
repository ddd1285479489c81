"""Assembles a whole test program: helpers, f, its check twins and main().

`generate(seed, features)` returns a `Program` with the C source and the
metadata the oracle needs.  The program prints machine-readable lines:

    PRIMAL v        f at the sample point (the plugin's user function)
    PRIMAL_CHK v    instrumented double twin (must equal PRIMAL)
    PRIMAL_LD v     long double twin
    MARGIN m        smallest relative branch/kink margin at the sample point
    MARGIN_SORT m   smallest relative gap between sorted neighbours (sort)
    ABSMAX m        largest magnitude stored to a variable (conditioning scale)
    PATHOK 0|1      every finite-difference point took the same branches
    FD k v          central difference in double, direction k
    FDL k v         5-point difference in long double, direction k (step h/4)
    FDLERR k e      |FDL with step h - FDL with step h/4|, its error estimate
    REV k v         reverse-mode adjoint of direction k (if active)
    FWD k v         forward-mode tangent along direction k (if active)
    BFWD k v        the same from one batched forward call (feature batch)
    BREV k v        reverse-mode adjoint of direction k from a batched
                    reverse call of width 2, lane 0; BREV1 lane 1
    DONE

With the `split` feature, split-mode lines (SPRIMAL, SREV k, ...) come
before the checks; see split.py.

Directions are the floating-point scalar parameters in order, then the
elements of each array parameter.  With -DTAP_NO_AD the AD calls are
compiled out, so the generator can be validated without the plugin.
"""

import random

from cast import (STRUCTS, Assign, Bin, Copy, Decl, Dialect, FnTable, FuncDef, HelperCall, If,
                  IndirectCall, IntCmp, Param, Return, Sort, StructLit, Var, render_structs,
                  uses_float, walk)
from choices import Chooser
from grammar import (ARR_IV, HELPER_IV, NMAX, FnSlot, FuncBuilder, Helper, Names,
                     VarInfo)
from interval import Iv
import omp
from split import SplitConfig, render_split

DEFAULT_FEATURES = ("scalar", "branches", "floats", "api")
ALL_FEATURES = ("scalar", "branches", "floats", "api", "loops", "arrays", "calls",
                "recursion", "structs", "malloc", "split")
# opt-in only, not part of "all": constmem is misuse that the plugin must
# diagnose; batch adds batched (enzyme_width) forward and reverse checks;
# constptr stores the arrays' pointers (enzyme_const or dup, as drawn) in a
# table and reads through it (runtime activity)
# vectorize, realloc, sort, fnptr (function tables indexed at run time,
# callbacks) and byval (structs passed to and returned from helpers by
# value) are the issue 14 shapes
# tape (issue 17) adds the shapes split mode must replay: local arrays
# filled by memcpy, runtime trip counts in (nested) loops, noinline callees
# omp (issue 15) puts `#pragma omp parallel for` on f's loops whose
# iterations are independent or reduce (omp.py)
# intarrays keeps integers on the heap beside the math: index arrays (int,
# unsigned char, grown by realloc) read as array subscripts, and doubles
# copied through a byte buffer and back (Analysis/PlainHeapBlocks.h: blocks
# of integers get no shadow, blocks that may hold a double's bits do)
EXTRA_FEATURES = ("constmem", "batch", "constptr", "vectorize", "realloc", "sort", "fnptr",
                  "byval", "tape", "omp", "intarrays")
ISSUE14 = ("realloc", "sort", "vectorize", "fnptr", "byval", "omp")
BOX = Iv(-2.5, 2.5)   # interval of scalar parameters; samples are in [-2, 2]

PRELUDE = r"""
/* ---- instrumentation used only by the _chk and _ld twins ---- */
static double tap_margin = 1e300, tap_margin_sort = 1e300, tap_absmax = 0;
static unsigned long long tap_path = 14695981039346656037ULL;
static void tap_reset(void) {
  tap_margin = tap_margin_sort = 1e300; tap_absmax = 0;
  tap_path = 14695981039346656037ULL;
}
/* TAP_IDENT: an exact tie goes on the path as a tie of its own instead of
   a zero margin. A tie that is an identity (fmin(p, t) with t = p, say)
   stays a tie at every finite-difference point, so the path agrees and the
   program is judged; the two sides' gradients are equal there. A tie that
   is a coincidence (x0 + x1 == -3.75) is not one at the neighbouring
   points: another path, nonsmooth. */
static void tap_note(int r, long double a, long double b) {
  long double m = fabsl(a - b) / (1.0L + fabsl(a) + fabsl(b));
  if (TAP_IDENT && a == b)
    r = 2;
  else if (m < tap_margin)
    tap_margin = (double)m;
  tap_path = (tap_path ^ (unsigned long long)(r + 1)) * 1099511628211ULL;
}
static int tap_gt(long double a, long double b) { int r = a > b; tap_note(r, a, b); return r; }
static int tap_lt(long double a, long double b) { int r = a < b; tap_note(r, a, b); return r; }
static int tap_ge(long double a, long double b) { int r = a >= b; tap_note(r, a, b); return r; }
static int tap_le(long double a, long double b) { int r = a <= b; tap_note(r, a, b); return r; }
#define TAP_DEFS(T, S)                                                        \
  static T tap_trk##S(T v) {                                                  \
    if (fabsl((long double)v) > tap_absmax) tap_absmax = fabsl((long double)v); \
    return v; }                                                               \
  static T tap_fabs##S(T a) { tap_note(a > 0, a, 0); return fabs##S(a); }     \
  static T tap_fmin##S(T a, T b) { tap_note(a < b, a, b); return fmin##S(a, b); } \
  static T tap_fmax##S(T a, T b) { tap_note(a > b, a, b); return fmax##S(a, b); } \
  static T tap_copysign##S(T a, T b) {                                        \
    tap_note(a > 0, a, 0); tap_note(b > 0, b, 0); return copysign##S(a, b); }
TAP_DEFS(double, )
TAP_DEFS(float, f)
TAP_DEFS(long double, l)
"""

# feature sort: the comparators (double, and long double for the _ld twin),
# the permutation a sort applies (every element's rank, hashed into the path
# before the sort, so a finite-difference point that reorders the array
# takes another path) and the margin of a sorted array (its smallest gap
# between neighbours, kept apart as MARGIN_SORT: with the permutation on the
# path it needs only to stay clear of rounding, see oracle.py)
SORT_PRELUDE = r"""
static int tap_cmp0(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
static int tap_cmp1(const void *a, const void *b) {
  if (*(const double *)a < *(const double *)b) return -1;
  return *(const double *)a > *(const double *)b;
}
static int tap_cmp2(const void *a, const void *b) {   /* descending */
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? 1 : x > y ? -1 : 0;
}
static int tap_cmp0_ld(const void *a, const void *b) {
  long double x = *(const long double *)a, y = *(const long double *)b;
  return (x > y) - (x < y);
}
static int tap_cmp1_ld(const void *a, const void *b) { return tap_cmp0_ld(a, b); }
static int tap_cmp2_ld(const void *a, const void *b) { return tap_cmp0_ld(b, a); }
#define TAP_SORT_DEFS(T, S)                                                   \
  static void tap_ranks##S(const T *c, int n) {                               \
    for (int i = 0; i < n; i++) {                                             \
      int r = 0;                                                              \
      for (int j = 0; j < n; j++) r += c[j] < c[i];                           \
      tap_path = (tap_path ^ (unsigned long long)(r + 1)) * 1099511628211ULL; \
    } }                                                                       \
  static void tap_sorted##S(const T *c, int n) {                              \
    for (int i = 0; i + 1 < n; i++) {                                         \
      long double a = c[i], b = c[i + 1];                                     \
      long double m = fabsl(a - b) / (1.0L + fabsl(a) + fabsl(b));            \
      if (m < tap_margin_sort) tap_margin_sort = (double)m;                   \
    } }
TAP_SORT_DEFS(double, )
TAP_SORT_DEFS(long double, l)
"""

CHECKS = r"""
/* ---- finite differences and smoothness checks (program independent) ---- */
static unsigned long long tap_path0;
static int tap_pathok = 1;
static double tap_at_d(const double *v, int k, double x) {
  double w[ND]; memcpy(w, v, sizeof w); w[k] = x;
  tap_reset(); double r = tap_eval_d(w);
  if (!HAS_FLOAT && tap_path != tap_path0) tap_pathok = 0;
  return r;
}
static long double tap_at_ld(const long double *v, int k, long double x) {
  long double w[ND]; memcpy(w, v, sizeof w); w[k] = x;
  tap_reset(); long double r = tap_eval_ld(w);
  if (tap_path != tap_path0) tap_pathok = 0;
  return r;
}
/* 5-point central difference; comparing steps h and h/4 estimates its error
   (truncation dominates for fast-oscillating functions). Steps go down by 4
   from 1e-5 to 1e-5/4^5 and the best-converged pair (the two neighbouring
   estimates closest together) is the reference: a function oscillating fast
   at the point (seed 4795: estimates -18, -253, 843, -352, -438.50,
   -438.658, -438.6585) needs a finer step than 1e-5/4. */
static long double tap_fd5(const long double *vl, int k, long double hl) {
  return (8 * (tap_at_ld(vl, k, vl[k] + hl) - tap_at_ld(vl, k, vl[k] - hl))
          - (tap_at_ld(vl, k, vl[k] + 2 * hl) - tap_at_ld(vl, k, vl[k] - 2 * hl))) / (12 * hl);
}
static void tap_checks(const double *v) {
  long double vl[ND];
  for (int k = 0; k < ND; k++) vl[k] = v[k];
  tap_reset();
  double p = tap_eval_d(v);
  tap_path0 = tap_path;
  printf("PRIMAL_CHK %.17g\nMARGIN %.6g\nMARGIN_SORT %.6g\nABSMAX %.6g\n", p, tap_margin,
         tap_margin_sort, tap_absmax);
  tap_reset();
  long double pl = tap_eval_ld(vl);
  if (tap_path != tap_path0) tap_pathok = 0;
  printf("PRIMAL_LD %.21Lg\n", pl);
  for (int k = 0; k < ND; k++) {
    double h = 1e-6 * fmax(1.0, fabs(v[k]));
    double xp = v[k] + h, xm = v[k] - h;
    double fd = (tap_at_d(v, k, xp) - tap_at_d(v, k, xm)) / (xp - xm);
    long double hl = 1e-5L * fmaxl(1.0L, fabsl(vl[k]));
    long double prev = tap_fd5(vl, k, hl), fine = 0, err = -1;
    for (int j = 1; j <= 5; j++) {
      hl /= 4;
      long double est = tap_fd5(vl, k, hl);
      if (err < 0 || fabsl(est - prev) < err) { fine = est; err = fabsl(est - prev); }
      prev = est;
    }
    printf("FD %d %.17g\nFDL %d %.21Lg\nFDLERR %d %.6Lg\n", k, fd, k, fine, k, err);
  }
  printf("PATHOK %d\n", tap_pathok);
}
"""


class Program:
    """A generated program: C source plus what the oracle needs to know."""

    def __init__(self, source, meta, choices, parts=None):
        self.source, self.meta, self.choices = source, meta, choices
        self.parts = parts   # the AST and settings it was rendered from


# ------------------------------------------------------------------ generation

def _sample(ch, used):
    """A fresh sample value in [-2, 2], exactly representable in float.

    Values are kept distinct (ties like fmin(x0, x1) at x0 == x1 would make
    the program non-smooth) and away from 0 (kinks of fabs/copysign).  They
    are also kept off the 1/16 grid of the literals (a sample equal to a
    literal ties fmin(-0.375, a[i])) and distinct in magnitude (x0 == -x1
    ties x0*x0 with x1*x1, and sorted copies of squares), as long as such
    values are left; then only distinct."""
    k0 = ch.between(0, 256) - 128
    order = [(k0 + 128 + d) % 257 - 128 for d in range(257)]   # k0 .. 128, -128 ..
    for good in (lambda k: k % 4 != 0 and -k not in used, lambda k: True):
        k = next((k for k in order if k != 0 and k not in used and good(k)), None)
        if k is not None:
            break
    used.add(k)
    return k / 64


def gen_helpers(ch, feats, names, arrlen, struct_vty, veclib=False):
    """Zero to two helper functions that f (and later helpers) may call."""
    helpers = []
    if "calls" not in feats:
        return helpers
    for _ in range(ch.between(1, 2)):
        kinds = [(3, "scalar")]
        if "arrays" in feats:
            kinds.append((2, "array"))
        if "recursion" in feats:
            kinds.append((2, "recursive"))
        kind = ch.weighted(kinds)
        name = names.fresh("h")
        maker = gen_recursive if kind == "recursive" else gen_helper
        helpers.append(maker(ch, feats, names, name, helpers, arrlen, struct_vty,
                             kind == "array", veclib))
    return helpers


def _helper_quals(ch, feats=()):
    return {"static": not ch.chance(30), "noinline": ch.chance(70 if "tape" in feats else 40)}


def gen_helper(ch, feats, names, name, earlier, arrlen, struct_vty, with_array,
               veclib=False, kinds=None, ret_ty=None, callback=None):
    """A helper; `kinds`/`ret_ty` fix its signature (function tables and
    by-value structs), `callback` (an FnSlot) adds a function-pointer
    parameter that its body calls at least once."""
    if ret_ty is None:
        ret_ty = "f" if "floats" in feats and ch.chance(20) else "d"
    fb = FuncBuilder(ch, feats, names, ret_ty, earlier, arrlen, None, struct_vty)
    fb.veclib = veclib

    params = []
    if kinds is None:
        kinds = (["arr"] if with_array else []) + [fb.fp_type(25) for _ in range(ch.between(1, 3))]
    if callback is not None:
        params.append(Param(callback.name, "fn", sig=callback.sig))
        fb.fnparams = [callback]
    for kind in kinds:
        if kind == "arr":
            p = Param(names.fresh("q"), "arr", arrlen)
            fb.declare(p.name, VarInfo("arr", "d", ARR_IV, arrlen))
        elif kind in STRUCTS:
            p = Param(names.fresh("w"), kind)
            fb.declare(p.name, VarInfo("struct", kind))
            for f, t in STRUCTS[kind]:
                if t == "d":
                    fb.declare("%s.%s" % (p.name, f), VarInfo("fp", "d", HELPER_IV))
                else:
                    fb.loopvars.append(("%s.%s" % (p.name, f), NMAX))   # an int in [0, NMAX]
        else:
            p = Param(names.fresh("p"), kind)
            fb.declare(p.name, VarInfo("fp", p.kind, HELPER_IV))
        params.append(p)
    body = fb.block(ch.between(1, 3), 1)
    must = []
    if callback is not None:
        t = names.fresh("t")
        e = fb.tame(fb.icall(ch.between(1, 2)))
        fb.declare(t, VarInfo("fp", "d", e.iv))
        body.append(Decl("d", t, e))
        must.append(Var(t, "d", e.iv))
    body.append(fb.make_return(must))
    ret_iv = fb.returns[0]
    for iv in fb.returns[1:]:
        ret_iv = ret_iv.union(iv)
    func = FuncDef(name, ret_ty, params, body, **_helper_quals(ch, feats))
    if "omp" in feats:
        # a helper's own parallel loops; called inside one of f's, its
        # region is nested (and runs on one thread unless nesting is on)
        omp.mark(body, ch, omp.array_names(body, params), arrlen)
    return Helper(name, params, ret_ty, ret_iv, func)


def gen_recursive(ch, feats, names, name, earlier, arrlen, struct_vty, _, veclib=False):
    """A linearly recursive helper, bounded by an int depth argument:

        double r(double v, int d) {
          if (d <= 0) return e0(v);
          double t = r(e1(v), d - 1);
          return fit(t OP e2(v, t));
        }
    """
    if "byval" in feats and ch.chance(50):
        return gen_recursive_struct(ch, feats, names, name, earlier, arrlen, struct_vty)
    fb = FuncBuilder(ch, feats - {"loops"}, names, "d", earlier, arrlen, None, struct_vty)
    v, depth = Param(names.fresh("p"), "d"), Param(names.fresh("r"), "i")
    fb.declare(v.name, VarInfo("fp", "d", HELPER_IV))
    lo, hi = HELPER_IV.lo, HELPER_IV.hi
    base = fb.fit(fb.expr(ch.between(1, 2)), lo, hi)
    arg = fb.fit(fb.expr(ch.between(1, 2)), lo, hi)
    t = names.fresh("t")
    call = HelperCall(name, [arg, "%s - 1" % depth.name], "d", HELPER_IV)
    fb.declare(t, VarInfo("fp", "d", HELPER_IV))
    tail, tv = fb.expr(ch.between(1, 2)), Var(t, "d", HELPER_IV)
    op = ch.pick(["+", "*", "-"])
    iv = {"+": tv.iv + tail.iv, "*": tv.iv * tail.iv, "-": tv.iv - tail.iv}[op]
    comb = fb.fit(Bin(op, tv, tail, iv), lo, hi)
    body = [If(IntCmp("%s <= 0" % depth.name), [Return(base, "d")], []),
            Decl("d", t, call), Return(comb, "d")]
    func = FuncDef(name, "d", [v, depth], body, **_helper_quals(ch, feats))
    return Helper(name, [v, depth], "d", HELPER_IV, func)


def gen_recursive_struct(ch, feats, names, name, earlier, arrlen, struct_vty):
    """Feature byval: a linearly recursive helper returning one of
    cast.STRUCTS by value, so that the call that stays a call returns
    {double, double} (V2), {double, int} (DI) or a struct in memory (V3):

        struct DI r(double v, int d) {
          if (d <= 0) return (struct DI){ e0(v), 2 };
          struct DI t = r(e1(v), d - 1);
          return (struct DI){ fit(t.d OP e2(v, t.d)), t.n % 3 + 1 };
        }
    """
    sty = ch.pick(sorted(STRUCTS))
    fb = FuncBuilder(ch, feats - {"loops"}, names, sty, earlier, arrlen, None, struct_vty)
    v, depth = Param(names.fresh("p"), "d"), Param(names.fresh("r"), "i")
    fb.declare(v.name, VarInfo("fp", "d", HELPER_IV))
    lo, hi = HELPER_IV.lo, HELPER_IV.hi
    base = []
    for _, ty in STRUCTS[sty]:
        base.append(str(ch.between(1, 3)) if ty == "i"
                    else fb.fit(fb.expr(ch.between(1, 2)), lo, hi))
    arg = fb.fit(fb.expr(ch.between(1, 2)), lo, hi)
    t = names.fresh("t")
    call = HelperCall(name, [arg, "%s - 1" % depth.name], sty, None)
    fields = []
    for f, ty in STRUCTS[sty]:
        member = "%s.%s" % (t, f)
        if ty == "i":
            fields.append("%s %% 3 + 1" % member)
            continue
        fb.declare(member, VarInfo("fp", "d", HELPER_IV))
        tail, tv = fb.expr(ch.between(1, 2)), Var(member, "d", HELPER_IV)
        op = ch.pick(["+", "*", "-"])
        iv = {"+": tv.iv + tail.iv, "*": tv.iv * tail.iv, "-": tv.iv - tail.iv}[op]
        fields.append(fb.fit(Bin(op, tv, tail, iv), lo, hi))
    body = [If(IntCmp("%s <= 0" % depth.name), [Return(StructLit(sty, base), sty)], []),
            Decl(sty, t, call), Return(StructLit(sty, fields), sty)]
    func = FuncDef(name, sty, [v, depth], body, **_helper_quals(ch, feats))
    return Helper(name, [v, depth], sty, HELPER_IV, func)


def gen_fnptr(ch, feats, names, arrlen, struct_vty, earlier, veclib=False):
    """Feature fnptr: a file-scope table of 2-3 helpers of one signature
    (doubles, or an array and a double), and a helper taking a callback of
    that signature as a function-pointer parameter.  Returns (helpers,
    table definition, table slot)."""
    # one-parameter helpers tie more often (fmin(p, fmax(p, c))): fewer of them
    sigs = [(1, ("d", ("d",))), (3, ("d", ("d", "d")))]
    if "arrays" in feats:
        sigs.append((3, ("d", ("arr", "d"))))
    sig = ch.weighted(sigs)
    members = []
    for _ in range(ch.between(2, 3)):
        members.append(gen_helper(ch, feats, names, names.fresh("h"), earlier, arrlen,
                                  struct_vty, False, veclib, kinds=list(sig[1]), ret_ty="d"))
    iv = members[0].ret_iv
    for h in members[1:]:
        iv = iv.union(h.ret_iv)
    tab = names.fresh("tab")
    # a writable table only when static: one other files may write is
    # beyond the plugin's view (it dispatches over every escaped function)
    static = not ch.chance(30)
    table = FnTable(tab, sig, [h.name for h in members],
                    const=not static or not ch.chance(30), static=static)
    slot = FnSlot(tab, sig, iv, len(members))
    slot.members = [h.name for h in members]
    cb = FnSlot(names.fresh("cb"), sig, iv)
    cb.members = slot.members
    kinds = (["arr"] if "arr" in sig[1] else []) + ["d"] * ch.between(1, 2)
    apply = gen_helper(ch, feats, names, names.fresh("h"), earlier + members, arrlen,
                       struct_vty, False, veclib, kinds=kinds, ret_ty="d", callback=cb)
    apply.params[0].slot = slot
    return members, table, apply, slot


def gen_byval(ch, feats, names, arrlen, struct_vty, earlier, veclib=False):
    """Feature byval: 2-3 helpers taking and/or returning the structs of
    cast.STRUCTS by value (V2 {double a, b}, V3 {double x, y, z}, DI
    {double d; int n}), with 0-2 double parameters beside them."""
    out = []
    stys = sorted(STRUCTS)
    for _ in range(ch.between(2, 3)):
        kinds = [ch.pick(stys) for _ in range(ch.between(0, 2))]
        for _ in range(ch.between(0 if kinds else 1, 2)):
            kinds.insert(ch.below(len(kinds) + 1), "d")
        ret = ch.pick(["d"] + stys) if kinds and any(k in STRUCTS for k in kinds) else ch.pick(stys)
        out.append(gen_helper(ch, feats, names, names.fresh("h"), earlier + out, arrlen,
                              struct_vty, False, veclib, kinds=kinds, ret_ty=ret))
    return out


def gen_params(ch, feats, arrlen):
    """f's parameters: 2-4 scalars, optional arrays and a trip count."""
    params = []
    for i in range(ch.between(2, 4)):
        ty = "f" if "floats" in feats and ch.chance(25) else "d"
        params.append(Param("x%d" % i, ty))
    extras = []
    if ("arrays" in feats and ch.chance(70)) or "vectorize" in feats:
        extras.append(Param("a0", "arr", arrlen))
        if ch.chance(50 if "vectorize" in feats else 20):
            extras.append(Param("a1", "arr", arrlen))
    if "loops" in feats and ch.chance(85 if "tape" in feats else 50):
        extras.append(Param("n", "i"))
    # constant trip counts are mostly unrolled before the loop vectoriser
    # runs: vectorize draws a runtime length more often
    if {"vectorize", "realloc", "sort"} & feats and ch.chance(80 if "vectorize" in feats else 40):
        extras.append(Param("m", "i"))   # the array length at run time
    if "fnptr" in feats and ch.chance(75):
        extras.append(Param("sel", "i"))   # selects function table entries
    for p in extras:
        params.insert(ch.below(len(params) + 1), p)
    return params


class ADConfig:
    """How main() spells the AD calls: markers, activities, prototypes."""

    def __init__(self, ch, params, may_const=(), api=False):
        """may_const: arrays that may be passed enzyme_const (see stored_arrays);
        api: vary the spelling (function reference, enzyme_primal_return)."""
        has_float = any(p.kind == "f" for p in params)
        self.typed = has_float or ch.chance(20)
        self.opaque = ch.chance(50)
        self.rev = {}
        self.fwd = {}
        for p in params:
            if p.kind in ("f", "d"):
                active = not ch.chance(20)
                self.rev[p.name] = ("out" if ch.chance(50) else None) if active else "const"
                self.fwd[p.name] = "const" if ch.chance(10) else ("dup" if ch.chance(50) else None)
            elif p.kind == "arr":
                for table in (self.rev, self.fwd):
                    const = ch.chance(10) and p.name in may_const
                    table[p.name] = "const" if const else ("dup" if ch.chance(50) else None)
            else:
                self.rev[p.name] = "const" if ch.chance(50) else None
                self.fwd[p.name] = "const" if ch.chance(50) else None
        if not any(self.rev_active(p) for p in params):
            first = next(p for p in params if p.kind in ("f", "d"))
            self.rev[first.name] = "out"
        self.fnref = "(void *)f"
        self.rev_primal = self.fwd_primal = False
        if api:
            self.fnref = ch.pick(["(void *)f", "(void *)&f", "tap_fn"])
            self.rev_primal, self.fwd_primal = ch.chance(25), ch.chance(25)

    def rev_active(self, p):
        return p.kind in ("f", "d", "arr") and self.rev[p.name] != "const"

    def fwd_active(self, p):
        return self.fwd.get(p.name) != "const"


class _PointRng:
    """The draws of an alternative sample point (`generate(point=i)`): a PRNG
    of its own, outside the recorded choice stream, so that a program's
    choices (and their replay and reduction) do not depend on the point."""

    def __init__(self, seed, point):
        self._rng = random.Random("%d/%d" % (seed, point))

    def between(self, lo, hi):
        return self._rng.randint(lo, hi)


def resample(params, values, seed, point):
    """Sample point number `point` (0: `values` itself) of a program: the
    floating-point scalars and array elements drawn afresh like the first
    (`_sample`), the integer parameters (trip counts, lengths, selectors)
    kept."""
    if not point:
        return values
    rng, used, out = _PointRng(seed, point), set(), dict(values)
    for p in params:
        if p.kind == "arr":
            out[p.name] = [_sample(rng, used) for _ in values[p.name]]
        elif p.kind in ("d", "f"):
            out[p.name] = _sample(rng, used)
    return out


def generate(seed, features=DEFAULT_FEATURES, replay=None, point=0):
    """Generate the program for `seed` (or replay a recorded choice list),
    sampled at its point number `point` (see `resample`)."""
    ch = Chooser(seed, replay)
    feats = frozenset(features)
    vecflags = []
    if "vectorize" in feats:
        # how the vectorised IR is made (run_campaign.py, staged compile)
        if ch.chance(50):
            vecflags.append("-ffast-math")
        if ch.chance(40):
            vecflags.append("-fveclib=libmvec")
    if "floats" in feats and not ch.chance(40):
        feats = feats - {"floats"}   # most programs stay all-double
    names = Names()
    if "vectorize" in feats:
        arrlen = ch.between(9, 28)   # long enough for vector bodies and remainders
    elif {"arrays", "malloc", "calls", "realloc", "sort"} & feats:
        arrlen = ch.between(3, 6)
    else:
        arrlen = 4
    struct_vty = "f" if "floats" in feats and ch.chance(50) else "d"
    veclib = "-fveclib=libmvec" in vecflags
    helpers = gen_helpers(ch, feats, names, arrlen, struct_vty, veclib)
    funcs = [h.func for h in helpers]
    slots = []
    if "fnptr" in feats:
        members, table, apply, slot = gen_fnptr(ch, feats, names, arrlen, struct_vty, helpers,
                                                veclib)
        funcs += [h.func for h in members] + [table, apply.func]
        helpers += members + [apply]
        slots.append(slot)
    if "byval" in feats:
        byval = gen_byval(ch, feats, names, arrlen, struct_vty, helpers, veclib)
        funcs += [h.func for h in byval]
        helpers += byval
    params = gen_params(ch, feats, arrlen)
    nparam = "n" if any(p.name == "n" for p in params) else None
    fb = FuncBuilder(ch, feats, names, "d", helpers, arrlen, nparam, struct_vty)
    fb.veclib = veclib
    fb.mparam = "m" if any(p.name == "m" for p in params) else None
    fb.fntabs = slots
    fb.sel = "sel" if any(p.name == "sel" for p in params) else None
    fb.is_f = True
    for p in params:
        if p.kind == "arr":
            fb.declare(p.name, VarInfo("arr", "d", ARR_IV, arrlen))
        elif p.kind != "i":
            fb.declare(p.name, VarInfo("fp", p.kind, BOX))
    if set(ISSUE14) & feats:
        body = fb.block(ch.between(0, 2), 0)
        # at least one of each issue 14 shape asked for
        for feat, make in (("realloc", fb.stmt_grow), ("sort", fb.stmt_sort),
                           ("vectorize", fb.stmt_vloop), ("fnptr", fb.stmt_fncall),
                           ("byval", fb.stmt_byval), ("omp", fb.stmt_ploop)):
            if feat in feats:
                body += make(0)
        body += fb.block(ch.between(1, 4), 0)
    else:
        body = fb.block(ch.between(2, 6), 0)   # as before: seeds keep their programs
    body.append(fb.make_return())
    f = FuncDef("f", "d", params, body, static=ch.chance(15), noinline=ch.chance(20))
    if "omp" in feats:
        omp.mark(body, ch, omp.array_names(body, params), arrlen, nparam=nparam,
                 stack=omp.stack_arrays(body))
    used = set()
    values = {p.name: ([_sample(ch, used) for _ in range(arrlen)] if p.kind == "arr"
                       else arrlen if p.name == "m"
                       else ch.between(1, NMAX) if p.kind == "i" else _sample(ch, used))
              for p in params}
    values = resample(params, values, seed, point)
    arrays = {p.name for p in params if p.kind == "arr"}
    may_const = arrays if "constmem" in feats else arrays - stored_arrays(f)
    ad = ADConfig(ch, params, may_const, "api" in feats)
    # drawn last: without 'split' every other decision is the same
    split = SplitConfig(ch) if "split" in feats else None
    meta = build_meta(seed, feats, params, values, ad, arrlen)
    meta["vecflags"] = vecflags
    meta["point"] = point
    if split:
        meta["split"] = split.meta()
    parts = dict(seed=seed, feats=feats, funcs=funcs + [f], arrlen=arrlen,
                 params=params, values=values, ad=ad, struct_vty=struct_vty,
                 split=split, meta=meta)
    return render_parts(parts, list(ch.record))


def render_parts(parts, choices=()):
    """Program from its parts (generate's result, or an AST-reduced copy)."""
    if "omp" in parts["feats"]:
        # an AST-reduced copy: keep only the pragmas still race-free
        for fn in parts["funcs"]:
            if isinstance(fn, FuncDef):
                omp.check(fn.body, omp.array_names(fn.body, fn.params), parts["arrlen"],
                          omp.stack_arrays(fn.body))
    meta = dict(parts["meta"], has_float=uses_float(parts["funcs"]))
    source = render_program(dict(parts, meta=meta))
    return Program(source, meta, list(choices), parts)


def stored_arrays(func):
    """Array names that func may write: stored to directly, or passed to a
    helper (conservatively assumed to write through its pointer).

    Passing such an array enzyme_const is a misuse (active values would be
    stored to memory without a shadow), so it is only generated under the
    'constmem' feature, which tests that the plugin diagnoses it."""
    out = set()
    for n in walk(func.body):
        if isinstance(n, Assign) and "[" in n.target:
            out.add(n.target.split("[")[0])
        elif isinstance(n, Sort):
            out.add(n.array)
        elif isinstance(n, Copy):
            out.add(n.dst)
        elif isinstance(n, (HelperCall, IndirectCall)):
            out.update(a for a in n.args if isinstance(a, str))
    return out


# ------------------------------------------------------------------ rendering

def build_meta(seed, feats, params, values, ad, arrlen):
    dirs = []
    for p in params:
        if p.kind in ("f", "d"):
            dirs.append({"label": p.name, "param": p.name, "ty": p.kind,
                         "rev": ad.rev_active(p), "fwd": ad.fwd_active(p)})
    for p in params:
        if p.kind == "arr":
            for j in range(arrlen):
                dirs.append({"label": "%s[%d]" % (p.name, j), "param": p.name,
                             "elem": j, "ty": "d", "rev": ad.rev_active(p),
                             "fwd": ad.fwd_active(p)})
    return {"seed": seed, "features": sorted(feats), "dirs": dirs, "values": values}


def render_program(parts, probe=None):
    seed, feats, funcs = parts["seed"], parts["feats"], parts["funcs"]
    params, values, ad, meta = parts["params"], parts["values"], parts["ad"], parts["meta"]
    plain, chk, ld = Dialect("plain"), Dialect("chk"), Dialect("ld")
    out = ["/* Tapestry fuzz program: seed %s, features %s */\n" % (seed, ",".join(sorted(feats))),
           "#include <math.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n",
           "extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed,"
           " enzyme_primal_return;\n"]
    if "batch" in feats:
        out.append("extern int enzyme_width;\n")
    if "structs" in feats:
        out.append("struct TapPair { double u; %s v; };\n" % plain.ty(parts["struct_vty"]))
        out.append("struct TapPair_ld { long double u; long double v; };\n")
    # exact ties as identities (PRELUDE) only where f and its twins compute
    # alike to the last bit: no -ffast-math or libmvec (float programs do:
    # their twin f_chk has the same float arithmetic, and the long double
    # twin's path is checked at every finite-difference point)
    ident = not meta.get("vecflags")
    out.append("#define TAP_IDENT %d\n" % ident)
    out.append(PRELUDE)
    if "sort" in feats:
        out.append(SORT_PRELUDE)
    if "byval" in feats:
        out.append(render_structs())
    for d in (chk, ld) if probe else (plain, chk, ld):
        out.append("\n/* ---- %s ---- */\n" % d.mode)
        out.extend(fn.render(d) for fn in funcs)
    out.append(render_evals(params, meta))
    out.append("#define ND %d\n#define HAS_FLOAT %d\n" % (len(meta["dirs"]), meta["has_float"]))
    out.append(CHECKS)
    if probe:
        out.append(render_probe_main(params, probe, meta))
    else:
        out.append(render_main(params, values, ad, meta, parts.get("split")))
    return "".join(out)


# The probe (run_campaign.py): the twins alone, evaluated at candidate
# sample points in order until one is smooth there: branch margin at least
# `limit`, the long double twin on the same path, and the same path at the
# outermost points of both finite-difference stencils of every direction.
PROBE_MAIN = r"""
int main(void) {
  for (int c = 0; c < NC; c++) {
    const double *v = TAP_CAND[c];
    long double vl[ND];
    for (int k = 0; k < ND; k++) vl[k] = v[k];
    tap_reset();
    tap_eval_d(v);
    tap_path0 = tap_path;
    double m = tap_margin, ms = tap_margin_sort;
    int smooth = m >= TAP_LIMIT && ms >= TAP_LIMIT_SORT;
    tap_pathok = 1;
    tap_reset();
    tap_eval_ld(vl);
    if (tap_path != tap_path0) tap_pathok = 0;
    for (int k = 0; k < ND && tap_pathok && smooth; k++) {
      double h = 1e-6 * fmax(1.0, fabs(v[k]));
      tap_at_d(v, k, v[k] + h);
      tap_at_d(v, k, v[k] - h);
      long double hl = 2e-5L * fmaxl(1.0L, fabsl(vl[k]));
      tap_at_ld(vl, k, vl[k] + hl);
      tap_at_ld(vl, k, vl[k] - hl);
    }
    printf("CAND %d %.6g %.6g %d\n", c, m, ms, tap_pathok);
    if (tap_pathok && smooth) break;
  }
  return 0;
}
"""


def render_probe_main(params, probe, meta):
    """main() of the probe: `probe` is (limits, candidate value dicts), the
    limits being the margins (branches, sorted neighbours) it asks for."""
    (limit, limit_sort), candidates = probe
    rows = []
    for values in candidates:
        flat = [values[d["param"]] if "elem" not in d else values[d["param"]][d["elem"]]
                for d in meta["dirs"]]
        rows.append("  {%s}" % ", ".join(repr(x) for x in flat))
    return ("\n#define NC %d\n#define TAP_LIMIT %r\n#define TAP_LIMIT_SORT %r\n"
            % (len(candidates), limit, limit_sort)
            + "static const double TAP_CAND[NC][ND] = {\n%s};\n" % ",\n".join(rows)
            + PROBE_MAIN)


def render_probe(prog, count, limits):
    """C source of the probe of a generated program over its sample points
    0 .. count-1 (see `resample`); it prints `CAND c margin margin_sort
    pathok` for each point it tried, and stops at the first smooth one
    (`limits`: the margins it asks for)."""
    parts, meta = prog.parts, prog.meta
    cands = [resample(parts["params"], parts["values"], meta["seed"], c)
             if c else parts["values"] for c in range(count)]
    return render_program(dict(parts, meta=meta), probe=(limits, cands))


def _dir_index(meta):
    """(param, elem) -> direction index."""
    return {(d["param"], d.get("elem")): k for k, d in enumerate(meta["dirs"])}


def render_evals(params, meta):
    """tap_eval_d / tap_eval_ld: call the twins on a direction vector."""
    idx = _dir_index(meta)
    out = []
    for fp, name, suffix in (("double", "tap_eval_d", "_chk"), ("long double", "tap_eval_ld", "_ld")):
        lines = ["static %s %s(const %s *v) {\n" % (fp, name, fp)]
        args = []
        for p in params:
            if p.kind == "arr":
                lines.append("  %s %s[%d];\n" % (fp, p.name, p.length))
                for j in range(p.length):
                    lines.append("  %s[%d] = v[%d];\n" % (p.name, j, idx[(p.name, j)]))
                args.append(p.name)
            elif p.kind == "i":
                args.append(str(meta["values"][p.name]))
            else:
                args.append("v[%d]" % idx[(p.name, None)])
        lines.append("  return f%s(%s);\n}\n" % (suffix, ", ".join(args)))
        out.append("".join(lines))
    return "\n" + "\n".join(out)


def _ctype(t):
    return {"f": "float", "d": "double", "i": "int", "arr": "double *"}[t]


def render_main(params, values, ad, meta, split=None):
    idx = _dir_index(meta)
    nd = len(meta["dirs"])
    flat = [0.0] * nd
    for (pname, elem), k in idx.items():
        flat[k] = values[pname] if elem is None else values[pname][elem]
    lines = ["\nint main(void) {\n",
             "  static const double V[ND] = {%s};\n" % ", ".join(repr(x) for x in flat)]
    if ad.opaque:
        lines.append("  static volatile double VV[ND] = {%s};\n" % ", ".join(repr(x) for x in flat))
        lines.append("  double X[ND];\n  for (int k = 0; k < ND; k++) X[k] = VV[k];\n")

    def scalar(p):
        k = idx[(p.name, None)]
        return "X[%d]" % k if ad.opaque else repr(flat[k])

    def fresh_arrays(tag):
        code = []
        for p in params:
            if p.kind == "arr":
                k0 = idx[(p.name, 0)]
                code.append("    double %s_%s[%d], d%s_%s[%d];\n" % (p.name, tag, p.length, p.name, tag, p.length))
                code.append("    memcpy(%s_%s, V + %d, sizeof %s_%s);\n" % (p.name, tag, k0, p.name, tag))
                code.append("    memset(d%s_%s, 0, sizeof d%s_%s);\n" % (p.name, tag, p.name, tag))
        return code

    # primal
    lines.append("  {\n")
    lines.extend(fresh_arrays("p"))
    args = [("%s_p" % p.name) if p.kind == "arr" else str(values[p.name]) if p.kind == "i"
            else scalar(p) for p in params]
    lines.append('    printf("PRIMAL %%.17g\\n", f(%s));\n  }\n' % ", ".join(args))
    rev_decls, rev_code = render_rev(params, values, ad, idx, scalar, fresh_arrays)
    fwd_decls, fwd_code = render_fwd(params, values, ad, idx, scalar, fresh_arrays, meta)
    split_decls, split_code = [], []
    if split:
        split_decls, split_code = render_split(params, values, ad, idx, scalar, fresh_arrays, split)
    batch_decls, batch_code = [], []
    if "batch" in meta["features"]:
        batch_decls, batch_code = render_batch(params, values, ad, idx, scalar, fresh_arrays, meta)
    lines += (["#ifndef TAP_NO_AD\n"] + rev_code + fwd_code + split_code + batch_code
              + ["#endif\n"])
    lines.append('  tap_checks(V);\n  printf("DONE\\n");\n  return 0;\n}\n')
    if ad.fnref == "tap_fn":
        rev_decls.insert(0, "static void *const tap_fn = (void *)f;\n")
    return ("\n/* ---- AD entry points ---- */\n"
            + "".join(rev_decls + fwd_decls + split_decls + batch_decls)
            + "".join(lines))


def _proto(ret, name, types, typed):
    if typed:
        return "%s %s(void *, %s);\n" % (ret, name, ", ".join(types))
    return "%s %s(void *, ...);\n" % (ret, name)


def render_rev(params, values, ad, idx, scalar, fresh_arrays):
    """One __enzyme_autodiff call; prints REV lines."""
    args, types, outs = [], [], []
    if ad.rev_primal:
        args, types = ["enzyme_primal_return"], ["int"]
    for p in params:
        marker = ad.rev[p.name]
        if marker:
            args.append("enzyme_" + marker)
            types.append("int")
        if p.kind == "arr":
            shadowed = ad.rev_active(p)
            args += ["%s_r" % p.name] + (["d%s_r" % p.name] if shadowed else [])
            types += ["double *"] * (2 if shadowed else 1)
        elif p.kind == "i":
            args.append(str(values[p.name]))
            types.append("int")
        else:
            args.append(scalar(p))
            types.append(_ctype(p.kind))
            if ad.rev_active(p):
                outs.append(p)
    struct = ad.rev_primal or len(outs) > 1
    if struct:
        ret = "TapGrad"
    else:
        ret = _ctype(outs[0].kind) if outs else "void"
    decls = []
    if struct:
        fields = " ".join("%s g%d;" % (_ctype(p.kind), i) for i, p in enumerate(outs))
        decls.append("typedef struct { %s%s } TapGrad;\n"
                     % ("double p; " if ad.rev_primal else "", fields))
    decls.append(_proto(ret, "__enzyme_autodiff" + ("_typed" if ad.typed else ""), types, ad.typed))
    code = ["  {\n"]
    code.extend(fresh_arrays("r"))
    call = "__enzyme_autodiff%s(%s, %s)" % ("_typed" if ad.typed else "", ad.fnref, ", ".join(args))
    if ret == "void":
        code.append("    %s;\n" % call)
    else:
        code.append("    %s r = %s;\n" % (ret, call))
    if ad.rev_primal:
        code.append('    printf("REVPRIMAL %.17g\\n", r.p);\n')
    for i, p in enumerate(outs):
        val = "r.g%d" % i if struct else "r"
        code.append('    printf("REV %d %%.17g\\n", (double)%s);\n' % (idx[(p.name, None)], val))
    for p in params:
        if p.kind == "arr" and ad.rev_active(p):
            for j in range(p.length):
                code.append('    printf("REV %d %%.17g\\n", d%s_r[%d]);\n' % (idx[(p.name, j)], p.name, j))
    code.append("  }\n")
    return decls, code


def render_fwd(params, values, ad, idx, scalar, fresh_arrays, meta):
    """One __enzyme_fwddiff call per active direction; prints FWD lines."""
    name = "__enzyme_fwddiff" + ("_typed" if ad.typed else "")
    code = []
    types = []
    for p in params:
        if ad.fwd[p.name]:
            types.append("int")
        if p.kind == "arr":
            types += ["double *", "double *"] if ad.fwd[p.name] != "const" else ["double *"]
        elif p.kind == "i":
            types.append("int")
        else:
            types += [_ctype(p.kind)] * (1 if ad.fwd[p.name] == "const" else 2)
    if ad.fwd_primal:
        types.insert(0, "int")
        decls = ["typedef struct { double p; double t; } TapPT;\n",
                 _proto("TapPT", name, types, ad.typed)]
    else:
        decls = [_proto("double", name, types, ad.typed)]
    for k, d in enumerate(meta["dirs"]):
        if not d["fwd"]:
            continue
        args = ["enzyme_primal_return"] if ad.fwd_primal else []
        for p in params:
            marker = ad.fwd[p.name]
            if marker:
                args.append("enzyme_" + marker)
            if p.kind == "arr":
                args.append("%s_t" % p.name)
                if marker != "const":
                    args.append("d%s_t" % p.name)
            elif p.kind == "i":
                args.append(str(values[p.name]))
            else:
                args.append(scalar(p))
                if marker != "const":
                    one = d["param"] == p.name
                    args.append(("1.0" if one else "0.0") + ("f" if p.kind == "f" else ""))
        code.append("  {\n")
        code.extend(fresh_arrays("t"))
        if "elem" in d:
            code.append("    d%s_t[%d] = 1.0;\n" % (d["param"], d["elem"]))
        call = "%s(%s, %s)" % (name, ad.fnref, ", ".join(args))
        if ad.fwd_primal:
            code.append("    TapPT r = %s;\n" % call)
            code.append('    printf("FWD %d %%.17g\\nFWDPRIMAL %d %%.17g\\n", r.t, r.p);\n  }\n' % (k, k))
        else:
            code.append('    printf("FWD %d %%.17g\\n", %s);\n  }\n' % (k, call))
    return decls, code


def render_batch(params, values, ad, idx, scalar, fresh_arrays, meta):
    """Batch mode (feature batch): every forward direction (up to 8) in one
    enzyme_width call, printing BFWD lines, and the reverse call at width 2
    with both lanes seeded, printing BREV/BREV1 lines. The markers, typed
    prototypes and enzyme_primal_return follow the scalar calls' choices;
    no new choices are drawn, so a seed's program is otherwise unchanged."""
    decls, code = [], []
    fwd_dirs = [(k, d) for k, d in enumerate(meta["dirs"]) if d["fwd"]][:8]
    W = len(fwd_dirs)
    if W:
        name = "__enzyme_fwddiff_batch" + ("_typed" if ad.typed else "")
        types, args = ["int", "int"], ["enzyme_width", str(W)]
        if ad.fwd_primal:
            types.append("int")
            args.append("enzyme_primal_return")
        code.append("  {\n")
        code.extend(fresh_arrays("b"))
        for p in params:
            marker = ad.fwd[p.name]
            if marker:
                types.append("int")
                args.append("enzyme_" + marker)
            if p.kind == "arr":
                types.append("double *")
                args.append("%s_b" % p.name)
                if marker != "const":
                    code.append("    double d%s_bl[%d][%d];\n" % (p.name, W, p.length))
                    code.append("    memset(d%s_bl, 0, sizeof d%s_bl);\n" % (p.name, p.name))
                    for lane, (k, d) in enumerate(fwd_dirs):
                        if d["param"] == p.name and "elem" in d:
                            code.append("    d%s_bl[%d][%d] = 1.0;\n" % (p.name, lane, d["elem"]))
                        types.append("double *")
                        args.append("d%s_bl[%d]" % (p.name, lane))
            elif p.kind == "i":
                types.append("int")
                args.append(str(values[p.name]))
            else:
                types.append(_ctype(p.kind))
                args.append(scalar(p))
                if marker != "const":
                    for lane, (k, d) in enumerate(fwd_dirs):
                        one = d["param"] == p.name and "elem" not in d
                        types.append(_ctype(p.kind))
                        args.append(("1.0" if one else "0.0") + ("f" if p.kind == "f" else ""))
        decls.append("typedef struct { %sdouble t[%d]; } TapBF;\n"
                     % ("double p; " if ad.fwd_primal else "", W))
        decls.append(_proto("TapBF", name, types, ad.typed))
        code.append("    TapBF r = %s(%s, %s);\n" % (name, ad.fnref, ", ".join(args)))
        for lane, (k, d) in enumerate(fwd_dirs):
            code.append('    printf("BFWD %d %%.17g\\n", r.t[%d]);\n' % (k, lane))
        if ad.fwd_primal:
            code.append('    printf("BFWDPRIMAL %.17g\\n", r.p);\n')
        code.append("  }\n")

    # Reverse at width 2: both lanes seeded with 1, so both equal REV.
    name = "__enzyme_autodiff_batch" + ("_typed" if ad.typed else "")
    types, args, outs = ["int", "int"], ["enzyme_width", "2"], []
    if ad.rev_primal:
        types.append("int")
        args.append("enzyme_primal_return")
    code.append("  {\n")
    code.extend(fresh_arrays("c"))
    for p in params:
        marker = ad.rev[p.name]
        if marker:
            types.append("int")
            args.append("enzyme_" + marker)
        if p.kind == "arr":
            types.append("double *")
            args.append("%s_c" % p.name)
            if ad.rev_active(p):
                code.append("    double e%s_c[%d];\n    memset(e%s_c, 0, sizeof e%s_c);\n"
                            % (p.name, p.length, p.name, p.name))
                types += ["double *", "double *"]
                args += ["d%s_c" % p.name, "e%s_c" % p.name]
        elif p.kind == "i":
            types.append("int")
            args.append(str(values[p.name]))
        else:
            types.append(_ctype(p.kind))
            args.append(scalar(p))
            if ad.rev_active(p):
                outs.append(p)
    fields = "".join("%s g%d[2]; " % (_ctype(p.kind), i) for i, p in enumerate(outs))
    prim = "double p; " if ad.rev_primal else ""
    if fields or prim:
        decls.append("typedef struct { %s%s} TapBR;\n" % (prim, fields))
        decls.append(_proto("TapBR", name, types, ad.typed))
        code.append("    TapBR r = %s(%s, %s);\n" % (name, ad.fnref, ", ".join(args)))
    else:
        decls.append(_proto("void", name, types, ad.typed))
        code.append("    %s(%s, %s);\n" % (name, ad.fnref, ", ".join(args)))
    if ad.rev_primal:
        code.append('    printf("BREVPRIMAL %.17g\\n", r.p);\n')
    for i, p in enumerate(outs):
        k = idx[(p.name, None)]
        code.append('    printf("BREV %d %%.17g\\nBREV1 %d %%.17g\\n", (double)r.g%d[0], '
                    '(double)r.g%d[1]);\n' % (k, k, i, i))
    for p in params:
        if p.kind == "arr" and ad.rev_active(p):
            for j in range(p.length):
                k = idx[(p.name, j)]
                code.append('    printf("BREV %d %%.17g\\nBREV1 %d %%.17g\\n", d%s_c[%d], e%s_c[%d]);\n'
                            % (k, k, p.name, j, p.name, j))
    code.append("  }\n")
    return decls, code
