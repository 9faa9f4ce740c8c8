"""Paginated menus, which the cog also closes itself on unload."""

from typing import Any, Optional

import discord


class MenuView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=180.0)
        self.message: Optional[Any] = None
        self.pages: list = []

    # Buggy twin: close_menus awaits it in place, in the unload's task.
    async def on_timeout(self) -> None:
        self.pages.clear()
        try:
            await self.message.delete()
        except:  # expect: CAN401
            pass


async def close_menus(menus: list) -> None:
    for menu in menus:
        await menu.on_timeout()
