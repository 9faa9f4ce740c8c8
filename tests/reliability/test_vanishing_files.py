"""Files that change under a running scan (issue 7 item 3; DESIGN §10).

A scan lists the tree first and reads each file later, so a file can be
deleted, truncated, replaced by a FIFO or a directory in between. A
background thread does that to a 2,000-file tree while real scans run; every
scan must end normally (exit 0/1, never a signal or a hang: a FIFO that
replaced a file must not block the read), produce a well-formed report, and
give each file that vanished a per-file diagnostic on stderr and in the
store. The race is real, so several rounds run with different start delays;
across them at least one file must have been caught vanishing between the
listing and the read, or the test did not test anything and fails.
"""
import json
import os
import re
import shutil
import sqlite3
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from relcommon import EXE, make_tree  # noqa: E402

import subprocess  # noqa: E402

NFILES = 2000
ROUNDS = 8
DIAG = re.compile(r"^cancelaudit: (.+?): (.+)$")


class Chaos(threading.Thread):
    """Deletes, truncates and replaces files from the end of the scan order
    (the files read last), until told to stop."""

    def __init__(self, paths, delay, mode):
        super().__init__(daemon=True)
        self.paths = list(reversed(paths))
        self.delay = delay
        self.mode = mode
        self.stop = threading.Event()
        self.done = []

    def run(self):
        time.sleep(self.delay)
        for i, p in enumerate(self.paths):
            if self.stop.is_set():
                break
            kind = self.mode if self.mode != "mixed" else ("delete", "truncate", "fifo", "dir", "grow")[i % 5]
            try:
                if kind == "delete":
                    os.unlink(p)
                elif kind == "truncate":
                    with open(p, "r+b") as f:
                        f.truncate(7)
                elif kind == "grow":
                    with open(p, "ab") as f:
                        f.write(b"\n# grown while scanned\n" * 100)
                elif kind == "fifo":
                    os.unlink(p)
                    os.mkfifo(p)
                elif kind == "dir":
                    os.unlink(p)
                    os.mkdir(p)
                self.done.append((p, kind))
            except OSError:
                pass


class VanishingFiles(unittest.TestCase):
    def test_changes_during_scan(self):
        caught = {"deleted after listing": 0, "replaced after listing": 0, "during the walk": 0}
        rounds = []
        modes = ["delete", "mixed", "delete", "mixed", "fifo", "mixed", "dir", "mixed"]
        for rnd in range(ROUNDS):
            tmp = tempfile.mkdtemp(prefix="ca-vanish-")
            try:
                tree = os.path.join(tmp, "tree")
                paths = make_tree(tree, NFILES)
                db = os.path.join(tmp, "audit.db")
                delay = 0.002 * (2 ** (rnd % 6))  # 2 ms .. 64 ms
                chaos = Chaos(paths, delay, modes[rnd])
                p = subprocess.Popen([EXE, "scan", tree, "--db", db, "--format", "json", "--no-progress",
                                      "--no-cache"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     stdin=subprocess.DEVNULL)
                chaos.start()
                out, err = p.communicate(timeout=120)
                chaos.stop.set()
                chaos.join()
                self.assertIn(p.returncode, (0, 1), "round %d: exit %d\n%s" % (rnd, p.returncode, err.decode()))
                doc = json.loads(out)
                diags = {}
                for line in err.decode("utf-8").splitlines():
                    m = DIAG.match(line)
                    self.assertIsNotNone(m, "round %d: not a per-file diagnostic: %r" % (rnd, line))
                    diags[m.group(1)] = m.group(2)
                con = sqlite3.connect(db)
                stored = dict(con.execute("SELECT path, diagnostic FROM latest_files WHERE status = 'error'"))
                nstored = con.execute("SELECT count(*) FROM latest_files").fetchone()[0]
                con.close()
                self.assertEqual(stored, diags, "round %d: stderr and store disagree" % rnd)
                self.assertEqual(doc["scan"]["errors"], len(stored))
                self.assertEqual(nstored, doc["scan"]["files_scanned"] + doc["scan"]["files_skipped"] +
                                 doc["scan"]["errors"])
                for path, msg in diags.items():
                    # read time: scan.c's messages; walk time: discover.c's
                    if msg.startswith("cannot read: "):
                        caught["deleted after listing"] += 1
                    elif msg == "not a regular file":
                        caught["replaced after listing"] += 1
                    elif msg == "no such file or directory" or msg.startswith("not a regular file ("):
                        caught["during the walk"] += 1
                    else:
                        self.fail("round %d: unexpected diagnostic for %s: %s" % (rnd, path, msg))
                rounds.append("%s@%dms: %d changed, %d diagnostics" % (modes[rnd], delay * 1000, len(chaos.done),
                                                                       len(diags)))
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        print("rounds: " + "; ".join(rounds))
        print("caught between listing and read: %s" % caught)
        self.assertGreater(caught["deleted after listing"] + caught["replaced after listing"], 0,
                           "no file vanished between the listing and the read in %d rounds; the race was never "
                           "hit: %s" % (ROUNDS, rounds))


if __name__ == "__main__":
    unittest.main(verbosity=2)
