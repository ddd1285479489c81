#!/usr/bin/env python3
"""Checks that every message quoted in docs/errors.md has a test with its
exact text.

A message is a backquoted span of the catalogue's prose (outside code
blocks) that reads as a sentence: at least 40 characters and a space, not a
path or a code fragment. The catalogue elides parts of long messages with
"..." or "(...)" and writes placeholders (N, FILE:LINE, file:line, <the
Tapestry plugin>); the fragments between them, with their whitespace
collapsed, must each appear in the check lines of one test file: a line of
a file under test/ (other than test/Docs, which compiles the catalogue's
own snippets) that holds a FileCheck directive (CHECK, or a custom prefix
followed by ':'). A message split over CHECK and CHECK-SAME lines is found
by joining each run of such lines.

Usage: check_error_catalogue.py --src ROOT [docs/errors.md]
Prints one line per message found in a test and "error: ..." for each that
is not (and for each test the catalogue names that does not exist), then
"checked N messages, M missing"; exits 1 if any is missing.
"""
import argparse
import os
import re
import sys

MIN_MESSAGE = 40
MIN_FRAGMENT = 12
# Placeholders the catalogue writes for values that differ per program.
PLACEHOLDERS = [r"\.\.\.", r"\(\.\.\.\)", r"\bFILE:LINE\b", r"\bfile:line\b",
                r"<the Tapestry plugin>", r"\bline N\b", r"\bneeds N\b",
                r"\bof N\b", r"\bstruct of N\b"]
DIRECTIVE = re.compile(r"^\s*(//|#|;)?\s*[A-Z][A-Z0-9_-]*?(-SAME|-NEXT|-DAG|"
                       r"-NOT|-LABEL)?:\s?(.*)$")


def prose_spans(text):
    """Backquoted spans outside fenced code blocks, newlines as spaces."""
    prose = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    for m in re.finditer(r"`([^`]+)`", prose):
        yield " ".join(m.group(1).split())


def is_message(span):
    if len(span) < MIN_MESSAGE or " " not in span:
        return False
    if span.startswith(("test/", "docs/", "clang", "cmake", "opt", "-")):
        return False
    # A call written as an example, not a message.
    if re.match(r"^\w+\(.*\)$", span):
        return False
    # Code rather than prose: a registration array, a call.
    if re.match(r"^(void|double|float|int)\b.*[;=]", span) and \
            not span.startswith("void *__enzyme_register"):
        return False
    return True


def fragments(message):
    # Every message starts with "tapestry:", which tests often check apart.
    message = re.sub(r"^tapestry: ", "", message)
    # Names in quotes are the example's ('f', 'p'); a test has its own.
    parts = re.split("|".join(PLACEHOLDERS + [r"(?<![A-Za-z])'[^']*'"]), message)
    out = []
    for p in parts:
        p = p.strip(" ,;:")
        if len(p) >= MIN_FRAGMENT:
            out.append(p)
    return out


def expand(text, defines):
    """The texts a check line stands for: FileCheck variables given with -D
    on the RUN lines substituted, each optional group {{(X)?}} with and
    without X."""
    texts = [text]
    for name, values in defines.items():
        if "[[" + name + "]]" in text:
            texts = [t.replace("[[" + name + "]]", v)
                     for t in texts for v in values]
    m = re.search(r"\{\{\(((?:[^(){}|\\]|\\.)*)\)\?\}\}", texts[0])
    while m and len(texts) < 64:
        opt = re.sub(r"\\(.)", r"\1", m.group(1))
        texts = [t.replace(m.group(0), alt, 1) for t in texts
                 for alt in ("", opt)]
        m = re.search(r"\{\{\(((?:[^(){}|\\]|\\.)*)\)\?\}\}", texts[0])
    return texts


def check_lines(path):
    """The texts of a file's FileCheck directives, runs of -SAME lines
    joined to the line before them."""
    texts = []
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return texts
    defines = {}
    primary, joined = "", {}
    for line in lines:
        if "RUN:" in line and "FileCheck" in line:
            for name, value in re.findall(r'-D(\w+)=("[^"]*"|\S+)',
                                          line.split("FileCheck", 1)[1]):
                defines.setdefault(name, []).append(value.strip('"'))
    for line in lines:
        m = DIRECTIVE.match(line)
        if not m or re.match(r"^\s*(//|#|;)?\s*RUN:", line):
            continue
        body = m.group(3)
        if m.group(2) == "-SAME" and texts:
            # Joined to the line it continues, per prefix: a CHECK line
            # and its FP-SAME lines are one run, its OTHER-SAME another.
            prefix = line.split("-SAME")[0].split()[-1]
            joined[prefix] = joined.get(prefix, primary) + body
            texts.append(joined[prefix])
        else:
            primary, joined = body, {}
            texts.append(body)
    return [e for t in texts for e in expand(t, defines)]


def normalise(s):
    # FileCheck patterns may hold regular expressions ({{.*}}) and
    # substitutions ([[@LINE]]); a fragment must appear literally between
    # them, so they become a separator no fragment contains.
    s = re.sub(r"\{\{.*?\}\}|\[\[.*?\]\]", "\x00", s)
    return " ".join(s.split())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True)
    ap.add_argument("catalogue", nargs="?", default="docs/errors.md")
    args = ap.parse_args()
    with open(os.path.join(args.src, args.catalogue)) as f:
        text = f.read()
    corpus = []
    test_root = os.path.join(args.src, "test")
    for root, dirs, files in os.walk(test_root):
        dirs[:] = [d for d in dirs if d not in ("Docs", "Inputs")] \
            if root == test_root else dirs
        for name in files:
            path = os.path.join(root, name)
            for t in check_lines(path):
                corpus.append((os.path.relpath(path, args.src), normalise(t)))
    messages = []
    for span in prose_spans(text):
        if is_message(span) and span not in messages:
            messages.append(span)
    missing = 0
    for msg in messages:
        frags = fragments(msg)
        found = None
        # All fragments in one test file.
        files = None
        for frag in frags:
            hits = {p for p, t in corpus if frag in t}
            files = hits if files is None else files & hits
        if files:
            found = sorted(files)[0]
        if found:
            print(f"ok: {found}: {msg[:70]}")
        else:
            missing += 1
            bad = [f for f in frags if not any(f in t for _, t in corpus)]
            print(f"error: no test checks the message `{msg}`"
                  + (f" (not found: {bad!r})" if bad else
                     " (its fragments are in different files)"))
    # The tests the entries name exist.
    for span in prose_spans(text):
        if span.startswith("test/") and not os.path.exists(
                os.path.join(args.src, span)):
            missing += 1
            print(f"error: the catalogue names `{span}`, which does not exist")
    print(f"checked {len(messages)} messages, {missing} missing")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
