"""The repository's Markdown documents as the doc tests read them: which documents there are, the
snippets they mark, the relative links they hold and the anchors their headings make.

A snippet is a file shown verbatim: a marker line right before its fence says which file it is,

    <!-- snippet: tests/e2e/clients/node/examples/node-test.test.mjs -->
    ```js
    ...the whole file...
    ```

and the path is relative to the repository's root. Plain functions, no pytest: the tests in this
folder use them.
"""
import glob
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARKER = re.compile(r"^<!-- snippet: (\S+) -->\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
# [text](target) and ![alt](target); the target ends at the first space or ')'.
LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")


def snippet_documents():
    """The documents whose snippets are checked: the README, every docs/*.md, and the client
    packages' READMEs (clients/*/README.md, clients/*/*/README.md). Paths relative to ROOT."""
    patterns = ["README.md", "docs/*.md", "clients/*/README.md", "clients/*/*/README.md"]
    return _existing(patterns)


def link_documents():
    """The documents whose relative links are checked: the README and every docs/*.md."""
    return _existing(["README.md", "docs/*.md"])


def _existing(patterns):
    found = []
    for pattern in patterns:
        found += sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, pattern)))
    return found


def read_lines(document):
    with open(os.path.join(ROOT, document), encoding="utf-8") as f:
        return f.read().split("\n")


def snippet_failures(document):
    """(number of snippets checked, list of failures) for `document`. A failure names the line of
    the document, the file, and the first line where they differ, with both texts."""
    lines = read_lines(document)
    failures, checked = [], 0
    for number, line in enumerate(lines):
        match = MARKER.match(line)
        if not match:
            continue
        path = match.group(1)
        if number + 1 >= len(lines) or not lines[number + 1].startswith("```"):
            failures.append("%s:%d: no ``` fence right after the marker for %s"
                            % (document, number + 1, path))
            continue
        end = number + 2
        while end < len(lines) and lines[end] != "```":
            end += 1
        block = lines[number + 2:end]
        full = os.path.join(ROOT, path)
        if not os.path.isfile(full):
            failures.append("%s:%d: the snippet names %s, which does not exist"
                            % (document, number + 1, path))
            continue
        with open(full, encoding="utf-8") as f:
            wanted = f.read().rstrip("\n").split("\n")
        checked += 1
        if block == wanted:
            continue
        padded = max(len(block), len(wanted))
        for i in range(padded):
            shown = block[i] if i < len(block) else None
            real = wanted[i] if i < len(wanted) else None
            if shown != real:
                failures.append("%s:%d: the snippet differs from %s at its line %d:\n"
                                "  document: %r\n  file:     %r"
                                % (document, number + 3 + i, path, i + 1, shown, real))
                break
    return checked, failures


def prose(document):
    """The text of `document` outside fenced code blocks, with inline code blanked out; fenced
    lines become empty and code spans keep their newlines, so offsets map to the same lines."""
    lines, fenced = [], False
    for line in read_lines(document):
        if FENCE.match(line):
            fenced = not fenced
            lines.append("")
            continue
        lines.append("" if fenced else line)
    return INLINE_CODE.sub(lambda m: "\n" * m.group(0).count("\n"), "\n".join(lines))


def relative_links(document):
    """(line number, target) of every link in `document` that is not a URL with a scheme:
    relative paths, with or without #anchor, and #anchors of the document itself. A link's text
    may run over lines."""
    text = prose(document)
    for match in LINK.finditer(text):
        target = match.group(1)
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):
            continue  # https:, mailto:, ...
        yield text.count("\n", 0, match.start()) + 1, target


def slug(heading):
    """The anchor GitHub makes of a heading's text: lower case, links and code reduced to their
    text, punctuation other than '-' and '_' dropped, spaces made '-'."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(document):
    """Every anchor `document` defines: its headings' slugs (a repeated slug gets -1, -2, ... as
    on GitHub) and <a name/id> anchors."""
    seen, found = {}, set()
    fenced = False
    for line in read_lines(document):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        for match in HTML_ANCHOR.finditer(line):
            found.add(match.group(1))
        heading = HEADING.match(line)
        if not heading:
            continue
        base = slug(heading.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else "%s-%d" % (base, count))
    return found


def broken_links(document):
    """Each relative link of `document` whose file does not exist, or whose #anchor names no
    heading of a Markdown file, as 'document:line: target: why'."""
    broken = []
    here = os.path.dirname(os.path.join(ROOT, document))
    for number, target in relative_links(document):
        path, _, anchor = target.partition("#")
        full = os.path.normpath(os.path.join(here, path)) if path else os.path.join(ROOT, document)
        if not os.path.exists(full):
            broken.append("%s:%d: %s: %s does not exist"
                          % (document, number, target, os.path.relpath(full, ROOT)))
            continue
        if anchor and full.endswith(".md"):
            if anchor not in anchors(os.path.relpath(full, ROOT)):
                broken.append("%s:%d: %s: %s has no heading whose anchor is #%s"
                              % (document, number, target, os.path.relpath(full, ROOT), anchor))
    return broken
