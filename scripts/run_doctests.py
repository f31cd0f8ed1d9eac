#!/usr/bin/env python3
"""Runs the runnable examples of the Python API documentation: docs/*.md and the docstrings of
every nuri module that has examples (against the installed package). Exit 1 on any failure."""

import doctest
import importlib
import pathlib
import sys

root = pathlib.Path(__file__).resolve().parent.parent
failed = tried = 0
for md in sorted((root / "docs").glob("*.md")):
    if ">>> " in md.read_text():
        r = doctest.testfile(str(md), module_relative=False, optionflags=doctest.ELLIPSIS)
        print(f"{md.relative_to(root)}: {r.attempted} examples, {r.failed} failed")
        failed += r.failed
        tried += r.attempted
for py in sorted((root / "python" / "nuri").rglob("*.py")):
    if ">>> " not in py.read_text():
        continue
    mod = ".".join(py.relative_to(root / "python").with_suffix("").parts)
    r = doctest.testmod(importlib.import_module(mod), optionflags=doctest.ELLIPSIS)
    print(f"{mod}: {r.attempted} examples, {r.failed} failed")
    failed += r.failed
    tried += r.attempted
print(f"doctests: {tried - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
