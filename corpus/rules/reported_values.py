"""A value a handler only reports is not one it cleans up.

Inside a handler or `finally`, a call that is handed a value usually
releases it (`client.delete(sandbox_id)`), which makes the value a
resource even when no catalog knows its maker. Logging, printing and
warnings only read their arguments: a handler that logs a thread's result
treats it as data.
"""

import asyncio
import logging

_log = logging.getLogger(__name__)


def probe_media(path):
    return "opus", 128


def open_device(path):
    return object()


class Prober:
    # Fine for CAN203: the thread's result is logged, never cleaned up. (The
    # catch-all does swallow a cancellation: rebinding the result in the
    # handler and returning it records nothing about the cancellation.)
    async def probe(self, path):
        loop = asyncio.get_running_loop()
        codec = bitrate = None
        try:
            codec, bitrate = await loop.run_in_executor(None, probe_media, path)
        except BaseException:  # expect: CAN401
            _log.exception("probe of %s failed", path)
            try:
                codec, bitrate = await loop.run_in_executor(None, probe_media, path + ".bak")
            except Exception:
                _log.warning("fallback failed")
            else:
                _log.debug("fallback found %s at %s", codec, bitrate)
        return codec, bitrate

    # Buggy: the device the thread opens is handed to cleanup in the
    # handler, so it is a resource, and a cancelled await drops it.
    async def attach(self, path, registry):
        loop = asyncio.get_running_loop()
        dev = await loop.run_in_executor(None, open_device, path)  # expect: CAN203
        try:
            await registry.add(dev)
        except BaseException:
            logging.info("attach of %s failed", dev)
            registry.discard(dev)
            raise
