from aiohttp import web

from .backups import BackupsAPI


async def on_startup(app):
    await app["store"].open()


def register(app, store):
    api = BackupsAPI(store)
    app.on_startup.append(on_startup)
    app.add_routes([web.post("/backups/upload", api.upload)])
