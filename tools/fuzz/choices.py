"""The single source of every decision the generator makes.

A `Chooser` either draws fresh decisions from a seeded PRNG or replays a
recorded list of them.  Every decision is an integer in ``[0, n)`` and the
grammar is written so that 0 is always the *simplest* option (a leaf instead
of an operator, the minimum count, "feature off").  Replaying a list that is
shorter than needed pads it with zeros, and out-of-range values are reduced
modulo ``n``.  That makes any integer list a valid program description, which
is what lets the reducer (reduce.py) shrink a failing program by editing its
choice list, Hypothesis-style.
"""

import random


class Chooser:
    """Records (or replays) the generator's integer decisions."""

    def __init__(self, seed=0, replay=None):
        self._rng = random.Random(seed)
        self._replay = None if replay is None else list(replay)
        self.record = []

    def below(self, n):
        """Return an integer in [0, n); 0 is the simplest option."""
        if n <= 1:
            return 0
        if self._replay is None:
            value = self._rng.randrange(n)
        else:
            pos = len(self.record)
            value = self._replay[pos] % n if pos < len(self._replay) else 0
        self.record.append(value)
        return value

    def chance(self, percent):
        """True with the given probability; the simplest answer is False."""
        return self.below(100) >= 100 - percent

    def between(self, lo, hi):
        """An integer in [lo, hi]; the simplest is lo."""
        return lo + self.below(hi - lo + 1)

    def pick(self, options):
        """One of a list; the first element is the simplest."""
        return options[self.below(len(options))]

    def weighted(self, pairs):
        """Pick from (weight, option) pairs; the first option is the simplest.

        Options with weight 0 are never drawn at random but remain reachable
        by replay only if listed first, so callers list the simplest first.
        """
        pairs = [(w, o) for w, o in pairs if w > 0]
        total = sum(w for w, _ in pairs)
        draw = self.below(total)
        for weight, option in pairs:
            if draw < weight:
                return option
            draw -= weight
        return pairs[-1][1]
