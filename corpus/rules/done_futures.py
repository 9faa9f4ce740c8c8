"""An await of a future its maker completed before returning it does not suspend.

``bind`` is a plain function that makes a future, completes it itself
(``set_result`` or ``set_exception`` on each path) and returns it, handing it
nowhere else: ``await transport.bind(ep)`` gets a finished future and returns
at once, so no cancellation can land there. A maker that hands the future on
(``loop.call_soon(fut.set_result, ep)``: completed later, by the loop) makes
a real checkpoint.
"""

import asyncio
import socket
from typing import Any


class BindError(OSError):
    pass


class DatagramTransport:
    def __init__(self, sock: socket.socket, loop: asyncio.AbstractEventLoop) -> None:
        self._sock = sock
        self._loop = loop
        self._bound: set = set()

    def bind(self, endpoint: Any) -> "asyncio.Future[Any]":
        fut = self._loop.create_future()
        try:
            self._sock.bind(endpoint)
        except OSError as exc:
            fut.set_exception(BindError(str(exc)))
        else:
            self._bound.add(endpoint)
            fut.set_result(endpoint)
        return fut

    def bind_later(self, endpoint: Any) -> "asyncio.Future[Any]":
        fut = self._loop.create_future()
        self._sock.bind(endpoint)
        self._loop.call_soon(fut.set_result, endpoint)
        return fut


async def open_endpoint(endpoint: Any) -> DatagramTransport:
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    transport = DatagramTransport(sock, loop)
    try:
        await transport.bind(endpoint)
    except OSError:
        sock.close()
        raise
    return transport


async def open_endpoint_later(endpoint: Any) -> DatagramTransport:
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    transport = DatagramTransport(sock, loop)
    try:
        await transport.bind_later(endpoint)  # expect: CAN101
    except OSError:
        sock.close()
        raise
    return transport
