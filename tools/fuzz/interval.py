"""Conservative interval arithmetic used to keep generated code in safe domains.

Every generated expression carries an `Iv` that contains every value it can
take for inputs in the sampling box.  The generator uses the bounds to decide
whether an argument may be passed to a libm function directly (e.g. ``log(e)``
when ``e >= 0.25``) or has to be mapped into the domain first
(``log(1.5 + e*e)``), and to squash values that could grow too large.
"""

import math
from dataclasses import dataclass

INF = float("inf")


def _safe(fn, x):
    """fn(x), with overflow mapped to +-inf."""
    try:
        return fn(x)
    except OverflowError:
        return INF if x > 0 else -INF
    except ValueError:
        return math.nan


@dataclass(frozen=True)
class Iv:
    """A closed interval [lo, hi] of reals."""

    lo: float
    hi: float

    @staticmethod
    def point(x):
        return Iv(x, x)

    def mag(self):
        """Largest absolute value in the interval."""
        return max(abs(self.lo), abs(self.hi))

    def within(self, lo, hi):
        return lo <= self.lo and self.hi <= hi

    def excludes(self, lo, hi):
        """True when the interval does not meet [lo, hi]."""
        return self.hi < lo or self.lo > hi

    def union(self, other):
        return Iv(min(self.lo, other.lo), max(self.hi, other.hi))

    def __add__(self, o):
        return Iv(self.lo + o.lo, self.hi + o.hi)

    def __sub__(self, o):
        return Iv(self.lo - o.hi, self.hi - o.lo)

    def __neg__(self):
        return Iv(-self.hi, -self.lo)

    def __mul__(self, o):
        prods = [self.lo * o.lo, self.lo * o.hi, self.hi * o.lo, self.hi * o.hi]
        prods = [0.0 if math.isnan(p) else p for p in prods]
        return Iv(min(prods), max(prods))

    def __truediv__(self, o):
        assert o.lo > 0 or o.hi < 0, "divisor interval contains zero"
        return self * Iv(1.0 / o.hi, 1.0 / o.lo)

    def square(self):
        m = self.mag()
        lo = 0.0 if self.lo <= 0 <= self.hi else min(self.lo ** 2, self.hi ** 2)
        return Iv(lo, m * m)

    def scale(self, k):
        return self * Iv.point(k)

    def monotone(self, fn):
        """Image under a non-decreasing function."""
        return Iv(_safe(fn, self.lo), _safe(fn, self.hi))

    def antitone(self, fn):
        """Image under a non-increasing function."""
        return Iv(_safe(fn, self.hi), _safe(fn, self.lo))

    def widen(self, rel=1e-9):
        """Slightly enlarged copy, to absorb rounding in the bounds."""
        pad = rel * (1.0 + self.mag())
        return Iv(self.lo - pad, self.hi + pad)


UNIT = Iv(-1.0, 1.0)


def even_abs(iv, fn):
    """Image of an even function increasing in |x| (cosh, x*x-like)."""
    lo_abs = 0.0 if iv.lo <= 0 <= iv.hi else min(abs(iv.lo), abs(iv.hi))
    return Iv(_safe(fn, lo_abs), _safe(fn, iv.mag()))


def pow_iv(base, expo):
    """Image of pow(b, e) for b > 0: monotone in each argument separately."""
    assert base.lo > 0
    corners = [_safe(lambda t: b ** t, e) for b in (base.lo, base.hi)
               for e in (expo.lo, expo.hi)]
    return Iv(min(corners), max(corners))


def libm_image(name, args):
    """Interval image of a libm function; args are already in its safe domain."""
    a = args[0]
    table = {
        "sin": lambda: UNIT, "cos": lambda: UNIT,
        "tan": lambda: a.monotone(math.tan),
        "exp": lambda: a.monotone(math.exp),
        "exp2": lambda: a.monotone(lambda t: 2.0 ** t),
        "expm1": lambda: a.monotone(math.expm1),
        "log": lambda: a.monotone(math.log),
        "log2": lambda: a.monotone(math.log2),
        "log10": lambda: a.monotone(math.log10),
        "log1p": lambda: a.monotone(math.log1p),
        "sqrt": lambda: a.monotone(math.sqrt),
        "cbrt": lambda: a.monotone(lambda t: math.copysign(abs(t) ** (1 / 3), t)),
        "atan": lambda: a.monotone(math.atan),
        "sinh": lambda: a.monotone(math.sinh),
        "cosh": lambda: even_abs(a, math.cosh),
        "tanh": lambda: a.monotone(math.tanh),
        "asinh": lambda: a.monotone(math.asinh),
        "atanh": lambda: a.monotone(math.atanh),
        "erf": lambda: a.monotone(math.erf),
        "erfc": lambda: a.antitone(math.erfc),
        "fabs": lambda: even_abs(a, abs),
        "pow": lambda: pow_iv(a, args[1]),
        "hypot": lambda: Iv(0.0, math.hypot(a.mag(), args[1].mag())),
        "atan2": lambda: Iv(-math.pi, math.pi),
        "fmin": lambda: Iv(min(a.lo, args[1].lo), min(a.hi, args[1].hi)),
        "fmax": lambda: Iv(max(a.lo, args[1].lo), max(a.hi, args[1].hi)),
        "fma": lambda: a * args[1] + args[2],
        "copysign": lambda: Iv(-a.mag(), a.mag()),
    }
    return table[name]().widen()
