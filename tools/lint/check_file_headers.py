#!/usr/bin/env python3
"""Checks that every source file starts with LLVM's standard file header
and a one-paragraph overview (issue 19: LLVM's habits).

  check_file_headers.py [--exclude PATH]... PATH...

PATH is a file or a directory (searched for .cpp, .c, .h, .hpp, .def files
and, under include/, files without an extension, which are C++ headers like
<enzyme/enzyme>). A C++ file must begin

  //===- Name.cpp - Short description -------------------------------===//
  //
  // The overview: what the file implements and how it fits the pipeline.
  //
  //===----------------------------------------------------------------===//

every bar exactly 80 columns, `-*- C++ -*-` before the closing `===//` of
the first line in headers (.h, .hpp, .def). A header without an extension
may keep `// -*- C++ -*-` on a line of its own before that (as libc++'s
headers do). A C file (.c, or a .h whose first line starts `/*`) uses the
block-comment form, `-*- C -*-` in headers:

  /*===- tapestry/batch.h - Short description -----------------*- C -*-===
   *
   * The overview.
   *
   *===--------------------------------------------------------------===*/

Name is the file's name, or its path under include/ for public headers.
--exclude names a file to leave out; it must exist (so that an exclusion
cannot outlive its file). Prints each problem as `path:line: message` and
exits 1 if there is any; else prints "file headers: N files".
"""
import os
import re
import sys

WIDTH = 80
SOURCE_EXTS = (".cpp", ".c", ".h", ".hpp", ".def")
HEADER_EXTS = (".h", ".hpp", ".def", "")
CXX_BAR = "//===" + "-" * (WIDTH - 10) + "===//"
C_BAR = " *===" + "-" * (WIDTH - 10) + "===*/"
CXX_FIRST = re.compile(
    r"^//===- (?P<name>\S+) - (?P<desc>\S.*?) -+(?P<mode>\*- C\+\+ -\*-)?===//$")
C_FIRST = re.compile(
    r"^/\*===- (?P<name>\S+) - (?P<desc>\S.*?) -+(?P<mode>\*- C -\*-)?===$")
EDITOR_LINE = "// -*- C++ -*-"


def expected_name(path):
    """The name the header line must give: the path under include/ for
    public headers, else the file name."""
    parts = os.path.normpath(os.path.abspath(path)).split(os.sep)
    if "include" in parts:
        i = len(parts) - 1 - parts[::-1].index("include")
        return "/".join(parts[i + 1:])
    return parts[-1]


def is_source(path):
    base = os.path.basename(path)
    ext = os.path.splitext(base)[1]
    if ext in SOURCE_EXTS:
        return True
    # Extensionless public C++ headers (<enzyme/enzyme>).
    parts = os.path.normpath(os.path.abspath(path)).split(os.sep)
    return ext == "" and "include" in parts and not base.startswith(".")


def collect(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            for dirpath, dirnames, names in os.walk(p):
                dirnames.sort()
                for n in sorted(names):
                    f = os.path.join(dirpath, n)
                    if n != "CMakeLists.txt" and is_source(f):
                        files.append(f)
        else:
            files.append(p)
    return files


def check(path):
    """Returns a list of (line, message) problems of one file."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    ext = os.path.splitext(path)[1]
    header = ext in HEADER_EXTS
    first = 0
    if ext == "" and lines and lines[0] == EDITOR_LINE:
        first = 1
    line = lines[first] if first < len(lines) else ""
    c_style = ext == ".c" or (ext == ".h" and line.startswith("/*"))
    if c_style:
        regex, blank, prefix, bar, mode = C_FIRST, " *", " * ", C_BAR, "C"
    else:
        regex, blank, prefix, bar, mode = CXX_FIRST, "//", "// ", CXX_BAR, \
            "C++"
    n = first + 1
    m = regex.match(line)
    if not m:
        return [(n, "the first line is not the standard file header "
                 "(%s)" % ("/*===- Name - Description ---===" if c_style else
                           "//===- Name - Description ---===//"))]
    problems = []
    if len(line) != WIDTH:
        problems.append((n, "the header line is %d columns, not %d" %
                         (len(line), WIDTH)))
    if m.group("name") != expected_name(path):
        problems.append((n, "the header line names %s, not %s" %
                         (m.group("name"), expected_name(path))))
    if header and not m.group("mode") and first == 0:
        problems.append((n, "a header's first line ends -*- %s -*-===" %
                         mode))
    # The overview: a blank comment line, prose, a blank comment line and
    # the closing bar, all before the first line of code.
    i = first + 1
    if i >= len(lines) or lines[i] != blank:
        return problems + [(i + 1, "no overview paragraph after the header "
                            "line (expected `%s`, then the overview)" %
                            blank)]
    prose = 0
    i += 1
    while i < len(lines) and lines[i] != bar:
        if lines[i].startswith(prefix) and lines[i].strip(" */"):
            prose += 1
        elif lines[i] != blank:
            return problems + [(i + 1, "the overview is not closed by the "
                                "80-column bar before the code")]
        i += 1
    if i >= len(lines):
        return problems + [(first + 2, "the overview is never closed by the "
                            "80-column bar")]
    if prose == 0:
        problems.append((first + 2, "the overview paragraph is empty"))
    elif lines[i - 1] != blank:
        problems.append((i, "a blank comment line (`%s`) goes before the "
                         "closing bar" % blank))
    return problems


def main(argv):
    excludes, paths = set(), []
    args = iter(argv)
    for a in args:
        if a == "--exclude":
            e = next(args, None)
            if e is None or not os.path.isfile(e):
                print("check_file_headers: --exclude %s: no such file" % e)
                return 2
            excludes.add(os.path.realpath(e))
        else:
            paths.append(a)
    if not paths:
        print(__doc__.strip().split("\n\n")[1])
        return 2
    files = [f for f in collect(paths) if os.path.realpath(f) not in excludes]
    bad = 0
    for f in files:
        for line, msg in check(f):
            print("%s:%d: %s" % (f, line, msg))
            bad += 1
    if bad:
        return 1
    print("file headers: %d files" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
