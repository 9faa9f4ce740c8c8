#!/usr/bin/env python3
"""What the analysis says in its messages, beyond which rule fires where
(the expectation runner checks that): the latent lock window names its
holders and says it is latent; a lock some holder keeps across an await
gets no such note; a member variable is named as `object.attribute`.

Standard library only. Environment: CANCELAUDIT (the binary), CA_SOURCE_DIR.
"""
import json
import os
import subprocess
import unittest

SOURCE_DIR = os.environ.get("CA_SOURCE_DIR", os.getcwd())
BINARY = os.path.abspath(os.environ.get("CANCELAUDIT", os.path.join(SOURCE_DIR, "build", "cancelaudit")))
FIXTURE = os.path.join("corpus", "rules", "members_and_locks.py")


def findings(path):
    r = subprocess.run([BINARY, "scan", path, "--no-db", "--no-progress", "--format", "json"], cwd=SOURCE_DIR,
                       capture_output=True, text=True)
    if r.returncode not in (0, 1):
        raise AssertionError("scan exited %d: %s" % (r.returncode, r.stderr))
    return json.loads(r.stdout)["findings"]


class Messages(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.by_function = {}
        for f in findings(FIXTURE):
            cls.by_function.setdefault(f["function"], []).append(f)

    def one(self, function):
        fs = self.by_function.get(function, [])
        self.assertEqual(len(fs), 1, "%s: %r" % (function, fs))
        return fs[0]

    def test_latent_lock_names_its_holders(self):
        f = self.one("Registry.register")
        self.assertEqual(f["rule"], "CAN102")
        self.assertIn("latent: no holder of `self._lock` awaits while holding it", f["message"])
        self.assertIn("lines 56, 63", f["message"])

    def test_contended_lock_is_not_latent(self):
        f = self.one("Registry.register_busy")
        self.assertEqual(f["rule"], "CAN102")
        self.assertNotIn("latent", f["message"])

    def test_member_variable_is_named_by_its_object(self):
        f = self.one("Registry.start_member")
        self.assertEqual(f["resource"], "entry.task")
        self.assertEqual(f["resource_kind"], "task")
        self.assertEqual(f["acquired_line"], 35)

    def test_member_released_through_its_object(self):
        self.assertNotIn("Registry.start_member_guarded", self.by_function)


if __name__ == "__main__":
    unittest.main()
