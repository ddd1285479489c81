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

MARGIN_MIN = 1e-3

TOL = {
    # name: (relative, per-ABSMAX) -- |a - b| <= rel * (1 + |ref|) + abs * ABSMAX
    "fd": (1e-5, 1e-8),          # AD vs double central difference
    "fdl": (1e-8, 1e-12),        # AD vs long double 5-point difference
    "float": (1e-4, 1e-6),       # float programs: AD vs long double FD
    "modes": (1e-9, 1e-12),      # reverse vs forward, double programs
    "modes_float": (1e-4, 1e-6),  # reverse vs forward, float programs
    "primal": (1e-12, 1e-13),
    "primal_float": (1e-5, 1e-6),
}
FAILURES = ("primal-mismatch", "wrong-rev", "wrong-fwd", "rev-fwd", "batch-mismatch",
            "bad-output", "fd-inconsistent")


def parse(text):
    """Output lines -> dict; per-direction values under 'FD', 'FDL', 'REV', 'FWD'."""
    out = {"FD": {}, "FDL": {}, "FDLERR": {}, "REV": {}, "FWD": {}, "FWDPRIMAL": {},
           "BFWD": {}, "BREV": {}, "BREV1": {}}
    for line in text.splitlines():
        parts = line.split()
        if not parts:
            continue
        key = parts[0]
        try:
            if key in out and len(parts) == 3:
                out[key][int(parts[1])] = float(parts[2])
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
    if out["MARGIN"] < MARGIN_MIN or out["PATHOK"] != 1:
        return Verdict("nonsmooth", ["margin %g pathok %d" % (out["MARGIN"], out["PATHOK"])])
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
    ptol = TOL["primal_float" if has_float else "primal"]
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
    if "batch" in meta.get("features", ()):
        _judge_batch(out, meta, mtol, scale, found)
    for cat in FAILURES:
        if cat in found:
            details = [x for c in FAILURES for x in found.get(c, [])]
            return Verdict(cat, details, rechecked)
    return Verdict("pass", [], rechecked)


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
