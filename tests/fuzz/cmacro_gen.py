#!/usr/bin/env python3
"""cmacro_gen.py — a generator of C files whose function bodies come out of
macro expansion, for the C frontend (issue 16; docs/reliability.md).

libclang expands macros before c_lower.c sees a body, so the shapes the
lowering meets in real code (a project's LOCK()/UNLOCK() macros, cleanup
push/pop pairs behind wrappers, cancellation points and resources behind
function-like macros, token pasting, variadic forwarding, #if branches,
expansions that double at each level) are made here at random, with a
seed: each file defines a layer of macros on top of one another and
functions whose statements go through them, and one function that calls
pthread_cancel so that the C rules apply.

    python3 tests/fuzz/cmacro_gen.py OUT_DIR [--files N] [--seed S]
    python3 tests/fuzz/cmacro_gen.py --run build/cancelaudit [--files N] [--seed S] [--keep DIR]

--run generates the files into a temporary directory (or --keep DIR) and
checks them the way tests/fuzz/test_cmacro.py does (check() below), then
prints the figures docs/reliability.md records.
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import time

HEADERS = ["#include <pthread.h>", "#include <stdio.h>", "#include <stdlib.h>", "#include <string.h>",
           "#include <time.h>", "#include <unistd.h>",
           "#include <fcntl.h>", "#include <dirent.h>", "#include <semaphore.h>"]

# (acquire statement, release statement, type) with {v} the variable
RESOURCES = [
    ("{v} = malloc({n})", "free({v})", "char *"),
    ("{v} = open(path, O_RDONLY)", "close({v})", "int "),
    ("{v} = fopen(path, \"r\")", "fclose({v})", "FILE *"),
    ("{v} = opendir(path)", "closedir({v})", "DIR *"),
    ("{v} = strdup(path)", "free({v})", "char *"),
]
CANCEL_POINTS = ["sleep(1)", "usleep(10)", "read(fd, buf, 1)", "write(fd, buf, 1)", "pthread_testcancel()",
                 "fsync(fd)", "sem_wait(&st->sem)", "pause()", "nanosleep(NULL, NULL)"]
SAFE = ["x = x + 1", "st->count++", "buf[0] = 'a'", "(void)x"]


class Gen:
    def __init__(self, rnd):
        self.r = rnd
        self.lines = []
        self.macros = {"expr": [], "stmt": [], "point": [], "lock": [], "unlock": [], "cleanup": []}
        self.n = 0

    def name(self, kind):
        self.n += 1
        return "%s_%d" % (kind, self.n)

    def define(self, text):
        self.lines.append("#define " + text)

    def macro_layer(self):
        r = self.r
        # object-like and function-like expressions built on earlier ones
        for _ in range(r.randint(1, 6)):
            m = self.name("E")
            prev = self.macros["expr"]
            if prev and r.random() < 0.6:
                a, b = r.choice(prev), r.choice(prev)
                body = r.choice(["(%s(x) + %s(x))" % (a, b), "%s(%s(x))" % (a, b), "(x) * %s(1)" % a,
                                 "(%s(x) ? %s(x + 1) : 0)" % (a, b)])
            else:
                body = r.choice(["((x) + 1)", "((x) << 1)", "(sizeof(x))", "((int)(x))", "(x)"])
            self.define("%s(x) %s" % (m, body))
            self.macros["expr"].append(m)
        # cancellation points and locks behind macros, some through two levels
        for _ in range(r.randint(1, 4)):
            m = self.name("P")
            inner = r.choice(self.macros["point"]) + "()" if self.macros["point"] and r.random() < 0.4 \
                else r.choice(CANCEL_POINTS)
            self.define("%s() %s" % (m, inner))
            self.macros["point"].append(m)
        if r.random() < 0.8:
            lk, ul = self.name("LOCK"), self.name("UNLOCK")
            kind = r.choice(["mutex", "rwlock", "sem"])
            if kind == "mutex":
                self.define("%s(s) pthread_mutex_lock(&(s)->mu)" % lk)
                self.define("%s(s) pthread_mutex_unlock(&(s)->mu)" % ul)
            elif kind == "rwlock":
                self.define("%s(s) pthread_rwlock_wrlock(&(s)->rw)" % lk)
                self.define("%s(s) pthread_rwlock_unlock(&(s)->rw)" % ul)
            else:
                self.define("%s(s) sem_wait(&(s)->sem)" % lk)
                self.define("%s(s) sem_post(&(s)->sem)" % ul)
            self.macros["lock"].append(lk)
            self.macros["unlock"].append(ul)
        if r.random() < 0.6:
            push, pop = self.name("GUARD"), self.name("UNGUARD")
            self.define("%s(f, a) pthread_cleanup_push(f, a)" % push)
            self.define("%s(e) pthread_cleanup_pop(e)" % pop)
            self.macros["cleanup"].append((push, pop))
        # token pasting, stringizing, variadic forwarding
        if r.random() < 0.5:
            self.define("CAT_%d(a, b) a##b" % self.n)
            self.define("CALL_%d(f, ...) f(__VA_ARGS__)" % self.n)
            self.define("STR_%d(x) #x" % self.n)
            self.macros["stmt"].append(("CALL_%d" % self.n, "CAT_%d" % self.n))
        # an expansion that doubles at each level, kept small: the bombs
        # that crash libclang are test_containment.py's
        if r.random() < 0.3:
            base = self.name("D")
            self.define("%s_0 x+" % base)
            depth = r.randint(2, 10)
            for i in range(1, depth + 1):
                self.define("%s_%d %s_%d %s_%d" % (base, i, base, i - 1, base, i - 1))
            self.macros["expr"].append("DOUBLE_%s_%d" % (base, depth))
            self.define("DOUBLE_%s_%d(x) (%s_%d 0)" % (base, depth, base, depth))
        # a macro that names itself (not expanded again) and a conditional
        if r.random() < 0.3:
            m = self.name("SELF")
            self.define("%s %s + 1" % (m, m))
        if r.random() < 0.4:
            self.lines.append("#if %d > %d" % (r.randint(0, 3), r.randint(0, 3)))
            self.define("COND_%d(x) (x)" % self.n)
            self.lines.append("#else")
            self.define("COND_%d(x) P_COND_%d()" % (self.n, self.n))
            self.define("P_COND_%d() %s" % (self.n, r.choice(CANCEL_POINTS)))
            self.lines.append("#endif")
            self.macros["expr"].append("COND_%d" % self.n)

    def point(self):
        if self.macros["point"] and self.r.random() < 0.7:
            return self.r.choice(self.macros["point"]) + "()"
        return self.r.choice(CANCEL_POINTS)

    def expr(self):
        if self.macros["expr"] and self.r.random() < 0.7:
            return "%s(x)" % self.r.choice(self.macros["expr"])
        return "x"

    def body(self, depth, out, indent, live):
        r = self.r
        for _ in range(r.randint(1, 6)):
            pad = "    " * indent
            c = r.random()
            if c < 0.25:
                acq, rel, typ = r.choice(RESOURCES)
                v = self.name("v")
                out.append("%s%s%s;" % (pad, typ, acq.format(v=v, n=self.expr())))
                live.append((v, rel))
            elif c < 0.45:
                out.append("%s%s;" % (pad, self.point()))
            elif c < 0.55 and live:
                v, rel = live.pop(r.randrange(len(live)))
                out.append("%s%s;" % (pad, rel.format(v=v)))
            elif c < 0.65 and self.macros["lock"]:
                i = r.randrange(len(self.macros["lock"]))
                out.append("%s%s(st);" % (pad, self.macros["lock"][i]))
                out.append("%s%s;" % (pad, self.point()))
                if r.random() < 0.8:
                    out.append("%s%s(st);" % (pad, self.macros["unlock"][i]))
            elif c < 0.72 and self.macros["cleanup"] and depth < 6:
                push, pop = r.choice(self.macros["cleanup"])
                out.append("%s%s(%s, st);" % (pad, push, r.choice(["cleanup_free", "cleanup_unlock",
                                                                    "(void (*)(void *))free"])))
                self.body(depth + 1, out, indent, list(live))
                out.append("%s%s(%d);" % (pad, pop, r.randint(0, 1)))
            elif c < 0.8 and depth < 6:
                kw = r.choice(["if (%s)" % self.expr(), "while (%s)" % self.expr(), "for (;;)", "do"])
                out.append("%s%s {" % (pad, kw))
                self.body(depth + 1, out, indent + 1, list(live))
                if kw == "for (;;)":
                    out.append("%s    break;" % pad)
                out.append("%s}%s" % (pad, " while (0);" if kw == "do" else ""))
            elif c < 0.85 and self.macros["stmt"]:
                call, cat = r.choice(self.macros["stmt"])
                # a cancellation point forwarded through __VA_ARGS__, and a
                # name pasted together (x##<nothing> is x)
                out.append("%s%s(usleep, %s);" % (pad, call, self.expr()))
                out.append("%sx = %s(x, );" % (pad, cat))
            elif c < 0.87:
                # asynchronous cancellation around calls that are not
                # async-cancel-safe, or cancellation disabled around a wait
                if r.random() < 0.5:
                    out.append("%spthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);" % pad)
                    out.append("%s%s;" % (pad, r.choice(["buf = malloc(8)", "printf(\"%d\", x)", "x = x + 1"])))
                    out.append("%spthread_setcanceltype(PTHREAD_CANCEL_DEFERRED, NULL);" % pad)
                else:
                    out.append("%spthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &x);" % pad)
                    out.append("%s%s;" % (pad, self.point()))
                    out.append("%spthread_setcancelstate(x, NULL);" % pad)
            elif c < 0.92:
                out.append("%sif (x) goto out_%d;" % (pad, self.n))
                self.gotos.add("out_%d" % self.n)
            else:
                out.append("%s%s;" % (pad, r.choice(SAFE)))

    def function(self):
        r = self.r
        name = self.name("fn")
        out = ["%s %s(struct state *st, const char *path, int fd, char *buf, int x)" %
               (r.choice(["int", "static int"]), name), "{"]
        self.gotos = set()
        live = []
        self.body(0, out, 1, live)
        for lab in sorted(self.gotos):
            out.append("%s:" % lab)
            out.append("    ;")
        for v, rel in live:
            if r.random() < 0.6:
                out.append("    %s;" % rel.format(v=v))
        out.append("    return x;")
        out.append("}")
        return out

    def file(self):
        r = self.r
        self.lines = list(HEADERS)
        self.lines.append("struct state { pthread_mutex_t mu; pthread_rwlock_t rw; sem_t sem; long count; };")
        self.lines.append("static void cleanup_free(void *p) { free(p); }")
        self.lines.append("static void cleanup_unlock(void *p) { "
                          "pthread_mutex_unlock(&((struct state *)p)->mu); }")
        for _ in range(r.randint(1, 3)):
            self.macro_layer()
            for _ in range(r.randint(1, 3)):
                self.lines.extend(self.function())
        self.lines.append("void stop_worker(pthread_t t) { pthread_cancel(t); }")
        return "\n".join(self.lines) + "\n"


def generate(out_dir, files, seed):
    """files C files under out_dir from seed; returns (paths, total bytes)."""
    os.makedirs(out_dir, exist_ok=True)
    paths, total = [], 0
    for i in range(files):
        text = Gen(random.Random("%d-%d" % (seed, i))).file()
        p = os.path.join(out_dir, "gen_%05d.c" % i)
        with open(p, "w") as f:
            f.write(text)
        paths.append(p)
        total += len(text)
    return paths, total


def scan(exe, root, contained=True, extra=()):
    env = dict(os.environ)
    if not contained:
        env["CANCELAUDIT_CONTAIN"] = "0"
    env.setdefault("CANCELAUDIT_WORKER_STDERR", "1")  # a sanitizer report in a worker shows in the log
    p = subprocess.run([exe, "scan", ".", "--no-db", "--no-progress", "--format", "json", *extra], cwd=root,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=3600, env=env)
    return p


def check(exe, root, nfiles):
    """Scan root in worker processes and in process; returns a dict of
    figures, with 'problems' listing what is wrong:
    - a scan that ends by a signal or with an exit code other than 0/1;
    - a generated file that crashed its worker or ran out of time/memory
      (libclang is not expected to fail on these sizes; when it does, the
      file is kept for docs/reliability.md);
    - findings that differ between the two scans (the module a worker
      sends back must be the one lowered in process)."""
    problems = []
    t0 = time.monotonic()
    p1 = scan(exe, root)
    t1 = time.monotonic()
    p2 = scan(exe, root, contained=False)
    t2 = time.monotonic()
    for name, p in (("contained", p1), ("in process", p2)):
        if p.returncode not in (0, 1):
            problems.append("%s scan exited %d: %s" % (name, p.returncode, p.stderr.decode("utf-8", "replace")[-3000:]))
    figures = {"files": nfiles, "contained_s": round(t1 - t0, 2), "in_process_s": round(t2 - t1, 2)}
    if problems:
        figures["problems"] = problems
        return figures
    d1, d2 = json.loads(p1.stdout), json.loads(p2.stdout)
    err = p1.stderr.decode("utf-8", "replace")
    bad = [ln for ln in err.splitlines() if "analysis crashed" in ln or "took longer" in ln or "used more" in ln]
    problems += bad
    key = lambda f: (f["path"], f["line"], f["column"], f["rule"], f["fingerprint"], f["message"])  # noqa: E731
    if sorted(map(key, d1["findings"])) != sorted(map(key, d2["findings"])):
        problems.append("findings differ between the contained and the in-process scan")
    if d1["scan"] != d2["scan"]:
        problems.append("summaries differ: %r vs %r" % (d1["scan"], d2["scan"]))
    figures.update(analysed=d1["scan"]["files_scanned"], errors=d1["scan"]["errors"],
                   findings=len(d1["findings"]),
                   rules=sorted({f["rule"] for f in d1["findings"]}))
    figures["problems"] = problems
    return figures


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", nargs="?")
    ap.add_argument("--files", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--run", metavar="CANCELAUDIT")
    ap.add_argument("--keep", metavar="DIR")
    a = ap.parse_args(argv)
    if not a.run:
        if not a.out:
            ap.error("OUT_DIR or --run")
        paths, total = generate(a.out, a.files, a.seed)
        print("%d files, %d bytes in %s" % (len(paths), total, a.out))
        return 0
    root = a.keep or tempfile.mkdtemp(prefix="ca-cmacro-")
    paths, total = generate(root, a.files, a.seed)
    fig = check(os.path.abspath(a.run), root, len(paths))
    fig["bytes"] = total
    print(json.dumps(fig, indent=1))
    if not a.keep:
        import shutil
        shutil.rmtree(root, ignore_errors=True)
    return 1 if fig["problems"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
