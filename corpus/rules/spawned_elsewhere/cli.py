import asyncio
import sys

from .server_main import serve_forever


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8080
    asyncio.run(serve_forever(port))
