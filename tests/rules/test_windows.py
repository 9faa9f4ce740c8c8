#!/usr/bin/env python3
"""One finding per window (issue 18): the resources of one function and
rule whose windows open at one checkpoint are one finding there, naming
them all, in Python (CAN101, CAN102, CAN301) and in C (CAN501, CAN502).

Checked on trees written here:
  - resources sharing their first checkpoint are one finding: the message
    names each with its kind and line (those made on one line together),
    says "are ... them ... they", and lists each handler that misses once;
  - resources whose first checkpoints differ stay apart;
  - the window's fingerprint does not name its resources: a resource that
    joins the window keeps the finding's fingerprint (and adds an alias);
  - two windows of one function whose checkpoints read alike still get
    fingerprints of their own (from their resources' names), which a third
    such window added before them does not move;
  - a window is as sure as its surest resource;
  - CAN301 and the C rules merge the same way.

Standard library only. Environment: CANCELAUDIT (the binary), CA_SOURCE_DIR.
"""
import json
import os
import subprocess
import tempfile
import unittest

SOURCE_DIR = os.environ.get("CA_SOURCE_DIR", os.getcwd())
BINARY = os.path.abspath(os.environ.get("CANCELAUDIT", os.path.join(SOURCE_DIR, "build", "cancelaudit")))

PY = """\
import asyncio
import os

import aiohttp


class Hub:
    async def attach(self, url):
        session = aiohttp.ClientSession()
        pump = asyncio.create_task(self._pump())
        try:
            ws = await session.ws_connect(url)
        except asyncio.TimeoutError:
            pump.cancel()
            raise
        except Exception:
            pump.cancel()
            await session.close()
            raise
        self._links[url] = (session, pump, ws)

    async def pipes(self, key):
        r, w = os.pipe()
        t = asyncio.create_task(self._pump())
        await self._ready.wait()
        self._pipes[key] = (r, w, t)

    async def apart(self, key):
        a = asyncio.create_task(self._pump())
        await asyncio.sleep(1)
        b = asyncio.create_task(self._pump())
        await asyncio.sleep(2)
        self._tasks[key] = (a, b)

    async def twice(self, key):
        first = asyncio.create_task(self._pump())
        await asyncio.sleep(0)
        self._tasks[key] = first
        second = asyncio.create_task(self._pump())
        await asyncio.sleep(0)
        self._tasks[key] = second

    async def teardown(self, key, other):
        conn = self._conns.pop(key)
        peer = self._conns.pop(other)
        await conn.send(b"bye")
        conn.close()
        peer.close()

    async def _pump(self):
        await asyncio.sleep(0)
"""

LATE = """\
import asyncio
import socket


class Tunnel:
    def __init__(self, a, b, exec_id):
        self.a, self.b, self.exec_id = a, b, exec_id

    async def close(self):
        self.a.close()
        self.b.close()


class Backend:
    async def late(self, host):
        a = socket.create_connection((host, 22))
        b = socket.create_connection((host, 23))
        t = asyncio.create_task(self._pump())
        entry = None
        try:
            exec_id = await self._client.exec_start(host)
            entry = Tunnel(a, b, exec_id)
            self._tunnels[exec_id] = (entry, t)
        except BaseException:
            if entry is not None:
                await entry.close()
            raise

    async def _pump(self):
        await asyncio.sleep(0)
"""

C = """\
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static pthread_mutex_t a_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t b_mu = PTHREAD_MUTEX_INITIALIZER;

void stop(pthread_t t) { pthread_cancel(t); }

int copy(int fd)
{
    char *head = malloc(64);
    char *body = malloc(4096);
    if (read(fd, body, 4096) < 0) {
        free(head);
        free(body);
        return -1;
    }
    free(head);
    free(body);
    return 0;
}

void both(int fd)
{
    pthread_mutex_lock(&a_mu);
    pthread_mutex_lock(&b_mu);
    fsync(fd);
    pthread_mutex_unlock(&b_mu);
    pthread_mutex_unlock(&a_mu);
}
"""


def scan(root, *paths):
    r = subprocess.run([BINARY, "scan", *paths, "--no-db", "--no-progress", "--no-config", "--format", "json"],
                       cwd=root, capture_output=True, text=True)
    if r.returncode not in (0, 1):
        raise AssertionError("scan exited %d: %s" % (r.returncode, r.stderr))
    return json.loads(r.stdout)["findings"]


