class TradeStats:
    count: int = 0

    @classmethod
    async def create(cls, fills) -> "TradeStats":
        stats = cls()
        await stats._load(fills)
        return stats

    async def _load(self, fills):
        for fill in fills:
            self.count += fill.qty


class Workspace:
    def __init__(self, api, workspace_id):
        self._api = api
        self.workspace_id = workspace_id

    @classmethod
    async def create(cls, api, name) -> "Workspace":
        info = await api.post("/workspaces", json={"name": name})
        return cls(api, info["id"])

    async def close(self):
        await self._api.delete(f"/workspaces/{self.workspace_id}")
