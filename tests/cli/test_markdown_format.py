#!/usr/bin/env python3
"""`scan --format markdown`: a findings table with escaped cells, then the matrix."""
import os
import subprocess
import sys
import tempfile
from pathlib import Path

BIN = os.environ.get("CANCELAUDIT", "build/cancelaudit")

BUGGY = '''import asyncio


class P:
    def __init__(self):
        self._lock = asyncio.Lock()
        self._reg = {}

    async def start(self, k, argv):
        proc = await asyncio.create_subprocess_exec(*argv)
        async with self._lock:
            self._reg[k] = proc
'''


def main():
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / "a|b"
        d.mkdir()
        (d / "prov.py").write_text(BUGGY)
        p = subprocess.run([BIN, "scan", str(d), "--no-db", "--format", "markdown"], capture_output=True, text=True)
        out = p.stdout
        checks = [
            (p.returncode == 1, f"exit 1 expected, got {p.returncode}: {p.stderr}"),
            (out.startswith("# cancelaudit findings"), "title"),
            ("| rule | location | function | resource | confidence | message |" in out, "table header"),
            ("| `proc` | low |" in out, "resources and confidence cells"),
            ("| CAN102 |" in out, "CAN102 row"),
            ("a\\|b" in out, "pipe in the path escaped inside the table"),
            ("`P.start`" in out, "function cell"),
        ]
        for ok, what in checks:
            if not ok:
                failures += 1
                print("FAIL:", what, "\n", out)
    print(f"{6 - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
