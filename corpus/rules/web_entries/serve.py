import asyncio
import functools

from .console import interact


class Monitor:
    def run(self, line):
        return line

    async def serve(self, host, port):
        server = await asyncio.start_server(functools.partial(interact, self), host, port)
        async with server:
            await server.serve_forever()
