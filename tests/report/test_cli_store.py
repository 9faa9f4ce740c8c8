#!/usr/bin/env python3
"""Exit codes and messages of `matrix` and `report` (DESIGN §6): usage
errors are 2 with a message on stderr and nothing on stdout; a missing
database is never created; --output is written only when there is a report.
"""
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reportkit as kit  # noqa: E402

check = kit.Checks("cli_store")


def expect(args, code, stderr_has=None, cwd=kit.SRC):
    p = kit.run(args, ok=None, cwd=cwd)
    check(p.returncode == code, f"{args}: exit {p.returncode}, want {code} ({p.stderr.strip()[:200]})")
    if code == 2:
        check(p.stdout == "", f"{args}: printed to stdout on a usage error")
    if stderr_has:
        check(stderr_has in p.stderr, f"{args}: stderr {p.stderr.strip()!r} lacks {stderr_has!r}")
    return p


def main():
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "audit.db")
        missing = str(Path(tmp) / "missing.db")
        expect(["matrix", "--db", missing], 2, "no database")
        expect(["report", "--db", missing, "--backend", "harbor"], 2, "no database")
        check(not Path(missing).exists(), "a missing database was created")
        kit.scan(db)
        expect(["matrix", "--db", db], 0)
        expect(["matrix", "--db", db, "--format", "sarif"], 2, "unknown --format")
        expect(["matrix", "--db", db, "--select", "CAN999"], 2, "unknown rule")
        expect(["matrix", "--db", db, "--scan", "42"], 2, "no scan 42")
        expect(["matrix", "--db", db, "--scan", "abc"], 2, "not a scan id")
        expect(["matrix", "--db", db, "--bogus"], 2, "unknown option")
        expect(["matrix", "--db", db, "--scan", "1"], 0)
        expect(["report", "--db", db], 2, "exactly one of")
        expect(["report", "--db", db, "--backend", "harbor", "--boundary", "exec"], 2, "exactly one of")
        expect(["report", "--db", db, "--backend", "nosuch"], 2, "no backend nosuch")
        expect(["report", "--db", db, "--boundary", "nosuch"], 2, "no boundary nosuch")
        expect(["report", "--db", db, "--finding", "0000000000000000"], 2, "no finding")
        expect(["report", "--db", db, "--finding", "ab"], 2, "at least 4")
        expect(["report", "--db", db, "--backend", "harbor", "--format", "text"], 2, "unknown --format")
        # a known backend without findings: a note, no file
        out = Path(tmp) / "basalt.md"
        expect(["report", "--db", db, "--backend", "basalt", "--output", str(out)], 0, "nothing to report")
        check(not out.exists(), "an empty report was written")
        out = Path(tmp) / "harbor.md"
        expect(["report", "--db", db, "--backend", "harbor", "-o", str(out)], 0)
        check(out.exists() and out.read_text().startswith("# harbor: "), "report --output")
        # a fingerprint prefix works
        fp = kit.finding_fp(db, "cobalt", "self._api.create_job", "CAN201")
        p = expect(["report", "--db", db, "--finding", fp[:8]], 0)
        check("CobaltProvider.exec" in p.stdout, "report --finding PREFIX")
        # --select narrows gaps, never widens them
        full = kit.matrix_json(db)
        sel = kit.matrix_json(db, kit.SRC, "--select", "CAN3")
        check(sel["select"] == "CAN3", "JSON names the selection")
        gaps = {(c["backend"], c["boundary"]): c["rules"] for c in sel["coverage"] if c["status"] == "gap"}
        check(gaps == {("harbor", "close_session"): ["CAN301"]}, f"--select CAN3 gaps {gaps}")
        check(len(sel["coverage"]) == len(full["coverage"]), "--select dropped cells")
        check(json.dumps(full).count('"gap"') == 4, "the full matrix has 4 gaps")
    return check.done()


if __name__ == "__main__":
    sys.exit(main())
