"""Hostile inputs (issue 7 item 3 and 5; DESIGN §6, §10): each gives a clear
per-file diagnostic, the scan goes on, and names taken from paths and source
stay data in every output format.

Covered here: the size limit (a 50 MB file, the documented 10 MiB default,
--max-size), device paths named .py (symlinks to /dev/zero, /dev/null,
/dev/urandom, found by the walk and named on the command line), tabs/spaces
mixes, and hostile paths (newline, quotes, <script>, %, ':' and ',', ESC,
a bidi override, invalid UTF-8) and hostile source strings through the
text, JSON, SARIF and github reporters. Syntax errors, invalid UTF-8
content, NUL, empty files, BOM, CRLF/CR, symlink loops, FIFOs and deep
nesting are tests/badinput/test_bad_input.py's.
"""
import json
import os
import re
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from relcommon import WINDOW_SRC, run, write  # noqa: E402

DEFAULT_LIMIT = 10 * 1024 * 1024  # CA_DISCOVER_DEFAULT_MAX_SIZE, docs/reliability.md

# Path components (bytes: one is not valid UTF-8). '/' cannot be in a name,
# so "<script>...</script>" spans a directory and a file.
HOSTILE_DIR = b'd<script>alert(1)<'
HOSTILE_FILE = b'script>\nnew "dq" \'sq\' %0A ::x,y \x1b[31m red \xe2\x80\xae rlo.py'
BAD_UTF8_FILE = b'bad\xff\xfe name.py'

# A checkpoint whose source text carries markup, quotes, escapes, a percent
# sequence, workflow-command separators, an ESC and a bidi override: it is
# copied into the finding's message (in the callee: messages elide a call's
# arguments) and checkpoint.
HOSTILE_SRC = (
    "import asyncio\n\n\n"
    "async def probe(host):\n"
    "    reader, writer = await asyncio.open_connection(host, 80)\n"
    "    await waits[\"<script>alert('x')</script> %0A ::, \\x1b \x1b[31m \u202e & <b>\"]()\n"
    "    writer.close()\n")


def control_bytes(data):
    """C0 controls other than newline, and DEL."""
    return sorted({b for b in data if (b < 0x20 and b != 0x0A) or b == 0x7F})


class SizeLimit(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="ca-size-")
        # 50 MB: a real finding first, then one long string literal, so an
        # analysis under a raised limit is cheap and has something to find.
        big = WINDOW_SRC + 'PAD = """\n' + ("x" * 1023 + "\n") * (50 * 1024) + '"""\n'
        write(os.path.join(cls.tmp, "big.py"), big)
        write(os.path.join(cls.tmp, "small.py"), WINDOW_SRC)
        cls.big_size = len(big)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_default_limit_refuses_50mb_and_goes_on(self):
        p = run(["scan", ".", "--no-db", "--format", "json"], cwd=self.tmp)
        self.assertEqual(p.returncode, 1, p.stderr)  # small.py's finding; the refused file does not change it
        err = p.stderr.decode()
        self.assertIn("big.py: file too large (%d bytes > limit %d)" % (self.big_size, DEFAULT_LIMIT), err)
        doc = json.loads(p.stdout)
        self.assertEqual(doc["scan"]["errors"], 1)
        self.assertEqual(doc["scan"]["files_scanned"], 1)
        self.assertEqual([f["path"] for f in doc["findings"]], ["small.py"])

    def test_raised_limit_analyses_it(self):
        p = run(["scan", "big.py", "--no-db", "--format", "json", "--max-size", str(60 * 1000 * 1000)],
                cwd=self.tmp)
        self.assertEqual(p.returncode, 1, p.stderr)
        doc = json.loads(p.stdout)
        self.assertEqual(doc["scan"]["errors"], 0)
        self.assertEqual([(f["path"], f["rule"]) for f in doc["findings"]], [("big.py", "CAN102")])

    def test_limit_is_inclusive(self):
        small = len(WINDOW_SRC.encode())
        p = run(["scan", "small.py", "--no-db", "--max-size", str(small)], cwd=self.tmp)
        self.assertEqual(p.returncode, 1, p.stderr)
        p = run(["scan", "small.py", "--no-db", "--max-size", str(small - 1)], cwd=self.tmp)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(b"small.py: file too large", p.stderr)

    def test_bad_max_size_is_usage_error(self):
        for v in ("0", "-5", "ten", "12k", ""):
            p = run(["scan", "small.py", "--no-db", "--max-size", v], cwd=self.tmp)
            self.assertEqual(p.returncode, 2, (v, p.stderr))
            self.assertIn(b"--max-size", p.stderr)


