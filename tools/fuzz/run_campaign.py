#!/usr/bin/env python3
"""Differential fuzzing campaign for the Tapestry AD plugin.

For every seed: generate a program (gen.py), compile it with the plugin at a
random -O level, run it, and judge it (oracle.py).  Failures are saved under
--failures-dir/<category>-<seed>/ and reduced by delta debugging over the
generator's choices (reduce.py).  The last lines are a per-category count and

    N passed, M failed

where M counts compiler crashes, verifier/link errors, runtime crashes and
wrong derivatives.  Programs the plugin rejects with a clang error, and
programs that are not smooth at their sample point, are reported separately
and counted neither way.

    run_campaign.py --seeds 1-500 --jobs 2
    run_campaign.py --seeds 1-200 --features scalar,branches,loops,arrays
    run_campaign.py --seeds 1-300 --no-ad          # generator self test
"""

import argparse
import collections
import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True   # keep the source tree clean
sys.path.insert(0, HERE)

import oracle  # noqa: E402
from gen import parse_features  # noqa: E402
from program import generate, render_parts, render_probe  # noqa: E402
from reduce import reduce_ast, shrink  # noqa: E402

DEFAULT_PLUGIN = os.path.join(HERE, "..", "..", "build", "plugin", "TapestryPlugin-19.so")
CRASH_MARKERS = ("PLEASE submit a bug report", "Stack dump", "LLVM ERROR",
                 "Assertion `", "UNREACHABLE executed")
# the plugin verifies what it synthesised and reports invalid IR as a clang
# error ("internal error: ... is invalid IR"): a failure, not a rejection
VERIFIER_MARKERS = ("Broken module found", "Broken function found",
                    "verification failed", "Instruction does not dominate",
                    "tapestry: internal error")
FAIL_CATEGORIES = ("crash", "verifier", "compile-timeout", "plugin-load", "link-error", "gen-error",
                   "gen-race", "runtime-crash", "runtime-timeout") + oracle.FAILURES
# --tsan (feature omp): the primal under ThreadSanitizer with LLVM's OpenMP
# tool Archer, which tells TSan about the runtime's synchronisation
ARCHER = "/usr/lib/llvm-19/lib/libarcher.so"
SKIP_CATEGORIES = ("rejected", "nonsmooth", "invalid")
NO_REDUCE = ("plugin-load", "compile-timeout", "runtime-timeout")
# the probe wants a margin this many times the oracle's: the probe's -O0
# compile and the program's own may differ by rounding
PROBE_MARGIN = 1.01


class Outcome:
    """Everything known about one compiled-and-run program."""

    def __init__(self, seed, olevel, category, details="", cmd="", stderr="", stdout="",
                 rechecked=0):
        self.seed, self.olevel, self.category = seed, olevel, category
        self.details, self.cmd, self.stderr, self.stdout = details, cmd, stderr, stdout
        self.rechecked = rechecked
        self.point = 0   # the sample point (set by Runner.check_seed)

    @property
    def failed(self):
        return self.category in FAIL_CATEGORIES


