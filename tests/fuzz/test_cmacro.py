"""The C side of fuzzing (issue 16): generated files whose function bodies
come out of macro expansion (tests/fuzz/cmacro_gen.py), scanned in worker
processes and in process (CANCELAUDIT_CONTAIN=0).

Fails when a scan ends by a signal or with an exit code other than 0/1,
when a generated file crashes its worker or runs out of time or memory
(under ASan a memory error in c_lower.c ends the worker: its report is in
the log, CANCELAUDIT_WORKER_STDERR=1), or when the two scans' findings
differ (the module a worker sends back must be the one lowered in
process). CA_CMACRO_FILES and CA_CMACRO_SEED choose the run; the longer
runs by hand are `python3 tests/fuzz/cmacro_gen.py --run build/cancelaudit
--files 2000 --seed N` (docs/reliability.md).
"""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cmacro_gen  # noqa: E402

EXE = os.environ.get("CANCELAUDIT") or os.path.join(os.environ.get("CA_BUILD_DIR", "build"), "cancelaudit")
SANITIZED = os.environ.get("CA_SANITIZE", "0").upper() in ("1", "ON", "TRUE", "YES")


def main():
    files = int(os.environ.get("CA_CMACRO_FILES", "40" if SANITIZED else "120"))
    seed = int(os.environ.get("CA_CMACRO_SEED", "16"))
    root = tempfile.mkdtemp(prefix="ca-cmacro-")
    try:
        paths, total = cmacro_gen.generate(root, files, seed)
        fig = cmacro_gen.check(EXE, root, len(paths))
        print("cmacro: %d files (%d bytes), seed %d: %s" % (len(paths), total, seed,
                                                          {k: v for k, v in fig.items() if k != "problems"}))
        if fig["problems"]:
            for p in fig["problems"]:
                print("FAIL:", p)
            kept = os.path.join(os.environ.get("CA_BUILD_DIR", "build"), "cmacro-failed")
            shutil.rmtree(kept, ignore_errors=True)
            shutil.copytree(root, kept)
            print("inputs kept in", kept)
            return 1
        if fig["analysed"] != len(paths):
            print("FAIL: %d of %d files analysed" % (fig["analysed"], len(paths)))
            return 1
        return 0
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
