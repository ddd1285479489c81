#!/usr/bin/env python3
"""Unit tests of the fuzzing machinery itself (no compiler needed).

    python3 tools/fuzz/selftest.py
"""

import os
import sys
import unittest

sys.dont_write_bytecode = True   # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import oracle  # noqa: E402
from choices import Chooser  # noqa: E402
from interval import Iv, libm_image  # noqa: E402
from program import ALL_FEATURES, DEFAULT_FEATURES, generate, render_parts  # noqa: E402
from reduce import reduce_ast, shrink  # noqa: E402

META = {"dirs": [{"label": "x0", "rev": True, "fwd": True},
                 {"label": "x1", "rev": True, "fwd": False}], "has_float": False}
HEAD = ("PRIMAL 1\nPRIMAL_CHK 1\nPRIMAL_LD 1\nMARGIN 0.5\nABSMAX 2\nPATHOK 1\n"
        "FD 0 1.0000000001\nFDL 0 1\nFD 1 2.00000001\nFDL 1 2\n")


def judge(lines, head=HEAD, meta=META):
    return oracle.judge(head + lines + "DONE\n", meta).category


class OracleTest(unittest.TestCase):
    def test_exact_derivatives_pass(self):
        self.assertEqual(judge("REV 0 1\nREV 1 2\nFWD 0 1\n"), "pass")

    def test_wrong_reverse(self):
        self.assertEqual(judge("REV 0 1.001\nREV 1 2\nFWD 0 1\n"), "wrong-rev")

    def test_wrong_forward(self):
        self.assertEqual(judge("REV 0 1\nREV 1 2\nFWD 0 -1\n"), "wrong-fwd")

    def test_lost_precision_is_caught_by_long_double(self):
        # within 1e-5 of the double FD, but 1e-7 away from the true value
        self.assertEqual(judge("REV 0 1.0000001\nREV 1 2\nFWD 0 1\n"), "wrong-rev")

    def test_inaccurate_double_fd_is_rechecked(self):
        head = HEAD.replace("FD 0 1.0000000001", "FD 0 1.001")
        self.assertEqual(judge("REV 0 1\nREV 1 2\nFWD 0 1\n", head), "pass")

    def test_reverse_vs_forward(self):
        self.assertEqual(judge("REV 0 1\nREV 1 2\nFWD 0 1.000000005\n"), "rev-fwd")

    def test_missing_output(self):
        self.assertEqual(judge("REV 0 1\nREV 1 2\n"), "bad-output")

    def test_near_tie_is_not_judged(self):
        head = HEAD.replace("MARGIN 0.5", "MARGIN 1e-5")
        self.assertEqual(judge("REV 0 7\n", head), "nonsmooth")
        head = HEAD.replace("PATHOK 1", "PATHOK 0")
        self.assertEqual(judge("REV 0 7\n", head), "nonsmooth")

    def test_sorted_neighbours_need_only_clear_rounding(self):
        # a sort's permutation is on the path: its gap needs 1e-6, not 1e-3
        head = HEAD.replace("MARGIN 0.5", "MARGIN 0.5\nMARGIN_SORT 2e-5")
        self.assertEqual(judge("REV 0 1\nREV 1 2\nFWD 0 1\n", head), "pass")
        head = HEAD.replace("MARGIN 0.5", "MARGIN 0.5\nMARGIN_SORT 1e-7")
        self.assertEqual(judge("REV 0 7\n", head), "nonsmooth")
        head = HEAD.replace("MARGIN 0.5", "MARGIN 0.5\nMARGIN_SORT 2e-6")
        self.assertEqual(judge("REV 0 7\n", head, dict(META, has_float=True)), "nonsmooth")

    def test_float_programs_use_the_long_double_reference(self):
        meta = dict(META, has_float=True)
        head = HEAD.replace("FD 0 1.0000000001", "FD 0 1.1")
        self.assertEqual(judge("REV 0 1.000001\nREV 1 2\nFWD 0 1.000001\n", head, meta), "pass")
        self.assertEqual(judge("REV 0 1.01\nREV 1 2\nFWD 0 1.01\n", head, meta), "wrong-rev")


SPLIT_META = dict(META, split={"garbage": "1e30", "offset": 0, "path": "thunk",
                               "seeds": [1.0, 2.0, -0.5]})
