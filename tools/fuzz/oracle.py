"""Judges the output of one generated program (protocol: see program.py).

Outcome categories
  pass            every check passed
  nonsmooth       a branch/kink is near a tie at the sample point, or a
                  finite-difference point took another path: not judged
  invalid         a non-finite primal or reference: not judged
  primal-mismatch f (as compiled with the plugin) disagrees with its twin,
                  or a primal returned by enzyme_primal_return disagrees with f
  wrong-rev       reverse adjoint disagrees with finite differences
  wrong-fwd       forward tangent disagrees with finite differences
  rev-fwd         reverse and forward disagree beyond rounding
  bad-output      the program ran but printed too little
  fd-inconsistent (--no-ad self test) double FD disagrees with long double FD
  split-*         (feature split, see split.py) split mode disagrees with the
                  one-shot reverse: split-primal (a primal returned by
                  __enzyme_augmentfwd or a thunk), split-adjoint (augmentfwd,
                  inputs overwritten, reverse), split-allocated (caller buffer
                  of __enzyme_augmentsize bytes: adjoints, canaries, size vs
                  the thunk's tape_bytes), split-thunk / split-nofree (first
                  sweep through the thunk's pointers / with enzyme_nofree),
                  split-replay (a reusable tape's sweep i with seed s_i,
                  through the thunk or in a caller buffer, is not s_i times
                  the first), split-interleaved (two tapes alive
                  at once, at the sample point and at its mirror image)

Tolerances are scaled by ABSMAX (the largest magnitude stored to a variable),
an estimate of how much rounding the derivative can carry.  A derivative of a
double program must match the long double 5-point difference tightly; one
that misses the loose double-FD check but matches the long double reference
counts as a pass ("rechecked"), and one that passes the double-FD check but
misses the long double reference is reported as imprecise (lost precision).
Programs that compute in float are checked against the long double
reference only, with a float-sized tolerance.
"""

import math

# Smallest relative margin of a branch or kink at the sample point.
MARGIN_MIN = 1e-3
# Smallest relative gap between neighbours of a sorted array (feature sort).
# The permutation is on the branch path, so a finite-difference point across
# a reordering is caught as another path (PATHOK 0); the gap only has to stay
# clear of the rounding by which f (vectorised, -ffast-math) and its twin may
# differ, so that both sort alike. Programs computing in float get more room.
SORT_MARGIN_MIN = 1e-6
SORT_MARGIN_MIN_FLOAT = 1e-5


def margin_limits(meta):
    """(branch margin, sorted-gap margin) a program must keep to be judged."""
    return MARGIN_MIN, SORT_MARGIN_MIN_FLOAT if meta.get("has_float") else SORT_MARGIN_MIN

TOL = {
    # name: (relative, per-ABSMAX) -- |a - b| <= rel * (1 + |ref|) + abs * ABSMAX
    "fd": (1e-5, 1e-8),          # AD vs double central difference
    "fdl": (1e-8, 1e-12),        # AD vs long double 5-point difference
    "float": (1e-4, 1e-6),       # float programs: AD vs long double FD
    "modes": (1e-9, 1e-12),      # reverse vs forward, double programs
    "modes_float": (1e-4, 1e-6),  # reverse vs forward, float programs
    "primal": (1e-12, 1e-13),
    "primal_float": (1e-5, 1e-6),
    # feature vectorize with -ffast-math or -fveclib=libmvec: f is
    # vectorised (sums reassociated, reciprocals, libmvec's 4-ulp variants)
    # while its twin f_chk stays scalar (the instrumentation calls keep its
    # loops scalar), so they differ by rounding; only f-vs-twin is loosened
    "primal_fast": (1e-9, 1e-10),
    "replay": (1e-12, 1e-14),    # seed 2 vs 2 x seed 1: exact up to rounding
}
SPLIT_FAILURES = ("split-primal", "split-adjoint", "split-allocated", "split-thunk",
                  "split-nofree", "split-replay", "split-interleaved")
