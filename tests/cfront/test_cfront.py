#!/usr/bin/env python3
"""The C frontend through the command line: scope (pthread_cancel), compile
flags (compile_commands.json next to the code or --compile-commands DIR),
missing headers, mixed Python/C trees, output formats and the store.

Environment: CANCELAUDIT (the binary; default build/cancelaudit under
CA_SOURCE_DIR or the current directory). Only the standard library is used.
"""

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import unittest

ROOT = os.path.abspath(os.environ.get("CA_SOURCE_DIR") or os.getcwd())
BINARY = os.path.abspath(os.environ.get("CANCELAUDIT") or os.path.join(ROOT, "build", "cancelaudit"))

LEAKY = textwrap.dedent("""\
    #include <stdlib.h>
    #include <unistd.h>

    ssize_t read_header(int fd)
    {
        char *buf = malloc(64);
        if (!buf) return -1;
        ssize_t n = read(fd, buf, 64);
        free(buf);
        return n;
    }
    """)

CANCELLER = textwrap.dedent("""\
    #include <pthread.h>

    void stop(pthread_t t)
    {
        pthread_cancel(t);
        pthread_join(t, NULL);
    }
    """)


def write(base, rel, text):
    path = os.path.join(base, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path


def scan(cwd, *args):
    cmd = [BINARY, "scan", *args, "--no-progress"]
    if "--db" not in args:
        cmd.append("--no-db")
    if "--format" not in args:
        cmd += ["--format", "json"]
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    return proc


def findings(proc):
    return [(f["path"], f["line"], f["rule"]) for f in json.loads(proc.stdout)["findings"]]


class CFrontend(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="ca_cfront_")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_scope_needs_pthread_cancel(self):
        write(self.tmp, "src/io.c", LEAKY)
        proc = scan(self.tmp, "src")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(findings(proc), [])
        # a call of pthread_cancel anywhere in the scan brings every function in scope
        write(self.tmp, "src/stop.c", CANCELLER)
        proc = scan(self.tmp, "src")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertEqual(findings(proc), [("src/io.c", 8, "CAN501")])
        f = json.loads(proc.stdout)["findings"][0]
        self.assertEqual(f["function"], "read_header")
        self.assertEqual(f["resource"], "buf")
        self.assertEqual(f["resource_kind"], "memory")
        self.assertEqual(f["acquired_line"], 6)
        self.assertEqual(f["column"], 17)
        self.assertEqual(f["severity"], "error")
        self.assertTrue(f["fingerprint"])

    def test_compile_commands_option(self):
        src = textwrap.dedent("""\
            #include <unistd.h>
            #include "flags.h"
            #include <pthread.h>

            void flush(pthread_mutex_t *mu, int fd)
            {
                pthread_mutex_lock(mu);
            #ifdef SYNC_UNDER_LOCK
                fsync(fd);
            #endif
                pthread_mutex_unlock(mu);
                pthread_cancel(0);
            }
            """)
        write(self.tmp, "proj/src/flush.c", src)
        write(self.tmp, "proj/hdr/flags.h", "#define FLAGS 1\n")
        build = os.path.join(self.tmp, "out")
        os.makedirs(build)
        with open(os.path.join(build, "compile_commands.json"), "w") as fh:
            json.dump([{"directory": os.path.join(self.tmp, "proj"), "file": "src/flush.c",
                        "arguments": ["cc", "-DSYNC_UNDER_LOCK", "-I", "hdr", "-c", "src/flush.c"]}], fh)
        proc = scan(self.tmp, "proj/src")
        self.assertEqual(findings(proc), [])
        self.assertIn("flags.h", proc.stderr.decode())
        proc = scan(self.tmp, "proj/src", "--compile-commands", "out")
        self.assertEqual(findings(proc), [("proj/src/flush.c", 9, "CAN502")], proc.stderr)
        self.assertNotIn("flags.h", proc.stderr.decode())
        # a directory without a database is a usage error
        proc = scan(self.tmp, "proj/src", "--compile-commands", "proj")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("compile_commands.json", proc.stderr.decode())

    def test_missing_header_is_a_diagnostic(self):
        write(self.tmp, "src/stop.c", CANCELLER)
        write(self.tmp, "src/vendor.c", '#include "vendor/sdk.h"\n' + LEAKY)
        db = os.path.join(self.tmp, "audit.db")
        proc = scan(self.tmp, "src", "--db", db)
        self.assertEqual(proc.returncode, 1, proc.stderr)
        err = proc.stderr.decode()
        self.assertIn("src/vendor.c: missing header 'vendor/sdk.h'", err)
        self.assertIn("analysed where it parsed", err)
        self.assertEqual(findings(proc), [("src/vendor.c", 9, "CAN501")])
        con = sqlite3.connect(db)
        row = con.execute("SELECT parse_errors, status, language, diagnostic FROM files "
                          "WHERE path = 'src/vendor.c'").fetchone()
        con.close()
        self.assertEqual(row[0], 1)
        self.assertEqual(row[2], "c")
        self.assertIn("missing header", row[3])

    def test_include_dirs_without_a_database(self):
        """A tree without compile_commands.json: `#include "pkg/conf.h"` is
        found in the tree's include/ directory, `#include <local.h>` in a
        directory above the file, and what does not resolve says what was
        tried."""
        src = textwrap.dedent("""\
            #include <stdlib.h>
            #include <pthread.h>
            #include "hamlib/conf.h"
            #include <local.h>

            void *worker(void *arg)
            {
                rig_t *r = malloc(sizeof(rig_t) * LOCAL_N);
                pthread_testcancel();
                free(r);
                return arg;
            }
            void stop(pthread_t t) { pthread_cancel(t); }
            """)
        write(self.tmp, "proj/include/hamlib/conf.h", "typedef struct rig { int fd; } rig_t;\n")
        write(self.tmp, "proj/src/local.h", "#define LOCAL_N 4\n")
        write(self.tmp, "proj/src/rigs/dummy/dummy.c", src)
        proc = scan(self.tmp, "proj")
        err = proc.stderr.decode()
        self.assertNotIn("conf.h", err)
        self.assertNotIn("local.h", err)
        self.assertEqual(findings(proc), [("proj/src/rigs/dummy/dummy.c", 9, "CAN501")], err)
        # a header that is nowhere: the diagnostic names what was tried
        write(self.tmp, "proj/src/rigs/dummy/dummy.c", '#include "gen/config.h"\n' + src)
        proc = scan(self.tmp, "proj")
        err = proc.stderr.decode()
        self.assertIn("missing header 'gen/config.h'", err)
        self.assertIn("no compile_commands.json covers it: parsed with -I for its directory and those above it "
                      "up to the scanned root, 1 include/ directory", err)
        self.assertIn("--compile-commands DIR", err)
        # with a database, the diagnostic says which one
        os.makedirs(os.path.join(self.tmp, "proj/build"))
        with open(os.path.join(self.tmp, "proj/build/compile_commands.json"), "w") as fh:
            json.dump([{"directory": os.path.join(self.tmp, "proj"), "file": "src/rigs/dummy/dummy.c",
                        "arguments": ["cc", "-c", "src/rigs/dummy/dummy.c"]}], fh)
        proc = scan(self.tmp, "proj")
        self.assertIn("flags from %s/compile_commands.json" % os.path.join(os.path.realpath(self.tmp), "proj/build"),
                      proc.stderr.decode())

    def test_mixed_tree(self):
        write(self.tmp, "svc/stop.c", CANCELLER)
        write(self.tmp, "svc/io.c", LEAKY)
        write(self.tmp, "svc/agent.py", textwrap.dedent("""\
            import asyncio

            async def start(reg):
                t = asyncio.create_task(reg.pump())
                await asyncio.sleep(1)
                reg.add(t)
            """))
        proc = scan(self.tmp, "svc")
        got = sorted(findings(proc))
        self.assertEqual(got, [("svc/agent.py", 5, "CAN102"), ("svc/io.c", 8, "CAN501")])
        report = json.loads(proc.stdout)
        self.assertEqual(report["scan"]["files_scanned"], 3)
        sarif = scan(self.tmp, "svc", "--format", "sarif")
        doc = json.loads(sarif.stdout)
        rule_ids = {r["id"] for r in doc["runs"][0]["tool"]["driver"]["rules"]}
        self.assertIn("CAN501", rule_ids)
        text = scan(self.tmp, "svc", "--format", "text").stdout.decode()
        self.assertIn("svc/io.c:8:17: CAN501", text)

    def test_python_calls_do_not_resolve_to_c(self):
        # `finish` releases the task; a C function of the same name must not
        # make the Python call ambiguous
        write(self.tmp, "app/helpers.py", "def finish(task):\n    task.cancel()\n\n\nasync def idle():\n    pass\n")
        write(self.tmp, "app/run.py", textwrap.dedent("""\
            import asyncio
            from helpers import finish

            async def run():
                t = asyncio.create_task(asyncio.sleep(9))
                finish(t)
                await asyncio.sleep(1)
            """))
        before = findings(scan(self.tmp, "app"))
        write(self.tmp, "app/finish.c", "void finish(void *t) { (void)t; }\n" + CANCELLER)
        after = findings(scan(self.tmp, "app"))
        self.assertEqual(before, [])
        self.assertEqual(after, before)

    def test_suppression_comment(self):
        write(self.tmp, "src/stop.c", CANCELLER)
        write(self.tmp, "src/io.c", LEAKY.replace("read(fd, buf, 64);", "read(fd, buf, 64); /* cancelaudit: ignore[CAN501] */"))
        proc = scan(self.tmp, "src")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        report = json.loads(proc.stdout)
        self.assertEqual([(f["rule"], f["suppressed"]) for f in report["findings"]], [("CAN501", True)])


class Corpus(unittest.TestCase):
    def test_thread_pool(self):
        proc = scan(ROOT, "corpus/c/threadpool")
        self.assertEqual(findings(proc), [("corpus/c/threadpool/pool.c", 14, "CAN502")])


if __name__ == "__main__":
    if not os.path.exists(BINARY):
        print("skipped: analyzer binary not built: %s" % BINARY)
        sys.exit(0)
    unittest.main(verbosity=2)
