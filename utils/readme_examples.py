#!/usr/bin/env python3
"""Runs the examples of a Markdown page and checks their printed output.

Each ```python block that is followed by a ```text block is run (in order,
each in its own interpreter, all in one working directory so that a later
example can use an earlier one's files); its standard output must equal the
text block. Usage: readme_examples.py PAGE.md [--python PYTHON] [--cwd DIR]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

BLOCK = re.compile(r"```(\w+)\n(.*?)```", re.S)


def examples(page):
    blocks = [(m.group(1), m.group(2)) for m in BLOCK.finditer(open(page).read())]
    for (kind, code), (next_kind, text) in zip(blocks, blocks[1:]):
        if kind == "python" and next_kind == "text":
            yield code, text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--cwd")
    args = parser.parse_args()
    cwd = args.cwd or tempfile.mkdtemp(prefix="tc-readme-")
    failures = 0
    found = list(examples(args.page))
    for index, (code, expected) in enumerate(found, 1):
        result = subprocess.run([args.python, "-c", code], cwd=cwd, capture_output=True,
                                text=True)
        if result.returncode != 0 or result.stdout != expected:
            failures += 1
            print(f"example {index} of {args.page}: "
                  + (f"exit status {result.returncode}" if result.returncode else "output differs"))
            print("--- expected\n" + expected + "--- got\n" + result.stdout
                  + (result.stderr[-3000:] if result.returncode else ""))
    print(f"{len(found) - failures} of {len(found)} examples of {args.page} print what it shows")
    return 1 if failures or not found else 0


if __name__ == "__main__":
    sys.exit(main())