FAILURES = ("primal-mismatch", "wrong-rev", "wrong-fwd", "rev-fwd", "batch-mismatch",
            "bad-output", "fd-inconsistent") + SPLIT_FAILURES


def parse(text):
    """Output lines -> dict; per-direction values under 'FD', 'FDL', 'REV', 'FWD'."""
    out = {"FD": {}, "FDL": {}, "FDLERR": {}, "REV": {}, "FWD": {}, "FWDPRIMAL": {},
           "SREV": {}, "AREV": {}, "XREV1": {}, "MREV": {}, "WREV": {}, "VREV": {},
           "BFWD": {}, "BREV": {}, "BREV1": {}, "AREP": {}, "XREP": {}}
    for line in text.splitlines():
        parts = line.split()
        if not parts:
            continue
        key = parts[0]
        try:
            if key in out and len(parts) == 3:
                out[key][int(parts[1])] = float(parts[2])
            elif key in ("AREP", "XREP") and len(parts) == 4:
                # sweep i of a replayed tape, direction k
                out[key][(int(parts[1]), int(parts[2]))] = float(parts[3])
            elif len(parts) == 2:
                out[key] = float(parts[1])
            elif key == "DONE":
                out["DONE"] = True
        except ValueError:
            continue
    return out


def close(a, b, tol, scale, slack=0.0):
    """|a - b| within tol=(rel, abs) relative to b and the conditioning scale,
    plus `slack` (a reference's own error estimate)."""
    rel, per_scale = tol
    if not (math.isfinite(a) and math.isfinite(b)):
        return False
    return abs(a - b) <= rel * (1.0 + abs(b)) + per_scale * scale + slack


class Verdict:
    """Category plus human-readable details of every mismatch."""

    def __init__(self, category, details=(), rechecked=0):
        self.category, self.details, self.rechecked = category, list(details), rechecked

    @property
    def failed(self):
        return self.category in FAILURES

    def __repr__(self):
        return "Verdict(%s, %s)" % (self.category, "; ".join(self.details))


def _gate(out, meta):
    """Reasons not to judge derivatives at all (None if judging is fine)."""
    for key in ("PRIMAL", "PRIMAL_CHK", "PRIMAL_LD", "MARGIN", "ABSMAX", "PATHOK"):
        if key not in out:
            return Verdict("bad-output", ["missing %s" % key])
    if not out.get("DONE"):
        return Verdict("bad-output", ["missing DONE"])
    refs = [out["PRIMAL_CHK"], out["PRIMAL_LD"]] + list(out["FDL"].values())
    if not all(math.isfinite(v) for v in refs) or len(out["FDL"]) != len(meta["dirs"]):
        return Verdict("invalid", ["non-finite or missing reference values"])
    limit, limit_sort = margin_limits(meta)
    sort_margin = out.get("MARGIN_SORT", 1e300)
    if out["MARGIN"] < limit or sort_margin < limit_sort or out["PATHOK"] != 1:
        return Verdict("nonsmooth", ["margin %g sorted-gap margin %g pathok %d"
                                     % (out["MARGIN"], sort_margin, out["PATHOK"])])
    return None


def judge_derivative(value, k, out, has_float, scale):
    """None if `value` matches the references for direction k, else a reason."""
    fdl = out["FDL"][k]
    slack = 2.0 * out["FDLERR"].get(k, 0.0)
    if has_float:
        if close(value, fdl, TOL["float"], scale, slack):
            return None
        return "%.17g vs FDL %.17g" % (value, fdl)
    fd = out["FD"].get(k, math.nan)
    fd_ok = close(value, fd, TOL["fd"], scale)
    if close(value, fdl, TOL["fdl"], scale, slack):
        return None if fd_ok else "rechecked"
    if fd_ok:
        # within the loose double-FD tolerance but not the long double one: the
        # signature of lost precision (e.g. an adjoint truncated to float)
        return "%.17g imprecise: FD %.17g ok, FDL %.17g not" % (value, fd, fdl)
    return "%.17g vs FD %.17g, FDL %.17g" % (value, fd, fdl)


