#!/usr/bin/env python3
"""Every hostile name through every Markdown output (issue 16, item 4).

A file named `` `<img src=x onerror=alert(1)>`.py `` ended the inline code
span of its location in `scan --format markdown` (a span fenced with one
backtick), and the raw HTML after it reached the rendered page. Every code
span we write is now fenced one backtick longer than the longest run inside
it and padded where CommonMark would eat a space (doc_code_span).

The tree: each name below is both a backend (a directory holding a
provider.py with a finding) and a file (files/NAME.py with a finding).
Rendered: `scan --format markdown`, `matrix --format markdown`,
`report --backend` for every backend, `report --boundary`, and
`report --finding` for every finding of a hostile file. Checked on each,
with a reader of CommonMark's inline code spans and escapes:

- outside code spans and fenced blocks: no raw `<`, no `@` mention, no
  raw bidi override or ESC; table rows keep their cell count;
- in the scan's table, each finding's location is one code span whose
  content, read back as CommonMark reads it, is exactly `path:line:col`
  with the path shown as the terminal shows it (controls and bidi as
  escapes, a pipe as `\\|`).
"""
import json
import os
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reportkit as kit  # noqa: E402

NAMES = [
    "`<img src=x onerror=alert(1)>`",
    "``double``<b>x",
    "```triple",
    "trail`",
    "`lead",
    " spaced ",
    "pipe|name",
    "new\nline",
    "cr\rname",
    "tab\tname",
    "esc\x1b[31mred",
    "bidi\u202eevil",
    "<script>alert(1)",
    "@everyone",
    "*bold*_em_[link](x:y)",
    "back\\slash`",
    "&amp;entity",
    "<!-- comment",
    "-dash",
    "#heading",
]
# not UTF-8 at all: shown as U+FFFD
RAW_NAMES = [b"bad\xffbyte`<i>"]

CODE = '''import asyncio


class Provider:
    async def open_session(self, http):
        ws = await http.ws_connect("u")
        try:
            await ws.receive_json()
        except Exception:
            await ws.close()
            raise
'''

check = kit.Checks("markdown names")
PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def unfenced(md):
    """md without its fenced code blocks (their lines dropped)."""
    out, fence = [], None
    for line in md.split("\n"):
        if fence:
            m = re.match(r"^ {0,3}(`{3,}|~{3,})[ \t]*$", line)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        # an opening fence; a backtick one has no backtick after it (else
        # the line is a paragraph that starts with a code span)
        m = re.match(r"^ {0,3}(`{3,}(?=[^`]*$)|~{3,})", line)
        if m:
            fence = m.group(1)
            continue
        out.append(line)
    check(fence is None, "an unclosed code fence")
    return "\n".join(out)


def inline(md):
    """(prose, spans): md outside fenced blocks read as CommonMark reads
    inline text: a backslash before ASCII punctuation makes it literal (the
    pair is dropped from the prose: it is text), a backtick run opens a code
    span only when a run of the same length closes it (the span's content
    goes to spans, with one space stripped from each end when both are
    there and it is not all spaces). What remains in prose is what a
    renderer would read as markup."""
    s = unfenced(md)
    prose, spans, i = [], [], 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s) and s[i + 1] in PUNCT:
            i += 2
            continue
        if c != "`":
            prose.append(c)
            i += 1
            continue
        j = i
        while j < len(s) and s[j] == "`":
            j += 1
        n, k = j - i, j
        while True:
            k = s.find("`" * n, k)
            if k < 0:
                break
            e = k
            while e < len(s) and s[e] == "`":
                e += 1
            if e - k == n:
                break
            k = e
        if k < 0:  # no closing run: the backticks are text
            prose.append("`" * n)
            i = j
            continue
        content = s[j:k].replace("\n", " ")
        if len(content) >= 2 and content[0] == " " and content[-1] == " " and content.strip(" "):
            content = content[1:-1]
        spans.append(content)
        prose.append("CODE")
        i = k + n
    return "".join(prose), spans


