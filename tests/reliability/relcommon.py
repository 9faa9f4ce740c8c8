"""Shared helpers of tests/reliability/test_*.py (not a test itself).

Environment (set by CMake for every tests/*/test_*.py): CANCELAUDIT (the
binary), CA_SOURCE_DIR, CA_BUILD_DIR; CA_SANITIZE=1 in the ASan build for
the tests that must know.
"""
import os
import subprocess

SRC = os.environ.get("CA_SOURCE_DIR") or os.getcwd()
BUILD = os.environ.get("CA_BUILD_DIR") or os.path.join(SRC, "build")
EXE = os.environ.get("CANCELAUDIT") or os.path.join(BUILD, "cancelaudit")
SANITIZED = os.environ.get("CA_SANITIZE", "0").upper() in ("1", "ON", "TRUE", "YES")

# One async function with a CAN102 window (an unowned stream across an
# await), used to know that a file was really analysed.
WINDOW_SRC = """import asyncio


async def probe(host):
    reader, writer = await asyncio.open_connection(host, 80)
    await asyncio.sleep(0)
    writer.close()
"""


def run(args, cwd=None, timeout=120, env=None, check_signal=True):
    """Run cancelaudit with args (a list of str/bytes); returns the
    CompletedProcess with bytes stdout/stderr. A death by signal (a crash,
    an ASan abort) fails the calling test at once."""
    p = subprocess.run([EXE] + list(args), cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout, env=env, stdin=subprocess.DEVNULL)
    if check_signal and p.returncode < 0:
        raise AssertionError("cancelaudit %r died by signal %d\nstderr:\n%s"
                             % (args, -p.returncode, p.stderr.decode("utf-8", "replace")[-4000:]))
    return p


def write(path, text, mode="w"):
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    with open(path, mode) as f:
        f.write(text)


def make_tree(root, n, seed_text=WINDOW_SRC, per_dir=100):
    """n small async files, each with one finding, per_dir to a folder.
    Returns their paths in the scan's order (sorted)."""
    paths = []
    for i in range(n):
        d = os.path.join(root, "pkg%03d" % (i // per_dir))
        p = os.path.join(d, "mod%05d.py" % i)
        write(p, seed_text.replace("probe", "probe_%d" % i))
        paths.append(p)
    return sorted(paths)