def judge(text, meta, ad=True):
    """Verdict for one run's stdout."""
    out = parse(text)
    gate = _gate(out, meta)
    if gate is not None:
        return gate
    has_float, scale = meta["has_float"], out["ABSMAX"]
    ptol = TOL["primal_float" if has_float else
               "primal_fast" if meta.get("vecflags") else "primal"]
    if not close(out["PRIMAL"], out["PRIMAL_CHK"], ptol, scale):
        return Verdict("primal-mismatch", ["f %.17g vs twin %.17g" % (out["PRIMAL"], out["PRIMAL_CHK"])])
    if not ad:
        return _judge_fd_only(out, meta, scale)
    returned = list(out["FWDPRIMAL"].values()) + [out[k] for k in ("REVPRIMAL", "BFWDPRIMAL",
                                                                    "BREVPRIMAL") if k in out]
    for value in returned:
        if not close(value, out["PRIMAL"], ptol, scale):
            return Verdict("primal-mismatch", ["enzyme_primal_return %.17g vs f %.17g"
                                               % (value, out["PRIMAL"])])
    found, rechecked = {}, 0
    mtol = TOL["modes_float" if has_float else "modes"]
    for k, d in enumerate(meta["dirs"]):
        for mode, key, cat in (("rev", "REV", "wrong-rev"), ("fwd", "FWD", "wrong-fwd")):
            if not d[mode]:
                continue
            if k not in out[key]:
                found.setdefault("bad-output", []).append("no %s %d" % (key, k))
                continue
            why = judge_derivative(out[key][k], k, out, has_float, scale)
            if why == "rechecked":
                rechecked += 1
            elif why:
                found.setdefault(cat, []).append("%s %s: %s" % (key, d["label"], why))
        if d["rev"] and d["fwd"] and k in out["REV"] and k in out["FWD"]:
            if not close(out["REV"][k], out["FWD"][k], mtol, scale):
                found.setdefault("rev-fwd", []).append(
                    "%s: rev %.17g fwd %.17g" % (d["label"], out["REV"][k], out["FWD"][k]))
    if meta.get("split"):
        judge_split(out, meta, ptol, mtol, scale, found)
    if "batch" in meta.get("features", ()):
        _judge_batch(out, meta, mtol, scale, found)
    for cat in FAILURES:
        if cat in found:
            details = [x for c in FAILURES for x in found.get(c, [])]
            return Verdict(cat, details, rechecked)
    return Verdict("pass", [], rechecked)


