"""httpx reads the whole body of a response that `AsyncClient.request`,
`get`, `post` and the other verbs return: its `aread()` hands back what it
already holds and does not suspend, so it is no window for the client made
just before (catalog nonsuspending-await, `maker.method(*).aread`). A
response opened with `send(..., stream=True)` has an unread body, and its
`aread()` is a real wait.
"""

import httpx


class BodyFetcher:
    def __init__(self, timeout: float) -> None:
        self._timeout = timeout

    # Fine: the body is read already; the next real await is the close.
    async def fetch(self, url: str) -> httpx.Response:
        client = httpx.AsyncClient(timeout=self._timeout)
        try:
            response = await client.request("GET", url)
        except BaseException:
            await client.aclose()
            raise
        await response.aread()
        await client.aclose()
        return response

    # Buggy twin: a streamed response's body is read over the network.
    async def fetch_streamed(self, url: str) -> httpx.Response:
        client = httpx.AsyncClient(timeout=self._timeout)
        try:
            response = await client.send(client.build_request("GET", url), stream=True)
        except BaseException:
            await client.aclose()
            raise
        await response.aread()  # expect: CAN102
        await client.aclose()
        return response
