"""A helper of the tree that hands back a resource together with plain data.

`response, request_id = await self._open_upstream(...)`: the helper's name
reads as a maker, so what it returns is a resource, but only the parts that
can hold one are. A part whose type in the helper's return annotation is a
scalar (`tuple[httpx.Response, str]`), or, with no annotation, a part every
return of the helper fills with a string, number or bool literal, is data:
nothing to release, never reported; so is a part every return fills with
what the caller handed in (a parameter, or an element of one the helper
loops over: the address it got through). The resource part still is.
"""

import asyncio
import uuid
from typing import Any, Optional, Tuple

import httpx


class UpstreamRelay:
    def __init__(self) -> None:
        self._client = httpx.AsyncClient(timeout=None)

    async def _open_upstream(self, request: Any, body: Any) -> tuple[httpx.Response, str]:
        request_id = request.headers.get("x-request-id") or f"relay-{uuid.uuid4()}"
        req = self._client.build_request("POST", "http://upstream/v1", headers={"x-request-id": request_id}, json=body)
        response = await self._client.send(req, stream=True)
        return response, request_id

    async def relay(self, request: Any, body: Any) -> Any:
        # Fine: request_id is a str; the response is closed in the finally.
        response, request_id = await self._open_upstream(request, body)
        try:
            data = await response.aread()
            return {"id": request_id, "data": data}
        finally:
            await response.aclose()

    async def relay_checked(self, request: Any, body: Any) -> Any:
        response, request_id = await self._open_upstream(request, body)
        try:
            # Buggy twin: the response is closed only on a non-cancel error.
            data = await response.aread()  # expect: CAN101
        except Exception:
            await response.aclose()
            raise
        await response.aclose()
        return request_id, data


async def _open_tagged(host: str, port: int) -> Tuple[Any, Optional[int]]:
    reader, writer = await asyncio.open_connection(host, port)
    return writer, None


async def _open_labelled(host: str, port: int):
    reader, writer = await asyncio.open_connection(host, port)
    if port == 443:
        return writer, "tls"
    return writer, "plain"


async def greet_tagged(host: str, port: int) -> Optional[int]:
    # Fine: the Optional[int] part is data; the writer is closed in the finally.
    writer, code = await _open_tagged(host, port)
    try:
        writer.write(b"hello")
        await writer.drain()
    finally:
        writer.close()
    return code


async def greet_labelled(host: str, port: int) -> str:
    # Fine: every return fills the second part with a string literal.
    writer, label = await _open_labelled(host, port)
    try:
        writer.write(b"hello")
        await writer.drain()
    finally:
        writer.close()
    return label


async def greet_labelled_late(host: str, port: int) -> None:
    writer, label = await _open_labelled(host, port)
    # Buggy twin: the writer sits across the drain before the try.
    writer.write(label.encode())
    await writer.drain()  # expect: CAN102
    try:
        await writer.wait_closed()
    finally:
        writer.close()


async def _resolve_peer(target: Any, **options: Any) -> Tuple[Optional[asyncio.StreamWriter], str, bool]:
    if isinstance(target, str):
        reader, writer = await asyncio.open_connection(target, 22, **options)
        owned = True
    else:
        writer = target
        owned = False
    return writer, "peer", owned


async def push_to_peers(targets: Any, payload: bytes, **options: Any) -> None:
    # Fine: the bool part says whether this call made the writer; it is
    # closed exactly when it did (a writer passed in stays the caller's).
    for target in targets:
        writer, label, owned = await _resolve_peer(target, **options)
        try:
            writer.write(payload)
            await writer.drain()
        finally:
            if owned:
                writer.close()


class HopDialer:
    def __init__(self, probe: Any) -> None:
        self.probe = probe
        self.last_hop = None

    async def _dial(self, hop: Any) -> Any:
        reader, writer = await asyncio.open_connection(hop.host, hop.port)
        return writer

    async def _connect_first(self, hops: list) -> Any:
        for hop in hops:
            try:
                writer = await self._dial(hop)
            except OSError:
                continue
            return writer, hop
        raise OSError("no hop answered")

    async def relay_via(self, hops: list, payload: bytes) -> None:
        # Fine: the hop is one of the caller's own hops, nothing the connect
        # made; the writer is closed in the finally.
        writer, hop = await self._connect_first(hops)
        try:
            await self.probe.note(hop)
            writer.write(payload)
            await writer.drain()
        finally:
            writer.close()
        self.last_hop = hop

    async def relay_via_late(self, hops: list, payload: bytes) -> None:
        writer, hop = await self._connect_first(hops)
        # Buggy twin: the writer sits across the probe before the try.
        await self.probe.note(hop)  # expect: CAN102
        try:
            writer.write(payload)
            await writer.drain()
        finally:
            writer.close()
        self.last_hop = hop
