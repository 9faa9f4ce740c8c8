"""Frame mixers whose loops a studio module runs as tasks, through an
application state object whose class nothing here names."""

import asyncio


class FrameMixer:
    # Fine: the studio keeps the task it starts on this loop (through
    # `app.state.mixer`, an object whose class the studio cannot name) and
    # cancels it; the handler is that task's own end.
    async def mix_frames(self, frames: asyncio.Queue) -> None:
        while True:
            try:
                frame = await frames.get()
                if frame is None:
                    break
                self.blend(frame)
            except asyncio.CancelledError:
                break

    # Buggy: started the same way, but also awaited in place by the
    # studio's replay, whose caller's cancellation it then swallows.
    async def mix_replay(self, frames: asyncio.Queue) -> None:
        while True:
            try:
                frame = await frames.get()
                self.blend(frame)
            except asyncio.CancelledError:  # expect: CAN401
                break

    # Buggy: started and forgotten, a task nothing keeps to cancel says
    # nothing of who else runs the method.
    async def mix_preview(self, frames: asyncio.Queue) -> None:
        while True:
            try:
                frame = await frames.get()
                self.blend(frame)
            except asyncio.CancelledError:  # expect: CAN401
                return

    def blend(self, frame: bytes) -> None:
        self.last = frame
