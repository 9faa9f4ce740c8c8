#!/usr/bin/env python3
"""Help and usage errors (issue 18): every command's `--help` explains each
of its options and exits 0; every option a help text lists is one the
command accepts; a mistyped option, command or rule id gets "did you mean";
-q prints the findings alone and -v says what the scan uses and why.

Environment: CANCELAUDIT (the binary; default build/cancelaudit under
CA_SOURCE_DIR or the current directory). Standard library only.
"""
import os
import re
import subprocess
import tempfile
import unittest

SOURCE_DIR = os.environ.get("CA_SOURCE_DIR", os.getcwd())
BINARY = os.path.abspath(os.environ.get("CANCELAUDIT", os.path.join(SOURCE_DIR, "build", "cancelaudit")))

COMMANDS = ("scan", "baseline", "matrix", "report", "diff", "merge", "rules", "explain", "debug-ir")

BUG = """\
import asyncio


class Pool:
    async def start(self, key):
        task = asyncio.create_task(work())
        async with self._lock:
            self._tasks[key] = task
"""

TEXT_LINE = re.compile(r"^[^\s:][^:]*:\d+:\d+: CAN\d{3} \S")
OPTION_LINE = re.compile(r"^  (-\S.*)$")


def run(args, cwd, env=None):
    e = dict(os.environ)
    e.pop("CANCELAUDIT_DB", None)
    e.update(env or {})
    p = subprocess.run([BINARY] + list(args), cwd=cwd, capture_output=True, text=True, timeout=120, env=e)
    return p.returncode, p.stdout, p.stderr


def help_options(text):
    """[(spellings, metavar or None, explanation)] from a help text's options section."""
    lines = text.splitlines()
    start = lines.index("options:") + 1
    out = []
    i = start
    while i < len(lines) and lines[i].startswith("  "):
        m = OPTION_LINE.match(lines[i])
        if not m:
            i += 1
            continue
        head = m.group(1).split(" ")
        names, arg = [], None
        for tok in head:
            if tok.startswith("-"):
                names.append(tok.rstrip(","))
            else:
                arg = tok
        expl = []
        i += 1
        while i < len(lines) and lines[i].startswith("      "):
            expl.append(lines[i].strip())
            i += 1
        out.append((names, arg, " ".join(expl)))
    return out


# a value each metavar accepts, to run the option once
VALUES = {"FORMAT": None, "FILE": None, "PATH": None, "RULES": "CAN101", "REV": "HEAD", "GLOB": "*.pyi", "BYTES": "1000000",
          "N": "1", "DIR": None, "ID": "1", "FP": "abcd", "NAME": "x", "LEVEL": "medium", "SECONDS": "30",
          "SIZE": "512M"}


