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
    """The installed distributions NAME requires, transitively, with NAME;
    a requirement's extras (torch's cuda-toolkit[cublas,...]) bring the
    requirements they guard."""
    seen, todo, out, extras = set(), [(name, ())], [], {}
    while todo:
        text, wanted = todo.pop()
        key = re.sub(r"[-_.]+", "-", text).lower()
        new_extras = set(wanted) - extras.setdefault(key, set())
        if key in seen and not new_extras:
            continue
        extras[key] |= new_extras
        try:
            dist = metadata.distribution(key)
        except metadata.PackageNotFoundError:
            continue  # an optional dependency that is not installed
        if key not in seen:
            out.append(dist)
        seen.add(key)
        for requirement in dist.requires or []:
            req = Requirement(requirement)
            # Markers decide for this interpreter and the extras asked for.
            if req.marker is None or any(req.marker.evaluate({"extra": extra})
                                         for extra in ("", *extras[key])):
                todo.append((req.name, tuple(req.extras)))
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
