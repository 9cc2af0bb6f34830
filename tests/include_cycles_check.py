#!/usr/bin/env python3
"""The include cycle check (ctest "architecture: no include cycles ..."): inside the modules and
server rooms, no two files may depend on each other, directly or through others. A file here is a
header and its source together (`a.h` + `a.cc`, as LevelDB and Lakos count components): `a`
depends on `b` when `a.h` or `a.cc` includes "b.h". The arrows check (arrows_check.cmake) keeps
the folders acyclic; this keeps the files inside a folder acyclic too, so each file can be read
(and tested) after the ones it uses.

    python3 tests/include_cycles_check.py <repository root> <folder>...

Exits 1 and prints every cycle, each as the chain of includes that closes it.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^#include "([a-z0-9_/]+)\.h"', re.M)


def components(root, folders):
    """{component: set of components it includes}, for the .h/.cc files directly in `folders`."""
    uses = {}
    for folder in folders:
        path = os.path.join(root, folder)
        if not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            stem, ext = os.path.splitext(name)
            if ext not in (".h", ".cc"):
                continue
            component = folder + "/" + stem
            with open(os.path.join(path, name), encoding="utf-8") as f:
                included = set(INCLUDE.findall(f.read()))
            uses.setdefault(component, set()).update(included - {component})
    for component in uses:
        uses[component] &= uses.keys()  # only our own files (not tests/, not libraries)
    return uses


def strongly_connected(uses):
    """The strongly connected components of more than one file (Tarjan), each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(uses[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(10000)
    for v in sorted(uses):
        if v not in index:
            visit(v)
    return found


def chain(uses, group):
    """One cycle through the group's first file: a -> b -> ... -> a (breadth first)."""
    start, members = group[0], set(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(uses[v] & members):
            if w == start:
                return paths[v] + [start]
            if w not in paths:
                paths[w] = paths[v] + [w]
                queue.append(w)
    return group


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[-3], file=sys.stderr)
        return 2
    root, folders = sys.argv[1], sys.argv[2:]
    uses = components(root, folders)
    cycles = strongly_connected(uses)
    if cycles:
        print("architecture: include cycles (break each: move what both need into one of them or "
              "a third file):")
        for group in cycles:
            print("  " + " -> ".join(chain(uses, group)))
        return 1
    print(f"architecture: {len(uses)} files in {len(folders)} folders, no include cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