class Runner:
    """Compiles and runs programs; shared by the campaign and the reducer."""

    def __init__(self, args, plugin_copy=None):
        self.clang = args.clang
        self.plugin = os.path.abspath(args.plugin) if args.plugin else None
        # compile with a private copy, so a concurrent rebuild cannot break
        # the campaign; reproducers still name the real path
        self.plugin_used = plugin_copy or self.plugin
        self.tsan = getattr(args, "tsan", False)
        self.no_ad = args.no_ad or self.tsan
        self.features = parse_features(args.features)
        self.fixed_opt = args.opt
        self.compile_timeout = args.compile_timeout
        self.run_timeout = args.run_timeout
        self.opt_tool = args.opt_tool
        self.points = getattr(args, "points", 1)
        self.omp_threads = [int(t) for t in str(getattr(args, "omp_threads", "1,2")).split(",")]

    def olevel(self, seed):
        if self.fixed_opt is not None:
            return self.fixed_opt
        return random.Random(seed * 1000003 + 17).randrange(4)

    def compile_cmd(self, olevel, src, exe, shown=False):
        cmd = [self.clang, "-O%d" % olevel, "-w"]
        if self.tsan:
            # the AD calls compiled out: a race-free primal is the
            # generator's promise, checked without the plugin
            cmd = [self.clang, "-O1", "-g", "-w", "-DTAP_NO_AD", "-fsanitize=thread"]
        elif self.no_ad:
            cmd.append("-DTAP_NO_AD")
        else:
            cmd.append("-fpass-plugin=%s" % (self.plugin if shown else self.plugin_used))
        return cmd + self.omp_flags() + [src, "-o", exe, "-lm"]

    def omp_flags(self):
        return ["-fopenmp"] if "omp" in self.features else []

    def thread_counts(self):
        """OMP_NUM_THREADS values a program runs with (feature omp), else
        one run with the environment as it is."""
        return self.omp_threads if "omp" in self.features else [None]

    def check(self, seed, olevel, prog, workdir):
        """Compile, run and judge one program inside workdir."""
        src, exe = os.path.join(workdir, "prog.c"), os.path.join(workdir, "prog")
        with open(src, "w") as fh:
            fh.write(prog.source)
        if self.staged(prog.meta):
            stages = self.staged_cmds(olevel, prog.meta, src, exe)
            shown = "\n".join(" ".join(c) for c in
                              self.staged_cmds(olevel, prog.meta, src, exe, shown=True))
        else:
            stages = [self.compile_cmd(olevel, src, exe)]
            shown = " ".join(self.compile_cmd(olevel, src, exe, shown=True))
        cc = None
        for stage, cmd in enumerate(stages):
            try:
                cc = subprocess.run(cmd, capture_output=True, text=True,
                                    timeout=self.compile_timeout)
            except subprocess.TimeoutExpired:
                return Outcome(seed, olevel, "compile-timeout", cmd=shown)
            if cc.returncode != 0 or any(m in cc.stderr for m in CRASH_MARKERS + VERIFIER_MARKERS):
                break
        category = self.classify_compile(cc, src)
        if category == "rejected" and len(stages) > 1 and (stage != 1 or "tapestry" not in cc.stderr):
            # not the plugin's diagnostic: opt is not LLVM 19, or it did not load
            category = "plugin-load"
        if category is None and self.no_ad and not self.generator_valid(src):
            category = "gen-error"   # the AD calls compiled out are invalid C
        if category:
            return Outcome(seed, olevel, category, first_error(cc.stderr), shown, cc.stderr)
        out = None
        for threads in self.thread_counts():
            out = self.run_judge(seed, olevel, prog, exe, shown, cc.stderr, threads)
            if out.category != "pass":
                break
        return out

    def run_judge(self, seed, olevel, prog, exe, shown, cc_stderr, threads):
        """Run the compiled program (with OMP_NUM_THREADS=threads unless
        None) and judge its output."""
        env = None
        tag = ""
        if threads is not None:
            env = dict(os.environ, OMP_NUM_THREADS=str(threads))
            if self.tsan:
                env.update(OMP_TOOL_LIBRARIES=ARCHER, TSAN_OPTIONS="ignore_noninstrumented_modules=1")
            tag = "OMP_NUM_THREADS=%d: " % threads
            shown = "OMP_NUM_THREADS=%d %s" % (threads, shown)
        try:
            run = subprocess.run([exe], capture_output=True, text=True, timeout=self.run_timeout,
                                 env=env)
        except subprocess.TimeoutExpired:
            return Outcome(seed, olevel, "runtime-timeout", tag, cmd=shown, stderr=cc_stderr)
        if self.tsan and "ThreadSanitizer" in run.stderr:
            why = next((l.strip() for l in run.stderr.splitlines() if "WARNING" in l), "")
            return Outcome(seed, olevel, "gen-race", tag + why, shown, cc_stderr + run.stderr,
                           run.stdout)
        if run.returncode != 0:
            # the program's own message (e.g. a tape check) says where it stopped
            why = next((l.strip() for l in run.stderr.splitlines() if l.strip()), "")
            return Outcome(seed, olevel, "runtime-crash",
                           "%sexit code %d%s" % (tag, run.returncode, ": " + why[:200] if why else ""),
                           shown, cc_stderr + run.stderr, run.stdout)
        verdict = oracle.judge(run.stdout, prog.meta, ad=not self.no_ad)
        details = "; ".join(verdict.details)
        out = Outcome(seed, olevel, verdict.category, tag + details if details else "", shown,
                      cc_stderr, run.stdout, verdict.rechecked)
        # split mode: the thunk's compile-time answer "may I replay this tape?"
        out.reusable = next((l.split()[1] for l in run.stdout.splitlines()
                             if l.startswith("REUSABLE ")), None)
        return out

    def staged(self, meta):
        """Feature vectorize: clang -O3 -march=native [-ffast-math]
        [-fveclib=libmvec] to IR without the plugin, opt with the plugin,
        then clang links, so the plugin differentiates vectorised IR."""
        return not self.no_ad and "vectorize" in meta.get("features", ())

    def staged_cmds(self, olevel, meta, src, exe, shown=False):
        plugin = self.plugin if shown else self.plugin_used
        ir, dif = src[:-2] + ".ll", src[:-2] + ".d.bc"
        flags = meta.get("vecflags", [])
        omp = self.omp_flags()
        return [[self.clang, "-O3", "-march=native", "-w"] + flags + omp
                + ["-S", "-emit-llvm", src, "-o", ir],
                [self.opt_tool, "-load-pass-plugin=%s" % plugin, "-passes=tapestry", ir,
                 "-o", dif],
                [self.clang, "-O%d" % olevel, "-march=native", "-w"] + omp
                + [dif, "-o", exe, "-lm"]]

    def classify_compile(self, cc, src):
        """None when compilation succeeded, else a category."""
        err = cc.stderr
        if cc.returncode < 0 or any(m in err for m in CRASH_MARKERS):
            return "crash"
        if any(m in err for m in VERIFIER_MARKERS):
            return "verifier"
        if cc.returncode == 0:
            return None
        if "unable to load plugin" in err or "Failed to load passes" in err:
            return "plugin-load"
        if "undefined reference" in err:
            return "link-error"
        if not self.generator_valid(src):
            return "gen-error"
        return "rejected"

    def generator_valid(self, src):
        """Is the program valid C without the plugin (AD calls included)?"""
        cmd = [self.clang, "-fsyntax-only", "-w"] + self.omp_flags() + [src]
        return subprocess.run(cmd, capture_output=True).returncode == 0

    def check_seed(self, seed, replay=None, olevel=None, point=None):
        """`point`: the sample point (see program.resample); by default the
        first smooth one of --points candidates, as the probe finds it."""
        prog = generate(seed, self.features, replay)
        if point is None:
            point = self.choose_point(prog)
        if point:
            prog = generate(seed, self.features, replay, point)
        olevel = self.olevel(seed) if olevel is None else olevel
        out = self.check_program(seed, olevel, prog)
        out.point = point
        return prog, out

    def choose_point(self, prog):
        """The first of the program's sample points 0 .. --points - 1 at
        which it is smooth (branch margins, paths of the finite-difference
        stencils), found by the probe: its check twins alone, compiled at
        -O0 without the plugin. 0 when none is, or the probe fails (the
        program's own compile and run then say why)."""
        if self.points <= 1:
            return 0
        with tempfile.TemporaryDirectory(prefix="tapfuzz-probe-") as tmp:
            src, exe = os.path.join(tmp, "probe.c"), os.path.join(tmp, "probe")
            with open(src, "w") as fh:
                limits = [PROBE_MARGIN * m for m in oracle.margin_limits(prog.meta)]
                fh.write(render_probe(prog, self.points, limits))
            try:
                cc = subprocess.run([self.clang, "-O0", "-w", src, "-o", exe, "-lm"],
                                    capture_output=True, timeout=self.compile_timeout)
                if cc.returncode != 0:
                    return 0
                run = subprocess.run([exe], capture_output=True, text=True,
                                     timeout=self.run_timeout)
            except subprocess.TimeoutExpired:
                return 0
        tried = [line.split() for line in run.stdout.splitlines() if line.startswith("CAND ")]
        if run.returncode != 0 or not tried:
            return 0
        last = tried[-1]
        smooth = (all(float(m) >= PROBE_MARGIN * limit
                      for m, limit in zip(last[2:4], oracle.margin_limits(prog.meta)))
                  and last[4] == "1")
        return int(last[1]) if smooth else 0

    def check_program(self, seed, olevel, prog):
        with tempfile.TemporaryDirectory(prefix="tapfuzz-") as tmp:
            return self.check(seed, olevel, prog, tmp)


