#!/usr/bin/env python3
"""Which reverse-mode requests of a set of C/C++ sources would get a
reusable tape (issue 17's measurement).

For every `__enzyme_autodiff(F, ...)` call in the sources, this asks the
compiler whether the split mode of the same request can have a reusable
tape: it demands one (`tapestry_reusable_tape`) in a probe placed beside the
call, in a preprocessed copy of the source, and compiles it with the plugin.
A clean compile says yes; the compiler's "cannot give 'F' a reusable tape
(tapestry_reusable_tape): ..." error says no, and why.

The probe is the split-mode descriptor `__tapestry_thunk(F, markers...,
tapestry_reusable_tape)` when every argument is spelled with a marker
(enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out); otherwise (an
argument whose activity comes from its type, or another marker) it is
`__enzyme_augmentfwd(F, the call's own arguments..., tapestry_reusable_tape)`,
so the compiler decides the activities as for the call. The probe sits next
to the call (`(probe, sink = &sink, call)`), so macros, templates and names
local to a function work; the preprocessed copy gives each expansion of a
macro its own request. A probe counts only if the plugin replaced it (no
call to it is left in the IR) and its store to the sink is in the IR (a
call in code that is never emitted is "not compiled"). A
probe that fails for another reason than reusability is skipped with that
reason, never counted as "not reusable": "test does not compile" when the
copy without the probe fails too, else "probe rejected".

Requests are deduplicated per (file, function, markers); for sources with
lit RUN lines, the -D/-U/-I/-std/-f/-m flags of each RUN line that compiles
the file are used (lines not under `not` first), and a request seen under
several flag sets is probed under the first.

    python3 tools/bench/reusable_fraction.py [--plugin P] [-O 0 -O 2]
        # the standard benchmarks (tools/bench/standard), -O2 by default
    python3 tools/bench/reusable_fraction.py --sources test -O 0 -O 2 -j 2
        # every .c/.cpp under test/ that asks for a reverse derivative
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# Reverse-mode markers the split-mode descriptor takes, with the number of
# values each one precedes in an __enzyme_autodiff call.
MARKER_VALUES = {"enzyme_dup": 2, "enzyme_dupnoneed": 2, "enzyme_const": 1,
                 "enzyme_out": 1}
REASON = re.compile(r"reusable tape \(tapestry_reusable_tape\): (.*)")
SINK = "tapestry_census_sink"
THUNK = "__tapestry_thunk_census"
AUGMENT = "__enzyme_augmentfwd_census"
# Declarations the probes need, put before the preprocessed source (the
# plugin recognises entry points by a name containing __tapestry_thunk or
# __enzyme_augmentfwd, so the probes' own names clash with no declaration).
PRELUDE_C = (f"extern int tapestry_reusable_tape;\n"
             f"const void *{THUNK}(void *, ...);\n"
             f"void {AUGMENT}(void *, ...);\n"
             f"const void *volatile {SINK};\n")
PRELUDE_CXX = f'extern "C" {{\n{PRELUDE_C}}}\n'
DRIVERS = ("%clangxx_fplugin", "%clang_fplugin", "%clangxx_enzyme",
           "%clang_enzyme", "%clangxx", "%clang")
BENCH_FLAGS = ["-std=c++17", "-DTOOL_TAPESTRY"]


def split_args(text):
    """Top-level comma-separated arguments of a call whose '(' precedes
    text; returns (args, end index of the closing parenthesis)."""
    depth, cur, args = 0, "", []
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                args.append(cur.strip())
                return args, i
            depth -= 1
        if ch == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
        else:
            cur += ch
    raise ValueError("unbalanced call")


def function_name(arg):
    """F of a call's first argument: (void *)F, (void *)&F,
    reinterpret_cast<void *>(F) or F."""
    arg = re.sub(r"^\(\s*(const\s+)?void\s*\*\s*\)\s*&?\s*", "", arg)
    m = re.fullmatch(r"reinterpret_cast\s*<\s*void\s*\*\s*>\s*\(\s*&?(.*)\)",
                     arg, re.S)
    return re.sub(r"\s+", " ", m.group(1) if m else arg).strip()


def thunk_markers(args):
    """The markers of a request whose every argument has one of
    MARKER_VALUES' markers, else None."""
    markers, i = [], 0
    while i < len(args):
        if args[i] not in MARKER_VALUES:
            return None
        markers.append(args[i])
        i += 1 + MARKER_VALUES[args[i]]
    return markers if i == len(args) else None


