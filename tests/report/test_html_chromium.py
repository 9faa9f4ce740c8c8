#!/usr/bin/env python3
"""The HTML matrix and report load in headless Chromium (Debian's chromium,
installed by scripts/bootstrap.sh), and the DOM Chromium builds holds what a
reader sees: a section per family with its counts, each with a grid whose
shorter axis goes across (both layouts: corpus/providers has boundaries
across, corpus/families/protocol backends across), one cell per backend and
boundary whose class and data-status are the cell's state (as the JSON
matrix says), hyphenated words kept whole, gap cells linking to an evidence
section that exists and holds a code excerpt with the unprotected
checkpoint marked; no script, no external resource. The report page has the
sections of a bug report.
"""
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import chromium  # noqa: E402
import reportkit as kit  # noqa: E402

check = kit.Checks("html")


def no_active_content(root, page):
    for tag in ("script", "iframe", "object", "embed", "img", "link", "form"):
        check(not list(root.iter(tag)), f"{page}: has a <{tag}> element")
    for n in root.iter():
        for k, v in n.attrs.items():
            check(not k.startswith("on"), f"{page}: event handler attribute {k}")
            if k in ("href", "src"):
                check((v or "").startswith("#"), f"{page}: {k}={v!r} leaves the page")


def check_table(root, table, cov, ids, page):
    """One family's grid: the shorter axis across (backends across when there are fewer of them than
    boundaries), every cell's class, status, text and link as the JSON matrix says."""
    head = [th.all_text().strip() for th in next(table.iter("thead")).iter("th")]
    backends = sorted({c["backend"] for c in cov})
    bounds = sorted({c["boundary"] for c in cov})
    across_backends = len(backends) < len(bounds)
    check(head[0] == ("boundary" if across_backends else "backend"), f"{page}: corner {head[0]!r}")
    cols = head[1:]
    check(sorted(cols) == (backends if across_backends else bounds), f"{page}: header {cols}")
    want = {(c["backend"], c["boundary"]): c for c in cov}
    rows = list(next(table.iter("tbody")).iter("tr"))
    check(len(rows) == len(bounds if across_backends else backends), f"{page}: {len(rows)} rows")
    seen = 0
    for tr in rows:
        label = next(tr.iter("th")).all_text().strip()
        cells = list(tr.iter("td"))
        check(len(cells) == len(cols), f"{page} {label}: {len(cells)} cells")
        for col, td in zip(cols, cells):
            backend, boundary = (col, label) if across_backends else (label, col)
            c = want.get((backend, boundary))
            check(c is not None, f"{page}: no JSON cell for {backend} {boundary}")
            if not c:
                continue
            seen += 1
            status = c["status"]
            check(status in td.classes(), f"{backend} {boundary}: class {td.classes()} lacks {status}")
            check(td.attrs.get("data-status") == status, f"{backend} {boundary}: data-status "
                  f"{td.attrs.get('data-status')} != {status}")
            text = td.all_text()
            check(status.replace("-", "") in text.replace("-", ""), f"{backend} {boundary}: text {text!r}")
            if status == "no-window":
                # the hyphen is a line-break opportunity: the word is kept whole
                nw = [s for s in td.iter("span") if "nw" in s.classes()]
                check(nw and nw[0].all_text() == "no-window", f"{backend} {boundary}: no-window may break")
            if status == "covered":
                check(c["protection"] in text, f"{backend} {boundary}: protection missing from {text!r}")
            links = list(td.iter("a"))
            if status == "gap":
                check(len(links) == 1, f"{backend} {boundary}: gap cell without a link")
                for r in c["rules"]:
                    check(r in text, f"{backend} {boundary}: rule {r} missing from {text!r}")
                if links:
                    target = links[0].attrs.get("href", "")[1:]
                    check(target in ids, f"{backend} {boundary}: link #{target} has no target")
                    sec = next((n for n in root.iter() if n.attrs.get("id") == target), None)
                    if sec is not None:
                        pres = [p for p in sec.iter("pre") if "excerpt" in p.classes()]
                        check(pres, f"{backend} {boundary}: evidence without an excerpt")
                        marked = [s for p in pres for s in p.iter("span") if "cp" in s.classes()]
                        check(marked, f"{backend} {boundary}: excerpt without a marked checkpoint")
                        check(backend in sec.all_text(), f"{backend} {boundary}: evidence does not name it")
            else:
                check(not links, f"{backend} {boundary}: {status} cell with a link")
    return seen


