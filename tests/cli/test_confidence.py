#!/usr/bin/env python3
"""Confidence (issue 13): every finding says how sure it is, every format
shows it, and --min-confidence (or `min-confidence` in the configuration)
hides what is below a level from the report and the exit code, never from
the store.

The tree has one finding of each level:
  high    a catalogued session live across a sleep (CAN102, line 12);
  medium  a create known only by its name, awaited under a timeout
          (CAN201, line 16);
  low     a task live across the acquire of a lock no holder keeps across
          an await: latent today (CAN102, line 20).

Environment: CANCELAUDIT (the binary; default build/cancelaudit under
CA_SOURCE_DIR or the current directory). Standard library only.
"""
import json
import os
import sqlite3
import subprocess
import tempfile
import unittest

SOURCE_DIR = os.path.abspath(os.environ.get("CA_SOURCE_DIR", os.getcwd()))
BINARY = os.path.abspath(os.environ.get("CANCELAUDIT", os.path.join(SOURCE_DIR, "build", "cancelaudit")))

TREE = """\
import asyncio

import aiohttp


class Pool:
    def __init__(self):
        self._lock = asyncio.Lock()

    async def open(self):
        session = aiohttp.ClientSession()
        await asyncio.sleep(1)
        self._session = session

    async def make(self):
        box = await asyncio.wait_for(self._api.create_box(), 5)
        return box

    async def start(self, key):
        task = asyncio.create_task(self.open())
        async with self._lock:
            self._tasks[key] = task
"""
LEVELS = {12: ("CAN102", "high"), 16: ("CAN201", "medium"), 21: ("CAN102", "low")}


def run(args, cwd):
    p = subprocess.run([BINARY] + list(args), cwd=cwd, capture_output=True, text=True, timeout=120)
    if p.returncode < 0:
        raise AssertionError("killed by signal %d: %s\n%s" % (-p.returncode, args, p.stderr))
    return p