class DevicePaths(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="ca-dev-")
        for name, target in (("zero.py", "/dev/zero"), ("null.py", "/dev/null"), ("urandom.py", "/dev/urandom")):
            os.symlink(target, os.path.join(cls.tmp, name))
        write(os.path.join(cls.tmp, "ok.py"), WINDOW_SRC)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def check(self, args):
        # /dev/zero read to the end would never finish: the timeout is the
        # failure mode this guards against.
        p = run(args, cwd=self.tmp, timeout=60)
        self.assertEqual(p.returncode, 1, p.stderr)
        err = p.stderr.decode()
        for name in ("zero.py", "null.py", "urandom.py"):
            self.assertIn("%s: not a regular file (character device)" % name, err)
        doc = json.loads(p.stdout)
        self.assertEqual(doc["scan"]["errors"], 3)
        self.assertEqual([f["path"] for f in doc["findings"]], ["ok.py"])

    def test_walked(self):
        self.check(["scan", ".", "--no-db", "--format", "json"])

    def test_named(self):
        self.check(["scan", "zero.py", "null.py", "urandom.py", "ok.py", "--no-db", "--format", "json"])

    def test_stored(self):
        import sqlite3
        db = os.path.join(self.tmp, "dev.db")
        p = run(["scan", ".", "--db", db, "--format", "json"], cwd=self.tmp, timeout=60)
        self.assertEqual(p.returncode, 1, p.stderr)
        con = sqlite3.connect(db)
        rows = con.execute("SELECT path, status, diagnostic FROM latest_files ORDER BY path").fetchall()
        con.close()
        self.assertEqual(rows, [("null.py", "error", "not a regular file (character device)"),
                                ("ok.py", "analyzed", None),
                                ("urandom.py", "error", "not a regular file (character device)"),
                                ("zero.py", "error", "not a regular file (character device)")])


class TabsAndSpaces(unittest.TestCase):
    def test_mixes(self):
        tmp = tempfile.mkdtemp(prefix="ca-tabs-")
        self.addCleanup(shutil.rmtree, tmp, True)
        head = "import asyncio\n\n\nasync def probe(host):\n"
        acquire = "reader, writer = await asyncio.open_connection(host, 80)\n"
        wait = "await asyncio.sleep(0)\n"
        close = "writer.close()\n"
        files = {
            # consistent tabs: valid Python; columns count the tab as one code point
            "tabs.py": head + "\t" + acquire + "\t" + wait + "\t" + close,
            # a tab and eight spaces on sibling lines (Python 3: TabError)
            "tab8.py": head + "\t" + acquire + "        " + wait + "\t" + close,
            # spaces then tab, tab then spaces, alternating, nested blocks
            "weave.py": head + "  \t" + acquire + "\t  " + wait + " \t \t" + close +
                        "\tif host:\n\t\t  " + wait + "  \t  \t" + close,
            # dedent to a level no block opened
            "dedent.py": head + "\t\t" + acquire + "\t" + wait + "   " + close,
            # tabs and form feeds in the middle of lines and before comments
            "inner.py": head + "    reader,\twriter\t=\tawait asyncio.open_connection(host,\t80)\n"
                        "\f    " + wait + "    " + close + "\t# done\t\n",
        }
        for name, text in files.items():
            write(os.path.join(tmp, name), text)
        p = run(["scan", ".", "--no-db", "--format", "json"], cwd=tmp)
        self.assertEqual(p.returncode, 1, p.stderr)
        doc = json.loads(p.stdout)
        self.assertEqual(doc["scan"]["files_scanned"], len(files))
        self.assertEqual(doc["scan"]["errors"], 0)
        found = {(f["path"], f["rule"], f["line"], f["column"]) for f in doc["findings"]}
        self.assertIn(("tabs.py", "CAN102", 6, 2), found)
        self.assertIn(("inner.py", "CAN102", 6, 6), found)  # the form feed is a code point too
        # Every diagnostic names its file and is one line.
        for line in p.stderr.decode().splitlines():
            self.assertRegex(line, r"^cancelaudit: (tab8|weave|dedent|inner|tabs)\.py: ")


