#!/usr/bin/env python3
"""The ecosystem check's scoring, without its real trees (ctest has no
network): the verdict files parse, every pinned project has one, a finding's
verdict follows its resources and the CAN101/CAN102 sibling, and the summary
counts absent projects and unjudged findings apart (a finding with an
unjudged resource once overwrote the list of absent projects).
"""

import contextlib
import importlib.machinery
import importlib.util
import io
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BINARY = os.path.abspath(os.environ.get("CANCELAUDIT", os.path.join(HERE, "..", "..", "build", "cancelaudit")))


def load_run():
    loader = importlib.machinery.SourceFileLoader("ecosystem_run", os.path.join(HERE, "run"))
    spec = importlib.util.spec_from_loader("ecosystem_run", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


RUN = load_run()


def finding(rule, resources, path="a.py", function="f"):
    return {"path": path, "function": function, "rule": rule, "resources": resources,
            "resource": resources[0], "line": 1, "message": "m"}


class Verdicts(unittest.TestCase):
    def test_every_project_has_a_well_formed_verdict_file(self):
        for p in RUN.load_projects():
            path = os.path.join(HERE, "verdicts", p["name"] + ".tsv")
            self.assertTrue(os.path.exists(path), path)
            RUN.load_verdicts(p["name"])  # raises SystemExit on a malformed line

    def test_a_window_is_true_when_one_resource_is(self):
        v = {("a.py", "f", "CAN102", "ws"): ("FP", "", "CAN102"), ("a.py", "f", "CAN102", "task"): ("TP", "", "CAN102")}
        self.assertEqual(RUN.finding_verdict(v, finding("CAN102", ["ws", "task"])), ("TP", []))
        self.assertEqual(RUN.finding_verdict(v, finding("CAN102", ["ws"])), ("FP", []))
        self.assertEqual(RUN.finding_verdict(v, finding("CAN102", ["ws", "proc"])), (None, ["proc"]))

    def test_a_finding_keeps_its_verdict_between_can101_and_can102(self):
        v = {("a.py", "f", "CAN102", "ws"): ("TP", "", "CAN102")}
        self.assertEqual(RUN.finding_verdict(v, finding("CAN101", ["ws"])), ("TP", []))
        self.assertEqual(RUN.finding_verdict(v, finding("CAN301", ["ws"])), (None, ["ws"]))


class Summary(unittest.TestCase):
    """main() on one fake project whose tree is present, with no verdicts:
    its finding is unjudged, and no project is absent."""

    def test_unjudged_finding_is_not_an_absent_project(self):
        if not os.access(BINARY, os.X_OK):
            self.fail("no cancelaudit binary at %s" % BINARY)
        with tempfile.TemporaryDirectory() as trees:
            tree = os.path.join(trees, "fake")
            os.makedirs(os.path.join(tree, "src"))
            with open(os.path.join(tree, ".ca-commit"), "w") as f:
                f.write("0" * 40)
            with open(os.path.join(tree, "src", "p.py"), "w") as f:
                f.write("import asyncio\n\n\nclass P:\n    def __init__(self):\n        self._tasks = {}\n\n"
                        "    async def start(self, key, bus):\n"
                        "        t = asyncio.create_task(bus.run())\n"
                        "        await bus.announce(key)\n"
                        "        self._tasks[key] = t\n")
            fake = [{"name": "fake", "repo": "https://example.invalid/fake", "commit": "0" * 40,
                     "paths": ["src"], "exclude": []}]
            saved = (RUN.load_projects, RUN.load_verdicts, RUN.HERE)
            RUN.load_projects = lambda: fake
            RUN.load_verdicts = lambda name: {}
            RUN.HERE = trees  # no results/ to compare with, and none written
            out = io.StringIO()
            try:
                with contextlib.redirect_stdout(out):
                    rc = RUN.main(["--trees", trees, "--binary", BINARY, "--quiet"])
            finally:
                RUN.load_projects, RUN.load_verdicts, RUN.HERE = saved
            text = out.getvalue()
            self.assertEqual(rc, 1, text)
            self.assertIn("target nothing unjudged: MISSED (1)", text)
            self.assertNotIn("not present", text)
            row = [l for l in text.splitlines() if l.startswith("fake ")]
            self.assertEqual(len(row), 1, text)
            self.assertEqual(row[0].split()[1:5], ["1", "0", "0", "1"], row[0])


if __name__ == "__main__":
    sys.exit(0 if unittest.main(exit=False, verbosity=2).result.wasSuccessful() else 1)
