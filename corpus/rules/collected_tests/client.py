"""A library function its tests call: still the library's API.

`connect_probe` is awaited in the tree only by a test (suite.py), but it is
the library's public code, which its users may await under a timeout: the
child left across its sleep is judged as anywhere else.
"""
import asyncio


async def connect_probe(host):
    proc = await asyncio.create_subprocess_exec("probe", host)
    await asyncio.sleep(0.2)  # expect: CAN102
    proc.kill()
