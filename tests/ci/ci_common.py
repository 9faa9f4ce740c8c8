"""Shared helpers of the tests/ci tests (not a test: CMake registers only
test_*.py).

What is here: where the analyzer and the sources are (CANCELAUDIT,
CA_SOURCE_DIR, as CMake sets them), running it, buggy Python snippets whose
finding lines are known, a git runner isolated from the user's
configuration, and parsers that turn each output format into the same
(path, line, column, rule) tuples so tests compare formats with each other.

Only the Python standard library is used.
"""

import json
import os
import re
import subprocess
import tempfile
from urllib.parse import unquote

SOURCE_DIR = os.path.abspath(os.environ.get("CA_SOURCE_DIR") or os.getcwd())
BUILD_DIR = os.path.abspath(os.environ.get("CA_BUILD_DIR") or os.path.join(SOURCE_DIR, "build"))
CANCELAUDIT = os.path.abspath(os.environ.get("CANCELAUDIT") or os.path.join(BUILD_DIR, "cancelaudit"))

FORMATS = ("text", "full", "json", "sarif", "github")  # text: the concise one-line form


def base_env():
    """The environment for the analyzer and git: no user or system git
    configuration, no repository discovery in or above the system's temporary
    folder (a test's tree is never taken for part of some other repository),
    no color."""
    env = dict(os.environ)
    env["GIT_CEILING_DIRECTORIES"] = os.path.realpath(tempfile.gettempdir())
    env["GIT_CONFIG_GLOBAL"] = os.devnull
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    env["NO_COLOR"] = "1"
    for k in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        env.pop(k, None)
    return env


def run_ca(args, cwd, env=None):
    """Run the analyzer; returns CompletedProcess with bytes stdout/stderr."""
    e = base_env()
    if env:
        e.update(env)
    return subprocess.run([CANCELAUDIT] + list(args), cwd=cwd, env=e, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=300)


def out_text(proc):
    return proc.stdout.decode("utf-8")


def err_text(proc):
    return proc.stderr.decode("utf-8", "replace")


def git(cwd, *args):
    """git with a fixed identity; raises on failure. Returns stdout."""
    e = base_env()
    p = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
                       + list(args), cwd=cwd, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=60)
    if p.returncode != 0:
        raise AssertionError("git %s failed (%d): %s" % (" ".join(args), p.returncode,
                                                        p.stderr.decode("utf-8", "replace")))
    return p.stdout.decode("utf-8")


def temp_dir(test):
    """A fresh temporary folder removed when the unittest test ends."""
    d = tempfile.TemporaryDirectory(prefix="ca-ci-")
    test.addCleanup(d.cleanup)
    return os.path.realpath(d.name)


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    return path


# ---- snippets ----------------------------------------------------------------
#
# MODULE holds one class with a CAN102 gap: the process is unowned across the
# lock (finding at line 11, column 9: the `async with`). GAP_METHOD, appended
# to the class or inserted before a method, adds another CAN102 gap at its
# `await asyncio.sleep(...)` line, column 9 (find it with line_of).

MODULE = '''import asyncio


class {cls}:
    def __init__(self):
        self._lock = asyncio.Lock()
        self._reg = {{}}

    async def start(self, k, argv):
        proc = await asyncio.create_subprocess_exec(*argv)
        async with self._lock:
            self._reg[k] = proc
'''
MODULE_GAP_LINE = 11

GAP_METHOD = '''
    async def {name}(self, k, argv):
        proc = await asyncio.create_subprocess_exec(*argv)
        await asyncio.sleep({delay})
        self._reg[k] = proc
'''

CLEAN_MODULE = '''import asyncio


async def start(reg, k, argv):
    proc = await asyncio.create_subprocess_exec(*argv)
    try:
        await asyncio.sleep(1)
    except BaseException:
        proc.kill()
        raise
    reg[k] = proc
'''


def module(cls="P"):
    return MODULE.format(cls=cls)


def gap_method(name="again", delay="1"):
    return GAP_METHOD.format(name=name, delay=delay)