class Help(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="ca-help-")
        self.root = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def test_every_command_explains_every_option(self):
        for cmd in COMMANDS:
            with self.subTest(cmd=cmd):
                rc, out, err = run([cmd, "--help"], self.root)
                self.assertEqual(rc, 0, err)
                self.assertEqual(err, "")
                self.assertIn("usage: cancelaudit %s" % cmd, out)
                opts = help_options(out)
                self.assertTrue(opts, out)
                self.assertIn(["-h", "--help"], [o[0] for o in opts])
                for names, arg, expl in opts:
                    self.assertGreater(len(expl), 15, "%s %s is not explained:\n%s" % (cmd, names, out))
                # -h and `help CMD` say the same
                self.assertEqual(run([cmd, "-h"], self.root)[1], out)
                self.assertEqual(run(["help", cmd], self.root)[1], out)

    def test_scan_help_says_what_the_options_do(self):
        _, out, _ = run(["scan", "--help"], self.root)
        opts = {n: expl for names, _, expl in help_options(out) for n in names}
        for flag in ("--strict", "--no-cache", "--quiet", "--verbose", "--statistics", "--exit-zero", "--format",
                     "--db", "--no-db", "--select", "--ignore", "--baseline", "--changed-since", "--config"):
            self.assertIn(flag, opts, out)
        self.assertIn("strict", opts["--strict"])
        self.assertIn("reusing", opts["--no-cache"])
        self.assertIn("nothing else", opts["--quiet"])
        self.assertIn("full", opts["--format"])
        self.assertIn("concise", opts["--format"])
        self.assertIn("(default)", opts["--format"])
        self.assertIn("project root", opts["--db"])
        self.assertIn("Exit codes", out)

    def test_every_listed_scan_option_is_accepted(self):
        """The parser knows every spelling the help lists (the same table
        feeds both), shown by running each one."""
        with open(os.path.join(self.root, "ok.py"), "w") as f:
            f.write("async def f():\n    pass\n")
        subprocess.run(["git", "init", "-q", self.root], check=True)
        subprocess.run(["git", "-C", self.root, "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q",
                        "--allow-empty", "-m", "x"], check=True)
        with open(os.path.join(self.root, "base.json"), "w") as f:
            f.write('{"fingerprints": []}')
        os.mkdir(os.path.join(self.root, "cc"))
        with open(os.path.join(self.root, "cc", "compile_commands.json"), "w") as f:
            f.write("[]")
        with open(os.path.join(self.root, "cfg.toml"), "w") as f:
            f.write("strict = false\n")
        values = dict(VALUES, FORMAT="json", FILE=None, PATH="audit.db", DIR="cc")
        for cmd in ("scan", "baseline"):
            _, out, _ = run([cmd, "--help"], self.root)
            for names, arg, _ in help_options(out):
                if "--help" in names:
                    continue
                for name in names:
                    with self.subTest(cmd=cmd, option=name):
                        args = [cmd, "ok.py", "--no-progress"]
                        if cmd == "baseline" or name in ("-o", "--output"):
                            args += ["--output", "out.txt"]
                        if arg == "FILE":
                            value = "base.json" if name == "--baseline" else "cfg.toml" if name == "--config" \
                                else "out.txt"
                        else:
                            value = values.get(arg)
                        args += [name] + ([value] if arg else [])
                        rc, out2, err = run(args, self.root)
                        self.assertNotIn("unknown option", err)
                        self.assertIn(rc, (0, 1), "%s: %s" % (args, err))

    def test_store_readers_accept_their_listed_options(self):
        for cmd in ("matrix", "report", "diff"):
            _, out, _ = run([cmd, "--help"], self.root)
            for names, arg, _ in help_options(out):
                for name in names:
                    if name in ("-h", "--help"):
                        continue
                    with self.subTest(cmd=cmd, option=name):
                        value = {"FORMAT": "json" if cmd != "report" else "html", "PATH": "none.db", "FILE": "o.txt"}
                        args = [cmd, name] + ([value.get(arg, VALUES.get(arg) or "x")] if arg else [])
                        rc, _, err = run(args + (["1", "2"] if cmd == "diff" else []), self.root)
                        self.assertNotIn("unknown option", err)


class DidYouMean(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="ca-dym-")
        self.root = self._tmp.name
        os.makedirs(os.path.join(self.root, "src"))
        with open(os.path.join(self.root, "src", "bug.py"), "w") as f:
            f.write(BUG)

    def tearDown(self):
        self._tmp.cleanup()

    def check(self, args, hint, rc=2):
        code, out, err = run(args, self.root)
        self.assertEqual(code, rc, err)
        self.assertIn("did you mean '%s'?" % hint, err)
        return err

    def test_options(self):
        err = self.check(["scan", "src", "--foramt", "json"], "--format")
        self.assertIn("cancelaudit scan --help", err)
        self.check(["scan", "src", "--exit-zeor"], "--exit-zero")
        self.check(["scan", "src", "--statistic"], "--statistics")
        self.check(["scan", "src", "--output-fromat=json"], "--output-format")
        self.check(["matrix", "--selct", "CAN101"], "--select")
        self.check(["report", "--backnd", "x"], "--backend")
        self.check(["diff", "--dbb", "x.db", "1", "2"], "--db")

    def test_commands(self):
        self.check(["matrx"], "matrix")
        self.check(["scna", "src"], "scan")
        self.check(["help", "mrege"], "merge")

    def test_rule_ids(self):
        self.check(["scan", "src", "--select", "CNA101"], "CAN101")
        self.check(["scan", "src", "--ignore", "CAN1O2"], "CAN102")
        self.check(["matrix", "--select", "CAN4O1"], "CAN401")
        err = self.check(["explain", "CAN10"], "CAN101")
        self.assertIn("known rules", err)
        with open(os.path.join(self.root, "cancelaudit.toml"), "w") as f:
            f.write('select = ["CNA301"]\n')
        self.check(["scan", "src"], "CAN301")

    def test_nothing_close_no_hint(self):
        code, _, err = run(["scan", "src", "--completely-different"], self.root)
        self.assertEqual(code, 2)
        self.assertNotIn("did you mean", err)
        self.assertIn("unknown option '--completely-different'", err)