def first_error(stderr):
    for line in stderr.splitlines():
        if "error" in line.lower() or "assert" in line.lower():
            return line.strip()
    return stderr.strip().splitlines()[0] if stderr.strip() else ""


# ------------------------------------------------------------------- failures

def repro_commands(runner, seed, olevel, src="prog.c", meta=None):
    feats = ",".join(runner.features)
    point = (meta or {}).get("point", 0)
    gen = "python3 tools/fuzz/gen.py --seed %d --features %s%s -o %s" % (
        seed, feats, " --point %d" % point if point else "", src)
    runs = "".join("%s./prog\n" % ("" if t is None else "OMP_NUM_THREADS=%d " % t)
                   for t in runner.thread_counts())
    return "%s\n%s\n%s" % (gen, compile_text(runner, olevel, src, meta), runs)


def compile_text(runner, olevel, src, meta):
    """The compile command(s) of a reproducer, one per line."""
    if meta is not None and runner.staged(meta):
        return "\n".join(" ".join(c) for c in
                         runner.staged_cmds(olevel, meta, src, "prog", shown=True))
    return " ".join(runner.compile_cmd(olevel, src, "prog", shown=True))


def save_failure(runner, root, prog, outcome):
    """Write the reproducer directory; returns its path."""
    path = os.path.join(root, "%s-%d" % (outcome.category, outcome.seed))
    if os.path.isdir(path):
        shutil.rmtree(path)
    os.makedirs(path)
    files = {"prog.c": prog.source, "cmd.txt": repro_commands(runner, outcome.seed, outcome.olevel,
                                                     meta=prog.meta),
             "compile.stderr": outcome.stderr, "run.stdout": outcome.stdout,
             "verdict.txt": "%s\n%s\n" % (outcome.category, outcome.details.replace("; ", "\n"))}
    for name, text in files.items():
        with open(os.path.join(path, name), "w") as fh:
            fh.write(text)
    meta = dict(prog.meta, olevel=outcome.olevel, choices=prog.choices)
    with open(os.path.join(path, "meta.json"), "w") as fh:
        json.dump(meta, fh)
    return path


