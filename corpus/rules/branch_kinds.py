"""A name bound on one branch to what a maker made (`dev = await
PlugDevice.connect(config)`) and on another to an object built in place
(`dev = device_class_for(kind)(host, config)`) names the same kind of thing
on both: the built device is a device too, and the update it gets before
its cleanup is entered is a window for it. Where no branch makes a
resource (a lookup, a record), the built object is known only by its
release, as any plain call result.
"""

from typing import Any, Dict

from plugs.device import PlugDevice, device_class_for, device_session


async def open_plug(host: str, kind: Any, config: Any) -> Dict[str, Any]:
    updated = False
    if kind is not None:
        dev = device_class_for(kind)(host, config=config)
    else:
        dev = await PlugDevice.connect(config=config)
        updated = True
    if not updated:
        await dev.update()  # expect: CAN102
    async with device_session(dev) as session:
        return {"host": dev.host, "state": await session.query(host)}


async def describe_plug(host: str, kind: Any, config: Any, catalog: Any) -> Dict[str, Any]:
    known = False
    if kind is not None:
        info = device_class_for(kind)(host, config=config)
    else:
        info = await catalog.lookup(host)
        known = True
    if not known:
        await catalog.refresh(host)
    return {"host": host, "info": info}
