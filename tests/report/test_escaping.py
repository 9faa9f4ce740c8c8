#!/usr/bin/env python3
"""Hostile names and code through every store reporter.

A temporary tree holds three backends that all define `open_session`, so
they form one boundary: one named `b<script>alert(1)|"q'`tick``, one with a
newline and a right-to-left override in its name, one plain. Their code
carries `<script>`, `</code></pre>`, `<img onerror>`, pipes, backticks and an
@-mention in strings and comments on the lines the excerpts show. The tree
is scanned into a temporary database, and the matrix (text, Markdown, JSON,
HTML) and the reports (Markdown, HTML) are rendered. Checked:

- HTML has no markup from the scan: no <script>/<img> in the source nor in
  the DOM Chromium builds; the hostile text is there, as text.
- Markdown: outside code spans and fenced blocks there is no raw `<`, `@`
  or unescaped pipe; every table row has as many cells as its header; no
  line break from a name splits a row.
- JSON: the names come back exactly.
- Text: no control characters or bidi overrides reach the terminal.
"""
import json
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import chromium  # noqa: E402
import reportkit as kit  # noqa: E402

HOSTILE = "b<script>alert(1)|\"q'`tick`"
NEWLINE = "new\nline\u202eevil"
PLAIN = "plain"

LEAKY = '''import asyncio


class Provider:
    def __init__(self, http):
        self._http = http
        self._lock = asyncio.Lock()
        self._sessions = {}

    async def open_session(self, session_id, command):
        ws = await self._http.ws_connect("<script>alert('x')</script>|`tick`|@everyone")
        reader = asyncio.create_task(self._pump(ws))  # </code></pre><script>alert(2)</script> | ```
        try:
            await ws.send_json({"cmd": "<img src=x onerror=alert(3)>", "pipe": "a|b"})
            async with self._lock:
                self._sessions[session_id] = (ws, reader)
        except Exception:
            reader.cancel()
            await ws.close()
            raise

    async def _pump(self, ws):
        async for msg in ws:
            print(msg)
'''

COVERED = LEAKY.replace("except Exception:", "except BaseException:")

check = kit.Checks("escaping")