def line_of(text, needle, nth=1):
    """1-based line of the nth line containing needle."""
    seen = 0
    for i, line in enumerate(text.splitlines(), 1):
        if needle in line:
            seen += 1
            if seen == nth:
                return i
    raise AssertionError("%r not found in snippet" % needle)


# ---- parsing the formats -------------------------------------------------------

TEXT_LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<rule>CAN\d{3}) ")
TEXT_SUMMARY = re.compile(r"^(?P<n>\d+) findings? .*; (?P<baselined>\d+) baselined")
# the full format's source excerpt under a finding: gutter rows and the help line
TEXT_EXCERPT = re.compile(r"^ *(\d+|\.\.\.)? \|( |$)|^  = help: |^$")


def parse_text(out):
    """(findings [(path, line, col, rule)], summary line), from the full or
    the concise text format."""
    found, summary = [], None
    for line in out.splitlines():
        m = TEXT_LINE.match(line)
        if m:
            found.append((m["path"], int(m["line"]), int(m["col"]), m["rule"]))
        elif TEXT_SUMMARY.match(line):
            summary = line
        elif found and TEXT_EXCERPT.match(line):
            continue
        else:
            raise AssertionError("unexpected text output line: %r" % line)
    if summary is None:
        raise AssertionError("no summary line in text output:\n" + out)
    return found, summary


def gh_unescape(s, prop):
    table = {"%25": "%", "%0D": "\r", "%0A": "\n"}
    if prop:
        table.update({"%3A": ":", "%2C": ","})
    return re.sub(r"%(25|0D|0A|3A|2C)", lambda m: table.get(m.group(0), m.group(0)), s)


GH_LINE = re.compile(r"^::(?P<cmd>error|warning|notice) (?P<props>[^:]*)::(?P<msg>.*)$")


def parse_github(out):
    """[(path, line, col, rule)] from workflow commands; every line must be one."""
    found = []
    for line in out.split("\n"):
        if not line:
            continue
        m = GH_LINE.match(line)
        if not m:
            raise AssertionError("not a workflow command: %r" % line)
        props = {}
        for kv in m["props"].split(","):
            k, _, v = kv.partition("=")
            props[k] = gh_unescape(v, True)
        found.append((props["file"], int(props["line"]), int(props["col"]), props["title"]))
    return found


def parse_json(out):
    """(document, [(path, line, col, rule)])."""
    doc = json.loads(out)
    return doc, [(f["path"], f["line"], f["column"], f["rule"]) for f in doc["findings"]]


def sarif_uri_to_path(uri):
    return unquote(uri, encoding="utf-8", errors="strict")


def parse_sarif(out):
    """(document, unsuppressed [(path, line, col, rule)], suppressed [(..., kinds)]).
    A result is reported when it carries no suppression."""
    doc = json.loads(out)
    listed, hidden = [], []
    for r in doc["runs"][0]["results"]:
        loc = r["locations"][0]["physicalLocation"]
        key = (sarif_uri_to_path(loc["artifactLocation"]["uri"]), loc["region"]["startLine"],
               loc["region"].get("startColumn", 0), r["ruleId"])
        kinds = [s["kind"] for s in r.get("suppressions", [])]
        if kinds:
            hidden.append(key + (tuple(kinds),))
        else:
            listed.append(key)
    return doc, listed, hidden


def scan_all_formats(test, args, cwd, env=None):
    """Run `scan ARGS --format F` for every format; returns
    {format: (returncode, listed findings, extra)} where extra is the summary
    line (text), the document (json), the suppressed results (sarif)."""
    res = {}
    for fmt in FORMATS:
        p = run_ca(["scan"] + list(args) + ["--format", fmt], cwd, env)
        test.assertIn(p.returncode, (0, 1), "scan %s --format %s: exit %d\n%s" % (args, fmt, p.returncode, err_text(p)))
        out = out_text(p)
        if fmt in ("text", "full"):
            found, extra = parse_text(out)
        elif fmt == "github":
            found, extra = parse_github(out), None
        elif fmt == "json":
            extra, found = parse_json(out)
        else:
            _, found, extra = parse_sarif(out)
        res[fmt] = (p.returncode, found, extra)
    return res