SPLIT_OK = ("REV 0 1\nREV 1 2\nFWD 0 1\nSPRIMAL 1\nSREV 0 1\nSREV 1 2\nAPRIMAL 1\n"
            "CANARY 1\nAUGSIZE 64\nAREV 0 1\nAREV 1 2\nREUSABLE 1\nTAPEBYTES 64\n"
            "XPRIMAL 1\nXREV1 0 1\nXREV1 1 2\nXREP 2 0 2\nXREP 2 1 4\n"
            "XREP 3 0 -0.5\nXREP 3 1 -1\nAREP 2 0 2\nAREP 2 1 4\nAREP 3 0 -0.5\nAREP 3 1 -1\n"
            "MPRIMAL 3\nMREV 0 5\nMREV 1 6\nWPRIMAL 1\nVPRIMAL 3\n"
            "WREV 0 1\nWREV 1 2\nVREV 0 5\nVREV 1 6\n")


class SplitOracleTest(unittest.TestCase):
    def judge(self, lines):
        return judge(lines, meta=SPLIT_META)

    def test_consistent_split_passes(self):
        self.assertEqual(self.judge(SPLIT_OK), "pass")

    def test_each_check(self):
        cases = [("SREV 1 2\n", "SREV 1 2.5\n", "split-adjoint"),
                 ("SPRIMAL 1\n", "SPRIMAL 1.5\n", "split-primal"),
                 ("CANARY 1\n", "CANARY 0\n", "split-allocated"),
                 ("TAPEBYTES 64\n", "TAPEBYTES 80\n", "split-allocated"),
                 ("AREV 0 1\n", "AREV 0 0\n", "split-allocated"),
                 ("XREV1 0 1\n", "XREV1 0 3\n", "split-thunk"),
                 ("XREP 2 1 4\n", "XREP 2 1 6\n", "split-replay"),
                 ("XREP 3 1 -1\n", "XREP 3 1 1\n", "split-replay"),
                 ("AREP 3 0 -0.5\n", "AREP 3 0 -0.25\n", "split-replay"),
                 ("AREP 2 1 4\n", "", "bad-output"),
                 ("VREV 1 6\n", "VREV 1 2\n", "split-interleaved"),
                 ("VPRIMAL 3\n", "VPRIMAL 1\n", "split-interleaved"),
                 ("XREP 2 1 4\n", "", "bad-output")]
        for old, new, cat in cases:
            self.assertEqual(self.judge(SPLIT_OK.replace(old, new)), cat, new)

    def test_no_second_sweep_unless_reusable(self):
        lines = SPLIT_OK.replace("REUSABLE 1", "REUSABLE 0")
        lines = "".join(l + "\n" for l in lines.splitlines() if not l.startswith(("XREP", "AREP")))
        self.assertEqual(self.judge(lines), "pass")

    def test_wrong_one_shot_takes_precedence(self):
        lines = SPLIT_OK.replace("REV 0 1\nREV", "REV 0 1.5\nREV")
        self.assertEqual(self.judge(lines), "wrong-rev")


class ChooserTest(unittest.TestCase):
    def test_replay_reproduces_and_pads_with_zeros(self):
        a = Chooser(7)
        first = [a.below(10) for _ in range(5)]
        b = Chooser(0, replay=a.record[:3])
        self.assertEqual([b.below(10) for _ in range(5)], first[:3] + [0, 0])

    def test_weighted_zero_is_first_option(self):
        self.assertEqual(Chooser(0, replay=[0]).weighted([(5, "a"), (1, "b")]), "a")


class IntervalTest(unittest.TestCase):
    def test_arithmetic_is_conservative(self):
        a, b = Iv(-1, 2), Iv(3, 4)
        self.assertEqual(a * b, Iv(-4, 8))
        self.assertEqual((a / b).lo, -1 / 3)
        self.assertTrue(libm_image("cosh", [Iv(-1, 2)]).lo <= 1.0)