def strip_code(md):
    """Markdown without fenced blocks and inline code spans."""
    out, fence = [], None
    for line in md.split("\n"):
        m = re.match(r"^(`{3,}|~{3,})", line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        out.append(line)
    text = "\n".join(out)
    # code spans: a run of n backticks up to the next run of exactly n
    res, i = [], 0
    while i < len(text):
        if text[i] == "`":
            j = i
            while j < len(text) and text[j] == "`":
                j += 1
            n = j - i
            k = j
            while True:
                k = text.find("`" * n, k)
                if k < 0:
                    break
                e = k
                while e < len(text) and text[e] == "`":
                    e += 1
                if e - k == n:
                    break
                k = e
            if k < 0:
                res.append(text[i:j])
                i = j
                continue
            res.append("CODE")
            i = k + n
            continue
        res.append(text[i])
        i += 1
    return "".join(res)


def unescaped(text, ch):
    return [m.start() for m in re.finditer(re.escape(ch), text)
            if not (m.start() > 0 and text[m.start() - 1] == "\\")]


def check_markdown(name, md):
    prose = strip_code(md)
    check(not unescaped(prose, "<"), f"{name}: raw '<' outside code: {prose[max(0, prose.find('<') - 40):][:80]!r}")
    check(not unescaped(prose, "@"), f"{name}: raw '@' (a mention) outside code")
    check("\u202e" not in md, f"{name}: a raw bidi override")
    lines = md.split("\n")
    in_fence = None
    for i, line in enumerate(lines):
        m = re.match(r"^(`{3,}|~{3,})", line)
        if in_fence:
            if m and len(m.group(1)) >= len(in_fence):
                in_fence = None
            continue
        if m:
            in_fence = m.group(1)
            continue
        if line.startswith("|") and i + 1 < len(lines) and re.match(r"^\|( --- \|)+$", lines[i + 1]):
            width = len(unescaped(line, "|"))
            k = i + 2
            while k < len(lines) and lines[k].startswith("|"):
                check(len(unescaped(lines[k], "|")) == width, f"{name}: table row {k + 1} has a different "
                      f"number of cells: {lines[k][:120]!r}")
                k += 1
            check(k >= len(lines) or lines[k] == "", f"{name}: table ends on a broken row {lines[k][:80]!r}")
    # every fenced block is closed
    check(in_fence is None, f"{name}: unclosed code fence")


def check_html(name, html, dom):
    low = html.lower()
    for bad in ("<script", "<img", "</code></pre><"):
        check(bad not in low, f"{name}: {bad!r} in the HTML source")
    check("\u202e" not in html, f"{name}: a raw bidi override")
    root = chromium.parse(dom)
    for tag in ("script", "img", "iframe"):
        check(not list(root.iter(tag)), f"{name}: <{tag}> in the DOM")
    for n in root.iter():
        check(not any(k.startswith("on") for k in n.attrs), f"{name}: an event handler attribute on <{n.tag}>")
    text = root.all_text()
    check("<script>alert(" in text or "b<script>alert(1)" in text, f"{name}: the hostile name is not shown as text")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        for name, code in ((HOSTILE, LEAKY), (NEWLINE, LEAKY), (PLAIN, COVERED)):
            d = tree / name
            d.mkdir(parents=True)
            (d / "provider.py").write_text(code)
        db = Path(tmp) / "audit.db"
        kit.scan(db, paths=("tree",), cwd=tmp)
        mj = kit.matrix_json(db, tmp)
        check(sorted(mj["backends"]) == sorted([HOSTILE, NEWLINE, PLAIN]), f"backends {mj['backends']}")
        check("open_session" in mj["boundaries"], f"boundaries {mj['boundaries']}")
        states = {c["backend"]: c["status"] for c in mj["coverage"] if c["boundary"] == "open_session"}
        check(states.get(HOSTILE) == "gap" and states.get(NEWLINE) == "gap" and states.get(PLAIN) == "covered",
              f"cell states {states}")

        outs = {}
        for fmt in ("text", "markdown", "html"):
            outs[f"matrix.{fmt}"] = kit.run(["matrix", "--db", str(db), "--format", fmt], cwd=tmp).stdout
        for who in (HOSTILE, NEWLINE):
            for fmt in ("markdown", "html"):
                key = f"report[{who!r}].{fmt}"
                outs[key] = kit.run(["report", "--db", str(db), "--backend", who, "--format", fmt], cwd=tmp).stdout
        outs["report[boundary].markdown"] = kit.run(["report", "--db", str(db), "--boundary", "open_session"],
                                                   cwd=tmp).stdout

        text = outs["matrix.text"]
        check(not re.search(r"[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]", text),
              "text matrix: a control character or bidi override reached the terminal")
        check("new\\nline" in text and "\\u202e" in text, "text matrix: the newline/bidi name is not shown escaped")
        for key, val in outs.items():
            if key.endswith(".markdown"):
                check_markdown(key, val)
                check("<script>alert(" in val, f"{key}: the hostile code is not quoted at all")
            elif key.endswith(".html"):
                page = Path(tmp) / "page.html"
                page.write_text(val, encoding="utf-8")
                check_html(key, val, chromium.dump_dom(page))
        # the report names the hostile backend and quotes the hostile line in its excerpt
        md = outs[f"report[{HOSTILE!r}].markdown"]
        check("</code></pre><script>alert(2)</script>" in md, "report: the hostile comment is missing from the excerpt")
        # JSON round trip of names and paths
        paths = {c["backend"]: c["path"] for c in mj["coverage"] if c["boundary"] == "open_session"}
        check(paths.get(HOSTILE) == f"tree/{HOSTILE}/provider.py", f"JSON path {paths.get(HOSTILE)!r}")
        json.dumps(mj)  # serialisable as read
    return check.done()


if __name__ == "__main__":
    sys.exit(main())