class HostileNames(unittest.TestCase):
    """Paths and source strings that try to break out of each format."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="ca-names-")
        root = cls.tmp.encode()
        os.mkdir(os.path.join(root, HOSTILE_DIR))
        cls.hostile_path = os.path.join(HOSTILE_DIR, HOSTILE_FILE)
        with open(os.path.join(root, cls.hostile_path), "w") as f:
            f.write(WINDOW_SRC)
        with open(os.path.join(root, BAD_UTF8_FILE), "w") as f:
            f.write(WINDOW_SRC)
        write(os.path.join(cls.tmp, "src.py"), HOSTILE_SRC)
        # a per-file diagnostic under a hostile name: a device
        os.symlink("/dev/null", os.path.join(root, b'dev <img src=x onerror=alert(1)> "\n.py'))
        cls.out = {}
        for fmt in ("text", "json", "sarif", "github"):
            p = run(["scan", ".", "--no-db", "--format", fmt], cwd=cls.tmp)
            cls.out[fmt] = p

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_exit_codes(self):
        for fmt, p in self.out.items():
            self.assertEqual(p.returncode, 1, (fmt, p.stderr))

    def test_json(self):
        doc = json.loads(self.out["json"].stdout.decode("utf-8"))  # strict: no raw control characters
        paths = sorted(f["path"] for f in doc["findings"])
        self.assertEqual(len(paths), 3, paths)
        self.assertIn(self.hostile_path.decode("utf-8"), paths)  # exact round trip of a valid UTF-8 path
        self.assertIn("src.py", paths)
        bad = [p for p in paths if p.startswith("bad")]
        self.assertEqual(len(bad), 1)  # invalid UTF-8: still a string, still recognisable
        src = [f for f in doc["findings"] if f["path"] == "src.py"][0]
        self.assertIn("<script>alert('x')</script>", src["message"])
        self.assertIn("\x1b[31m", src["message"])
        self.assertEqual(doc["scan"]["errors"], 1)

    def test_sarif(self):
        doc = json.loads(self.out["sarif"].stdout.decode("utf-8"))
        self.assertEqual(doc["version"], "2.1.0")
        run0 = doc["runs"][0]
        uris = []
        for r in run0["results"]:
            for loc in r["locations"]:
                uris.append(loc["physicalLocation"]["artifactLocation"]["uri"])
        for notif in run0["invocations"][0].get("toolExecutionNotifications", []):
            for loc in notif.get("locations", []):
                uris.append(loc["physicalLocation"]["artifactLocation"]["uri"])
        self.assertEqual(len(uris), 4, uris)
        for u in uris:
            # RFC 3986: only unreserved, reserved and percent-escapes
            self.assertRegex(u, r"^[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*$")
            self.assertNotRegex(u, r"%(?![0-9A-Fa-f]{2})")
        self.assertTrue(any("%3Cscript%3E" in u and "%0A" in u for u in uris), uris)
        self.assertTrue(any("%FF%FE" in u for u in uris), uris)

    def test_text(self):
        out = self.out["text"].stdout
        self.assertEqual(control_bytes(out), [])
        text = out.decode("utf-8")
        self.assertNotIn("\u202e", text)  # a bidi override is shown, never applied
        lines = text.splitlines()
        # one line per finding, then the summary: a newline in a path cannot forge a line
        self.assertEqual(len(lines), 4, lines)
        for line in lines[:3]:
            self.assertRegex(line, r"^\S.*:\d+:\d+: CAN\d{3} ")
        self.assertTrue(any(line.startswith("d<script>alert(1)</script>\\nnew") for line in lines), lines)
        self.assertTrue(lines[3].startswith("3 findings"), lines[3])

    def test_diagnostics_on_stderr(self):
        err = self.out["text"].stderr.decode("utf-8")
        self.assertRegex(err, r"^cancelaudit: dev <img src=x onerror=alert\(1\)> \"")
        self.assertIn("not a regular file (character device)", err)

    def test_diagnostics_on_stderr_escaped(self):
        """A newline in a file name must not split its diagnostic, and an ESC
        must not reach the terminal: diagnostics show paths escaped."""
        err = self.out["text"].stderr
        self.assertEqual(control_bytes(err), [], err)
        lines = err.decode("utf-8").splitlines()
        self.assertEqual(len(lines), 1, lines)
        self.assertRegex(lines[0], r"^cancelaudit: dev <img src=x onerror=alert\(1\)> \"\\n\.py: not a regular file")

    def test_github(self):
        out = self.out["github"].stdout
        text = out.decode("utf-8")
        lines = text.splitlines()
        cmds = [line for line in lines if line.startswith("::")]
        self.assertEqual(len(cmds), 3, lines)
        for line in cmds:
            m = re.match(r"^::(error|warning|notice) ([^:]*)::(.*)$", line)
            self.assertIsNotNone(m, line)
            props = dict(kv.split("=", 1) for kv in m.group(2).split(","))
            self.assertEqual(set(props), {"file", "line", "col", "endLine", "endColumn", "title"})
            for v in props.values():
                self.assertNotRegex(v, r"%(?!25|0A|0D|3A|2C)")  # '%' itself escaped
            self.assertNotIn("%0A", m.group(3).replace("%250A", ""))
        hostile = [line for line in cmds if "script" in line and "file=d" in line]
        self.assertEqual(len(hostile), 1)
        self.assertIn("file=d<script>alert(1)</script>%0Anew \"dq\" 'sq' %250A %3A%3Ax%2Cy", hostile[0])

    def test_github_no_raw_controls(self):
        """An ESC or a bidi override from a path or the source never reaches
        the CI log raw (the log viewer renders ANSI colors)."""
        out = self.out["github"].stdout
        self.assertEqual(control_bytes(out), [])
        self.assertNotIn("\u202e", out.decode("utf-8"))


class UndecodablePaths(unittest.TestCase):
    """File names that are not UTF-8 stay distinguishable (issue 16): two
    names that differ only in such bytes used to print the same U+FFFD in
    JSON, SARIF and github output. JSON writes each such byte as the lone
    surrogate U+DC80+byte (Python's surrogateescape: os.fsencode() of the
    path gives the name back); SARIF's uri percent-encodes every byte; the
    github file property shows \\xHH and doubles literal backslashes."""

    NAMES = [b"a\xff.py", b"a\xfe.py", b"a\xff\xfe.py", b"a\xe2\x82.py", "a\ufffd.py".encode(),
             b"a\\xff.py", b"a\\\xff.py"]

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="ca-undecodable-")
        for n in cls.NAMES:
            with open(os.path.join(cls.tmp.encode(), n), "w") as f:
                f.write(WINDOW_SRC)
        cls.out = {fmt: run(["scan", ".", "--no-db", "--format", fmt], cwd=cls.tmp)
                   for fmt in ("json", "sarif", "github")}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_json_round_trip(self):
        doc = json.loads(self.out["json"].stdout.decode("utf-8"))
        paths = [f["path"] for f in doc["findings"]]
        self.assertEqual(len(paths), len(self.NAMES))
        self.assertEqual(sorted(os.fsencode(p) for p in paths), sorted(self.NAMES))
        self.assertIn("a\udcff.py", paths)

    def test_sarif_distinct(self):
        doc = json.loads(self.out["sarif"].stdout.decode("utf-8"))
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in doc["runs"][0]["results"]}
        self.assertEqual(len(uris), len(self.NAMES), uris)
        self.assertIn("a%FF.py", uris)

    def test_github_distinct(self):
        files = [dict(kv.split("=", 1) for kv in re.match(r"^::\w+ ([^:]*)::", line).group(1).split(","))["file"]
                 for line in self.out["github"].stdout.decode("utf-8").splitlines() if line.startswith("::")]
        self.assertEqual(len(files), len(self.NAMES))
        self.assertEqual(len(set(files)), len(self.NAMES), files)
        self.assertIn("a\\xff.py", files)        # the byte 0xFF
        self.assertIn("a\\\\xff.py", files)     # a backslash, then "xff"


if __name__ == "__main__":
    unittest.main(verbosity=2)
