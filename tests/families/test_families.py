#!/usr/bin/env python3
"""Backend families (DESIGN §4, corpus/families/README.md): each fixture of
corpus/families scanned alone gives the families, backends, members that are
no backend, and cells its README says; `matrix --family/--boundary` narrow
the view, Markdown puts the shorter axis across, configured globs rename
and define backends, the reports compare a backend with its own family and
name the sibling to copy, and corpus/providers is one duck-typed family with
the cells it always had.

Standard library only. Environment: CANCELAUDIT (the binary), CA_SOURCE_DIR.
"""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

SOURCE_DIR = os.path.abspath(os.environ.get("CA_SOURCE_DIR", os.getcwd()))
BINARY = os.path.abspath(os.environ.get("CANCELAUDIT", os.path.join(SOURCE_DIR, "build", "cancelaudit")))
FIXTURES = "corpus/families"


def run(args, cwd=SOURCE_DIR, ok=(0, 1)):
    env = dict(os.environ, CANCELAUDIT_REPRODUCIBLE="1", COLUMNS="100", LC_ALL="C.UTF-8")
    p = subprocess.run([BINARY] + list(args), cwd=cwd, capture_output=True, text=True, env=env, timeout=300)
    if ok is not None and p.returncode not in ok:
        raise AssertionError("cancelaudit %s: exit %d\n%s%s" % (" ".join(args), p.returncode, p.stdout, p.stderr))
    return p


class FamilyCase(unittest.TestCase):
    """Scans a fixture into a database of its own (once per class)."""

    tree = None

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="ca-families-")
        cls.db = os.path.join(cls.tmp, "audit.db")
        if cls.tree:
            run(["scan", os.path.join(FIXTURES, cls.tree), "--db", cls.db, "--no-progress", "--quiet"])
            cls.scan = json.loads(run(["scan", os.path.join(FIXTURES, cls.tree), "--no-db", "--format", "json",
                                       "--no-progress", "--quiet"]).stdout)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def matrix(self, *args, fmt="json", ok=(0,)):
        p = run(["matrix", "--db", self.db, "--format", fmt, *args], ok=ok)
        return json.loads(p.stdout) if fmt == "json" and p.returncode == 0 else p

    def cells(self, family=None):
        m = self.matrix(*(["--family", family] if family else []))
        return {(c["backend"], c["boundary"]): c for c in m["coverage"]}

    def family(self, name):
        for f in self.scan["families"]:
            if f["name"] == name:
                return f
        self.fail("no family %s in %s" % (name, [f["name"] for f in self.scan["families"]]))

    def status(self, cells, backend, boundary):
        c = cells.get((backend, boundary))
        self.assertIsNotNone(c, "no cell %s %s" % (backend, boundary))
        return c["status"], c["rules"], c["protection"]


class Subclass(FamilyCase):
    tree = "subclass"

    def test_family_and_members(self):
        self.assertEqual([f["name"] for f in self.scan["families"]], ["BaseShell"])
        f = self.family("BaseShell")
        self.assertEqual(f["kind"], "subclasses")
        self.assertEqual((f["path"], f["line"]), ("corpus/families/subclass/base.py", 14))
        self.assertEqual([(b["name"], b["class"]) for b in f["backends"]],
                         [("kite", "KiteShell"), ("pine", "PineShell"), ("river", "RiverShell")])
        self.assertEqual(sorted((e["class"], e["role"]) for e in f["excluded"]),
                         [("FakeShell", "abstract"), ("TracingShell", "proxy"), ("_ScriptedShell", "private")])

    def test_cells_inherited_and_own(self):
        c = self.cells()
        self.assertEqual(self.status(c, "kite", "open_session")[:2], ("gap", ["CAN101"]))
        self.assertEqual(self.status(c, "pine", "open_session"), ("covered", [], "except BaseException + shield"))
        self.assertEqual(self.status(c, "river", "open_session"), ("covered", [], "finally"))
        # the base's close_session, judged from the base's code: its CAN301
        for b in ("kite", "pine"):
            st, rules, _ = self.status(c, b, "close_session")
            self.assertEqual((st, rules), ("inherited", ["CAN301"]))
            self.assertEqual(c[(b, "close_session")]["function"], "BaseShell.close_session")
        self.assertEqual(self.status(c, "river", "close_session")[0], "no-window")
        self.assertEqual(self.status(c, "kite", "run")[0], "inherited")
        self.assertEqual(self.status(c, "river", "run")[0], "no-window")
        self.assertNotIn(("tracing", "run"), c)

    def test_findings_carry_the_backend(self):
        by_fn = {f["function"]: f["backend"] for f in self.scan["findings"]}
        self.assertEqual(by_fn["KiteShell.open_session"], "kite")
        self.assertEqual(by_fn["BaseShell.close_session"], "")  # the base is no backend

    def test_select_keeps_inherited(self):
        m = self.matrix("--select", "CAN101,CAN102")
        c = {(x["backend"], x["boundary"]): x for x in m["coverage"]}
        self.assertEqual((c[("kite", "close_session")]["status"], c[("kite", "close_session")]["rules"]),
                         ("inherited", []))

    def test_text_names_what_is_no_backend(self):
        out = self.matrix(fmt="text").stdout
        self.assertIn("BaseShell: 3 backends x 3 boundaries", out)
        self.assertIn("not backends: FakeShell (abstract), TracingShell (proxy), _ScriptedShell (private)", out)
        self.assertIn("inherited gap CAN301 L33", out)
        self.assertIn("inherited  the backend runs a method of another class", out)

    def test_report_backend_compares_within_the_family_and_names_the_precedent(self):
        out = run(["report", "--db", self.db, "--backend", "kite"], ok=(0,)).stdout
        self.assertIn("3 of the 3 backends of BaseShell", out)
        self.assertIn("pine's `PineShell.open_session`", out)
        self.assertIn("Copy the working precedent for `open_session`: pine's", out)

    def test_report_boundary_takes_the_inherited_gap(self):
        out = run(["report", "--db", self.db, "--boundary", "close_session"], ok=(0,)).stdout
        self.assertIn("`BaseShell.close_session` abandons the teardown of `entry`", out)
        self.assertIn("| kite | inherited | gap in the inherited code: CAN301 at line 33; runs "
                      "`BaseShell.close_session` |", out)


