#!/usr/bin/env python3
"""Expectation runner: scan corpus/ and compare the findings with the inline
markers the fixtures carry.

Markers (in comments, on the line of the finding's primary location):

    await x()  # expect: CAN101
    await y()  # expect: CAN101, CAN102
    await z()  # noqa: CAN101  # expect-suppressed: CAN101

``expect: R[, R...]`` means an unsuppressed finding of rule R is reported at
this line. ``expect-suppressed: R[, R...]`` means a finding of rule R is
reported at this line with ``"suppressed": true`` (write it after the
suppression comment itself; a Python line has one comment, so the marker is
part of it). Both may appear on one line. A line with no marker must get no
finding; a function with no marker must get none at all.

Matching is by (path, line, rule): several findings with the same key (two
resources acquired by one call, e.g. both ends of ``os.pipe()``) satisfy one
marker, and are one unexpected entry when there is no marker. The same
finding reported twice (same place, resource and message) is a DUPLICATE
failure.

Files and rules:
  - ``.py`` files: comments found with ``tokenize`` (text inside strings is
    never a marker); rule ids CAN1xx-CAN4xx.
  - ``.c`` / ``.h`` files: ``/* expect: CAN501 */`` or ``// expect: CAN501``;
    rule ids CAN1xx-CAN5xx (the C frontend lowers to the same IR).
  - Findings for other paths or other rule ids are ignored.

Modes: a file whose first lines hold ``# expect-mode: strict`` (C:
``/* expect-mode: strict */``) exercises strict rules. The runner makes two
passes:
  1. default: ``scan corpus`` without --strict; every file's markers for
     default rules are expected (markers of strict rules are not: they must
     not be reported without --strict);
  2. strict: ``scan FILE... --strict`` over the strict-mode files only; all
     their markers are expected.
Which rules are strict is read from the ``default:`` line of rules/CAN*.md
(fallback: CAN202, CAN302). A strict-rule marker in a file without
``expect-mode: strict`` is a marker error.

Environment: CANCELAUDIT (analyzer binary; default build/cancelaudit under
the source dir), CA_SOURCE_DIR (repository root; default the current
directory). The scan runs from the repository root with
``--format json --no-db --no-progress``; exit codes 0 and 1 are normal,
anything else fails the run.

Usage:
    test_expectations.py [--json FILE] [--strict-json FILE] [-v] [PREFIX...]
    test_expectations.py --stats

  --json FILE         use FILE as the default pass's JSON instead of scanning
  --strict-json FILE  use FILE as the strict pass's JSON (with --json alone
                      the strict pass is skipped)
  PREFIX...           compare only files whose path starts with a prefix
                      (e.g. corpus/providers); the scan itself is unchanged
  -v, --verbose       also print every matched expectation and scan stderr
  --stats             print marker counts per rule and functions without
                      markers, then exit (no scan)

Output: one line per MISSED / UNEXPECTED / NOT-SUPPRESSED / DUPLICATE / BAD-MARKER, then
``N passed, M failed`` (N = matched expectations, M = misses + unexpected
findings + marker errors). Exit status: 0 when M is 0, 1 when M > 0, 2 when
the scan or the JSON could not be used.

Only the Python standard library is used.
"""

import argparse
import ast
import io
import json
import os
import re
import subprocess
import sys
import tokenize

PY_EXTS = (".py",)
C_EXTS = (".c", ".h")
PY_RULE = re.compile(r"^CAN[1-4]\d\d$")
C_RULE = re.compile(r"^CAN[1-5]\d\d$")
FALLBACK_STRICT = frozenset({"CAN202", "CAN302"})
SCAN_TIMEOUT = 900

RULE_LIST = r"CAN\d{3}(?:\s*,\s*CAN\d{3})*"
# A marker starts a comment segment: after '#', '/*' or '//'.
MARKER = re.compile(r"(?:#|/\*|//)\s*expect(-suppressed)?\s*:\s*(" + RULE_LIST + r")")
MARKER_LOOSE = re.compile(r"(?:#|/\*|//)\s*expect(?:-suppressed)?\s*:")
MODE = re.compile(r"(?:#|/\*|//)\s*expect-mode\s*:\s*([A-Za-z-]+)")
MODE_LINES = 3  # expect-mode must sit in the file's first lines


class RunError(Exception):
    """The scan or its output cannot be used (exit status 2)."""


