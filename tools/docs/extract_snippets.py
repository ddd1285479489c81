#!/usr/bin/env python3
"""Compiles and runs the C and C++ snippets of Tapestry's documentation.

Every ```c and ```cpp block of docs/*.md and README.md carries directives in
comment lines (they stay visible: they read as the snippet's file name):

  // snippet: NAME.c          compile NAME.c with the plugin at each -O level
                              and run it; it must exit 0, print at least one
                              line "... = X (expected Y)", and X must equal Y
                              (relative 1e-6: both are printed with %g)
  // snippet-skip: REASON     a fragment by design: not compiled (keep few)
  // snippet-part-of: NAME.c  another source file of snippet NAME.c
  // snippet-flags: FLAGS     extra compile flags ($PLUGIN is the plugin;
                              with -fplugin=$PLUGIN, -fpass-plugin is not
                              added)
  // snippet-lto              compile each file with -flto -c and link with
                              -flto -fuse-ld=lld and the plugin in the linker
  // snippet-error: TEXT      the compile must fail with TEXT in its output
  // snippet-diag: TEXT       the compile succeeds with TEXT in its output
  // snippet-compile-only     compile (and check diagnostics) but do not run
  // snippet-run-fails: TEXT  the program must exit non-zero with TEXT in its
                              output (a run-time check the docs show)

C is compiled with `clang -std=gnu17`, C++ with `clang++ -std=c++17`, both
with -Wall -Wextra -Werror, -I<include> and linked with the runtime and libm.

  extract_snippets.py --src ROOT --plugin P --runtime-dir R --clang C \
      --out DIR docs/x.md ...       compile and run the snippets of x.md
  extract_snippets.py --src ROOT --export DIR docs/x.md
                                    writes x.md's snippets and its ```cmake
                                    blocks that start '# snippet: NAME' into
                                    DIR (test/Package builds them)
  extract_snippets.py --src ROOT --check-coverage TESTDIR
                                    every block is marked, and every file
                                    with snippets has TESTDIR/<stem>.test
                                    (readme.test for the top-level README),
                                    and relative links lead somewhere
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

FENCE = re.compile(r"^```(\S*)\s*$")
DIRECTIVE = re.compile(r"^\s*//\s*(snippet(?:-[a-z-]+)?)(?::\s*(.*?))?\s*$")
CHECK = re.compile(
    r"=\s*(\S+)\s*\(expected\s+([^)\s]+)\)")
LANGS = {"c": "c", "cpp": "cpp", "c++": "cpp"}
CMAKE_NAME = re.compile(r"^#\s*snippet:\s*(\S+)\s*$")


class Block:
    def __init__(self, path, line, lang, text):
        self.path, self.line, self.lang, self.text = path, line, lang, text
        self.directives = []
        for raw in text.splitlines():
            m = DIRECTIVE.match(raw)
            if m:
                self.directives.append((m.group(1), m.group(2) or ""))

    def get(self, key):
        return [v for k, v in self.directives if k == key]

    def where(self):
        return "%s:%d" % (self.path, self.line)


def read_blocks(path):
    blocks, lang, start, body = [], None, 0, []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            m = FENCE.match(line.rstrip("\n"))
            if lang is None and m and m.group(1):
                lang, start, body = m.group(1), n, []
            elif lang is not None and line.strip() == "```":
                if lang in LANGS:
                    blocks.append(Block(path, start, LANGS[lang],
                                        "".join(body)))
                lang = None
            elif lang is not None:
                body.append(line)
            elif m and not m.group(1):
                # An unlabelled block: treated as plain text.
                lang = ""
    return blocks


def read_cmake_blocks(path):
    """The ```cmake blocks whose first line is '# snippet: NAME'."""
    out, lang, body = [], None, []
    with open(path) as f:
        for line in f:
            m = FENCE.match(line.rstrip("\n"))
            if lang is None and m:
                lang, body = m.group(1), []
            elif lang is not None and line.strip() == "```":
                first = CMAKE_NAME.match(body[0]) if body else None
                if lang == "cmake" and first:
                    out.append((first.group(1), "".join(body)))
                lang = None
            elif lang is not None:
                body.append(line)
    return out


def export(src, docs, out):
    """Writes the named snippets and cmake blocks of `docs` into `out`, as
    files a user would save from the page (a project to build)."""
    os.makedirs(out, exist_ok=True)
    names = []
    for doc in docs:
        path = doc if os.path.isabs(doc) else os.path.join(src, doc)
        files = [(b.get("snippet")[0], b.text) for b in read_blocks(path)
                 if b.get("snippet") and not b.get("snippet-error")]
        files += read_cmake_blocks(path)
        for name, text in files:
            with open(os.path.join(out, name), "w") as f:
                f.write(text)
            names.append(name)
    print("exported " + " ".join(sorted(names)))
    return 0