def reduce_failure(runner, path, prog, outcome, budget):
    """Shrink a failing program: its choice list first, then its AST.

    Writes reduced.c, reduced_choices.json (the choice-level result, which
    gen.py --replay rebuilds) and reduced.txt; returns the number of tests."""
    def same_choices(cand):
        p, o = runner.check_seed(outcome.seed, cand, outcome.olevel, outcome.point)
        return p.choices if o.category == outcome.category else None

    def same_ast(parts):
        o = runner.check_program(outcome.seed, outcome.olevel, render_parts(parts))
        return o.category == outcome.category

    best, tests1 = shrink(prog.choices, same_choices, budget_s=0.3 * budget)
    by_choices = generate(outcome.seed, runner.features, best, outcome.point)
    parts, tests2 = reduce_ast(by_choices.parts, same_ast, budget_s=0.7 * budget)
    reduced = render_parts(parts)
    out = runner.check_program(outcome.seed, outcome.olevel, reduced)
    with open(os.path.join(path, "reduced.c"), "w") as fh:
        fh.write(reduced.source)
    with open(os.path.join(path, "reduced_choices.json"), "w") as fh:
        json.dump(best, fh)
    feats = ",".join(runner.features)
    with open(os.path.join(path, "reduced.txt"), "w") as fh:
        fh.write("category %s after %d + %d tests (%d -> %d choices; %d -> %d -> %d bytes)\n"
                 "%s\n\nchoice-level reproducer:\n"
                 "python3 tools/fuzz/gen.py --seed %d --features %s --point %d --replay %s"
                 " -o prog.c\n"
                 "reduced.c is that program after AST reduction:\n%s\n./prog\n"
                 % (out.category, tests1, tests2, len(prog.choices), len(best),
                    len(prog.source), len(by_choices.source), len(reduced.source),
                    out.details.replace("; ", "\n"), outcome.seed, feats, outcome.point,
                    os.path.join(path, "reduced_choices.json"),
                    compile_text(runner, outcome.olevel, "reduced.c", reduced.meta)))
    return tests1 + tests2


