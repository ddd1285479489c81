#!/usr/bin/env python3
"""Which reverse-mode requests of the standard benchmarks would get a
reusable tape (issue 17's measurement).

For every `__enzyme_autodiff((void *)F, markers and values...)` in
tools/bench/standard/*.cpp, this asks the compiler for the split-mode
descriptor of the same request, `__tapestry_thunk((void *)F, markers...)`,
in a copy of the source, and prints its `reusable` answer (and, when it is
no, the reason the compiler gives for a demanded reusable tape).

    python3 tools/bench/reusable_fraction.py [--plugin P] [-O2]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MARKER_VALUES = {"enzyme_dup": 2, "enzyme_dupnoneed": 2, "enzyme_const": 1,
                 "enzyme_out": 1}


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


def requests(source):
    """(function, [markers]) of each __enzyme_autodiff call in source."""
    out = []
    for m in re.finditer(r"__enzyme_autodiff\s*\(", source):
        args, _ = split_args(source[m.end():])
        fn = re.sub(r"^\(\s*void\s*\*\s*\)\s*&?", "", args[0])
        markers, i = [], 1
        while i < len(args):
            if args[i] not in MARKER_VALUES:
                return out  # an argument without a marker: not probed
            markers.append(args[i])
            i += 1 + MARKER_VALUES[args[i]]
        out.append((fn, markers))
    return out


def probe(src, fn, markers, plugin, opt):
    """reusable (True/False) and the reason, for one request."""
    text = open(src).read()
    body = ", ".join(markers)
    probe_fn = (
        "\n#include <tapestry/thunk.h>\n"
        "extern \"C\" int tapestry_reusable_fraction_probe() {\n"
        f"  return __tapestry_thunk((void *){fn}, {body}, "
        "tapestry_reusable_tape)->reusable;\n}\n")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, os.path.basename(src))
        with open(path, "w") as f:
            f.write(text + probe_fn)
        cmd = ["clang++-19", opt, "-g", "-std=c++17", "-DTOOL_TAPESTRY",
               "-I" + os.path.join(ROOT, "include"), "-I" + os.path.dirname(src),
               f"-fpass-plugin={plugin}", f"-fplugin={plugin}", "-c", path,
               "-o", os.path.join(tmp, "probe.o")]
        r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode == 0:
        return True, ""
    m = re.search(r"reusable tape \(tapestry_reusable_tape\): (.*)", r.stderr)
    return False, (m.group(1) if m else r.stderr.strip().splitlines()[0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin",
                    default=os.path.join(ROOT, "build/plugin/TapestryPlugin-19.so"))
    ap.add_argument("-O", dest="opt", default="2")
    a = ap.parse_args()
    total = yes = 0
    srcdir = os.path.join(HERE, "standard")
    for name in sorted(os.listdir(srcdir)):
        if not name.endswith(".cpp"):
            continue
        src = os.path.join(srcdir, name)
        for fn, markers in requests(open(src).read()):
            ok, why = probe(src, fn, markers, a.plugin, "-O" + a.opt)
            total += 1
            yes += ok
            print(f"{name:12} {fn:28} {'yes' if ok else 'no: ' + why[:300]}")
    print(f"{yes} of {total} requests reusable at -O{a.opt}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
