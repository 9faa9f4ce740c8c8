#!/usr/bin/env python3
"""The pre-commit hooks in .pre-commit-hooks.yaml work (issue 5).

pre-commit itself is not installed here, so this runs each hook the way it
does: the entry split like a shell would, then the hook's args, then the
staged files that match `types: [python]`, from the repository root, with
`cancelaudit` found on PATH (a folder holding a link to the built binary).
The scenario is a commit adding a gap to a file that already has one:
`cancelaudit` fails on both, `cancelaudit-new` on the new one only; a commit
adding no gap passes `cancelaudit-new`.

The YAML reader below accepts only the simple subset that file uses (a list
of flat mappings, scalars and [a, b] lists) and fails on anything else, so
the file stays readable by any YAML parser.
"""

import os
import re
import shlex
import subprocess
import sys
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ci_common as ca  # noqa: E402

HOOKS_FILE = os.path.join(ca.SOURCE_DIR, ".pre-commit-hooks.yaml")
REQUIRED = {"id", "name", "entry", "language"}
KNOWN = REQUIRED | {"description", "types", "types_or", "files", "exclude", "args", "pass_filenames",
                    "require_serial", "minimum_pre_commit_version", "stages", "always_run", "verbose"}
PY_EXTS = (".py", ".pyi")


def scalar(v):
    v = v.strip()
    if v in ("true", "false"):
        return v == "true"
    if v.startswith("[") and v.endswith("]"):
        return [scalar(x) for x in v[1:-1].split(",") if x.strip()]
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
        return v[1:-1]
    if re.search(r"(^[&*!|>%@`{}\[\]]|: | #)", v):
        raise ValueError("unsupported YAML value: %r" % v)
    return v


def read_hooks(path):
    hooks = []
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            m = re.match(r"^(- |  )([a-z_]+): (.+)$", line)
            if not m:
                raise ValueError("%s:%d: outside the supported subset: %r" % (path, n, line))
            if m.group(1) == "- ":
                hooks.append({})
            elif not hooks:
                raise ValueError("%s:%d: key before the first hook" % (path, n))
            key = m.group(2)
            if key in hooks[-1]:
                raise ValueError("%s:%d: duplicate key %s" % (path, n, key))
            hooks[-1][key] = scalar(m.group(3))
    return hooks


class PreCommitHooks(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.hooks = {h["id"]: h for h in read_hooks(HOOKS_FILE)}

    def setUp(self):
        tmp = ca.temp_dir(self)
        self.bin = os.path.join(tmp, "bin")
        os.makedirs(self.bin)
        os.symlink(ca.CANCELAUDIT, os.path.join(self.bin, "cancelaudit"))
        self.repo = os.path.join(tmp, "repo")
        os.makedirs(self.repo)
        self.x = ca.module("X")
        ca.write(self.repo, "x.py", self.x)
        ca.write(self.repo, "clean.py", ca.CLEAN_MODULE)
        ca.git(self.repo, "init", "-q", "-b", "main")
        ca.git(self.repo, "add", "-A")
        ca.git(self.repo, "commit", "-q", "-m", "base")

    def run_hook(self, hook_id):
        hook = self.hooks[hook_id]
        staged = ca.git(self.repo, "diff", "--cached", "--name-only", "--diff-filter=ACMR", "-z").split("\0")
        files = sorted(f for f in staged if f.endswith(PY_EXTS))
        argv = shlex.split(hook["entry"]) + list(hook.get("args", []))
        if hook.get("pass_filenames", True):
            argv += files
        env = ca.base_env()
        env["PATH"] = self.bin + os.pathsep + env.get("PATH", "")
        p = subprocess.run(argv, cwd=self.repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        found, _ = ca.parse_text(p.stdout.decode("utf-8"))
        return p.returncode, found

    def test_hooks_file(self):
        self.assertEqual(sorted(self.hooks), ["cancelaudit", "cancelaudit-new"])
        for hid, hook in self.hooks.items():
            self.assertLessEqual(REQUIRED, set(hook), hid)
            self.assertLessEqual(set(hook), KNOWN, hid)
            self.assertEqual(hook["language"], "system", hid)
            self.assertEqual(hook.get("types"), ["python"], hid)
            argv = shlex.split(hook["entry"])
            self.assertEqual(argv[:2], ["cancelaudit", "scan"], hid)
            self.assertIn("--no-db", argv, "%s: a hook must not write a database into the user's repository" % hid)

    def test_commit_adding_a_gap(self):
        new_x = self.x + ca.gap_method("again", "1")
        ca.write(self.repo, "x.py", new_x)
        ca.write(self.repo, "notes.txt", "not python\n")
        ca.git(self.repo, "add", "-A")
        old = ("x.py", ca.MODULE_GAP_LINE, 9, "CAN102")
        new = ("x.py", ca.line_of(new_x, "asyncio.sleep(1)"), 9, "CAN102")
        self.assertEqual(self.run_hook("cancelaudit"), (1, [old, new]))
        self.assertEqual(self.run_hook("cancelaudit-new"), (1, [new]))

    def test_commit_adding_no_gap(self):
        ca.write(self.repo, "x.py", self.x + "\n\ndef helper():\n    return 1\n")
        ca.git(self.repo, "add", "-A")
        self.assertEqual(self.run_hook("cancelaudit-new"), (0, []))
        self.assertEqual(self.run_hook("cancelaudit"), (1, [("x.py", ca.MODULE_GAP_LINE, 9, "CAN102")]))

    def test_commit_of_clean_files(self):
        ca.write(self.repo, "clean.py", ca.CLEAN_MODULE + "\n# reviewed\n")
        ca.git(self.repo, "add", "-A")
        for hid in self.hooks:
            self.assertEqual(self.run_hook(hid), (0, []), hid)


if __name__ == "__main__":
    unittest.main(verbosity=2)
