#!/usr/bin/env python3
"""Generate one random, UB-free C test program for Tapestry's AD plugin.

    gen.py --seed 42                      # default features to stdout
    gen.py --seed 42 --features scalar,branches,loops,arrays -o prog.c
    gen.py --seed 42 --no-ad -o prog.c    # AD calls compiled out (no plugin)
    gen.py --replay choices.json -o p.c   # rebuild from a recorded choice list

See program.py for the output protocol and README.md for the campaign.
"""

import argparse
import json
import os
import sys

sys.dont_write_bytecode = True   # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from program import ALL_FEATURES, DEFAULT_FEATURES, EXTRA_FEATURES, generate  # noqa: E402


def parse_features(text):
    """'scalar,branches' -> tuple; 'all' and 'default' are shorthands."""
    if text in (None, "", "default"):
        return DEFAULT_FEATURES
    if text == "all":
        return ALL_FEATURES
    feats = tuple(f.strip() for f in text.split(",") if f.strip())
    feats = tuple(f for part in feats for f in (ALL_FEATURES if part == "all" else (part,)))
    unknown = set(feats) - set(ALL_FEATURES) - set(EXTRA_FEATURES)
    if unknown:
        raise SystemExit("unknown features: %s (known: %s)"
                         % (",".join(sorted(unknown)), ",".join(ALL_FEATURES + EXTRA_FEATURES)))
    return feats


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--features", default="default",
                    help="comma list of %s (or 'all'), plus opt-in %s"
                    % (",".join(ALL_FEATURES), ",".join(EXTRA_FEATURES)))
    ap.add_argument("--no-ad", action="store_true",
                    help="define TAP_NO_AD: primal and finite differences only")
    ap.add_argument("--replay", help="JSON file with a recorded choice list")
    ap.add_argument("--point", type=int, default=0,
                    help="sample point number (run_campaign.py's probe picks one)")
    ap.add_argument("-o", "--output", help="write the program here (default stdout)")
    ap.add_argument("--meta", help="write the oracle metadata (JSON) here")
    args = ap.parse_args(argv)
    replay = None
    if args.replay:
        with open(args.replay) as fh:
            replay = json.load(fh)
    prog = generate(args.seed, parse_features(args.features), replay, args.point)
    source = ("#define TAP_NO_AD 1\n" if args.no_ad else "") + prog.source
    if args.output:
        with open(args.output, "w") as fh:
            fh.write(source)
    else:
        sys.stdout.write(source)
    if args.meta:
        with open(args.meta, "w") as fh:
            json.dump(dict(prog.meta, choices=prog.choices), fh)
    return 0


if __name__ == "__main__":
    sys.exit(main())
