"""Shared by the store-reporter tests (tests/report/test_*.py) and by
tests/golden/regen.sh: run the analyzer, scan corpus/providers into a
throw-away database, and render the golden outputs and the example reports.

Everything is rendered with CANCELAUDIT_REPRODUCIBLE=1 (no scan ids, dates,
roots or git revisions) and COLUMNS=100, from the source root, so the output
depends only on the code and the corpus.

    python3 tests/report/reportkit.py regen     # rewrite tests/golden/providers/ and reports/

Environment: CANCELAUDIT (the binary; default build/cancelaudit under the
source root), CA_SOURCE_DIR (the source root; default two levels up).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SRC = Path(os.environ.get("CA_SOURCE_DIR") or Path(__file__).resolve().parents[2]).resolve()
GOLDEN = SRC / "tests" / "golden" / "providers"
REPORTS = SRC / "reports"
PROVIDERS = "corpus/providers"


class Checks:
    """Collects failures so one run shows every broken expectation."""

    def __init__(self, name):
        self.name, self.failures = name, []

    def __call__(self, cond, msg):
        if not cond:
            self.failures.append(msg)
            print("FAIL:", msg)
        return cond

    def done(self, ok_line="ok"):
        print(f"{self.name}: {ok_line}" if not self.failures else f"{self.name}: {len(self.failures)} failure(s)")
        return 1 if self.failures else 0


def binary():
    b = os.environ.get("CANCELAUDIT") or str(SRC / "build" / "cancelaudit")
    if not Path(b).exists():
        sys.exit(f"no analyzer binary at {b}: build first (cmake --build build)")
    return b


def env(**extra):
    e = dict(os.environ)
    e.update({"CANCELAUDIT_REPRODUCIBLE": "1", "COLUMNS": "100", "LC_ALL": "C.UTF-8"})
    e.pop("NO_COLOR", None)
    e.update(extra)
    return e


def run(args, cwd=SRC, ok=(0,), env_extra=None, text=True):
    """Run the analyzer with args; fail loudly unless the exit code is in ok."""
    p = subprocess.run([binary()] + list(args), cwd=cwd, capture_output=True, text=text,
                       env=env(**(env_extra or {})), timeout=300)
    if ok is not None and p.returncode not in ok:
        raise AssertionError(f"cancelaudit {' '.join(map(str, args))}: exit {p.returncode}, "
                             f"expected {ok}\nstdout: {p.stdout[-2000:]}\nstderr: {p.stderr[-2000:]}")
    return p


def scan(db, paths=(PROVIDERS,), cwd=SRC):
    """Scan paths (relative to cwd) into db; findings (exit 1) are expected."""
    run(["scan", *paths, "--db", str(db), "--no-progress", "--quiet"], cwd=cwd, ok=(0, 1))


def matrix_json(db, cwd=SRC, *extra):
    return json.loads(run(["matrix", "--db", str(db), "--format", "json", *extra], cwd=cwd).stdout)


def gap_backends(db, cwd=SRC):
    return sorted({c["backend"] for c in matrix_json(db, cwd)["coverage"] if c["status"] == "gap"})


def finding_fp(db, backend, resource, rule):
    """The fingerprint of the finding of one resource (alone, or one of a
    window's resources), read back through the JSON reporter of `diff` (a
    scan compared with itself lists every finding as unchanged)."""
    out = json.loads(run(["diff", "--db", str(db), "--format", "json", "latest", "latest"]).stdout)
    for f in out["unchanged"]:
        if f["backend"] == backend and resource in f.get("resources", [f["resource"]]) and f["rule"] == rule:
            return f["fingerprint"]
    raise AssertionError(f"no {rule} finding for {resource} in {backend}")


def golden_cases(db):
    """(file name, argv) of every golden output."""
    fp = finding_fp(db, "harbor", "ws", "CAN101")
    base = ["--db", str(db)]
    return [
        ("matrix.txt", ["matrix", *base]),
        ("matrix.md", ["matrix", *base, "--format", "markdown"]),
        ("matrix.json", ["matrix", *base, "--format", "json"]),
        ("matrix-prereg.txt", ["matrix", *base, "--select", "CAN101,CAN102"]),
        ("matrix-prereg.md", ["matrix", *base, "--format", "markdown", "--select", "CAN101,CAN102"]),
        ("report-harbor.md", ["report", *base, "--backend", "harbor"]),
        ("report-quarry.md", ["report", *base, "--backend", "quarry"]),
        ("report-cobalt.md", ["report", *base, "--backend", "cobalt"]),
        ("report-boundary-open_session.md", ["report", *base, "--boundary", "open_session"]),
        ("report-finding-harbor-ws.md", ["report", *base, "--finding", fp]),
    ]


def render_goldens(db, out):
    out.mkdir(parents=True, exist_ok=True)
    for name, argv in golden_cases(db):
        (out / name).write_text(run(argv).stdout, encoding="utf-8")


def report_files(db):
    """(file name, argv) of the example reports: what scripts/run.sh writes."""
    files = [("matrix.md", ["matrix", "--db", str(db), "--format", "markdown"]),
             ("matrix.html", ["matrix", "--db", str(db), "--format", "html"])]
    for b in gap_backends(db):
        for ext, fmt in (("md", "markdown"), ("html", "html")):
            files.append((f"{b}.{ext}", ["report", "--db", str(db), "--backend", b, "--format", fmt]))
    return files


def render_reports(db, out):
    out.mkdir(parents=True, exist_ok=True)
    for name, argv in report_files(db):
        (out / name).write_text(run(argv).stdout, encoding="utf-8")


def generated(directory):
    """The generated files of a golden directory (all but README.md) or of
    reports/ (the matrix and one report per provider backend: other files
    there, such as templates, are not ours)."""
    directory = Path(directory)
    files = [p.name for p in directory.iterdir() if p.is_file() and p.name != "README.md"]
    if directory.resolve() == REPORTS.resolve():
        ours = {"matrix"} | {d.name for d in (SRC / PROVIDERS).iterdir() if d.is_dir()}
        files = [f for f in files if f.rsplit(".", 1)[0] in ours and f.rsplit(".", 1)[-1] in ("md", "html")]
    return sorted(files)


def regen():
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "audit.db"
        scan(db)
        if GOLDEN.exists():
            shutil.rmtree(GOLDEN)
        render_goldens(db, GOLDEN)
        for name in generated(REPORTS) if REPORTS.exists() else []:
            (REPORTS / name).unlink()
        render_reports(db, REPORTS)
    print(f"regenerated {GOLDEN.relative_to(SRC)}/ and {REPORTS.relative_to(SRC)}/: review with git diff")


if __name__ == "__main__":
    if sys.argv[1:] != ["regen"]:
        sys.exit("usage: reportkit.py regen")
    regen()
