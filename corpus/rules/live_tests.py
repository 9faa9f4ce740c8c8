"""A release under a test that the value still exists settles it either way.

``finally: if staging.exists(): shutil.rmtree(staging)``: where the test is
false there is nothing left to remove, so after the ``if`` the directory is
gone on both branches and a later await is no window of it (as ``if not
t.done(): t.cancel()`` settles a task). A release under a test of something
else (``if self._tidy:``) leaves the directory on the other branch, where
the function goes on to hand it over after an await.
"""

import shutil
import tempfile
from pathlib import Path
from typing import Any, List


class Capture:
    def __init__(self, tidy: bool) -> None:
        self._tidy = tidy
        self._kept: List[Path] = []

    async def capture(self, page: Any, root: str) -> Any:
        staging = Path(tempfile.mkdtemp(prefix="staging_", dir=root))
        try:
            await page.download_into(staging)
        finally:
            if staging.exists():
                shutil.rmtree(staging, ignore_errors=True)
        pages = await page.list_pages()
        self._kept.append(staging)
        return pages

    async def capture_tidy_only(self, page: Any, root: str) -> Any:
        staging = Path(tempfile.mkdtemp(prefix="staging_", dir=root))
        try:
            await page.download_into(staging)
        finally:
            if self._tidy:
                shutil.rmtree(staging, ignore_errors=True)
        pages = await page.list_pages()  # expect: CAN102
        self._kept.append(staging)
        return pages