def is_declaration(args):
    """A prototype `__enzyme_autodiff(void *, ...)`, not a call."""
    return (not args[0] or any(a.endswith("...") for a in args) or
            re.fullmatch(r"(const\s+)?(void|double|float|int|char|long|"
                         r"unsigned|auto|size_t)\b[\s*&\w]*", args[0]))


def main_file_spans(text, path):
    """[start, end) ranges of preprocessed text that come from path itself
    (by the preprocessor's line markers), not from an included header."""
    spans, start, inside = [], 0, False
    for m in re.finditer(r'^# \d+ "((?:[^"\\]|\\.)*)".*$', text, re.M):
        if inside:
            spans.append((start, m.start()))
        inside = os.path.realpath(m.group(1)) == path
        start = m.end()
    if inside:
        spans.append((start, len(text)))
    return spans


ENTRIES = ("__enzyme_autodiff", "__enzyme_augmentfwd", "__tapestry_thunk")


def requests(text, path):
    """(start, end, function, markers or None, args, entry) of each
    reverse-mode or split-mode call in the preprocessed text whose call site
    is in path. markers are the thunk's: those of a marker-spelled
    __enzyme_autodiff, a __tapestry_thunk's own; None asks for the
    __enzyme_augmentfwd probe with the call's arguments."""
    out = []
    pattern = r"\b(" + "|".join(ENTRIES) + r")\w*\s*\("
    for lo, hi in main_file_spans(text, path):
        for m in re.finditer(pattern, text[lo:hi]):
            start = lo + m.start()
            try:
                args, close = split_args(text[lo + m.end():])
            except ValueError:
                continue
            if is_declaration(args):
                continue
            entry = m.group(1)
            markers = (thunk_markers(args[1:]) if entry == ENTRIES[0] else
                       args[1:] if entry == ENTRIES[2] else None)
            out.append((start, lo + m.end() + close + 1,
                        function_name(args[0]), markers, args, entry))
    return out


def probe_text(text, req, cxx):
    """text with the probe of req beside its call."""
    start, end, _, markers, args, _ = req
    tail = [a for a in (markers if markers is not None else args[1:])
            if a != "tapestry_reusable_tape"]
    tail = ", ".join(tail)
    entry = THUNK if markers is not None else AUGMENT
    probe = (f"((void){entry}({args[0]}, "
             f"{tail + ', ' if tail else ''}tapestry_reusable_tape), "
             f"{SINK} = (const void *)&{SINK}, {text[start:end]})")
    return ((PRELUDE_CXX if cxx else PRELUDE_C) + text[:start] + probe +
            text[end:])


