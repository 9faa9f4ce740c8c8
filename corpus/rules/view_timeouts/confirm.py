"""A confirmation view that tidies up after itself on timeout."""

from typing import Any, Optional

import discord


class ConfirmView(discord.ui.View):
    def __init__(self, author_id: int) -> None:
        super().__init__(timeout=60.0)
        self.author_id = author_id
        self.message: Optional[Any] = None

    # Fine: run by discord.py as a task of its own.
    async def on_timeout(self) -> None:
        try:
            await self.message.edit(view=None)
        except:
            pass