LINK = re.compile(r"\]\(([^)\s]+)\)")


def slug(heading):
    """GitHub's anchor for a heading."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    out, fenced = set(), False
    with open(path) as f:
        for line in f:
            if line.startswith("```"):
                fenced = not fenced
            elif not fenced and line.startswith("#"):
                out.add(slug(line.lstrip("#")))
    return out


def check_links(path):
    """Relative links of a page point to files (and headings) that exist."""
    problems, fenced = [], False
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if line.startswith("```"):
                fenced = not fenced
            if fenced:
                continue
            for target in LINK.findall(line):
                if re.match(r"[a-z]+:", target):
                    continue
                file, _, anchor = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(path),
                                                     file)) if file else path
                if not os.path.exists(dest):
                    problems.append("%s:%d: broken link %s" %
                                    (path, n, target))
                elif anchor and dest.endswith(".md") and \
                        anchor not in anchors(dest):
                    problems.append("%s:%d: no heading for #%s in %s" %
                                    (path, n, anchor, file or path))
    return problems


def doc_files(src):
    docs = os.path.join(src, "docs")
    files = [os.path.join(docs, f) for f in sorted(os.listdir(docs))
             if f.endswith(".md")]
    return [os.path.join(src, "README.md")] + files


KNOWN = {"snippet", "snippet-skip", "snippet-part-of", "snippet-flags",
         "snippet-lto", "snippet-error", "snippet-diag",
         "snippet-compile-only", "snippet-run-fails"}


def check_marks(blocks):
    problems = []
    for b in blocks:
        keys = [k for k, _ in b.directives]
        for k in keys:
            if k not in KNOWN:
                problems.append("%s: unknown directive %s" % (b.where(), k))
        kinds = [k for k in keys
                 if k in ("snippet", "snippet-skip", "snippet-part-of")]
        if len(kinds) != 1:
            problems.append("%s: a ```%s block needs exactly one of "
                            "'// snippet: NAME', '// snippet-skip: REASON' "
                            "or '// snippet-part-of: NAME'" %
                            (b.where(), b.lang))
        elif kinds[0] == "snippet-skip" and not b.get("snippet-skip")[0]:
            problems.append("%s: snippet-skip needs a reason" % b.where())
    return problems


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=600)
    return p.returncode, p.stdout


def build_and_run(b, parts, args, opt, out):
    name = b.get("snippet")[0]
    stem = os.path.splitext(name)[0]
    work = os.path.join(out, "%s%s" % (stem, opt))
    os.makedirs(work, exist_ok=True)
    files = [(name, b)] + [("", p) for p in parts]
    sources = []
    for i, (fname, blk) in enumerate(files):
        ext = ".cpp" if blk.lang == "cpp" else ".c"
        fn = os.path.join(work, name if i == 0 else "part%d%s" % (i, ext))
        with open(fn, "w") as f:
            f.write(blk.text)
        sources.append((fn, blk.lang))
    clang_dir = os.path.dirname(args.clang)
    inc = os.path.join(args.src, "include")
    flags = ["-O%s" % opt, "-g", "-Wall", "-Wextra", "-Werror",
             "-I" + inc]
    for extra in b.get("snippet-flags"):
        flags += shlex.split(extra.replace("$PLUGIN", args.plugin))
    # -fplugin= loads the pass too (and the clang part): not both.
    plugin = [] if any(f.startswith("-fplugin=") for f in flags) else \
        ["-fpass-plugin=" + args.plugin]
    cxx = any(lang == "cpp" for _, lang in sources)
    driver = os.path.join(clang_dir, "clang++") if cxx else args.clang

    def std(lang):
        return ["-std=c++17"] if lang == "cpp" else ["-std=gnu17"]

    exe = os.path.join(work, stem)
    link = ["-L" + args.runtime_dir] + shlex.split(args.link) + ["-lm"]
    lto = bool(b.get("snippet-lto"))
    log, objs, status = [], [], 0
    for fn, lang in sources:
        obj = fn + ".o"
        cc = os.path.join(clang_dir, "clang++") if lang == "cpp" \
            else args.clang
        cmd = [cc] + std(lang) + flags + plugin + \
            (["-flto"] if lto else []) + ["-c", fn, "-o", obj]
        status, text = run(cmd, work)
        log.append("$ %s\n%s" % (" ".join(cmd), text))
        objs.append(obj)
        if status:
            break
    if not status:
        cmd = [driver] + (["-flto", "-fuse-ld=lld",
                           "-Wl,--load-pass-plugin=" + args.plugin]
                          if lto else []) + objs + ["-o", exe] + link
        status, text = run(cmd, work)
        log.append("$ %s\n%s" % (" ".join(cmd), text))
    compiled = "\n".join(log)
    errors = b.get("snippet-error")
    if errors:
        if status == 0:
            return "expected the compile to fail, but it succeeded:\n" + \
                compiled
        missing = [e for e in errors if e not in compiled]
        if missing:
            return "the compile's output lacks %r:\n%s" % (missing, compiled)
        return None
    if status:
        return "compile failed:\n" + compiled
    missing = [d for d in b.get("snippet-diag") if d not in compiled]
    if missing:
        return "the compile's output lacks %r:\n%s" % (missing, compiled)
    if b.get("snippet-compile-only"):
        return None
    status, output = run([exe], work)
    fails = b.get("snippet-run-fails")
    if fails:
        missing = [t for t in fails if t not in output]
        if status == 0 or missing:
            return ("expected the program to stop with %r; exit %d, "
                    "output:\n%s" % (fails, status, output))
        return None
    if status:
        return "the program exited with %d:\n%s" % (status, output)
    checks = 0
    for line in output.splitlines():
        m = CHECK.search(line)
        if not m:
            continue
        checks += 1
        try:
            got, want = float(m.group(1)), float(m.group(2))
        except ValueError:
            return "cannot read the numbers of %r" % line
        if abs(got - want) > 1e-6 * max(1.0, abs(want)):
            return "wrong value: %r\n%s" % (line, output)
    if not checks:
        return ("the program printed no '= X (expected Y)' line:\n" +
                output)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True)
    ap.add_argument("--plugin")
    ap.add_argument("--runtime-dir")
    ap.add_argument("--clang")
    ap.add_argument("--out")
    ap.add_argument("--link", default="-ltapestry-rt",
                    help="how to link the runtime (lit's %%tapestry_rt)")
    ap.add_argument("--opt", nargs="*", default=["0", "2"])
    ap.add_argument("--check-coverage", metavar="TESTDIR")
    ap.add_argument("--export", metavar="DIR")
    ap.add_argument("docs", nargs="*")
    args = ap.parse_args()

    if args.export:
        return export(args.src, args.docs, args.export)

    if args.check_coverage:
        problems = []
        for path in doc_files(args.src):
            blocks = read_blocks(path)
            problems += check_marks(blocks)
            problems += check_links(path)
            stem = os.path.splitext(os.path.basename(path))[0]
            if os.path.dirname(path) == args.src.rstrip("/") or \
                    path == os.path.join(args.src, "README.md"):
                stem = "readme"  # the top-level README (docs/README.md
                #                  is the index and has no snippets)
            if any(b.get("snippet") for b in blocks):
                test = os.path.join(args.check_coverage, stem + ".test")
                if not os.path.exists(test):
                    problems.append("%s has snippets but no test %s" %
                                    (path, test))
        for p in problems:
            print("error: " + p)
        print("checked %d files" % len(doc_files(args.src)))
        return 1 if problems else 0

    failures = compiled = skipped = 0
    for doc in args.docs:
        path = doc if os.path.isabs(doc) else os.path.join(args.src, doc)
        blocks = read_blocks(path)
        problems = check_marks(blocks)
        for p in problems:
            print("error: " + p)
        failures += len(problems)
        mains = {b.get("snippet")[0]: b for b in blocks if b.get("snippet")}
        for b in blocks:
            owner = b.get("snippet-part-of")
            if owner and owner[0] not in mains:
                print("error: %s: part of unknown snippet %s" %
                      (b.where(), owner[0]))
                failures += 1
        skipped += sum(1 for b in blocks if b.get("snippet-skip"))
        for name, b in mains.items():
            parts = [p for p in blocks
                     if p.get("snippet-part-of") == [name]]
            for opt in args.opt:
                compiled += 1
                err = build_and_run(b, parts, args, opt, args.out)
                status = "FAIL" if err else "ok"
                print("%s -O%s %s (%s)" % (status, opt, name, b.where()))
                if err:
                    failures += 1
                    print(err)
    print("%d snippet builds, %d fragments skipped, %d failure(s)" %
          (compiled, skipped, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
