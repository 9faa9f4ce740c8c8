import asyncio

from fastapi import APIRouter
from quart import Quart

router = APIRouter(prefix="/tools")
quart_app = Quart(__name__)


async def _run_probe(path):
    proc = await asyncio.create_subprocess_exec("probe", path)
    await proc.wait()


# Fine: FastAPI runs a route in the request's task and does not cancel it
# when the client goes away (add_api_route by its decorator name), so
# nothing cancels the probe it awaits.
@router.post("/probe")
async def probe(path: str):
    await _run_probe(path)
    return {"ok": True}


# Buggy: Quart cancels a request's handler when the client disconnects.
@quart_app.route("/scan")
async def scan():
    proc = await asyncio.create_subprocess_exec("scan")
    await proc.wait()  # expect: CAN102
    return "done"


async def _spool(path, data):
    f = await asyncio.to_thread(open, path, "wb")
    try:
        await asyncio.to_thread(f.write, data)
    finally:
        f.close()


# Fine: the worker thread's file is dropped only if the await is cancelled,
# and nothing cancels a FastAPI route.
@router.put("/file")
async def put_file(path: str, data: bytes):
    await _spool(path, data)


# Buggy: a Quart handler is cancelled when the client goes away, while the
# thread opens the file.
@quart_app.route("/upload", methods=["PUT"])
async def upload():
    f = await asyncio.to_thread(open, "/tmp/upload", "wb")  # expect: CAN203
    try:
        await asyncio.to_thread(f.write, b"x")
    finally:
        f.close()
