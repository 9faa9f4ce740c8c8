"""The short fuzz run of the test suite (issue 7, DESIGN §10).

Builds the libFuzzer target in its own clang tree (CA_BUILD_DIR/fuzz,
-DCA_FUZZ=ON: ASan + UBSan + coverage), seeds it with every corpus/**/*.py,
the kept regression inputs and a few large generated ones (big_seeds), and
fuzzes for CA_FUZZ_SECONDS (default 60) with inputs up to 200 KB and the
dictionary tests/fuzz/python.dict (string prefixes, f-string forms and
brackets among it).
Any crash, sanitizer report, leak or timeout fails the test; the input is
left in CA_BUILD_DIR/fuzz/artifacts/ to be kept under tests/fuzz/regressions/.

Missing clang or libFuzzer is a failure with a message, not a pass: the run is
required in CI (scripts/bootstrap.sh installs clang and libclang-rt-14-dev).
The ASan build skips it (exit 77): the clang tree is the same whichever build
runs it, and the plain build already does.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

SRC = os.environ.get("CA_SOURCE_DIR") or os.getcwd()
BUILD = os.environ.get("CA_BUILD_DIR") or os.path.join(SRC, "build")
SECONDS = int(os.environ.get("CA_FUZZ_SECONDS", "60"))
FUZZ_DIR = os.path.join(BUILD, "fuzz")
ARTIFACTS = os.path.join(FUZZ_DIR, "artifacts")


def fail(msg, log=None):
    print("FAIL: " + msg, file=sys.stderr)
    if log:
        print("---- last output ----", file=sys.stderr)
        print(log[-6000:], file=sys.stderr)
    sys.exit(1)


def run(cmd, what, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace", **kw)
    if p.returncode != 0:
        fail("%s failed (exit %d): %s" % (what, p.returncode, " ".join(cmd)), p.stdout)
    return p.stdout


def find_clang():
    c = os.environ.get("CA_CLANG", "")
    if c and not c.endswith("-NOTFOUND") and os.access(c, os.X_OK):
        return c
    for name in ("clang-14", "clang"):
        c = shutil.which(name)
        if c:
            return c
    fail("clang not found: the fuzz run needs clang and libFuzzer (Debian: clang libclang-rt-14-dev; "
         "scripts/bootstrap.sh installs them)")


def check_libfuzzer(clang, tmp):
    src = os.path.join(tmp, "probe.c")
    with open(src, "w") as f:
        f.write("#include <stddef.h>\n#include <stdint.h>\n"
                "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n")
    p = subprocess.run([clang, "-fsanitize=fuzzer,address,undefined", src, "-o", os.path.join(tmp, "probe")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        fail("%s cannot link -fsanitize=fuzzer,address,undefined: libFuzzer is missing (Debian: "
             "libclang-rt-14-dev; scripts/bootstrap.sh installs it)" % clang, p.stdout)


def build_fuzzer(clang):
    cmake = shutil.which("cmake") or fail("cmake not found")
    args = [cmake, "-S", SRC, "-B", FUZZ_DIR, "-DCMAKE_C_COMPILER=" + clang, "-DCA_FUZZ=ON",
            "-DCMAKE_BUILD_TYPE=RelWithDebInfo"]
    # Reuse the grammar tarball the parent build fetched (no second download).
    tgz = glob.glob(os.path.join(BUILD, "_grammar", "tree-sitter-python-*.tgz"))
    if tgz:
        args.append("-DCA_GRAMMAR_TARBALL=" + tgz[0])
    run(args, "configuring the fuzz build")
    run([cmake, "--build", FUZZ_DIR, "--target", "fuzz_py", "--parallel", str(os.cpu_count() or 2)],
        "building fuzz_py")
    exe = os.path.join(FUZZ_DIR, "fuzz_py")
    if not os.access(exe, os.X_OK):
        fail("the fuzz build made no %s" % exe)
    return exe


MAX_LEN = 200 * 1024


def big_seeds(dest):
    """Large inputs to mutate from (issue 16: the run never left ~4.7 KB, so
    the f-string that crashed tree-sitter at 100 KB was out of its reach):
    every corpus file in one module cut at MAX_LEN, and f-strings and
    brackets nested just below the pre-check's limit, with every prefix."""
    texts = []
    for p in sorted(glob.glob(os.path.join(SRC, "corpus", "**", "*.py"), recursive=True)):
        with open(p, "rb") as f:
            texts.append(f.read())
    blob = b"\n".join(texts)
    while len(blob) < MAX_LEN:
        blob += b"\n" + blob
    seeds = {"big_corpus.py": blob[:MAX_LEN]}
    head = b"async def f():\n    await g()\n"
    for pre in (b"f", b"uuf", b"rbF", b"Rb", b"fr"):
        seeds["deep_%s.py" % pre.decode()] = head + b"x = " + pre + b'"{' + b"(" * 990 + b")" * 990 + b'}"\n'
    seeds["deep_mixed.py"] = head + b"x = " + b"([{" * 330 + b"}])" * 330 + b"\n"
    for name, data in seeds.items():
        with open(os.path.join(dest, name), "wb") as f:
            f.write(data)
    return len(seeds)