def check_tables(name, md):
    """Every table row has as many cells as its header (unescaped pipes)."""
    lines = unfenced(md).split("\n")
    for i, line in enumerate(lines):
        if not (line.startswith("|") and i + 1 < len(lines) and re.match(r"^\|( --- \|)+$", lines[i + 1])):
            continue
        width = len(re.findall(r"(?<!\\)\|", line))
        k = i + 2
        while k < len(lines) and lines[k].startswith("|"):
            check(len(re.findall(r"(?<!\\)\|", lines[k])) == width,
                  f"{name}: table row {k + 1} has a different number of cells: {lines[k][:120]!r}")
            k += 1
        check(k >= len(lines) or lines[k] == "", f"{name}: a table ends on a broken row {lines[k][:80]!r}")


def shown(name):
    """A name as doc_put shows it inside a code span in a table cell."""
    out = []
    for ch in name:
        o = ord(ch)
        if ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif o < 0x20 or o == 0x7F:
            out.append("\\x%02x" % o)
        elif 0x202A <= o <= 0x202E or 0x2066 <= o <= 0x2069:
            out.append("\\u%04x" % o)
        elif ch == "|":
            out.append("\\|")
        else:
            out.append(ch)
    return "".join(out)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        tree = os.path.join(tmp, "tree")
        os.makedirs(os.path.join(tree, "files"))
        for name in [os.fsencode(n) for n in NAMES] + RAW_NAMES:
            d = os.path.join(os.fsencode(tree), name)
            os.makedirs(d)
            with open(os.path.join(d, b"provider.py"), "w") as f:
                f.write(CODE)
            with open(os.path.join(os.fsencode(tree), b"files", name + b".py"), "w") as f:
                f.write(CODE.replace("class Provider", "class Other"))
        db = os.path.join(tmp, "audit.db")
        kit.scan(db, paths=("tree",), cwd=tmp)

        outs = {}
        scan_md = kit.run(["scan", "tree", "--no-db", "--no-progress", "--format", "markdown"], cwd=tmp,
                          ok=(1,)).stdout
        outs["scan markdown"] = scan_md
        outs["matrix markdown"] = kit.run(["matrix", "--db", db, "--format", "markdown"], cwd=tmp).stdout
        mj = kit.matrix_json(db, tmp)
        for b in mj["backends"]:
            outs[f"report --backend {b!r}"] = kit.run(["report", "--db", db, "--backend", b], cwd=tmp).stdout
        for bound in mj["boundaries"]:
            outs[f"report --boundary {bound}"] = kit.run(["report", "--db", db, "--boundary", bound], cwd=tmp).stdout
        diff = json.loads(kit.run(["diff", "--db", db, "--format", "json", "latest", "latest"], cwd=tmp).stdout)
        fps = [f["fingerprint"] for f in diff["unchanged"] if f["path"].startswith("tree/files/")]
        check(len(fps) >= len(NAMES), f"a finding per hostile file: {len(fps)}")
        for fp in fps:
            outs[f"report --finding {fp}"] = kit.run(["report", "--db", db, "--finding", fp], cwd=tmp).stdout
        check(len(mj["backends"]) >= len(NAMES), f"a backend per hostile name: {mj['backends']}")

        for key, md in outs.items():
            prose, _ = inline(md)
            for bad in ("<", "@", "\u202e", "\x1b"):
                at = prose.find(bad)
                check(at < 0, f"{key}: {bad!r} outside code: {prose[max(0, at - 60):at + 40]!r}")
            check_tables(key, md)

        # the scan's table: a location span per finding, exactly the path
        _, spans = inline(scan_md)
        for name in NAMES:
            want = shown("tree/files/" + name + ".py") + ":"
            hits = [s for s in spans if s.startswith(want) and re.fullmatch(r"\d+:\d+", s[len(want):])]
            check(hits, f"scan markdown: no location span for {name!r} (want {want!r}...)")
        for raw in RAW_NAMES:
            want = shown("tree/files/" + raw.decode("utf-8", "replace") + ".py") + ":"
            check([s for s in spans if s.startswith(want)], f"scan markdown: no location span for {raw!r}")
    return check.done()


if __name__ == "__main__":
    sys.exit(main())
