#!/usr/bin/env python3
"""`cancelaudit diff OLD NEW`: findings matched by fingerprint.

1. Fingerprints survive line shifts and unrelated edits: a copy of the
   harbor provider is scanned, blank lines are inserted above and inside the
   leaking methods and a neighbouring method is renamed (exec → run_command),
   it is scanned again: 0 new, 0 fixed, every finding unchanged; exit 0.
2. A new leak shows as new (exit 1, text and JSON agree); a fixed one as
   fixed (exit 0).
3. Unknown scan ids exit 2; `latest` names the newest complete scan.
"""
import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reportkit as kit  # noqa: E402

check = kit.Checks("diff")


def diff(db, cwd, old, new, ok=(0, 1), fmt="json"):
    p = kit.run(["diff", "--db", str(db), "--format", fmt, str(old), str(new)], cwd=cwd, ok=ok)
    return p, (json.loads(p.stdout) if fmt == "json" and p.stdout else None)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "providers" / "harbor"
        shutil.copytree(kit.SRC / kit.PROVIDERS / "harbor", tree)
        src = tree / "provider.py"
        db = Path(tmp) / "audit.db"
        kit.scan(db, paths=("providers",), cwd=tmp)

        # 1. shift lines and rename a neighbour
        text = src.read_text()
        shifted = text.replace("class HarborProvider:", "\n\n\nclass HarborProvider:", 1)
        shifted = shifted.replace("        ws = await self._http.ws_connect",
                                  "\n\n        ws = await self._http.ws_connect", 1)
        shifted = shifted.replace("        await entry.ws.send_json({\"type\": \"exit\"})",
                                  "\n        await entry.ws.send_json({\"type\": \"exit\"})", 1)
        shifted = shifted.replace("async def exec(self, cmd: str)", "async def run_command(self, cmd: str)", 1)
        check(shifted != text and shifted.count("\n") >= text.count("\n") + 6, "the edit did not apply")
        src.write_text(shifted)
        kit.scan(db, paths=("providers",), cwd=tmp)
        p, d = diff(db, tmp, 1, 2, ok=(0,))
        check(d["summary"]["new"] == 0 and d["summary"]["fixed"] == 0,
              f"line shifts and a rename changed fingerprints: {d['summary']}")
        # harbor's ws and reader leak in one window (one finding), its registry teardown in another
        check(d["summary"]["unchanged"] >= 2, f"unchanged {d['summary']['unchanged']} (harbor has 2 findings)")
        lines = {f["resource"]: f["line"] for f in d["unchanged"]}
        check(lines.get("ws", 0) > 55, f"the unchanged list shows the new scan's lines: {lines}")
        p, _ = diff(db, tmp, 1, "latest", ok=(0,), fmt="text")
        check(p.stdout.startswith("old scan -> new scan: 0 new, 0 fixed, "), f"text diff: {p.stdout[:200]!r}")

        # 2. a new leak, then a fix
        leak = ("\n    async def attach_log(self, session_id: str) -> None:\n"
                "        task = asyncio.create_task(self._pump_frames(session_id, None))\n"
                "        await asyncio.sleep(0)\n"
                "        self._sessions[session_id].output.append(str(task))\n")
        src.write_text(shifted + leak)
        kit.scan(db, paths=("providers",), cwd=tmp)
        p, d = diff(db, tmp, 2, 3, ok=(1,))
        check(d["summary"]["new"] >= 1 and d["summary"]["fixed"] == 0, f"new leak: {d['summary']}")
        check(all(f["function"] == "HarborProvider.attach_log" for f in d["new"]), f"new: {d['new']}")
        p, _ = diff(db, tmp, 2, 3, ok=(1,), fmt="text")
        check("\nnew:\n" in p.stdout and "attach_log" not in p.stdout.split("\nnew:\n")[0],
              f"text diff of a new leak: {p.stdout[:300]!r}")
        src.write_text(shifted.replace("        except Exception:\n            reader.cancel()",
                                       "        except BaseException:\n            reader.cancel()", 1))
        kit.scan(db, paths=("providers",), cwd=tmp)
        p, d = diff(db, tmp, 3, 4, ok=(0,))
        fixed = sorted((f["rule"], r) for f in d["fixed"] for r in f["resources"])
        check(("CAN101", "reader") in fixed and ("CAN101", "ws") in fixed, f"fixed: {fixed}")
        check(d["summary"]["new"] == 0, f"a fix shows new findings: {d['new']}")

        # 3. unknown ids
        for args in (["1", "99"], ["99", "1"], ["0", "1"], ["x", "1"]):
            p = kit.run(["diff", "--db", str(db), *args], cwd=tmp, ok=(2,))
            check(p.stdout == "", f"diff {args} printed {p.stdout!r}")
        kit.run(["diff", "--db", str(db), "1"], cwd=tmp, ok=(2,))
        kit.run(["diff", "--db", str(Path(tmp) / "none.db"), "1", "2"], cwd=tmp, ok=(2,))
        check(not (Path(tmp) / "none.db").exists(), "diff created a database")
    return check.done()


if __name__ == "__main__":
    sys.exit(main())