def seed_corpus(dest):
    """corpus/**/*.py and tests/fuzz/regressions/*, copied flat (names kept
    apart by their path) so nothing generated lands in the source tree."""
    n = 0
    paths = glob.glob(os.path.join(SRC, "corpus", "**", "*.py"), recursive=True)
    paths += glob.glob(os.path.join(SRC, "tests", "fuzz", "regressions", "*"))
    for p in sorted(paths):
        if not os.path.isfile(p):
            continue
        rel = os.path.relpath(p, SRC).replace(os.sep, "__")
        shutil.copyfile(p, os.path.join(dest, rel))
        n += 1
    if n == 0:
        fail("no seed inputs found under corpus/ (CA_SOURCE_DIR=%s)" % SRC)
    return n


def main():
    if os.environ.get("CA_SANITIZE", "0").upper() in ("1", "ON", "TRUE", "YES"):
        print("skipped: the fuzz run builds its own clang tree; the plain build runs it")
        sys.exit(77)
    clang = find_clang()
    with tempfile.TemporaryDirectory(prefix="ca-fuzz-") as tmp:
        check_libfuzzer(clang, tmp)
        exe = build_fuzzer(clang)
        seeds = os.path.join(tmp, "seeds")
        work = os.path.join(tmp, "work")
        os.mkdir(seeds)
        os.mkdir(work)
        nseeds = seed_corpus(seeds) + big_seeds(seeds)
        os.makedirs(ARTIFACTS, exist_ok=True)
        before = set(os.listdir(ARTIFACTS))
        # inputs up to 200 KB from the start (-len_control=0): libFuzzer's
        # slow growth of the length limit kept every input near the seeds'
        cmd = [exe, "-max_total_time=%d" % SECONDS, "-timeout=30", "-rss_limit_mb=2048",
               "-max_len=%d" % MAX_LEN, "-len_control=0",
               "-print_final_stats=1", "-dict=" + os.path.join(SRC, "tests", "fuzz", "python.dict"),
               "-artifact_prefix=" + ARTIFACTS + "/", work, seeds]
        print("running: " + " ".join(cmd), flush=True)
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
                           timeout=SECONDS + 600)
        log = p.stdout
        with open(os.path.join(FUZZ_DIR, "last_run.log"), "w") as f:
            f.write(log)
        new = sorted(set(os.listdir(ARTIFACTS)) - before)
        execs = re.search(r"stat::number_of_executed_units:\s*(\d+)", log)
        cov = re.findall(r"\bcov: (\d+) ft: (\d+)", log)
        if p.returncode != 0 or new:
            fail("the fuzzer found a problem (exit %d); inputs: %s. Keep each under tests/fuzz/regressions/ "
                 "once fixed; replay with %s INPUT" % (p.returncode, ", ".join(new) or "none written", exe), log)
        if not execs or int(execs.group(1)) == 0:
            fail("the fuzzer ran no input", log)
        print("fuzz run: %d s, %s executions, %d seeds; coverage: %s edges, %s features" % (
            SECONDS, execs.group(1), nseeds, cov[-1][0] if cov else "?", cov[-1][1] if cov else "?"))


if __name__ == "__main__":
    main()
