#!/usr/bin/env python3
"""Checks that clang-format-14 leaves every C and C++ source of the plugin,
the runtime and the public headers unchanged (issue 19: LLVM's habits).

  check_format.py SRC_ROOT [PATH...]

PATH (default: SRC_ROOT's plugin, runtime and include) is a file or a
directory, searched for the same files as check_file_headers.py (.cpp, .c,
.h, .hpp, .def, and extensionless headers under include/). The style is
SRC_ROOT/.clang-format. Never point this at test/: clang-format would
reflow RUN and CHECK lines. Prints clang-format's complaints and exits 1 if
there is any, exits 2 if clang-format-14 is not installed (tools/setup.sh
installs it); else prints "clang-format clean: N files".
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_file_headers import collect  # noqa: E402

CLANG_FORMAT = "clang-format-14"


def main(argv):
    if not argv:
        print(__doc__.strip().split("\n\n")[1])
        return 2
    root = argv[0]
    paths = argv[1:] or [os.path.join(root, d)
                         for d in ("plugin", "runtime", "include")]
    exe = shutil.which(CLANG_FORMAT)
    if not exe:
        print("check_format: %s is not installed (tools/setup.sh installs "
              "it)" % CLANG_FORMAT)
        return 2
    files = collect(paths)
    if not files:
        print("check_format: no sources under %s" % " ".join(paths))
        return 2
    style = "--style=file:" + os.path.join(root, ".clang-format")
    r = subprocess.run([exe, style, "--dry-run", "-Werror"] + files,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    if r.returncode != 0:
        sys.stdout.write(r.stdout)
        print("check_format: run `%s -i FILE` on the files above (never on "
              "test files)" % CLANG_FORMAT)
        return 1
    print("clang-format clean: %d files" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
