#!/usr/bin/env python3
"""The plugin's layers depend one way only (docs/design.md):

    Core <- Analysis <- Synthesis <- Split <- Driver <- Passes <- Plugin.cpp

A file may include headers of its own layer and of the layers left of it,
never of a layer to its right. plugin/Frontend (the clang part) and the
top-level plugin/*.cpp files sit above Passes. Usage:
check_layers.py SOURCE_ROOT; prints each violation and exits 1 if any.
"""
import pathlib
import re
import sys

LAYERS = ["Core", "Analysis", "Synthesis", "Split", "Driver", "Passes",
          "Frontend"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([A-Za-z]+)/[^"]+"')


def layer_of(path, plugin):
    parts = path.relative_to(plugin).parts
    if len(parts) == 1:
        return len(LAYERS)  # Plugin.cpp, Loader.cpp: the top
    return LAYERS.index(parts[0]) if parts[0] in LAYERS else None


def main():
    plugin = pathlib.Path(sys.argv[1]) / "plugin"
    bad = []
    files = 0
    for path in sorted(plugin.rglob("*")):
        if path.suffix not in (".cpp", ".h", ".def"):
            continue
        mine = layer_of(path, plugin)
        if mine is None:
            bad.append(f"{path.relative_to(plugin)}: not in any layer "
                       f"({', '.join(LAYERS)})")
            continue
        files += 1
        for n, line in enumerate(path.read_text().splitlines(), 1):
            m = INCLUDE.match(line)
            if not m or m.group(1) not in LAYERS:
                continue
            theirs = LAYERS.index(m.group(1))
            if theirs > mine:
                bad.append(f"{path.relative_to(plugin)}:{n}: includes "
                           f"{m.group(1)}/, a layer above "
                           f"{LAYERS[mine] if mine < len(LAYERS) else 'it'}")
    for b in bad:
        print("layering violated: " + b)
    if bad:
        return 1
    print(f"layers respected: {files} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
