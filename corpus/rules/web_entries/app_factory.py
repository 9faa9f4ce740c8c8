import asyncio

from fastapi import FastAPI, APIRouter
from quart import Quart


async def _convert(path):
    proc = await asyncio.create_subprocess_exec("convert", path)
    await proc.wait()


# Fine: an application factory makes the FastAPI app and registers its
# routes inside the function; FastAPI runs each request in a task it never
# cancels when the client goes away, so nothing cancels the conversion its
# handler awaits, nor the swallow of the handler itself.
def create_app() -> FastAPI:
    app = FastAPI(title="convert")

    @app.post("/convert")
    async def convert_endpoint(path: str):
        await _convert(path)
        return {"ok": True}

    @app.get("/status")
    async def status_endpoint():
        try:
            await asyncio.sleep(0.1)
        except asyncio.CancelledError:
            return {"state": "gone"}
        return {"state": "idle"}

    return app


# Fine: a function handed the application (annotated) registers a route on
# it, with a local helper the route alone awaits.
def mount_thumbnails(app: FastAPI, root: str) -> None:
    async def _thumb(name):
        proc = await asyncio.create_subprocess_exec("thumb", root, name)
        await proc.wait()

    @app.post("/thumb")
    async def thumb_endpoint(name: str):
        await _thumb(name)


# Fine: a router made in the factory function.
def build_router() -> APIRouter:
    router = APIRouter()

    @router.put("/render")
    async def render_endpoint(path: str):
        proc = await asyncio.create_subprocess_exec("render", path)
        await proc.wait()

    return router


# Buggy: Quart cancels a request's handler when its client disconnects,
# however the application was made.
def create_quart_app() -> Quart:
    qapp = Quart(__name__)

    @qapp.route("/render")
    async def render_view():
        proc = await asyncio.create_subprocess_exec("render")
        await proc.wait()  # expect: CAN102
        return "done"

    return qapp


# Buggy: the local handler is also awaited by the function's own code, in
# a task it may cancel: not only the server runs it.
def create_app_with_warmup(loop) -> FastAPI:
    app = FastAPI()

    @app.post("/warm")
    async def warm_endpoint(path: str):
        proc = await asyncio.create_subprocess_exec("warm", path)
        await proc.wait()  # expect: CAN102

    task = loop.create_task(warm_endpoint("/"))
    task.cancel()
    return app


# Buggy: a decorator of something else that is not a server (a retry
# policy made locally) registers no request handler.
def make_worker(policy_factory):
    policy = policy_factory()

    @policy.wrap("/x")
    async def job(path: str):
        proc = await asyncio.create_subprocess_exec("job", path)
        await proc.wait()  # expect: CAN102

    return job


# Fine: the factory's lifespan names its own parameter `app` too, another
# variable: the routes are still the application's the factory makes.
def create_app_with_lifespan() -> FastAPI:
    async def lifespan(app: FastAPI):
        yield

    app = FastAPI(lifespan=lifespan)

    @app.post("/calls")
    async def calls_endpoint(path: str):
        proc = await asyncio.create_subprocess_exec("call", path)
        await proc.wait()

    return app


# Buggy: the name is bound twice in the factory, once to something else:
# which object decorates the handler is not known.
def create_app_twice(other_factory) -> FastAPI:
    app = FastAPI()
    app = other_factory(app)

    @app.post("/calls")
    async def calls_endpoint(path: str):
        proc = await asyncio.create_subprocess_exec("call", path)
        await proc.wait()  # expect: CAN102

    return app