class Fixture:
    """The markers of one corpus file."""

    def __init__(self, path):
        self.path = path          # relative to the root, '/' separators
        self.strict = False
        self.expect = set()       # {(line, rule)}
        self.suppressed = set()   # {(line, rule)}
        self.errors = []          # ["line N: message"]

    def rule_ok(self, rule):
        pattern = PY_RULE if self.path.endswith(PY_EXTS) else C_RULE
        return bool(pattern.match(rule))


# ---------------------------------------------------------------- markers

def comments_py(text):
    """(line, comment text) for each comment of a Python source."""
    out = []
    readline = io.StringIO(text).readline
    for tok in tokenize.generate_tokens(readline):
        if tok.type == tokenize.COMMENT:
            out.append((tok.start[0], tok.string))
    return out


def comments_c(text):
    """(line, text) for each line that holds a C comment opener. Good enough
    for fixtures: markers sit in one-line comments at the end of a line."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        pos = min([p for p in (line.find("/*"), line.find("//")) if p >= 0], default=-1)
        if pos >= 0:
            out.append((n, line[pos:]))
    return out


def split_rules(text):
    return [r.strip() for r in text.split(",") if r.strip()]


def parse_fixture(root, rel):
    fx = Fixture(rel)
    try:
        with open(os.path.join(root, rel), encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        fx.errors.append("unreadable: %s" % exc)
        return fx
    try:
        comments = comments_py(text) if rel.endswith(PY_EXTS) else comments_c(text)
    except (tokenize.TokenError, SyntaxError, IndentationError) as exc:
        fx.errors.append("cannot tokenize: %s" % exc)
        return fx
    for line, comment in comments:
        mode = MODE.search(comment)
        if mode:
            if mode.group(1) != "strict":
                fx.errors.append("line %d: unknown expect-mode %r" % (line, mode.group(1)))
            elif line > MODE_LINES:
                fx.errors.append("line %d: expect-mode must be in the first %d lines" % (line, MODE_LINES))
            else:
                fx.strict = True
        found = 0
        for m in MARKER.finditer(comment):
            found += 1
            target = fx.suppressed if m.group(1) else fx.expect
            for rule in split_rules(m.group(2)):
                if not fx.rule_ok(rule):
                    fx.errors.append("line %d: rule %s is not checked in this file type" % (line, rule))
                    continue
                if (line, rule) in target:
                    fx.errors.append("line %d: %s listed twice" % (line, rule))
                target.add((line, rule))
        if len(MARKER_LOOSE.findall(comment)) != found:
            fx.errors.append("line %d: malformed marker: %s" % (line, comment.strip()))
    return fx


def collect_fixtures(root):
    corpus = os.path.join(root, "corpus")
    if not os.path.isdir(corpus):
        raise RunError("no corpus/ directory under %s" % root)
    fixtures = {}
    for dirpath, dirnames, filenames in os.walk(corpus):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "__pycache__")
        for name in sorted(filenames):
            if name.endswith(PY_EXTS + C_EXTS):
                rel = os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
                fixtures[rel] = parse_fixture(root, rel)
    return fixtures


def strict_rules(root):
    """Rule ids whose rules/<ID>.md front matter says `default: strict`."""
    rules_dir = os.path.join(root, "rules")
    found = {}
    try:
        names = sorted(os.listdir(rules_dir))
    except OSError:
        return set(FALLBACK_STRICT)
    for name in names:
        if not re.match(r"^CAN\d{3}\.md$", name):
            continue
        try:
            with open(os.path.join(rules_dir, name), encoding="utf-8") as fh:
                head = fh.read().split("\n---", 1)[0]
        except OSError:
            continue
        m = re.search(r"^default:\s*(\S+)", head, re.M)
        if m:
            found[name[:-3]] = m.group(1)
    if not found:
        return set(FALLBACK_STRICT)
    return {rule for rule, default in found.items() if default == "strict"}


# ------------------------------------------------------------------- scan

def run_scan(binary, root, paths, strict, verbose):
    cmd = [binary, "scan"] + list(paths) + ["--format", "json", "--no-db", "--no-progress"]
    if strict:
        cmd.append("--strict")
    if not os.path.exists(binary):
        raise RunError("analyzer not found: %s (set CANCELAUDIT)" % binary)
    try:
        proc = subprocess.run(cmd, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=SCAN_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RunError("cannot run %s: %s" % (" ".join(cmd), exc))
    stderr = proc.stderr.decode("utf-8", "replace")
    if proc.returncode not in (0, 1):
        raise RunError("%s exited with %d\n%s" % (" ".join(cmd), proc.returncode, stderr.rstrip()))
    if verbose and stderr.strip():
        print("scan stderr (%s):\n%s" % ("strict" if strict else "default", stderr.rstrip()))
    return decode_report(proc.stdout.decode("utf-8", "replace"), " ".join(cmd))


def load_json_file(path):
    try:
        with open(path, encoding="utf-8") as fh:
            return decode_report(fh.read(), path)
    except OSError as exc:
        raise RunError("cannot read %s: %s" % (path, exc))


def decode_report(text, origin):
    try:
        report = json.loads(text)
    except ValueError as exc:
        raise RunError("%s: output is not JSON: %s" % (origin, exc))
    if not isinstance(report, dict) or not isinstance(report.get("findings"), list):
        raise RunError("%s: no findings[] array in the JSON" % origin)
    scan = report.get("scan")
    if isinstance(scan, dict) and scan.get("errors"):
        print("note: %s reports scan errors: %s" % (origin, json.dumps(scan.get("errors"))))
    return report


def normalize_path(path, root):
    if not isinstance(path, str) or not path:
        return None
    if os.path.isabs(path):
        path = os.path.relpath(path, root)
    path = os.path.normpath(path).replace(os.sep, "/")
    return path


# ---------------------------------------------------------------- compare

def describe(f):
    where = "%s:%s" % (f.get("path"), f.get("line"))
    if f.get("column") is not None:
        where += ":%s" % f.get("column")
    bits = ["%s %s" % (where, f.get("rule"))]
    if f.get("function"):
        bits.append("in %s" % f["function"])
    if f.get("resource"):
        bits.append("resource `%s`" % f["resource"])
    text = " ".join(bits)
    if f.get("message"):
        text += ": %s" % f["message"]
    return text


class Tally:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def ok(self, verbose, text):
        self.passed += 1
        if verbose:
            print("ok          %s" % text)

    def fail(self, kind, text):
        self.failed += 1
        print("%-11s %s" % (kind, text))


def compare(label, report, fixtures, wanted, strict_set, root, tally, verbose):
    """Compare one pass. `wanted`: paths compared in this pass; in the
    default pass strict rules are not expected (strict_set is subtracted)."""
    expect, expect_supp = {}, {}
    for path in sorted(wanted):
        fx = fixtures[path]
        for line, rule in fx.expect:
            if label == "strict" or rule not in strict_set:
                expect[(path, line, rule)] = True
        for line, rule in fx.suppressed:
            if label == "strict" or rule not in strict_set:
                expect_supp[(path, line, rule)] = True

    live, muted = {}, {}
    seen = set()
    for f in report["findings"]:
        if not isinstance(f, dict):
            continue
        path = normalize_path(f.get("path"), root)
        rule = f.get("rule")
        line = f.get("line")
        if path not in wanted or not isinstance(rule, str) or not isinstance(line, int):
            continue
        # the same finding twice (same place, resource and message) is a
        # duplicate, whatever the markers say
        ident = (path, line, f.get("column"), rule, f.get("resource"), f.get("message"), f.get("suppressed"))
        if ident in seen:
            tally.fail("DUPLICATE", describe(dict(f, path=path)) + (" [strict]" if label != "default" else ""))
            continue
        seen.add(ident)
        if not fixtures[path].rule_ok(rule):
            continue
        f = dict(f, path=path)
        bucket = muted if f.get("suppressed") else live
        bucket.setdefault((path, line, rule), []).append(f)

    tag = "" if label == "default" else " [strict]"
    keys = sorted(set(expect) | set(expect_supp) | set(live) | set(muted))
    for key in keys:
        path, line, rule = key
        here = "%s:%d %s%s" % (path, line, rule, tag)
        if key in expect:
            if key in live:
                tally.ok(verbose, here)
            elif key in muted:
                tally.fail("MISSED", here + " (reported, but suppressed: %s)" % describe(muted[key][0]))
            else:
                tally.fail("MISSED", here)
        if key in expect_supp:
            if key in muted:
                tally.ok(verbose, here + " (suppressed)")
            elif key in live:
                tally.fail("NOT-SUPPRESSED", describe(live[key][0]) + tag)
            else:
                tally.fail("MISSED", here + " (expected suppressed)")
        if key in live and key not in expect and key not in expect_supp:
            for f in live[key][:1]:
                more = " (+%d more)" % (len(live[key]) - 1) if len(live[key]) > 1 else ""
                tally.fail("UNEXPECTED", describe(f) + more + tag)
        if key in muted and key not in expect and key not in expect_supp:
            tally.fail("UNEXPECTED", describe(muted[key][0]) + " (suppressed)" + tag)


# ------------------------------------------------------------------ stats

def function_spans(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8") as fh:
        tree = ast.parse(fh.read(), rel)
    spans = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            spans.append((node.lineno, node.end_lineno, isinstance(node, ast.AsyncFunctionDef)))
    return spans


def print_stats(root, fixtures):
    per_rule = {}
    for fx in fixtures.values():
        for _line, rule in fx.expect:
            per_rule[rule] = per_rule.get(rule, 0) + 1
        for _line, rule in fx.suppressed:
            per_rule[rule + " (suppressed)"] = per_rule.get(rule + " (suppressed)", 0) + 1
    print("markers per rule:")
    for rule in sorted(per_rule):
        print("  %-22s %d" % (rule, per_rule[rule]))
    print("  %-22s %d" % ("total", sum(per_rule.values())))
    total = marked = async_total = async_marked = 0
    for rel, fx in sorted(fixtures.items()):
        if not rel.endswith(PY_EXTS):
            continue
        lines = {ln for ln, _ in fx.expect} | {ln for ln, _ in fx.suppressed}
        for start, end, is_async in function_spans(root, rel):
            has = any(start <= ln <= end for ln in lines)
            total += 1
            marked += has
            async_total += is_async
            async_marked += is_async and has
    print("python functions: %d (%d async); with markers: %d (%d async); without: %d (%d async)"
          % (total, async_total, marked, async_marked, total - marked, async_total - async_marked))
    print("strict-mode files: %s" % (", ".join(sorted(p for p, f in fixtures.items() if f.strict)) or "none"))


# ------------------------------------------------------------------- main

def main(argv=None):
    ap = argparse.ArgumentParser(description="Check corpus findings against inline expectations.")
    ap.add_argument("--json", metavar="FILE", help="default pass: read this JSON instead of scanning")
    ap.add_argument("--strict-json", metavar="FILE", help="strict pass: read this JSON instead of scanning")
    ap.add_argument("--stats", action="store_true", help="print marker statistics and exit")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("prefixes", nargs="*", metavar="PREFIX")
    args = ap.parse_args(argv)

    root = os.path.abspath(os.environ.get("CA_SOURCE_DIR") or os.getcwd())
    binary = os.environ.get("CANCELAUDIT")
    binary = os.path.abspath(binary) if binary else os.path.join(root, "build", "cancelaudit")

    try:
        fixtures = collect_fixtures(root)
    except RunError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 2
    if args.stats:
        print_stats(root, fixtures)
        return 0

    prefixes = [p.rstrip("/") for p in args.prefixes]

    def selected(path):
        return not prefixes or any(path == p or path.startswith(p + "/") for p in prefixes)

    tally = Tally()
    strict_set = strict_rules(root)
    for path, fx in sorted(fixtures.items()):
        if not selected(path):
            continue
        for err in fx.errors:
            tally.fail("BAD-MARKER", "%s: %s" % (path, err))
        if not fx.strict:
            for line, rule in sorted(fx.expect | fx.suppressed):
                if rule in strict_set:
                    tally.fail("BAD-MARKER", "%s:%d: strict rule %s in a file without "
                               "'expect-mode: strict'" % (path, line, rule))

    wanted = {p for p in fixtures if selected(p)}
    strict_files = sorted(p for p in wanted if fixtures[p].strict)
    try:
        report = load_json_file(args.json) if args.json else run_scan(binary, root, ["corpus"], False, args.verbose)
        compare("default", report, fixtures, wanted, strict_set, root, tally, args.verbose)
        if strict_files:
            if args.strict_json:
                report = load_json_file(args.strict_json)
            elif args.json:
                report = None
                print("note: strict pass skipped (--json without --strict-json)")
            else:
                report = run_scan(binary, root, strict_files, True, args.verbose)
            if report is not None:
                compare("strict", report, fixtures, set(strict_files), strict_set, root, tally, args.verbose)
    except RunError as exc:
        print("error: %s" % exc, file=sys.stderr)
        print("%d passed, %d failed" % (tally.passed, tally.failed + 1))
        return 2

    print("%d passed, %d failed" % (tally.passed, tally.failed))
    return 0 if tally.failed == 0 else 1


def test_expectations():
    """Entry point for pytest-style collectors; skipped without a binary."""
    import unittest

    root = os.path.abspath(os.environ.get("CA_SOURCE_DIR") or os.getcwd())
    binary = os.environ.get("CANCELAUDIT") or os.path.join(root, "build", "cancelaudit")
    if not os.path.exists(binary):
        raise unittest.SkipTest("analyzer binary not built: %s" % binary)
    assert main([]) == 0


if __name__ == "__main__":
    sys.exit(main())
