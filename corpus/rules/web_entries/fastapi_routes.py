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
