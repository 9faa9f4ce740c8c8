"""Headless Chromium for the HTML tests: load a local page with no network
and no profile, and return the DOM it built (--dump-dom), parsed with the
standard library's html.parser into a small element tree."""
import os
import shutil
import subprocess
import tempfile
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def find():
    for c in ("/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")):
        if c and os.path.exists(c):
            return c
    return None


def dump_dom(path):
    exe = find()
    if not exe:
        raise RuntimeError("chromium is not installed (scripts/bootstrap.sh installs it)")
    profile = tempfile.mkdtemp(prefix="ca-chromium-")
    try:
        p = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                            "--disable-background-networking", "--disable-component-update", "--disable-sync",
                            f"--user-data-dir={profile}", "--dump-dom", "file://" + os.path.abspath(path)],
                           capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    if p.returncode != 0 or "<html" not in p.stdout:
        raise RuntimeError(f"chromium exited {p.returncode}: {p.stderr[-1500:]}")
    return p.stdout


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children, self.text = [], []

    def classes(self):
        return (self.attrs.get("class") or "").split()

    def all_text(self):
        out, stack = [], [self]
        while stack:
            n = stack.pop()
            if isinstance(n, str):
                out.append(n)
            else:
                stack.extend(reversed(n.children))
        return "".join(out)

    def iter(self, tag=None):
        stack = [self]
        while stack:
            n = stack.pop()
            if isinstance(n, str):
                continue
            if tag is None or n.tag == tag:
                yield n
            stack.extend(reversed(n.children))


class _Builder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", [], None)
        self.cur = self.root

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.cur)
        self.cur.children.append(n)
        if tag not in VOID:
            self.cur = n

    def handle_endtag(self, tag):
        n = self.cur
        while n is not self.root and n.tag != tag:
            n = n.parent
        if n is not self.root:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.children.append(data)


def parse(html):
    b = _Builder()
    b.feed(html)
    b.close()
    return b.root
