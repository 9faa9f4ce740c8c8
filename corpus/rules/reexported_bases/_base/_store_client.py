from abc import ABC, abstractmethod


class StoreClient(ABC):
    """What every store client offers."""

    @abstractmethod
    async def get(self, key: str) -> object:
        """The value under key."""

    @abstractmethod
    async def purge(self) -> None:
        """Forget every value."""
