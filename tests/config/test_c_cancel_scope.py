#!/usr/bin/env python3
"""Configuration forces the C analysis on or off (issue 8): `c-cancel-scope`."""
import os
import subprocess
import sys
import tempfile
from pathlib import Path

BIN = os.path.abspath(os.environ.get("CANCELAUDIT", "build/cancelaudit"))

WORKER = """#include <pthread.h>
#include <unistd.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    sleep(1);
    pthread_mutex_unlock(&m);
    return 0;
}
"""

CANCELLER = """#include <pthread.h>
void stop(pthread_t t) { pthread_cancel(t); }
"""


def scan(d, *extra):
    return subprocess.run([BIN, "scan", ".", "--no-db", "--no-progress", *extra], cwd=d,
                          capture_output=True, text=True)


def main():
    failures = []
    checks = 0

    def check(ok, what):
        nonlocal checks
        checks += 1
        if not ok:
            failures.append(what)
            print("FAIL:", what)

    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        (d / "w.c").write_text(WORKER)
        p = scan(d)
        check(p.returncode == 0 and "CAN502" not in p.stdout, f"auto, no pthread_cancel: no finding\n{p.stdout}{p.stderr}")
        (d / "cancelaudit.toml").write_text('c-cancel-scope = "always"\n')
        p = scan(d)
        check(p.returncode == 1 and "w.c:7:5: CAN502" in p.stdout, f"always: CAN502 at the sleep\n{p.stdout}{p.stderr}")
        (d / "stop.c").write_text(CANCELLER)
        (d / "cancelaudit.toml").write_text('c-cancel-scope = "never"\n')
        p = scan(d)
        check(p.returncode == 0 and "CAN502" not in p.stdout, f"never, even with pthread_cancel\n{p.stdout}{p.stderr}")
        (d / "cancelaudit.toml").write_text('c-cancel-scope = "auto"\n')
        p = scan(d)
        check(p.returncode == 1 and "CAN502" in p.stdout, f"auto with pthread_cancel in the scan\n{p.stdout}{p.stderr}")
        (d / "cancelaudit.toml").write_text('c-cancel-scope = true\n')
        p = scan(d)
        check(p.returncode == 2 and "cancelaudit.toml:1:" in p.stderr and "c-cancel-scope" in p.stderr,
              f"wrong type is exit 2 naming file, line, key\n{p.stderr}")
    print(f"{checks - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
