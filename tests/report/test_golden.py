#!/usr/bin/env python3
"""Golden outputs of `matrix` (text, Markdown, JSON, --select) and `report`
(per backend, per boundary, per finding) for corpus/providers.

The corpus is scanned into a temporary database; every output is rendered
with CANCELAUDIT_REPRODUCIBLE=1 and compared byte for byte with
tests/golden/providers/. Any drift fails with a diff. Regenerate with
tests/golden/regen.sh and review the change with git diff.

Also checked: the golden files hold nothing volatile (dates, scan ids,
absolute paths), and the JSON matrix has the cells corpus/providers/README.md
describes.
"""
import difflib
import json
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reportkit as kit  # noqa: E402

EXPECTED = {  # corpus/providers/README.md, "Expected matrix (all rules)"
    "harbor": {"open_session": ("gap", "CAN101"), "close_session": ("gap", "CAN301"), "exec": ("no-window", "")},
    "lumen": {"open_session": ("covered", "except BaseException"), "close_session": ("no-window", ""),
              "exec": ("covered", "except BaseException")},
    "quarry": {"open_session": ("gap", "CAN101,CAN102"), "close_session": ("no-window", ""), "exec": ("absent", "")},
    "tidewater": {"open_session": ("covered", "except CancelledError"), "close_session": ("covered", "finally"),
                  "exec": ("absent", "")},
    "basalt": {"open_session": ("covered", "except BaseException + shield"), "close_session": ("no-window", ""),
               "exec": ("absent", "")},
    "cobalt": {"open_session": ("covered", "finally"), "close_session": ("no-window", ""), "exec": ("gap", "CAN201")},
    "meridian": {"open_session": ("covered", "exit stack"),
                 "close_session": ("covered", "except BaseException + shield"),
                 "exec": ("covered", "context manager")},
}

VOLATILE = [
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d"), "a timestamp"),
    (re.compile(r"/tmp/|/home/|/root/|/work/"), "an absolute path"),
    (re.compile(r"\b[Ss]can \d+\b"), "a scan id"),
    (re.compile(r'"id": \d'), "a scan id"),
]

check = kit.Checks("golden")


def fail(msg):
    check(False, msg)


def check_matrix(cov):
    cells = {(c["backend"], c["boundary"]): c for c in cov}
    for backend, row in EXPECTED.items():
        for boundary, (status, detail) in row.items():
            c = cells.get((backend, boundary))
            if not c:
                fail(f"matrix: no cell {backend} {boundary}")
                continue
            got = (c["status"], ",".join(c["rules"]) if c["status"] == "gap" else c["protection"])
            if got != (status, detail):
                fail(f"matrix: {backend} {boundary} is {got}, README says {(status, detail)}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "audit.db"
        kit.scan(db)
        out = Path(tmp) / "out"
        kit.render_goldens(db, out)
        check_matrix(json.loads((out / "matrix.json").read_text())["coverage"])
        prereg = kit.matrix_json(db, kit.SRC, "--select", "CAN101,CAN102")["coverage"]
        for c in prereg:
            if c["boundary"] == "open_session":
                want = EXPECTED[c["backend"]]["open_session"][0]
                if c["status"] != want:
                    fail(f"--select CAN101,CAN102: open_session {c['backend']} is {c['status']}, want {want}")
            elif c["status"] == "gap":
                fail(f"--select CAN101,CAN102: {c['backend']} {c['boundary']} still a gap ({c['rules']})")

        want_names = kit.generated(kit.GOLDEN) if kit.GOLDEN.exists() else []
        have_names = kit.generated(out)
        if want_names != have_names:
            fail(f"golden files differ: have {have_names}, golden {want_names} (run tests/golden/regen.sh)")
        for name in have_names:
            text = (out / name).read_text(encoding="utf-8")
            for rx, what in VOLATILE:
                m = rx.search(text)
                if m:
                    fail(f"{name} holds {what}: {m.group(0)!r}")
            g = kit.GOLDEN / name
            if not g.exists():
                continue
            want = g.read_text(encoding="utf-8")
            if want != text:
                diff = difflib.unified_diff(want.splitlines(True), text.splitlines(True),
                                            f"golden/{name}", f"now/{name}", n=2)
                sys.stdout.writelines(list(diff)[:80])
                fail(f"{name} drifted from tests/golden/providers/{name} (review, then tests/golden/regen.sh)")
    return check.done(f"{len(have_names)} outputs match")


if __name__ == "__main__":
    sys.exit(main())
