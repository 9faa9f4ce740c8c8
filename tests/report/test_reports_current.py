#!/usr/bin/env python3
"""reports/ holds the example reports scripts/run.sh writes for
corpus/providers (the Markdown and HTML matrix, and a Markdown and an HTML
report per backend with a gap). This test renders them afresh into a
temporary directory and compares them with reports/, file set and bytes:
the reports are rendered with CANCELAUDIT_REPRODUCIBLE=1, so nothing in them
changes from run to run. Refresh with tests/golden/regen.sh (or
scripts/run.sh) and review with git diff.
"""
import difflib
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reportkit as kit  # noqa: E402


def main():
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "audit.db"
        kit.scan(db)
        out = Path(tmp) / "reports"
        kit.render_reports(db, out)
        have = kit.generated(out)
        want = kit.generated(kit.REPORTS) if kit.REPORTS.exists() else []
        if have != want:
            print(f"FAIL: reports/ holds {want}, the corpus gives {have} (run tests/golden/regen.sh)")
            bad += 1
        for name in have:
            cur = kit.REPORTS / name
            if not cur.exists():
                continue
            a, b = cur.read_text(encoding="utf-8"), (out / name).read_text(encoding="utf-8")
            if a != b:
                sys.stdout.writelines(list(difflib.unified_diff(a.splitlines(True), b.splitlines(True),
                                                                f"reports/{name}", f"now/{name}", n=2))[:60])
                print(f"FAIL: reports/{name} is stale (run tests/golden/regen.sh)")
                bad += 1
    if not (kit.REPORTS / "README.md").exists():
        print("FAIL: reports/README.md is missing")
        bad += 1
    print("reports: current" if not bad else f"reports: {bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