def judge_split(out, meta, ptol, mtol, scale, found):
    """Split mode against the one-shot reverse (REV); adds to `found`."""
    def bad(cat, text):
        found.setdefault(cat, []).append(text)
    path = meta["split"]["path"]
    for key, what in (("SPRIMAL", "__enzyme_augmentfwd"), ("APRIMAL", "augmentfwd into a buffer"),
                      ("XPRIMAL", "thunk augmented" if path == "thunk" else "augmentfwd (nofree)")):
        if key not in out:
            bad("bad-output", "no %s" % key)
        elif not close(out[key], out["PRIMAL"], ptol, scale):
            bad("split-primal", "%s %.17g vs f %.17g" % (what, out[key], out["PRIMAL"]))
    for key, ref in (("WPRIMAL", "PRIMAL"), ("VPRIMAL", "MPRIMAL")):
        if key not in out or ref not in out:
            bad("bad-output", "no %s/%s" % (key, ref))
        elif math.isfinite(out[ref]) and not close(out[key], out[ref], ptol, scale):
            bad("split-interleaved", "two live tapes: primal %s %.17g vs f %.17g"
                % (key, out[key], out[ref]))
    for key in ("CANARY", "AUGSIZE", "TAPEBYTES", "REUSABLE"):
        if key not in out:
            bad("bad-output", "no %s" % key)
    if out.get("CANARY", 1) != 1:
        bad("split-allocated", "the bytes around the enzyme_allocated buffer were overwritten"
            " (buffer of %g bytes at offset %d)" % (out.get("AUGSIZE", -1), meta["split"]["offset"]))
    if "AUGSIZE" in out and "TAPEBYTES" in out and out["AUGSIZE"] != out["TAPEBYTES"]:
        bad("split-allocated", "__enzyme_augmentsize %g but thunk tape_bytes %g"
            % (out["AUGSIZE"], out["TAPEBYTES"]))
    first = "split-thunk" if path == "thunk" else "split-nofree"
    reusable = out.get("REUSABLE") == 1
    for k, d in enumerate(meta["dirs"]):
        if not d["rev"] or k not in out["REV"]:
            continue
        ref = out["REV"][k]
        for key, cat, what in (("SREV", "split-adjoint", "augmentfwd+reverse"),
                               ("AREV", "split-allocated", "enzyme_allocated"),
                               ("XREV1", first, "%s first sweep" % path)):
            if k not in out[key]:
                bad("bad-output", "no %s %d" % (key, k))
            elif not close(out[key][k], ref, mtol, scale):
                bad(cat, "%s %s: %.17g vs one-shot %.17g" % (what, d["label"], out[key][k], ref))
        for key, refkey, where in (("WREV", "REV", "V"), ("VREV", "MREV", "-V")):
            if k not in out[key] or k not in out[refkey]:
                bad("bad-output", "no %s/%s %d" % (key, refkey, k))
            elif math.isfinite(out[refkey][k]) and not close(out[key][k], out[refkey][k],
                                                             mtol, scale):
                bad("split-interleaved", "two live tapes, %s at %s: %.17g vs one-shot %.17g"
                    % (d["label"], where, out[key][k], out[refkey][k]))
        if not reusable:
            continue
        seeds = meta["split"].get("seeds", [1.0, 2.0])
        for key, firstkey, what in (("XREP", "XREV1", path), ("AREP", "AREV", "caller buffer")):
            for i, seed in enumerate(seeds[1:], start=2):
                if (i, k) not in out[key]:
                    bad("bad-output", "no %s %d %d" % (key, i, k))
                elif k in out[firstkey] and not close(out[key][(i, k)], seed * out[firstkey][k],
                                                      TOL["replay"], scale):
                    bad("split-replay", "%s sweep %d (seed %g) %s: %.17g vs %g x first %.17g"
                        % (what, i, seed, d["label"], out[key][(i, k)], seed,
                           out[firstkey][k]))


def _judge_batch(out, meta, mtol, scale, found):
    """Batch mode (feature batch): every lane equals the scalar sweep."""
    fwd = [k for k, d in enumerate(meta["dirs"]) if d["fwd"]][:8]
    for k, d in enumerate(meta["dirs"]):
        checks = []
        if k in fwd and k in out["FWD"]:
            checks.append(("BFWD", out["FWD"][k]))
        if d["rev"] and k in out["REV"]:
            checks += [("BREV", out["REV"][k]), ("BREV1", out["REV"][k])]
        for key, want in checks:
            if k not in out[key]:
                found.setdefault("bad-output", []).append("no %s %d" % (key, k))
            elif not close(out[key][k], want, mtol, scale):
                found.setdefault("batch-mismatch", []).append(
                    "%s %s: batched %.17g scalar %.17g" % (key, d["label"], out[key][k], want))


def _judge_fd_only(out, meta, scale):
    """Self test without AD: double FD must agree with long double FD."""
    if meta["has_float"]:
        return Verdict("pass")
    bad = []
    for k, d in enumerate(meta["dirs"]):
        fd, fdl = out["FD"].get(k, math.nan), out["FDL"][k]
        if not close(fd, fdl, TOL["fd"], scale, 2.0 * out["FDLERR"].get(k, 0.0)):
            bad.append("%s: FD %.17g FDL %.17g" % (d["label"], fd, fdl))
    return Verdict("fd-inconsistent", bad) if bad else Verdict("pass")
