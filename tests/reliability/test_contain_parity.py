"""Lowering in worker processes changes no result (issue 16).

The scan lowers every file in a worker process and gets the module back
through ir_encode/ir_decode (scan/contain.c, ir/serial.c); a member of the
IR that the encoding drops would change findings without a word. This
scans the whole corpus (Python and C, every rule with --strict) in worker
processes and in process (CANCELAUDIT_CONTAIN=0) and requires the same
JSON document from both: findings with every field, the coverage matrix,
the families and the scan's counts. tests/unit/test_ir_serial.c compares
the modules themselves, member by member; this is the end-to-end half.
"""
import json
import os
import subprocess
import sys

SRC = os.environ.get("CA_SOURCE_DIR") or os.getcwd()
EXE = os.environ.get("CANCELAUDIT") or os.path.join(SRC, "build", "cancelaudit")


def scan(contained, *extra):
    env = dict(os.environ)
    env["CANCELAUDIT_CONTAIN"] = "1" if contained else "0"
    p = subprocess.run([EXE, "scan", "corpus", "--no-db", "--no-config", "--strict", "--format", "json",
                        "--no-progress", *extra], cwd=SRC, env=env, capture_output=True)
    if p.returncode not in (0, 1):
        print("FAIL: scan (%s) exited %d:\n%s" % ("contained" if contained else "in process", p.returncode,
                                                p.stderr.decode("utf-8", "replace")[-3000:]))
        sys.exit(1)
    return json.loads(p.stdout), p.stderr.decode("utf-8", "replace")


def first_difference(a, b, where="$"):
    if type(a) is not type(b):
        return "%s: %r vs %r" % (where, a, b)
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return "%s.%s: only on one side" % (where, k)
            d = first_difference(a[k], b[k], "%s.%s" % (where, k))
            if d:
                return d
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, "%s[%d]" % (where, i))
            if d:
                return d
        return None if len(a) == len(b) else "%s: %d vs %d items" % (where, len(a), len(b))
    return None if a == b else "%s: %r vs %r" % (where, a, b)


def main():
    failures = 0
    for extra in ((), ("--jobs", "1")):
        contained, err1 = scan(True, *extra)
        in_process, err2 = scan(False, *extra)
        label = " ".join(extra) or "default jobs"
        rules = sorted({f["rule"] for f in contained["findings"]})
        langs = {os.path.splitext(f["path"])[1] for f in contained["findings"]}
        # the comparison means something only if both languages and many rules are in it
        if len(contained["findings"]) < 100 or ".c" not in langs or ".py" not in langs or len(rules) < 10:
            print("FAIL (%s): the corpus scan found too little to compare: %d findings, rules %s, suffixes %s"
                  % (label, len(contained["findings"]), rules, sorted(langs)))
            failures += 1
            continue
        d = first_difference(contained, in_process)
        if d:
            print("FAIL (%s): the contained scan differs from the in-process one at %s" % (label, d))
            failures += 1
        elif err1 != err2:
            print("FAIL (%s): diagnostics differ:\n--- contained\n%s\n--- in process\n%s" % (label, err1, err2))
            failures += 1
        else:
            print("ok (%s): %d findings (%d rules), %d files, identical both ways"
                  % (label, len(contained["findings"]), len(rules), contained["scan"]["files_scanned"]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
