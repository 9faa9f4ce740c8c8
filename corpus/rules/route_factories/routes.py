"""Routes registered with handlers a factory of this module makes."""

from typing import Any

from .handlers import RelayHandler, SessionHandler


def ws_endpoint(manager: Any) -> Any:
    async def _endpoint(websocket: Any) -> None:
        await websocket.accept()
        async with SessionHandler(websocket) as handler:
            await handler.run()

    return _endpoint


def add_routes(app: Any, manager: Any) -> None:
    app.add_api_websocket_route("/ws", ws_endpoint(manager))


async def relay(websocket: Any) -> None:
    async with RelayHandler(websocket) as handler:
        await handler.run()
