#!/usr/bin/env python3
"""Checks that every place that lists the request markers agrees with
plugin/Core/Markers.def (issue 19: one source per concept).

  check_markers.py SRC_ROOT

- every marker a public header declares is in the table (a header must not
  offer a marker the decoder does not know);
- every marker of the table is declared for C users (<tapestry/enzyme.h>,
  or <tapestry/thunk.h> for Tapestry's own) and, for Enzyme's, for C++
  users of Enzyme's header (<enzyme/utils> with
  <tapestry/detail/activity.hpp>, which <tapestry/detail/lowering.hpp>
  includes);
- the request decoder (plugin/Passes/RequestDecoder.cpp and the files that
  share its class, RequestDecoderImpl.h) names every marker of the table
  (it decodes it somewhere);
- the C API's marker table (docs/c-api.md) names every marker.
Prints each disagreement and exits 1 if there is any; else prints
"markers agree: N markers".
"""
import os
import re
import sys


# The request decoder's sources (those that implement RequestDecoderImpl.h).
DECODER = ["RequestDecoder.cpp", "SplitMarkerDecoding.cpp",
           "StructArgumentDecoding.cpp"]


def read(root, rel):
    with open(os.path.join(root, rel)) as f:
        return f.read()


def declared(text):
    return set(re.findall(r"^\s*extern\s+int\s+((?:enzyme|tapestry)_\w+)\s*;",
                          text, re.M))


def main():
    root = sys.argv[1]
    table = re.findall(r"^TAPESTRY_MARKER\((\w+),\s*(\w+)\)",
                       read(root, "plugin/Core/Markers.def"), re.M)
    names = [n for n, _ in table]
    problems = []
    if len(set(names)) != len(names):
        problems.append("Markers.def lists a marker twice")
    c_headers = ["include/tapestry/enzyme.h", "include/tapestry/thunk.h"]
    cxx_headers = ["include/enzyme/utils", "include/tapestry/detail/activity.hpp"]
    c_decl = set().union(*(declared(read(root, h)) for h in c_headers))
    cxx_decl = set().union(*(declared(read(root, h)) for h in cxx_headers))
    for header in c_headers + cxx_headers:
        for m in sorted(declared(read(root, header)) - set(names)):
            problems.append(f"{header} declares {m}, which Markers.def lacks "
                            "(the decoder would reject it)")
    decoder = "".join(read(root, "plugin/Passes/" + f) for f in DECODER)
    docs = read(root, "docs/c-api.md")
    docs = docs[docs.index("## Markers"):]
    docs = docs[:docs.index("\n## ", 1)]
    for m in names:
        if m not in c_decl:
            problems.append(f"{m} is not declared for C users "
                            f"({' or '.join(c_headers)})")
        if m.startswith("enzyme_") and m not in cxx_decl:
            problems.append(f"{m} is not declared for users of Enzyme's C++ "
                            f"header ({' or '.join(cxx_headers)})")
        if f'"{m}"' not in decoder:
            problems.append(f"the decoder never names {m}")
        if not re.search(r"`[^`]*\b" + m + r"\b[^`]*`", docs):
            problems.append(f"docs/c-api.md's marker table lacks {m}")
    for p in problems:
        print("markers disagree: " + p)
    if problems:
        return 1
    print(f"markers agree: {len(names)} markers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
