from typing import Any


class Driver:
    def __init__(self, http: Any) -> None:
        self.http = http
        self.session_id = None

    async def start_session(self) -> str:
        data = await self.http.post("/session")
        self.session_id = data["id"]
        return self.session_id

    async def tap(self, x: int, y: int, session_id: str) -> None:
        await self.http.post(f"/session/{session_id}/tap", {"x": x, "y": y})
