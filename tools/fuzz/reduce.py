"""Delta debugging over the generator's choice list.

A program is fully described by its list of integer choices (choices.py);
any list is valid, and smaller values / shorter lists mean simpler programs.
`shrink` searches for a shortlex-smaller list that is still "interesting"
(reproduces the same failure) by, in rounds until nothing changes or the
budget runs out:

1. cutting the list short (the tail becomes zeros = simplest options);
2. deleting chunks of 8, 4, 2 and 1 choices;
3. replacing each choice by 0, then by half of itself.
"""

import time


def shortlex_less(a, b):
    return (len(a), a) < (len(b), b)


class Shrinker:
    """Keeps the best list found and the budget."""

    def __init__(self, choices, interesting, budget_s=120.0, max_tests=400):
        self.best = list(choices)
        self.interesting = interesting
        self.deadline = time.monotonic() + budget_s
        self.tests_left = max_tests
        self.tests = 0
        self.seen = set()

    def exhausted(self):
        return self.tests_left <= 0 or time.monotonic() > self.deadline

    def attempt(self, cand):
        """Test a candidate; adopt it if interesting and simpler."""
        key = tuple(cand)
        if key in self.seen or not shortlex_less(cand, self.best) or self.exhausted():
            return False
        self.seen.add(key)
        self.tests += 1
        self.tests_left -= 1
        normalized = self.interesting(cand)
        if normalized is None:
            return False
        # the generator reports the choices it actually consumed
        self.best = list(normalized) if shortlex_less(list(normalized), cand) else list(cand)
        return True

    def pass_truncate(self):
        changed = False
        lo = 0
        while lo < len(self.best) and not self.exhausted():
            mid = (lo + len(self.best)) // 2
            if mid == len(self.best):
                break
            if self.attempt(self.best[:mid]):
                changed = True
            else:
                lo = mid + 1
        return changed

    def pass_delete(self):
        changed = False
        for size in (8, 4, 2, 1):
            i = len(self.best) - size
            while i >= 0 and not self.exhausted():
                if self.attempt(self.best[:i] + self.best[i + size:]):
                    changed = True
                i -= size
        return changed

    def pass_values(self):
        changed = False
        i = 0
        while i < len(self.best) and not self.exhausted():
            v = self.best[i]
            if v > 0:
                for new in (0, v // 2, v - 1):
                    if new < v and self.attempt(self.best[:i] + [new] + self.best[i + 1:]):
                        changed = True
                        break
            i += 1
        return changed

    def run(self):
        while not self.exhausted():
            changed = self.pass_truncate()
            changed |= self.pass_delete()
            changed |= self.pass_values()
            if not changed:
                break
        return self.best


def shrink(choices, interesting, budget_s=120.0, max_tests=400):
    """Return (best choice list, number of tests run).

    `interesting(cand)` returns the normalized choice list (what the
    generator consumed) when the candidate still fails the same way, else None.
    """
    s = Shrinker(choices, interesting, budget_s, max_tests)
    best = s.run()
    return best, s.tests
