#!/usr/bin/env python3
"""Links a distribution and everything it requires into one directory.

Usage: share_distributions.py NAME DIR (run by the interpreter whose
site-packages holds NAME). Creates DIR with a symbolic link to every
top-level entry (packages, modules, .dist-info, bundled .libs) of NAME's
installed requirement closure and prints DIR, which is what a .pth file in
another virtualenv names so that its pip and its imports find those
distributions installed. utils/python-wheel-check.sh uses it so that a
fresh virtualenv does not download and unpack torch's 5 GB a second time.
"""
import importlib.metadata as metadata
import os
import re
import sys

from packaging.requirements import Requirement


def closure(name):
    """The installed distributions NAME requires, transitively, with NAME."""
    seen, todo, out = set(), [name], []
    while todo:
        key = re.sub(r"[-_.]+", "-", todo.pop()).lower()
        if key in seen:
            continue
        seen.add(key)
        try:
            dist = metadata.distribution(key)
        except metadata.PackageNotFoundError:
            continue  # an optional dependency that is not installed
        out.append(dist)
        for text in dist.requires or []:
            req = Requirement(text)
            # Extras are not asked for; markers decide for this interpreter.
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return out


def top_level_entries(dist):
    """Top-level names under site-packages that belong to DIST."""
    names = set()
    for f in dist.files or []:
        parts = f.parts
        if not parts or parts[0] in ("..", "__pycache__") or parts[0].startswith("/"):
            continue  # scripts in bin/, byte code caches
        names.add(parts[0])
    return names


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: share_distributions.py NAME DIR")
    name, target = sys.argv[1], os.path.abspath(sys.argv[2])
    dists = closure(name)
    if not dists:
        sys.exit(f"share_distributions.py: {name} is not installed in {sys.prefix}")
    os.makedirs(target, exist_ok=True)
    for dist in dists:
        root = dist.locate_file("")
        for entry in top_level_entries(dist):
            src = os.path.join(root, entry)
            dst = os.path.join(target, entry)
            if os.path.exists(src) and not os.path.lexists(dst):
                os.symlink(src, dst)
    print(target)


if __name__ == "__main__":
    main()