class QuietAndVerbose(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="ca-qv-")
        self.root = self._tmp.name
        os.makedirs(os.path.join(self.root, "src"))
        with open(os.path.join(self.root, "src", "bug.py"), "w") as f:
            f.write(BUG)
        with open(os.path.join(self.root, "src", "bad.py"), "w") as f:
            f.write("async def f(:\n    await x(\n")

    def tearDown(self):
        self._tmp.cleanup()

    def test_quiet_prints_only_findings(self):
        rc, out, err = run(["scan", "src", "--no-db", "--format", "concise", "-q"], self.root)
        self.assertEqual(rc, 1, err)
        lines = out.splitlines()
        self.assertTrue(lines)
        for line in lines:
            self.assertRegex(line, TEXT_LINE)
        rc, normal, _ = run(["scan", "src", "--no-db", "--format", "concise"], self.root)
        self.assertEqual(normal.splitlines()[:-1], lines)  # the same findings; the summary goes
        self.assertRegex(normal.splitlines()[-1], r"^\d+ findings? ")
        # full format: findings and their excerpts, no summary
        rc, out, _ = run(["scan", "src", "--no-db", "--quiet"], self.root)
        self.assertNotRegex(out, r"(?m)^\d+ findings? ")
        self.assertRegex(out.splitlines()[0], TEXT_LINE)
        # clean tree: nothing at all
        rc, out, err = run(["scan", "src/bad.py", "--no-db", "-q"], self.root)
        self.assertEqual((rc, out), (0, ""))

    def test_verbose_says_config_and_store(self):
        rc, out, err = run(["scan", "src", "-v"], self.root)
        self.assertEqual(rc, 1, err)
        self.assertIn("cancelaudit: configuration: none (no cancelaudit.toml or pyproject.toml with "
                      "[tool.cancelaudit] from src", err)
        self.assertIn("cancelaudit: store: .cancelaudit/audit.db (no cancelaudit configuration or .git above it", err)
        self.assertRegex(err, r"cancelaudit: rules: CAN101, CAN102, .* \(defaults\)")
        with open(os.path.join(self.root, "pyproject.toml"), "w") as f:
            f.write("[tool.cancelaudit]\nstrict = true\n")
        os.makedirs(os.path.join(self.root, "sub"))
        rc, out, err = run(["scan", "../src", "-v"], os.path.join(self.root, "sub"))
        root = os.path.realpath(self.root)
        self.assertIn("cancelaudit: configuration: %s/pyproject.toml (found walking up from ../src)" % root, err)
        self.assertIn("cancelaudit: store: %s/.cancelaudit/audit.db (the project root %s holds pyproject.toml with "
                      "[tool.cancelaudit])" % (root, root), err)
        self.assertRegex(err, r"rules: .*CAN202.* \(defaults and strict\)")
        rc, out, err = run(["scan", "src", "-v", "--no-db", "--no-config"], self.root)
        self.assertIn("configuration: none (--no-config)", err)
        self.assertIn("store: none (--no-db)", err)
        rc, out, err = run(["matrix", "-v"], self.root)
        self.assertEqual(rc, 0, err)
        self.assertIn("cancelaudit: store: .cancelaudit/audit.db (the project root . holds pyproject.toml", err)

    def test_quiet_and_verbose_exclude_each_other(self):
        rc, _, err = run(["scan", "src", "-q", "-v", "--no-db"], self.root)
        self.assertEqual(rc, 2)
        self.assertIn("exclude each other", err)


if __name__ == "__main__":
    unittest.main(verbosity=2)