class GeneratorTest(unittest.TestCase):
    def test_deterministic(self):
        self.assertEqual(generate(5).source, generate(5).source)

    def test_replay_of_record_is_identity(self):
        for seed in range(1, 30):
            p = generate(seed, ALL_FEATURES)
            self.assertEqual(generate(seed, ALL_FEATURES, p.choices).source, p.source)

    def test_split_draws_its_choices_last(self):
        # adding 'split' must not change what the other features generate
        base = tuple(f for f in ALL_FEATURES if f != "split")
        for seed in range(1, 20):
            a, b = generate(seed, base), generate(seed, base + ("split",))
            self.assertEqual(b.choices[:len(a.choices)], a.choices)
            self.assertIn("__enzyme_augmentfwd", b.source)
            self.assertNotIn("__enzyme_augmentfwd", a.source)

    def test_new_features_replay_and_leave_other_seeds_alone(self):
        extra = ALL_FEATURES + ("fnptr", "byval", "tape")
        for seed in range(1, 15):
            p = generate(seed, extra)
            self.assertEqual(generate(seed, extra, p.choices).source, p.source)
        # opt-in features draw nothing unless asked for
        self.assertEqual(generate(7, ALL_FEATURES).source,
                         generate(7, ALL_FEATURES, generate(7, ALL_FEATURES).choices).source)

    def test_fnptr_and_byval_twins(self):
        src = generate(4, ALL_FEATURES + ("fnptr", "byval")).source
        plain, rest = src.split("/* ---- chk ---- */")
        chk, ld = rest.split("/* ---- ld ---- */")
        # every dialect calls through its own table of its own functions
        self.assertRegex(plain, r"\(\*const tab0\[\d\]\)\(double")
        self.assertRegex(chk, r"tab0_chk\[\d\]\)\(double[^)]*\) = \{ h\d+_chk")
        self.assertRegex(ld, r"long double \(\*(const )?tab0_ld\[\d\]\)\(long double")
        self.assertIn("struct V2_ld { long double a; long double b; }", src)
        self.assertIn("struct DI_ld { long double d; int n; }", src)
        self.assertNotRegex(plain.split("double f(")[1], r"^[^)]*struct")   # not f's params

    def test_other_sample_points_keep_the_program(self):
        feats = ALL_FEATURES + ("sort", "realloc")
        for seed in range(1, 10):
            p0, p3 = generate(seed, feats), generate(seed, feats, point=3)
            self.assertEqual(p0.choices, p3.choices)
            self.assertEqual(generate(seed, feats, p0.choices, 3).source, p3.source)
            self.assertEqual(p3.meta["point"], 3)
            self.assertEqual(p0.source.split("/* ---- AD entry points")[0],
                             p3.source.split("/* ---- AD entry points")[0])
            for name, v0 in p0.meta["values"].items():
                v3 = p3.meta["values"][name]
                if isinstance(v0, int):
                    self.assertEqual(v0, v3)   # trip counts, lengths, selectors
                else:
                    flat = v3 if isinstance(v3, list) else [v3]
                    self.assertTrue(all(-2 <= x <= 2 and x != 0 and x * 64 == int(x * 64)
                                        for x in flat))
            self.assertNotEqual(p0.meta["values"], p3.meta["values"])

    def test_probe_renders_the_twins_only(self):
        from program import render_probe
        src = render_probe(generate(2, ALL_FEATURES + ("sort",)), 4, (1e-3, 1e-6))
        self.assertIn("static const double TAP_CAND[NC][ND]", src)
        self.assertIn("tap_ranks(", src)
        self.assertNotIn("/* ---- plain ---- */", src)
        self.assertNotIn("__enzyme", src)

    def test_any_choice_list_is_a_program(self):
        for replay in ([], [99] * 50, list(range(300))):
            p = generate(0, ALL_FEATURES, replay)
            self.assertIn("double f(", p.source)

    def test_default_programs_differentiate_at_least_one_argument(self):
        for seed in range(1, 40):
            meta = generate(seed, DEFAULT_FEATURES).meta
            self.assertTrue(any(d["rev"] for d in meta["dirs"]))


