"""The main coroutine of a program another module runs.

`cli.py` has no coroutine of its own; it runs `serve_forever` with
`asyncio.run`, so the cancellation `serve_forever` ends quietly on is the
program's shutdown (^C). `serve_once`, of the same shape, is run by
nothing in the tree: a caller awaiting it loses its cancellation.
(corpus/rules/runner_tasks.py defines a serve_forever too: the call in
cli.py resolves through the module it names, `server_main`.)
"""
import asyncio


async def serve_forever(port):
    server = await asyncio.start_server(lambda r, w: None, port=port)
    try:
        await server.serve_forever()
    except asyncio.CancelledError:
        print("shutting down")
    finally:
        server.close()


async def serve_once(port):
    server = await asyncio.start_server(lambda r, w: None, port=port)
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:  # expect: CAN401
        print("stopped early")
    finally:
        server.close()
