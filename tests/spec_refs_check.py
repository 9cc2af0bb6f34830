#!/usr/bin/env python3
"""The spec citation check (ctest "spec: ..."): every `§N` or `§N.M` in the repository (code,
tests, scripts, README, docs, and docs/spec.md's own cross-references) must name a heading of
docs/spec.md, i.e. a line `## N. ...` or `### N.M ...`. Ranges (`§10.7–10.8`) check both ends.
Section signs of RFCs (`RFC 9110 §9.3.2`) are not ours and are skipped; other documents' sections
are written "section N".

    python3 tests/spec_refs_check.py [<repository root>]

Exits 1 and lists every dangling citation as path:line.
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), ".."))
SPEC = os.path.join("docs", "spec.md")
# Folders that are not sources: build trees, dependencies, VCS data.
SKIP_DIRS = {".git", "node_modules", "__pycache__", "data", ".cache"}

SECTION = r"\d+(?:\.\d+)*"
# `§N`, `§ N`, and an optional range end `–M` / `-M`.
CITATION = re.compile(r"§ ?(" + SECTION + r")(?:\s*[–-]\s*§?(" + SECTION + r"))?")
# `spec N.M` written without the sign (JSON descriptions, prose).
BARE_CITATION = re.compile(r"\bspec (\d+\.\d+(?:\.\d+)*)")
FOREIGN = re.compile(r"RFC ?\d+,? $")


def spec_sections():
    sections = set()
    with open(os.path.join(ROOT, SPEC), encoding="utf-8") as f:
        for line in f:
            match = re.match(r"^#+ (" + SECTION + r")[ .]", line)
            if match:
                sections.add(match.group(1))
    return sections


def source_files():
    for directory, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("build"))
        for name in sorted(files):
            path = os.path.join(directory, name)
            if os.path.islink(path) or os.path.getsize(path) > 2 * 1024 * 1024:
                continue
            try:
                with open(path, encoding="utf-8") as f:
                    yield os.path.relpath(path, ROOT), f.read()
            except (UnicodeDecodeError, OSError):
                continue  # binary files


def citations(text):
    """(line number, section) of every citation of our spec in `text`."""
    for match in CITATION.finditer(text):
        if FOREIGN.search(text[max(0, match.start() - 12):match.start()]):
            continue
        line = text.count("\n", 0, match.start()) + 1
        yield line, match.group(1)
        if match.group(2):
            yield line, match.group(2)
    for match in BARE_CITATION.finditer(text):
        yield text.count("\n", 0, match.start()) + 1, match.group(1)


def main():
    sections = spec_sections()
    if not sections:
        print("spec refs: no numbered headings in %s" % SPEC)
        return 1
    dangling = []
    count = 0
    for path, text in source_files():
        for line, section in citations(text):
            count += 1
            if section not in sections:
                dangling.append("  %s:%d: §%s is not a section of %s" % (path, line, section, SPEC))
    if dangling:
        print("spec refs: %d citation(s) name no section of %s:" % (len(dangling), SPEC))
        print("\n".join(dangling))
        return 1
    print("spec refs: %d citations, every one names a section of %s (%d sections)"
          % (count, SPEC, len(sections)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
