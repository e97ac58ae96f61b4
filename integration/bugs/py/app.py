"""A client app on the official Python SDK (mcp), for the bug catalog's
proofs by released versions (scenarios/bugs; .ci/python_clients.sh runs it
with `mcpmock run --bug ID` in a virtual environment of each release):
connect, list the tools, call suggest_gifts {"age": 25}, close.

It is written the way each release's docs tell an app to connect: on 2.x
`mcp.Client` (mode "legacy", the initialize handshake, which every release
speaks); on 1.x `stdio_client` or `streamablehttp_client` and a
`ClientSession`. Over stdio it spawns the server in MCPMOCK_SERVER_ARGV;
with --http it connects to the URL given as its last argument. Requests
time out at 70% of MCPMOCK_DEADLINE_MS. Exit 0: the work succeeded; 1: it
failed, the reason on stderr.

    BUG_RELIST=1: on notifications/tools/list_changed (through the
                  session's message_handler) the app lists the tools again
"""

import json
import os
import sys
from datetime import timedelta
from importlib.metadata import version

import anyio
import mcp

DEADLINE = int(os.environ.get("MCPMOCK_DEADLINE_MS", "2000")) / 1000
TIMEOUT = max(0.1, DEADLINE * 0.7)
RELIST = os.environ.get("BUG_RELIST") == "1"
V2 = hasattr(mcp, "Client")


def target():
    last = sys.argv[-1]
    if last.startswith("http://"):
        return last
    argv = json.loads(os.environ.get("MCPMOCK_SERVER_ARGV") or "null")
    if not argv:
        raise RuntimeError("no server: MCPMOCK_SERVER_ARGV is not set (run me with mcpmock run)")
    return mcp.StdioServerParameters(command=argv[0], args=argv[1:])


async def work(session, relisted: anyio.Event) -> None:
    tools = await session.list_tools()
    print("tools: " + ", ".join(t.name for t in tools.tools), file=sys.stderr)
    res = await session.call_tool("suggest_gifts", {"age": 25})
    print(f"suggest_gifts: {res.content}", file=sys.stderr)
    if RELIST:
        with anyio.move_on_after(TIMEOUT):
            await relisted.wait()


async def main() -> None:
    relisted = anyio.Event()
    session = None

    async def on_message(message) -> None:
        # The notification is delivered as a ServerNotification (its root on 1.x).
        inner = getattr(message, "root", message)
        if RELIST and getattr(inner, "method", None) == "notifications/tools/list_changed":
            print("tools/list_changed: listing again", file=sys.stderr)
            await session.list_tools()
            relisted.set()

    if V2:
        from mcp.client.stdio import stdio_client

        server = target()
        if not isinstance(server, str):
            server = stdio_client(server)  # Client takes StdioServerParameters itself only from 2.3.0 on
        client = mcp.Client(server, mode="legacy", read_timeout_seconds=TIMEOUT, message_handler=on_message)
        async with client:
            session = client
            await work(client, relisted)
        return

    from mcp import ClientSession

    server = target()
    if isinstance(server, str):
        from mcp.client.streamable_http import streamablehttp_client

        connection = streamablehttp_client(server)
    else:
        from mcp.client.stdio import stdio_client

        connection = stdio_client(server)
    async with connection as streams:
        read, write = streams[0], streams[1]
        async with ClientSession(read, write, read_timeout_seconds=timedelta(seconds=TIMEOUT), message_handler=on_message) as s:
            session = s
            with anyio.fail_after(TIMEOUT):
                await s.initialize()
            await work(s, relisted)


def reason(err: BaseException) -> str:
    if isinstance(err, BaseExceptionGroup):
        return "; ".join(reason(e) for e in err.exceptions)
    return f"{type(err).__name__}: {err}"


if __name__ == "__main__":
    try:
        anyio.run(main)
    except BaseException as err:  # the app reports any failure and exits 1
        print(f"bugs-py-app (mcp {version('mcp')}): {reason(err)}", file=sys.stderr)
        sys.exit(1)