class OmpTest(unittest.TestCase):
    """The race analysis behind feature omp's pragmas (omp.py)."""

    def loop(self, body, bound="4", red=None):
        from cast import For
        loop = For("i", bound, body)
        if red is not None:
            loop.red = red
        return loop

    def test_independent_and_reducing_loops_are_parallel(self):
        import omp
        from cast import Assign, Const, Decl, Elem, Var
        e = Elem("a", "i", "d", Iv(-1, 1))
        self.assertEqual(omp.analyse(self.loop([Assign("a[i]", "=", e, "d")]), {"a"}, 4), {})
        acc = Assign("s", "+=", Elem("b", "(i * 3 + 1) % 4", "d", Iv(-1, 1)), "d")
        self.assertEqual(omp.analyse(self.loop([acc]), {"a", "b"}, 4), {"s": "+"})
        private = [Decl("d", "t", e), Assign("t", "*=", Const(0.5, "d"), "d"),
                   Assign("a[(i * 1 + 0) % 4]", "=", Var("t", "d", Iv(-1, 1)), "d")]
        self.assertEqual(omp.analyse(self.loop(private), {"a"}, 4), {})
        fmax = Assign("r", "=", Var("r", "d", Iv(-1, 1)), "d")
        self.assertEqual(omp.analyse(self.loop([fmax], red={"r": "max"}), set(), 4),
                         {"r": "max"})

    def test_races_are_refused(self):
        import omp
        from cast import Assign, Elem, For, HelperCall, Var
        iv = Iv(-1, 1)
        # another iteration's element is read
        shifted = Assign("a[i]", "=", Elem("a", "(i * 1 + 1) % 4", "d", iv), "d")
        self.assertIsNone(omp.analyse(self.loop([shifted]), {"a"}, 4))
        # two iterations write the same element: (i * 2) % 4 for i = 0, 2
        self.assertIsNone(omp.analyse(self.loop([Assign("a[(i * 2 + 0) % 4]", "=",
                                                        Var("x", "d", iv), "d")]), {"a"}, 4))
        # ... unless the trip count keeps them apart
        self.assertEqual(omp.analyse(self.loop([Assign("a[(i * 2 + 0) % 4]", "=",
                                                       Var("x", "d", iv), "d")], bound="2"),
                                     {"a"}, 4), {})
        # an element indexed by an inner counter only: every iteration writes it
        inner = For("k", "3", [Assign("a[k]", "=", Var("x", "d", iv), "d")])
        self.assertIsNone(omp.analyse(self.loop([inner]), {"a"}, 4))
        # a carried scalar, read back: not a reduction
        acc = Assign("s", "+=", Var("s", "d", iv), "d")
        self.assertIsNone(omp.analyse(self.loop([acc]), set(), 4))
        # an array the loop writes, passed to a helper
        call = HelperCall("h", ["a"], "d", iv)
        self.assertIsNone(omp.analyse(self.loop([Assign("a[i]", "=", call, "d")]), {"a"}, 4))
        # any array passed to a helper: it may write it (seed 46 under --tsan)
        call = HelperCall("h", ["b"], "d", iv)
        self.assertIsNone(omp.analyse(self.loop([Assign("s", "+=", call, "d")]), {"b"}, 4))
        # the runtime trip count n may reach 5: (i + 1) % 4 wraps onto i = 0
        self.assertIsNone(omp.analyse(self.loop([Assign("a[(i * 1 + 1) % 4]", "=",
                                                        Var("x", "d", iv), "d")], bound="n"),
                                      {"a"}, 4))

    def test_collapse_needs_independent_pairs(self):
        import omp
        from cast import Assign, For, Var
        iv = Iv(-1, 1)
        acc = For("k", "3", [Assign("s", "+=", Var("x", "d", iv), "d")])
        self.assertEqual(omp.analyse(self.loop([acc]), set(), 4, collapse=True), {"s": "+"})
        store = For("k", "2", [Assign("a[(i * 2 + k) % 8]", "=", Var("x", "d", iv), "d")])
        self.assertEqual(omp.analyse(self.loop([store]), {"a"}, 8, collapse=True), {})
        clash = For("k", "2", [Assign("a[(i * 1 + k) % 8]", "=", Var("x", "d", iv), "d")])
        self.assertIsNone(omp.analyse(self.loop([clash]), {"a"}, 8, collapse=True))

    def test_pragmas_only_in_the_plain_dialect_and_replayable(self):
        feats = ALL_FEATURES + ("omp",)
        for seed in range(1, 15):
            p = generate(seed, feats)
            plain, rest = p.source.split("/* ---- chk ---- */")
            self.assertIn("#pragma omp parallel for", plain.split("double f(")[-1])
            self.assertNotIn("#pragma", rest)
            self.assertEqual(generate(seed, feats, p.choices).source, p.source)


class ReduceTest(unittest.TestCase):
    def test_shrinks_to_minimal_interesting_list(self):
        # interesting: contains a value >= 5 somewhere after position 3
        def interesting(c):
            return c if any(v >= 5 for v in c[3:]) else None
        best, _ = shrink([9, 8, 7, 6, 5, 4, 3], interesting, budget_s=10)
        self.assertEqual(best, [0, 0, 0, 5])


class AstReduceTest(unittest.TestCase):
    def test_keeps_property_and_shrinks(self):
        prog = generate(3, ALL_FEATURES)

        def plain_f(parts):
            source = render_parts(parts).source
            return source.split("/* ---- plain ---- */")[1].split("/* ---- chk")[0]

        def interesting(parts):
            return "exp(" in plain_f(parts)
        self.assertTrue(interesting(prog.parts))
        parts, tests = reduce_ast(prog.parts, interesting, budget_s=30, max_tests=2000)
        self.assertTrue(interesting(parts))
        self.assertLess(len(plain_f(parts)), len(plain_f(prog.parts)) / 2)
        self.assertGreater(tests, 0)


if __name__ == "__main__":
    unittest.main()