def run_variants(path):
    """Flag sets of the lit RUN lines that compile path (the ones not under
    `not` first), or [[]] when none does."""
    text = open(path, errors="replace").read()
    lines, cur = [], ""
    for m in re.finditer(r"(?://|#|;)\s*RUN:(.*)", text):
        cur += m.group(1).strip()
        if cur.endswith("\\"):
            cur = cur[:-1] + " "
            continue
        lines.append(cur)
        cur = ""
    here = os.path.dirname(path)
    subst = {"%S": here, "%s": path, "%src_root": ROOT,
             "%eigen_flags": "-I/usr/include/eigen3"}
    good, bad = [], []
    for line in lines:
        for cmd in re.split(r"&&|\|\||\||;", line):
            try:
                toks = shlex.split(cmd)
            except ValueError:
                continue
            drv = [i for i, t in enumerate(toks) if t in DRIVERS]
            if not drv or "%s" not in toks:
                continue
            flags, i = [], drv[0] + 1
            toks = [t for t in toks]
            while i < len(toks):
                t = toks[i]
                for k, v in subst.items():
                    t = t.replace(k, v)
                if t == "%mpi_cflags":
                    flags += mpi_cflags()
                elif t in ("-I", "-D", "-U", "-include", "-isystem"):
                    if i + 1 < len(toks):
                        nxt = toks[i + 1]
                        for k, v in subst.items():
                            nxt = nxt.replace(k, v)
                        flags += [t, nxt]
                    i += 1
                elif t in ("-mllvm", "-Xclang", "-o"):
                    i += 1
                elif re.match(r"-(D|U|I|std=|include|isystem)", t) or (
                        re.match(r"-[fm]", t) and not re.match(
                            r"-f(pass-)?plugin|-fsanitize|-fprofile", t)):
                    flags.append(t)
                i += 1
            negated = re.search(r"(^|\s)not\s+(--crash\s+)?%clang", cmd)
            (bad if negated else good).append(flags)
    variants = []
    for flags in good + bad:
        if flags not in variants:
            variants.append(flags)
    return variants or [[]]


_MPI = None


def mpi_cflags():
    global _MPI
    if _MPI is None:
        try:
            _MPI = shlex.split(subprocess.run(
                ["mpicc", "-showme:compile"], capture_output=True,
                text=True).stdout)
        except OSError:
            _MPI = []
    return _MPI


def compiler(path):
    return "clang++-19" if path.endswith((".cpp", ".cc", ".cxx")) else \
        "clang-19"


def first_error(stderr):
    for line in stderr.splitlines():
        if "error:" in line:
            return line.split("error:", 1)[1].strip()
    lines = stderr.strip().splitlines()
    return lines[-1] if lines else "no message"


def normalise(reason):
    """A reason with its names, numbers and lines generalised, so that the
    same cause in different functions groups."""
    reason = re.sub(r"\('(the variable '[^']*'|a local variable[^']*)'\)",
                    "('X')", reason)
    reason = re.sub(r"(?<!\w)'[^']*'(?!\w)", "'X'", reason)
    reason = re.sub(r"\"[^\"]*\"", '"X"', reason)
    reason = re.sub(r"\b\d+\b", "N", reason)
    return reason