class Protocol(FamilyCase):
    tree = "protocol"

    def test_structural_members_and_folded_capability(self):
        self.assertEqual([f["name"] for f in self.scan["families"]], ["SandboxProvider"])
        f = self.family("SandboxProvider")
        self.assertEqual(f["kind"], "protocol")
        self.assertEqual([b["name"] for b in f["backends"]], ["ashby", "brook", "cedar"])
        self.assertNotIn("CedarSession", [b["class"] for b in f["backends"]])
        c = self.cells()
        self.assertEqual(self.status(c, "ashby", "create")[:2], ("gap", ["CAN201"]))
        self.assertEqual(self.status(c, "brook", "create_pty")[:2], ("gap", ["CAN101"]))
        self.assertEqual(self.status(c, "cedar", "create_pty")[0], "absent")
        self.assertEqual(self.status(c, "cedar", "exec"), ("covered", [], "finally"))

    def test_markdown_puts_the_shorter_axis_across(self):
        # 3 backends x 4 boundaries: the backends go across
        md = self.matrix(fmt="markdown").stdout
        header = next(line for line in md.splitlines() if line.startswith("| "))
        self.assertEqual(header, "| boundary | ashby | brook | cedar |")
        rows = [line for line in md.splitlines() if line.startswith("| `")]
        self.assertEqual(len(rows), 4)

    def test_boundary_list(self):
        md = self.matrix("--boundary", "create", fmt="markdown").stdout
        self.assertIn("## `create` in SandboxProvider", md)
        self.assertIn("| backend | status | protection or rules | where |", md)
        self.assertIn("| ashby | **gap** | CAN201 at line 14 | `corpus/families/protocol/ashby/provider.py:14` |", md)
        text = self.matrix("--boundary", "create", fmt="text").stdout
        self.assertIn("create in SandboxProvider: 3 backends", text)
        self.assertIn("ashby  gap CAN201 L14", text)
        m = self.matrix("--boundary", "create")
        self.assertEqual({c["boundary"] for c in m["coverage"]}, {"create"})
        self.assertEqual(m["boundary"], "create")

    def test_unknown_family_or_boundary_is_a_usage_error(self):
        p = self.matrix("--family", "Nope", fmt="text", ok=(2,))
        self.assertIn("no family Nope in this scan (families: SandboxProvider)", p.stderr)
        p = self.matrix("--boundary", "nope", fmt="text", ok=(2,))
        self.assertIn("no boundary nope in this scan (boundaries: ", p.stderr)


class Hierarchy(FamilyCase):
    tree = "hierarchy"

    def test_two_levels(self):
        self.assertEqual([f["name"] for f in self.scan["families"]], ["BlobStore"])
        f = self.family("BlobStore")
        self.assertEqual([b["name"] for b in f["backends"]], ["gcs", "local", "s3"])
        self.assertEqual([(e["class"], e["role"]) for e in f["excluded"]], [("RemoteStore", "abstract")])
        c = self.cells()
        for b in ("gcs", "s3"):
            self.assertEqual(self.status(c, b, "get")[:2], ("inherited", ["CAN101"]))
            self.assertEqual(c[(b, "get")]["function"], "RemoteStore.get")
        self.assertEqual(self.status(c, "local", "get")[0], "no-window")
        self.assertEqual(self.status(c, "s3", "put"), ("covered", [], "except BaseException + shield"))