# ------------------------------------------------------------------- campaign

def parse_seeds(text):
    """'1-200' or '5,9,12' or '1-10,40'."""
    seeds = []
    for part in text.split(","):
        if "-" in part:
            lo, hi = part.split("-")
            seeds.extend(range(int(lo), int(hi) + 1))
        elif part:
            seeds.append(int(part))
    return seeds


def rejection_reasons(outcomes, limit=8):
    """Most frequent clang errors among rejected programs (location stripped)."""
    reasons = collections.Counter()
    for o in outcomes:
        if o.category == "rejected":
            text = o.details.split(" error: ", 1)[-1] if " error: " in o.details else o.details
            reasons[text[:160]] += 1
    for text, n in reasons.most_common(limit):
        print("rejected x%d: %s" % (n, text))


def summarize(outcomes, elapsed):
    rejection_reasons(outcomes)
    counts = collections.Counter(o.category for o in outcomes)
    passed = counts.get("pass", 0)
    failed = sum(counts.get(c, 0) for c in FAIL_CATEGORIES)
    rechecked = sum(o.rechecked for o in outcomes)
    thunks = [getattr(o, "reusable", None) for o in outcomes]
    thunks = [r for r in thunks if r is not None]
    if thunks:
        print("split thunks: %d of %d reusable (their tapes replayed with 2-4 seeds)"
              % (thunks.count("1"), len(thunks)))
    moved = sum(1 for o in outcomes if o.point)
    if moved:
        print("sample points: %d of %d programs moved off a non-smooth first point"
              % (moved, len(outcomes)))
    cats = " ".join("%s=%d" % (c, n) for c, n in sorted(counts.items()))
    print("categories: %s (programs %d, long-double rechecks %d, %.0fs)"
          % (cats, len(outcomes), rechecked, elapsed))
    print("%d passed, %d failed" % (passed, failed))
    return failed


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="1-100", help="e.g. 1-200 or 3,7,11")
    ap.add_argument("--features", default="default")
    ap.add_argument("--plugin", default=DEFAULT_PLUGIN)
    ap.add_argument("--clang", default="clang-19")
    ap.add_argument("--opt-tool", default="opt-19", help="opt, for feature vectorize")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--opt", type=int, choices=range(4), help="fixed -O level")
    ap.add_argument("--no-ad", action="store_true", help="self test without the plugin")
    ap.add_argument("--failures-dir", default=os.path.join(HERE, "failures"))
    ap.add_argument("--no-reduce", action="store_true")
    ap.add_argument("--reduce-budget", type=float, default=120.0, help="seconds per failure")
    ap.add_argument("--compile-timeout", type=float, default=120.0)
    ap.add_argument("--run-timeout", type=float, default=20.0)
    ap.add_argument("--quiet", action="store_true", help="print only failures")
    ap.add_argument("--tsan", action="store_true",
                    help="feature omp: self test of the generator's parallel loops: the"
                    " primal (AD compiled out) under ThreadSanitizer and Archer; a race is"
                    " category gen-race")
    ap.add_argument("--omp-threads", default="1,2",
                    help="feature omp: run every program with each of these OMP_NUM_THREADS"
                    " (comma separated); the first run that is not a pass is the outcome")
    ap.add_argument("--points", type=int, default=16,
                    help="candidate sample points per program: the first at which the"
                    " program is smooth is used (1: the first, smooth or not)")
    args = ap.parse_args(argv)
    args.no_ad = args.no_ad or args.tsan
    if not args.no_ad and not os.path.exists(args.plugin):
        print("plugin not found: %s (build it, or use --no-ad)" % args.plugin)
        return 2
    with tempfile.TemporaryDirectory(prefix="tapfuzz-plugin-") as snap:
        copy = None if args.no_ad else snapshot_plugin(args.plugin, args.clang, snap)
        if not args.no_ad and copy is None:
            print("plugin cannot be loaded by %s: %s" % (args.clang, args.plugin))
            return 2
        return campaign(args, Runner(args, copy))


