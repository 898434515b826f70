"""`python -m api.mcp [--transport stdio|http] [--host H] [--port P]`: the MCP server.

stdio (default) is for an MCP client that starts the server itself; nothing but the protocol
is written to stdout (logs go to stderr, and while the server runs stdout is the client's).
http serves streamable HTTP at http://HOST:PORT/mcp, loopback by default, beyond loopback only
with API_TOKEN (exit status 2 otherwise).
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from api.mcp.front import Front

DEFAULT_MCP_PORT = 8601


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m api.mcp", description="Atlas Workbench MCP server"
    )
    parser.add_argument("--transport", choices=("stdio", "http"), default="stdio")
    parser.add_argument("--host", help="HTTP bind address (default API_HOST or 127.0.0.1)")
    parser.add_argument(
        "--port", type=int, default=DEFAULT_MCP_PORT, help="HTTP port (default 8601)"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")  # fmt: skip
    if args.transport == "stdio":  # the SDK loads while the front answers the handshake
        from api.mcp.front import serve_front

        front = serve_front()
        if front.eof and not front.pending:
            return 0  # the client went away; nothing left to answer
        if front.loader is not None:
            front.loader.join()  # the SDK, imported on the front's thread
        import anyio

        return anyio.run(_stdio, front)
    return _http(args)


def _http(args: argparse.Namespace) -> int:
    from api.config import ApiConfig, ApiConfigError, check_bind

    config = ApiConfig(**({"host": args.host} if args.host else {}), port=args.port)
    try:
        check_bind(config)
    except ApiConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    import uvicorn

    from api.mcp.server import McpApp
    from api.stores import Stores
    from data_access.config import get_settings

    mcp_app = McpApp(Stores.open(get_settings()))
    mcp_app.warm_up()
    print(f"Atlas Workbench MCP: http://{config.host}:{config.port}/mcp", file=sys.stderr)
    try:
        uvicorn.run(
            mcp_app.http_app(config), host=config.host, port=config.port, log_level="warning"
        )
    finally:
        mcp_app.close()
    return 0


async def _stdio(front: Front) -> int:
    """The SDK's server after the front (api.mcp.front): the session is given what the front
    answered, then reads stdin itself. The stores and the tools load on the first tools/list
    or tools/call (now, if the front listed them), in a worker thread, after the stdio
    transport owns stdout: an embedded server started then writes to stderr, never into the
    protocol stream."""
    from mcp.server.stdio import stdio_server

    from api.mcp.errors import KoreanWriteStream, ParseErrorReadStream
    from api.mcp.handover import DropReplayedWriteStream, ReplayedReadStream, replay_messages
    from api.mcp.server import McpApp

    async with stdio_server() as (read, write):
        mcp_app = McpApp()
        if front.listed:
            mcp_app.warm_up()  # the client listed the tools from the front: a call comes next
        korean = KoreanWriteStream(DropReplayedWriteStream(write))  # SDK errors in Korean
        reader = ParseErrorReadStream(ReplayedReadStream(read, replay_messages(front)), korean)
        try:
            await mcp_app.server.run(reader, korean,
                                     mcp_app.server.create_initialization_options())  # fmt: skip
        finally:
            mcp_app.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