class Windows(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="ca-win-")
        self.root = self._tmp.name
        self.write("hub.py", PY)

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, name, text):
        with open(os.path.join(self.root, name), "w") as f:
            f.write(text)

    def by_function(self, *paths):
        out = {}
        for f in scan(self.root, *(paths or ("hub.py",))):
            out.setdefault(f["function"].split(".")[-1], []).append(f)
        return out

    def test_shared_first_checkpoint_is_one_finding(self):
        fs = self.by_function()["attach"]
        self.assertEqual(len(fs), 1, fs)
        f = fs[0]
        self.assertEqual((f["rule"], f["line"]), ("CAN101", 12))
        self.assertEqual(f["resources"], ["session", "pump"])
        self.assertEqual(f["resource"], "session")
        self.assertEqual(f["acquired_lines"], [9, 10])
        self.assertEqual(len(f["fingerprint_aliases"]), 2)
        self.assertEqual(len(set(f["fingerprint_aliases"] + [f["fingerprint"]])), 3)
        self.assertTrue(f["message"].startswith(
            "`session` (session, acquired line 9) and `pump` (task, acquired line 10) are unowned across "
            "`await session.ws_connect(…)`: the cleanup that would release them runs only in "
            "`except asyncio.TimeoutError` (line 13), `except Exception` (line 16), which do not catch "
            "cancellation"), f["message"])
        self.assertTrue(f["message"].endswith("cancelled here, they leak"), f["message"])
        # each handler once, though both resources' windows name the second
        self.assertEqual([h["line"] for h in f["handlers"]], [13, 16])

    def test_made_on_one_line_run_together(self):
        f = self.by_function()["pipes"][0]
        self.assertEqual(f["resources"], ["r", "w", "t"])
        self.assertTrue(f["message"].startswith(
            "`r` and `w` (fd, acquired line 23) and `t` (task, acquired line 24) are unowned across"), f["message"])
        self.assertIn("releases them if the task is cancelled here, and nothing registered them yet", f["message"])

    def test_other_first_checkpoints_stay_apart(self):
        fs = self.by_function()["apart"]
        self.assertEqual([(f["line"], f["resources"]) for f in fs], [(30, ["a"]), (32, ["b"])])
        self.assertTrue(fs[0]["message"].startswith("`a` (task, acquired line 29) is unowned"))

    def test_fingerprint_survives_a_resource_joining(self):
        before = self.by_function()["attach"][0]
        self.write("hub.py", PY.replace("        pump = asyncio.create_task(self._pump())\n",
                                        "        pump = asyncio.create_task(self._pump())\n"
                                        "        beat = asyncio.create_task(self._pump())\n", 1)
                   .replace("            pump.cancel()\n            await", "            pump.cancel()\n"
                            "            beat.cancel()\n            await", 1)
                   .replace("(session, pump, ws)", "(session, pump, beat, ws)"))
        after = self.by_function()["attach"][0]
        self.assertEqual(after["resources"], ["session", "pump", "beat"])
        self.assertEqual(after["fingerprint"], before["fingerprint"])
        self.assertEqual(after["fingerprint_aliases"][:2], before["fingerprint_aliases"])

    def test_checkpoints_that_read_alike(self):
        fs = self.by_function()["twice"]
        self.assertEqual([f["resources"] for f in fs], [["first"], ["second"]])
        self.assertNotEqual(fs[0]["fingerprint"], fs[1]["fingerprint"])
        # a third window that reads alike, before them, moves neither
        self.write("hub.py", PY.replace("        first = asyncio.create_task(self._pump())\n",
                                        "        zeroth = asyncio.create_task(self._pump())\n"
                                        "        await asyncio.sleep(0)\n"
                                        "        self._tasks[key] = zeroth\n"
                                        "        first = asyncio.create_task(self._pump())\n", 1))
        again = self.by_function()["twice"]
        self.assertEqual([f["resources"] for f in again], [["zeroth"], ["first"], ["second"]])
        self.assertEqual([f["fingerprint"] for f in again[1:]], [f["fingerprint"] for f in fs])
        self.assertNotIn(again[0]["fingerprint"], [f["fingerprint"] for f in fs])

    def test_registry_takeouts(self):
        fs = self.by_function()["teardown"]
        self.assertEqual(len(fs), 1, fs)
        f = fs[0]
        self.assertEqual((f["rule"], f["resources"]), ("CAN301", ["conn", "peer"]))
        self.assertTrue(f["message"].startswith(
            "`conn` (line 44) and `peer` (line 45) were taken out of their registry and are released only after "
            "`await conn.send(…)`: cancelled here, they are neither registered nor released"), f["message"])
        self.assertEqual(f["confidence"], "medium")

    def test_surest_resource_decides(self):
        # a value known only by its name (medium alone) and a catalogued session, in one window
        self.write("one.py", "async def one(api):\n    box = await api.open_box()\n    await box.ping()\n"
                             "    return box\n")
        self.assertEqual([(f["resources"], f["confidence"]) for f in scan(self.root, "one.py")], [(["box"], "medium")])
        self.write("mix.py", "import aiohttp\n\n\nasync def mix(api):\n    box = await api.open_box()\n"
                             "    session = aiohttp.ClientSession()\n    await box.ping()\n    return session, box\n")
        self.assertEqual([(f["resources"], f["confidence"]) for f in scan(self.root, "mix.py")],
                         [(["box", "session"], "high")])

    def test_conditional_release_names_whom_it_misses(self):
        """A handler that catches cancellation but releases only through a holder that does not exist yet
        (eng_window.conditional) is said of the resources it would release; the others are released by
        nothing at all."""
        self.write("late.py", LATE)
        fs = scan(self.root, "late.py")
        self.assertEqual([(f["rule"], f["line"], f["resources"]) for f in fs], [("CAN102", 21, ["a", "b", "t"])])
        self.assertIn("`except BaseException` (line 24) releases `a` and `b` only on a branch that cannot run when "
                      "the task is cancelled here (what it tests is not set yet), nothing else releases them, and "
                      "nothing registered them yet", fs[0]["message"])

    def test_c_windows(self):
        self.write("copy.c", C)
        fs = self.by_function("copy.c")
        self.assertEqual([(f["rule"], f["resources"]) for f in fs["copy"]], [("CAN501", ["head", "body"])])
        self.assertTrue(fs["copy"][0]["message"].startswith(
            "`head` (memory, acquired line 12) and `body` (memory, acquired line 13) are unowned across "
            "`read(fd, body, 4096)`"), fs["copy"][0]["message"])
        self.assertIn("releases them: if the thread is cancelled here, they leak", fs["copy"][0]["message"])
        self.assertEqual([(f["rule"], f["resources"]) for f in fs["both"]], [("CAN502", ["a_mu", "b_mu"])])
        self.assertTrue(fs["both"][0]["message"].startswith(
            "locks `a_mu` (taken line 26) and `b_mu` (taken line 27) are held across"), fs["both"][0]["message"])
        self.assertIn("exits with them held, and the next thread to take one deadlocks", fs["both"][0]["message"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