def snapshot_plugin(plugin, clang, directory, attempts=6, wait=20.0):
    """Copy the plugin and check that clang loads the copy.

    The campaign compiles with this private copy, so a rebuild of the plugin
    during a long campaign cannot disturb it; a copy taken while the plugin
    is being linked fails the check, and is retaken after a pause."""
    copy = os.path.join(directory, os.path.basename(plugin))
    # the clang part (Enzyme's attributes, source-level signatures) is a
    # companion file the plugin loads from its own directory
    src_dir = os.path.dirname(os.path.abspath(plugin))
    parts = [n for n in os.listdir(src_dir) if n.startswith("TapestryClang") and n.endswith(".so")]
    probe = os.path.join(directory, "probe.c")
    with open(probe, "w") as fh:
        fh.write("int main(void) { return 0; }\n")
    for attempt in range(attempts):
        if attempt:
            time.sleep(wait)
        try:
            shutil.copy2(plugin, copy)
            for name in parts:
                shutil.copy2(os.path.join(src_dir, name), directory)
        except OSError:
            continue
        cmd = [clang, "-c", "-fpass-plugin=%s" % copy, probe, "-o", os.devnull]
        probe_run = subprocess.run(cmd, capture_output=True, text=True)
        if probe_run.returncode == 0 and not (parts and "cannot load" in probe_run.stderr):
            return copy
    return None


def campaign(args, runner):
    """Run every seed, save and reduce failures, print the summary."""
    seeds = parse_seeds(args.seeds)
    start = time.monotonic()
    outcomes, failures = [], []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(runner.check_seed, s): s for s in seeds}
        for fut in concurrent.futures.as_completed(futures):
            prog, out = fut.result()
            outcomes.append(out)
            if out.failed:
                path = save_failure(runner, args.failures_dir, prog, out)
                failures.append((path, prog, out))
                print("FAIL %-16s seed %d -O%d %s: %s" % (out.category, out.seed, out.olevel,
                                                         path, out.details[:300]), flush=True)
            else:
                # a rejection is no failure, but may be a plugin bug (a
                # differentiable program refused): keep its reproducer
                saved = (" " + save_failure(runner, args.failures_dir, prog, out)
                         if out.category == "rejected" else "")
                if not args.quiet:
                    print("%-16s seed %d -O%d%s%s%s %s" % (
                        out.category, out.seed, out.olevel,
                        " point %d" % out.point if out.point else "",
                        "" if getattr(out, "reusable", None) is None else " reusable " + out.reusable,
                        saved, out.details[:200]), flush=True)
    failures = [f for f in failures if f[2].category not in NO_REDUCE]
    if failures and not args.no_reduce:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            jobs = {pool.submit(reduce_failure, runner, p, prog, o, args.reduce_budget): p
                    for p, prog, o in failures}
            for fut in concurrent.futures.as_completed(jobs):
                print("reduced %s (%d tests)" % (jobs[fut], fut.result()), flush=True)
    failed = summarize(outcomes, time.monotonic() - start)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
