#!/usr/bin/env python3
"""Checks that the installed headers use no name a user's macro may take.

  check_header_names.py DIR...

Users define short macros before their includes (`#define N 8`, `-DT=float`,
`#define dx 1e-6`); a header that names a template parameter `N` or a
parameter `dx` then fails to compile, in the user's program, with an error
in our header. Standard headers avoid this by spelling every name that is
not part of their interface in the implementation's reserved form (`_Tp`,
`__x`), and so do ours. This check flags, in every file under DIR (comments,
string literals, `#include` and `#pragma` lines left out), each identifier
shaped like a user's macro:

- three characters or fewer (`N`, `T`, `dx`, `ref`), or
- no lower-case letter (`MT`, `NAME`, `P0`),

unless it is reserved (`_Upper...` or `__...`), qualified by `std::`, a
member access (after `.` or `->`), one of Tapestry's or Enzyme's macros
(`TAPESTRY_...`, `ENZYME_...`), or one of the public names of INTERFACE
below. Prints `FILE:LINE: NAME` for each and exits 1 if there is any; else
prints "header names: N files".
"""
import os
import re
import sys

# Public names a user's program spells, so they cannot be reserved: the C
# library's FILE, namespace std, enzyme::get (Enzyme's interface),
# tapestry::fn and the `ptr` fields of enzyme::context and EnzymeCkptRegion
# (Enzyme's layouts).
INTERFACE = {"FILE", "std", "get", "ptr", "fn"}

KEYWORDS = set("""alignas alignof asm auto bool break case catch char char16_t
char32_t class const constexpr const_cast continue decltype default delete do
double dynamic_cast else enum explicit export extern false float for friend
goto if inline int long mutable namespace new noexcept nullptr operator private
protected public register reinterpret_cast return short signed sizeof static
static_assert static_cast struct switch template this thread_local throw true
try typedef typeid typename union unsigned using virtual void volatile wchar_t
while define ifdef ifndef endif undef defined elif error""".split())

TOKEN = re.compile(r"""(?P<comment>//[^\n]*|/\*.*?\*/)
  |(?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  |(?P<directive>^[ \t]*\#[ \t]*(?:include|pragma)[^\n]*)
  |(?P<ident>[A-Za-z_]\w*)
  |(?P<number>\d[\w.']*)
  |(?P<space>\s+)
  |(?P<punct>\.\.\.|->|::|.)""", re.S | re.M | re.X)


def macro_shaped(name):
    return len(name) <= 3 or not re.search("[a-z]", name)


def allowed(name, before):
    return (name in KEYWORDS or name in INTERFACE
            or re.match(r"_[A-Z_]", name)
            or name.startswith(("TAPESTRY_", "ENZYME_"))
            or before[-1] in (".", "->")
            or before == ["std", "::"])


def check(path):
    with open(path) as f:
        text = f.read()
    problems = []
    line = 1
    before = [None, None]
    for m in TOKEN.finditer(text):
        kind, tok = m.lastgroup, m.group(0)
        if (kind == "ident" and macro_shaped(tok)
                and not allowed(tok, before)):
            problems.append("%s:%d: %s" % (path, line, tok))
        line += tok.count("\n")
        if kind not in ("space", "comment"):
            before = [before[-1], tok]
    return problems


def main(argv):
    if not argv:
        print(__doc__)
        return 2
    files = []
    for d in argv:
        for dirpath, _, names in os.walk(d):
            files += [os.path.join(dirpath, n) for n in sorted(names)]
    problems = []
    for path in sorted(files):
        problems += check(path)
    for p in problems:
        print(p)
    if problems:
        print("check_header_names: spell these names reserved (_Tp, __x) "
              "or, if users write them, add them to INTERFACE")
        return 1
    print("header names: %d files" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