class TwoFamilies(FamilyCase):
    tree = "two_families"

    def test_two_grids_largest_first(self):
        self.assertEqual([f["name"] for f in self.scan["families"]], ["BaseQueue", "BaseCache"])
        m = self.matrix()
        self.assertEqual([f["name"] for f in m["families"]], ["BaseQueue", "BaseCache"])
        q = self.cells("BaseQueue")
        self.assertEqual(set(b for b, _ in q), {"amber", "basil", "coral"})
        self.assertEqual(self.status(q, "amber", "consume")[:2], ("gap", ["CAN102"]))
        self.assertEqual(self.status(q, "coral", "consume")[0], "inherited")
        c = self.cells("BaseCache")
        self.assertEqual(set(b for b, _ in c), {"memory", "redis"})
        self.assertEqual(self.status(c, "redis", "fetch"), ("covered", [], "finally"))
        text = self.matrix("--family", "BaseCache", fmt="text").stdout
        self.assertIn("BaseCache: 2 backends x 1 boundary", text)
        self.assertNotIn("BaseQueue", text)

    def test_html_sections_per_family(self):
        html = self.matrix(fmt="html").stdout
        self.assertEqual(html.count('<section class="family"'), 2)
        self.assertIn('<span class="counts">', html)
        self.assertIn('<span class="nw">no-window</span>', html)


class DuckTyped(FamilyCase):
    tree = "duck_typed"

    def test_siblings(self):
        self.assertEqual([f["name"] for f in self.scan["families"]], ["*Runner"])
        f = self.family("*Runner")
        self.assertEqual((f["kind"], f["base"]), ("duck-typed", None))
        self.assertEqual([b["name"] for b in f["backends"]], ["alder", "birch", "cedar"])
        c = self.cells("Runner")  # --family takes the name without its '*'
        self.assertEqual(self.status(c, "alder", "start")[:2], ("gap", ["CAN102"]))
        self.assertEqual(self.status(c, "cedar", "stop")[0], "absent")


class NoFamily(FamilyCase):
    tree = "no_family"

    def test_directory_rule(self):
        self.assertEqual([(f["name"], f["kind"]) for f in self.scan["families"]], [("directories", "directory")])
        c = self.cells()
        self.assertEqual(self.status(c, "gamma", "open")[:2], ("gap", ["CAN101"]))
        self.assertEqual(self.status(c, "delta", "open")[0], "covered")
        self.assertEqual({f["backend"] for f in self.scan["findings"]}, {"gamma"})


class Providers(FamilyCase):
    """corpus/providers: seven duck-typed providers, the matrix it always had."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        run(["scan", "corpus/providers", "--db", cls.db, "--no-progress", "--quiet"])
        cls.scan = json.loads(run(["scan", "corpus/providers", "--no-db", "--format", "json", "--no-progress",
                                   "--quiet"]).stdout)

    def test_one_implicit_family_same_cells(self):
        self.assertEqual([(f["name"], f["kind"]) for f in self.scan["families"]], [("*Provider", "duck-typed")])
        with open(os.path.join(SOURCE_DIR, "tests", "golden", "providers", "matrix.json")) as g:
            golden = json.load(g)
        want = {(c["backend"], c["boundary"]): (c["status"], c["rules"], c["protection"]) for c in golden["coverage"]}
        got = {(c["backend"], c["boundary"]): (c["status"], c["rules"], c["protection"])
               for c in self.scan["coverage"]}
        self.assertEqual(got, want)
        # lumen/mounts.py has no provider class: its finding is lumen's, by directory
        self.assertEqual({f["backend"] for f in self.scan["findings"] if f["path"].endswith("mounts.py")}, {"lumen"})


class Configured(unittest.TestCase):
    """Configured globs rename backends and define them wholly."""

    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="ca-families-config-")
        shutil.copytree(os.path.join(SOURCE_DIR, FIXTURES, "subclass"), os.path.join(self.root, "shells"))

    def tearDown(self):
        shutil.rmtree(self.root, ignore_errors=True)

    def scan(self):
        p = run(["scan", "shells", "--no-db", "--format", "json", "--no-progress", "--quiet"], cwd=self.root)
        return json.loads(p.stdout)

    def test_globs_name_and_define_the_backends(self):
        with open(os.path.join(self.root, "cancelaudit.toml"), "w") as f:
            f.write('[backends]\nkite-cloud = "shells/kite/*"\npine = "shells/pine/*"\n')
        doc = self.scan()
        self.assertEqual([f["name"] for f in doc["families"]], ["BaseShell"])
        self.assertEqual([b["name"] for b in doc["families"][0]["backends"]], ["kite-cloud", "pine"])
        self.assertEqual({c["backend"] for c in doc["coverage"]}, {"kite-cloud", "pine"})
        self.assertEqual({f["backend"] for f in doc["findings"] if f["function"] == "KiteShell.open_session"},
                         {"kite-cloud"})

    def test_globs_without_a_family_in_them(self):
        # the globs map files with no family member: the backends are the globs', by the older rule
        with open(os.path.join(self.root, "cancelaudit.toml"), "w") as f:
            f.write('[backends]\nonly = "shells/testing.py"\n')
        doc = self.scan()
        self.assertEqual(doc["families"], [])
        self.assertEqual(doc["coverage"], [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
