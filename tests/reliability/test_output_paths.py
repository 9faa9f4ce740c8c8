"""An output file can never be the store (issue 16, item 3; cli_output.c).

`scan -o .cancelaudit/audit.db` used to overwrite the database with the
report. Every subcommand that writes a file (scan in every format,
baseline, matrix, report, diff) must refuse, with exit 2 and a message
naming the option, an output that resolves to the database or to one of
SQLite's files beside it (-wal, -shm, -journal), however it is spelled:
as given, through ./ and .., absolute, through a symlink (to the file or
to its directory) or a hard link, with --db elsewhere, with --no-db. The
database must be byte-for-byte unchanged afterwards.

Also here: a database error names the database once ("database X: what"),
not "database X: database X: what" as it did.
"""
import hashlib
import os
import shutil
import sqlite3
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from relcommon import SRC, run  # noqa: E402

DB = ".cancelaudit/audit.db"


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class OutputPaths(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="ca-outpaths-")
        shutil.copytree(os.path.join(SRC, "corpus", "providers"), os.path.join(cls.tmp, "t"))
        for _ in range(2):  # two scans: diff has something to compare
            p = run(["scan", "t", "--no-progress", "--quiet"], cwd=cls.tmp)
            assert p.returncode in (0, 1), p.stderr.decode()
        con = sqlite3.connect(os.path.join(cls.tmp, DB))
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        cls.backend = con.execute("SELECT backend FROM findings WHERE backend IS NOT NULL LIMIT 1").fetchone()[0]
        con.close()
        os.symlink(DB, os.path.join(cls.tmp, "link.db"))
        os.symlink(".cancelaudit", os.path.join(cls.tmp, "linkdir"))
        os.link(os.path.join(cls.tmp, DB), os.path.join(cls.tmp, "hard.db"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def spellings(self):
        cancelaudit = os.path.join(self.tmp, ".cancelaudit")
        return [
            DB, "./" + DB, ".cancelaudit/../.cancelaudit/audit.db", os.path.join(cancelaudit, "audit.db"),
            "link.db", "linkdir/audit.db", "hard.db",
            DB + "-wal", DB + "-shm", DB + "-journal", "linkdir/audit.db-wal",
        ]

    def commands(self, out):
        return {
            "scan text": ["scan", "t", "-o", out],
            "scan json": ["scan", "t", "--format", "json", "--output", out],
            "scan sarif": ["scan", "t", "--format", "sarif", "-o", out],
            "scan github": ["scan", "t", "--format", "github", "-o", out],
            "scan markdown": ["scan", "t", "--format", "markdown", "-o=" + out],
            "scan --no-db": ["scan", "t", "--no-db", "-o", out],
            "baseline": ["baseline", "t", "--output", out],
            "matrix": ["matrix", "-o", out],
            "matrix markdown": ["matrix", "--format", "markdown", "--output", out],
            "report": ["report", "--backend", self.backend, "-o", out],
            "diff": ["diff", "1", "2", "-o", out],
        }

    def test_refused_everywhere(self):
        db = os.path.join(self.tmp, DB)
        con = sqlite3.connect(db)
        scans = con.execute("SELECT count(*) FROM scans WHERE status = 'complete'").fetchone()[0]
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.close()
        before = digest(db)
        for out in self.spellings():
            for name, args in self.commands(out).items():
                with self.subTest(command=name, output=out):
                    p = run(args + ["--no-progress"] if args[0] in ("scan", "baseline") else args, cwd=self.tmp)
                    err = p.stderr.decode()
                    self.assertEqual(p.returncode, 2, err)
                    self.assertIn("cancelaudit: --output %s is " % out, err)
                    self.assertIn("would destroy the scan history", err)
                    self.assertEqual(digest(db), before)
        con = sqlite3.connect(db)
        self.assertEqual(con.execute("PRAGMA integrity_check").fetchone()[0], "ok")
        self.assertEqual(con.execute("SELECT count(*) FROM scans WHERE status = 'complete'").fetchone()[0], scans)
        con.close()

    def test_other_db(self):
        """--db names the store: its path is the one refused, and the
        default one is then an ordinary file name."""
        other = os.path.join(self.tmp, "other.db")
        p = run(["scan", "t", "--db", other, "--no-progress", "-o", "other.db"], cwd=self.tmp)
        self.assertEqual(p.returncode, 2, p.stderr.decode())
        self.assertFalse(os.path.exists(other))
        p = run(["matrix", "--db", DB, "-o", "report.txt"], cwd=self.tmp)
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        self.assertTrue(os.path.getsize(os.path.join(self.tmp, "report.txt")) > 0)

    def test_project_root_store(self):
        """The default store is at the project root (the nearest directory
        holding .git or a configuration), not next to the shell: scanning
        from a subdirectory, the root's store is the one refused, by scan
        with and without --no-db, by baseline and by the readers."""
        root = tempfile.mkdtemp(prefix="ca-outroot-")
        try:
            os.mkdir(os.path.join(root, ".git"))
            sub = os.path.join(root, "sub")
            shutil.copytree(os.path.join(SRC, "corpus", "providers"), os.path.join(sub, "t"))
            env = {k: v for k, v in os.environ.items() if k != "CANCELAUDIT_DB"}
            p = run(["scan", "t", "--no-progress", "--quiet"], cwd=sub, env=env)
            self.assertIn(p.returncode, (0, 1), p.stderr.decode())
            db = os.path.join(root, DB)
            self.assertTrue(os.path.exists(db))
            self.assertFalse(os.path.exists(os.path.join(sub, DB)))
            con = sqlite3.connect(db)
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            con.close()
            before = digest(db)
            out = "../" + DB
            for args in (["scan", "t", "--no-progress", "-o", out], ["scan", "t", "--no-progress", "--no-db", "-o", out],
                         ["baseline", "t", "--no-progress", "-o", out], ["matrix", "-o", out]):
                with self.subTest(args=args):
                    p = run(args, cwd=sub, env=env)
                    err = p.stderr.decode()
                    self.assertEqual(p.returncode, 2, err)
                    self.assertIn("would destroy the scan history", err)
                    self.assertEqual(digest(db), before)
        finally:
            shutil.rmtree(root, ignore_errors=True)

    def test_plain_outputs_still_written(self):
        for name, args in self.commands("out.txt").items():
            with self.subTest(command=name):
                path = os.path.join(self.tmp, "out.txt")
                if os.path.exists(path):
                    os.unlink(path)
                p = run(args + ["--no-db"] if name == "scan --no-db" else args, cwd=self.tmp)
                self.assertIn(p.returncode, (0, 1), p.stderr.decode())
                self.assertTrue(os.path.exists(path))

    def test_database_error_named_once(self):
        bad = os.path.join(self.tmp, "notadb.db")
        with open(bad, "w") as f:
            f.write("this is not a database, it is long enough to have a header page\n" * 20)
        for args in (["scan", "t", "--db", bad, "--no-progress"], ["matrix", "--db", bad]):
            with self.subTest(args[0]):
                p = run(args, cwd=self.tmp)
                err = p.stderr.decode()
                self.assertEqual(p.returncode, 3, err)
                self.assertEqual(err.count("database %s" % bad), 1, err)
        p = run(["scan", "t", "--db", "/proc/no-such-dir/x.db", "--no-progress"], cwd=self.tmp)
        err = p.stderr.decode()
        self.assertEqual(p.returncode, 3, err)
        self.assertEqual(err.count("database /proc/no-such-dir/x.db"), 1, err)


if __name__ == "__main__":
    unittest.main(verbosity=2)