def check_matrix(html_path, doc):
    """The page: one section per drawn family (with its counts in the heading), each with its grid."""
    root = chromium.parse(chromium.dump_dom(html_path))
    page = Path(html_path).name
    no_active_content(root, page)
    ids = {n.attrs.get("id") for n in root.iter() if n.attrs.get("id")}
    drawn = [f for f in doc["families"] if f["drawn"]]
    sections = [n for n in root.iter("section") if "family" in n.classes()]
    check(len(sections) == len(drawn), f"{page}: {len(sections)} family sections for {len(drawn)} families")
    seen = 0
    for fam, sec in zip(drawn, sections):
        h2 = next(sec.iter("h2"), None)
        check(h2 is not None and fam["name"] in h2.all_text(), f"{page}: section heading for {fam['name']}")
        counts = [s for s in (h2.iter("span") if h2 is not None else []) if "counts" in s.classes()]
        check(counts and "backends" in counts[0].all_text(), f"{page}: {fam['name']} heading without counts")
        tables = [t for t in sec.iter("table") if "matrix" in t.classes()]
        check(len(tables) == 1, f"{page}: {fam['name']}: {len(tables)} table.matrix elements")
        cov = [c for c in doc["coverage"] if c["family"] == fam["name"]]
        if tables:
            seen += check_table(root, tables[0], cov, ids, page)
    check(seen == sum(len([c for c in doc["coverage"] if c["family"] == f["name"]]) for f in drawn),
          f"{page}: {seen} cells in the DOM")
    return sections


def check_report(html_path):
    root = chromium.parse(chromium.dump_dom(html_path))
    no_active_content(root, Path(html_path).name)
    h1 = [n.all_text().strip() for n in root.iter("h1")]
    check(len(h1) == 1 and "harbor" in h1[0], f"report title {h1}")
    h2 = [n.all_text().strip() for n in root.iter("h2")]
    check(h2 == ["Summary", "Describe the bug", "Other backends checked", "Expected behaviour", "Suggested fix",
                 "Debug information"], f"report sections {h2}")
    ex = [p for p in root.iter("pre") if "excerpt" in p.classes()]
    check(len(ex) == 2, f"{len(ex)} excerpts (harbor has two bugs)")
    others = [t for t in root.iter("table") if "others" in t.classes()]
    check(others, "no Other backends table")
    for t in others:
        states = {td.attrs.get("data-status") for td in t.iter("td") if td.attrs.get("data-status")}
        check("covered" in states and "gap" in states, f"other backends states {states}")


def main():
    if not chromium.find():
        print("FAIL: chromium is not installed (scripts/bootstrap.sh installs it)")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "audit.db"
        kit.scan(db)
        m = Path(tmp) / "matrix.html"
        kit.run(["matrix", "--db", str(db), "--format", "html", "--output", str(m)])
        check_matrix(m, kit.matrix_json(db))
        # both layouts: a family with more boundaries than backends puts the backends across, and a
        # tree with two families draws two sections
        for tree in ("protocol", "two_families"):
            fdb = Path(tmp) / (tree + ".db")
            kit.scan(fdb, paths=("corpus/families/" + tree,))
            fm = Path(tmp) / (tree + ".html")
            kit.run(["matrix", "--db", str(fdb), "--format", "html", "--output", str(fm)])
            check_matrix(fm, kit.matrix_json(fdb))
        r = Path(tmp) / "harbor.html"
        kit.run(["report", "--db", str(db), "--backend", "harbor", "--format", "html", "--output", str(r)])
        check_report(r)
    return check.done()


if __name__ == "__main__":
    sys.exit(main())