def split_top(text, sep="; "):
    """text split at the separators outside parentheses."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i])
            start = i + len(sep)
    return parts + [text[start:]]


CALLEE = re.compile(r"its reverse sweep runs the reverse of 'X'(?: \(line N\))?,"
                    r" whose own tape is not reusable \((.*)\)$")


def causes(reason):
    """The distinct causes a "cannot give 'f' a reusable tape" reason lists
    (it joins them with '; '), each cut to its statement (without the
    advice after it), names and numbers generalised; a callee whose own
    tape is not reusable gives its innermost causes, prefixed. Advice
    ("allocate it once ...") and notes ("it stays a call because ...") are
    not causes."""
    out = []
    for part in split_top(normalise(reason).strip()):
        if not re.match(r"its |the tape |it calls ", part.strip()):
            continue
        m = CALLEE.match(part.strip())
        if m:
            out += ["a callee's tape is not reusable: " +
                    c.replace("a callee's tape is not reusable: ", "")
                    for c in causes(m.group(1))]
            continue
        part = re.sub(r" \(line N\)|(?<=parameter N) \('X'\)", "", part)
        part = re.split(r", so that |: the tape owns |; pass |, and a second",
                        part)[0]
        out.append(part.strip())
    return sorted(set(out))


class Census:
    def __init__(self, plugin, levels):
        self.plugin, self.levels = plugin, levels
        self.include = os.path.join(ROOT, "include")

    def cmd(self, path, flags, extra):
        return ([compiler(path)] + flags + ["-I" + self.include,
                                            "-I" + os.path.dirname(path),
                                            f"-fpass-plugin={self.plugin}",
                                            f"-fplugin={self.plugin}"] + extra)

    def preprocess(self, path, flags):
        r = subprocess.run(self.cmd(path, flags, ["-E", path]),
                           capture_output=True, text=True)
        return r.stdout if r.returncode == 0 else None

    def compile(self, src_name, text, flags, opt, tmp):
        src = os.path.join(tmp, src_name)
        with open(src, "w") as f:
            f.write(text)
        out = os.path.join(tmp, "probe.ll")
        r = subprocess.run(self.cmd(src, flags, [opt, "-g", "-w", "-S",
                                                 "-emit-llvm", src,
                                                 "-o", out]),
                           capture_output=True, text=True)
        ir = open(out, errors="replace").read() if r.returncode == 0 else ""
        return r, ir

    def probe(self, path, flags, text, req, opt):
        """('yes' | 'no' | 'skip' | 'not compiled', reason, probe). A
        descriptor probe the compiler rejects for another reason than
        reusability (markers only cannot describe a struct passed by value,
        say) is retried as __enzyme_augmentfwd with the call's arguments."""
        verdict, why = self.probe_as(path, flags, text, req, opt)
        if verdict == "skip" and req[3] is not None and \
                req[5] == ENTRIES[0] and why.startswith("probe rejected"):
            return self.probe_as(path, flags, text, req[:3] + (None,) +
                                 req[4:], opt) + ("augmentfwd",)
        return verdict, why, "thunk" if req[3] is not None else "augmentfwd"

    def probe_as(self, path, flags, text, req, opt):
        """('yes' | 'no' | 'skip' | 'not compiled', reason)."""
        cxx = compiler(path) == "clang++-19"
        name = os.path.basename(path)
        with tempfile.TemporaryDirectory() as tmp:
            r, ir = self.compile(name, probe_text(text, req, cxx), flags, opt,
                                 tmp)
            if r.returncode == 0:
                if re.search(rf"call [^\n]*@({THUNK}|{AUGMENT})\b", ir):
                    return "skip", "probe left uncompiled by the plugin"
                if not re.search(rf"store volatile ptr [^\n]*@{SINK}\b", ir):
                    return "not compiled", "the call is in code never emitted"
                return "yes", ""
            m = REASON.search(r.stderr)
            if m:
                return "no", m.group(1).strip()
            base, _ = self.compile(name, text, flags, opt, tmp)
        if base.returncode != 0:
            return "skip", "test does not compile: " + first_error(base.stderr)
        return "skip", "probe rejected: " + first_error(r.stderr)


def collect(census, sources, extra_flags):
    """(relative path, flags, preprocessed text, request) of each distinct
    request under the given files and directories."""
    files = []
    for s in sources:
        if os.path.isfile(s):
            files.append(os.path.realpath(s))
            continue
        for root, dirs, names in os.walk(s):
            dirs.sort()
            for n in sorted(names):
                if n.endswith((".c", ".cpp", ".cc", ".cxx")):
                    files.append(os.path.realpath(os.path.join(root, n)))
    out, seen, unread = [], set(), []
    for path in files:
        source = open(path, errors="replace").read()
        if not any(e in source for e in ENTRIES):
            continue
        rel = os.path.relpath(path, ROOT)
        found = False
        for flags in run_variants(path):
            text = census.preprocess(path, extra_flags + flags)
            if text is None:
                continue
            found = True
            for req in requests(text, path):
                key = (rel, req[5], req[2],
                       tuple(req[3]) if req[3] is not None else
                       tuple(re.sub(r"\s+", "", a) for a in req[4][1:]))
                if key not in seen:
                    seen.add(key)
                    out.append((rel, extra_flags + flags, text, req))
        if not found:
            unread.append(rel)
    return out, unread