class Confidence(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="ca-conf-")
        self.root = self._tmp.name
        os.makedirs(os.path.join(self.root, "src"))
        with open(os.path.join(self.root, "src", "pool.py"), "w") as f:
            f.write(TREE)
        self.db = os.path.join(self.root, "audit.db")

    def tearDown(self):
        self._tmp.cleanup()

    def scan(self, *extra, rc=1, fmt="json"):
        p = run(["scan", "src", "--db", self.db, "--no-progress", "--no-config", "--format", fmt] + list(extra),
                self.root)
        self.assertEqual(p.returncode, rc, p.stderr)
        return json.loads(p.stdout) if fmt in ("json", "sarif") else p.stdout

    def test_every_format_says_it(self):
        doc = self.scan()
        self.assertEqual({f["line"]: (f["rule"], f["confidence"]) for f in doc["findings"]}, LEVELS)
        self.assertEqual((doc["scan"]["min_confidence"], doc["scan"]["below_min_confidence"]), ("low", 0))
        concise = self.scan(fmt="concise").splitlines()
        self.assertFalse(concise[0].endswith("confidence)"), concise[0])  # high says nothing
        self.assertTrue(concise[1].endswith(" (medium confidence)"), concise[1])
        self.assertTrue(concise[2].endswith(" (low confidence)"), concise[2])
        self.assertIn("(low confidence)\n", self.scan(fmt="full"))
        gh = self.scan(fmt="github").splitlines()
        self.assertTrue(gh[2].startswith("::error file=src/pool.py,line=21,") and gh[2].endswith("(low confidence)"))
        md = self.scan(fmt="markdown")
        self.assertIn("| `self._api.create_box` | medium |", md)  # CAN201's resource is the create call
        sarif = self.scan(fmt="sarif")
        results = sarif["runs"][0]["results"]
        self.assertEqual([(r["properties"]["confidence"], r["rank"]) for r in results],
                         [("high", 90), ("medium", 60), ("low", 30)])
        # the store records it
        con = sqlite3.connect(self.db)
        rows = con.execute("SELECT line, confidence FROM latest_findings ORDER BY line").fetchall()
        con.close()
        self.assertEqual(rows, [(12, "high"), (16, "medium"), (21, "low")])

    def test_min_confidence_hides_and_counts(self):
        for level, lines in (("low", [12, 16, 21]), ("medium", [12, 16]), ("high", [12])):
            with self.subTest(level=level):
                doc = self.scan("--min-confidence", level)
                self.assertEqual([f["line"] for f in doc["findings"]], lines)
                self.assertEqual(doc["scan"]["min_confidence"], level)
                self.assertEqual(doc["scan"]["below_min_confidence"], 3 - len(lines))
                sarif = self.scan("--min-confidence", level, fmt="sarif")
                self.assertEqual(len(sarif["runs"][0]["results"]), len(lines))
        text = self.scan("--min-confidence", "medium", fmt="concise")
        self.assertTrue(text.endswith("; 1 below medium confidence\n"), text)
        # the store keeps every finding whatever was shown
        con = sqlite3.connect(self.db)
        counts = con.execute("SELECT count(*) FROM scan_findings GROUP BY scan_id").fetchall()
        con.close()
        self.assertEqual({c for (c,) in counts}, {3})

    def test_exit_code_counts_only_what_is_shown(self):
        with open(os.path.join(self.root, "src", "pool.py"), "w") as f:
            f.write(TREE.replace("        await asyncio.sleep(1)\n        self._session = session\n",
                                 "        self._session = session\n        await asyncio.sleep(1)\n").replace(
                "box = await asyncio.wait_for(self._api.create_box(), 5)",
                "box = await asyncio.wait_for(self._api.fetch_box(), 5)"))
        doc = self.scan()  # the latent window alone
        self.assertEqual([f["confidence"] for f in doc["findings"]], ["low"])
        doc = self.scan("--min-confidence", "medium", rc=0)
        self.assertEqual(doc["findings"], [])
        self.assertEqual(doc["scan"]["below_min_confidence"], 1)
        out = self.scan("--min-confidence", "medium", "--statistics", rc=0, fmt="concise")
        self.assertIn("0 findings in 1 file", out)

    def test_configuration_and_command_line(self):
        cfg = os.path.join(self.root, "cancelaudit.toml")
        with open(cfg, "w") as f:
            f.write('min-confidence = "high"\n')
        p = run(["scan", "src", "--no-db", "--no-progress", "--format", "json"], self.root)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertEqual([f["line"] for f in json.loads(p.stdout)["findings"]], [12])
        # the command line wins
        p = run(["scan", "src", "--no-db", "--no-progress", "--format", "json", "--min-confidence", "low"], self.root)
        self.assertEqual(len(json.loads(p.stdout)["findings"]), 3)
        with open(cfg, "w") as f:
            f.write('min-confidence = "sure"\n')
        p = run(["scan", "src", "--no-db", "--no-progress"], self.root)
        self.assertEqual(p.returncode, 2)
        self.assertIn("cancelaudit.toml:1: 'min-confidence' must be \"high\", \"medium\" or \"low\"", p.stderr)
        os.remove(cfg)
        p = run(["scan", "src", "--no-db", "--min-confidence", "sure"], self.root)
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown --min-confidence 'sure' (high, medium, low)", p.stderr)

    def test_report_and_diff(self):
        self.scan()
        with open(os.path.join(self.root, "src", "pool.py"), "w") as f:
            # (the session is stored before the sleep: its window closes,
            # and open() still suspends, so the task started on it at 21
            # is still one)
            f.write(TREE.replace("        await asyncio.sleep(1)\n        self._session = session\n",
                                 "        self._session = session\n        await asyncio.sleep(1)\n"))
        self.scan()
        p = run(["diff", "--db", self.db, "--format", "json", "1", "2"], self.root)
        self.assertEqual(p.returncode, 0, p.stderr)
        d = json.loads(p.stdout)
        self.assertEqual(([f["line"] for f in d["fixed"]], len(d["unchanged"])), ([12], 2))
        p = run(["diff", "--db", self.db, "--format", "json", "--min-confidence", "medium", "1", "2"], self.root)
        d = json.loads(p.stdout)
        self.assertEqual(([f["line"] for f in d["fixed"]], [f["confidence"] for f in d["unchanged"]]),
                         ([12], ["medium"]))
        p = run(["diff", "--db", self.db, "--format", "json", "--min-confidence", "high", "2", "1"], self.root)
        self.assertEqual(p.returncode, 1, p.stderr)  # the high one is new that way round
        self.assertEqual([f["line"] for f in json.loads(p.stdout)["new"]], [12])
        # report leaves out what is below the level
        p = run(["report", "--db", self.db, "--scan", "1", "--backend", "pool"], self.root)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("`task`", p.stdout)
        p = run(["report", "--db", self.db, "--scan", "1", "--backend", "pool", "--min-confidence", "medium"],
                self.root)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("`task`", p.stdout)
        self.assertIn("`session`", p.stdout)
        p = run(["report", "--db", self.db, "--backend", "pool", "--min-confidence", "bogus"], self.root)
        self.assertEqual(p.returncode, 2)

    def test_swallow_levels(self):
        """CAN401 is medium whatever the handler catches (a catch-all is no
        surer than a named handler on the ecosystem check's verdicts), and
        high for a loop that spins on a level-triggered cancellation."""
        with open(os.path.join(self.root, "src", "swallow.py"), "w") as f:
            f.write(
                "import asyncio\n"
                "\n"
                "import trio\n"
                "\n"
                "\n"
                "async def quiet_read(sock):\n"
                "    try:\n"
                "        return await sock.recv()\n"
                "    except BaseException:\n"
                "        return None\n"
                "\n"
                "\n"
                "async def named_read(sock):\n"
                "    try:\n"
                "        return await sock.recv()\n"
                "    except asyncio.CancelledError:\n"
                "        return None\n"
                "\n"
                "\n"
                "async def spin(stream):\n"
                "    while True:\n"
                "        try:\n"
                "            await stream.receive_some()\n"
                "        except trio.Cancelled:\n"
                "            pass\n"
            )
        doc = self.scan()
        got = sorted((f["line"], f["confidence"]) for f in doc["findings"]
                     if f["rule"] == "CAN401" and f["path"].endswith("swallow.py"))
        self.assertEqual(got, [(9, "medium"), (16, "medium"), (24, "high")])


if __name__ == "__main__":
    unittest.main(verbosity=2)