def summary(rows, levels):
    """Per optimisation level: how many requests are reusable, the causes
    of the others (with the number of requests and of files each), and why
    the skipped ones were not counted."""
    for lvl in levels:
        mine = [r for r in rows if r["opt"] == lvl]
        count = collections.Counter(r["verdict"] for r in mine)
        measured = count["yes"] + count["no"]
        files = len({r["file"] for r in mine if r["verdict"] in ("yes", "no")})
        print(f"-O{lvl}: {count['yes']} of {measured} requests reusable "
              f"in {files} file{'s' if files != 1 else ''}; "
              f"{count['skip']} skipped, "
              f"{count['not compiled']} in code never compiled")
        for entry in ENTRIES:
            part = [r for r in mine if r["entry"] == entry and
                    r["verdict"] in ("yes", "no")]
            if part and len(part) < measured:
                print(f"  {entry}: {sum(r['verdict'] == 'yes' for r in part)}"
                      f" of {len(part)}")
        by_cause = collections.defaultdict(list)
        for r in mine:
            if r["verdict"] == "no":
                for c in causes(r["reason"]):
                    by_cause[c].append(r["file"])
        if by_cause:
            print("  not reusable, by cause (requests, files; a request may "
                  "have several):")
        for reason, where in sorted(by_cause.items(),
                                    key=lambda kv: (-len(kv[1]), kv[0])):
            print(f"    {len(where):4} {len(set(where)):3}  {reason[:200]}")
        skips = collections.Counter()
        for r in mine:
            if r["verdict"] == "skip":
                why = normalise(r["reason"])
                if why.startswith("test does not compile"):
                    why = "test does not compile on its own"
                skips[why[:120]] += 1
        if skips:
            print("  skipped (not counted), by reason:")
        for reason, n in skips.most_common():
            print(f"    {n:4}  {reason}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--plugin",
                    default=os.path.join(ROOT, "build/plugin/TapestryPlugin-19.so"))
    ap.add_argument("-O", dest="levels", action="append",
                    help="optimisation level (repeatable; default 2)")
    ap.add_argument("--sources", nargs="+", metavar="DIR",
                    help="files or directories of C/C++ sources (default: "
                    "tools/bench/standard/*.cpp with " + " ".join(BENCH_FLAGS)
                    + ")")
    ap.add_argument("-j", dest="jobs", type=int, default=1)
    ap.add_argument("--json", help="write every probe's result here")
    ap.add_argument("--from-json", metavar="JSON",
                    help="print the summary of an earlier --json, compiling "
                    "nothing")
    a = ap.parse_args()
    if a.from_json:
        rows = json.load(open(a.from_json))
        summary(rows, a.levels or sorted({r["opt"] for r in rows}))
        return 0
    levels = a.levels or ["2"]
    census = Census(os.path.abspath(a.plugin), levels)
    if a.sources:
        reqs, unread = collect(census, a.sources, [])
    else:
        std = os.path.join(HERE, "standard")
        reqs, unread = collect(census, [os.path.join(std, n) for n in sorted(
            os.listdir(std)) if n.endswith(".cpp")], BENCH_FLAGS)
    jobs = [(r, lvl) for r in reqs for lvl in levels]
    print(f"{len(reqs)} requests, {len(jobs)} probes", file=sys.stderr)

    def run(job):
        (rel, flags, text, req), lvl = job
        res = census.probe(os.path.join(ROOT, rel), flags, text, req,
                           "-O" + lvl)
        print(f"-O{lvl} {rel}: {req[2]}: {res[0]}", file=sys.stderr,
              flush=True)
        return res

    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        results = list(pool.map(run, jobs))
    rows = []
    for ((rel, _, _, req), lvl), (verdict, why, how) in zip(jobs, results):
        rows.append({"file": rel, "function": req[2], "entry": req[5],
                     "probe": how,
                     "markers": req[3], "opt": lvl, "verdict": verdict,
                     "reason": why})
        print(f"-O{lvl} {rel}: {req[5]} {req[2]} ({how}) {verdict}"
              f"{': ' + why[:300] if why else ''}")
    for rel in unread:
        print(f"unread: {rel} (no flag set of its RUN lines preprocesses it)")
    print()
    summary(rows, levels)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
