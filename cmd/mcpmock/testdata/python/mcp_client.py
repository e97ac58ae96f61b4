"""A client app on the official Python SDK (mcp, 2.x), for `mcpmock run`.

Written the way the SDK's docs tell an application to connect (`mcp.Client`
on a `StdioServerParameters` or a URL): connect, list every page of the
tools, call suggest_gifts {"age": 25}, close. Over stdio it spawns the
server named in MCPMOCK_SERVER_ARGV; with `mcpmock run --http` it connects
to the URL given as its last argument. It gives up on a request when the
scenario's deadline (MCPMOCK_DEADLINE_MS) is near, as an app with a request
timeout does. Exit 0: the workflow succeeded; 1: it failed (the reason on
stderr).

    mcpmock run -- python mcp_client.py legacy   # the initialize handshake
    mcpmock run -- python mcp_client.py auto     # server/discover first (the default)

The first argument is the SDK's `Client(mode=...)`: "legacy" forces the
handshake era, "auto" (the SDK's default) probes server/discover and falls
back to initialize.
"""

import json
import os
import sys

import anyio
from mcp import Client, StdioServerParameters
from mcp_types import Implementation

DEADLINE = int(os.environ.get("MCPMOCK_DEADLINE_MS", "2000")) / 1000
# Leave room for the round trips before the call and for the cancellation.
TIMEOUT = max(0.1, DEADLINE * 0.7)


def server() -> StdioServerParameters | str:
    """The server to connect to: the URL run --http appends, or the stdio command."""
    last = sys.argv[-1]
    if last.startswith(("http://", "https://")):
        return last
    argv = json.loads(os.environ.get("MCPMOCK_SERVER_ARGV") or "null")
    if not argv:
        raise RuntimeError("no server: MCPMOCK_SERVER_ARGV is not set (run me with mcpmock run)")
    return StdioServerParameters(command=argv[0], args=argv[1:])


async def main(mode: str) -> None:
    client = Client(
        server(),
        mode=mode,
        read_timeout_seconds=TIMEOUT,
        client_info=Implementation(name="py-sdk-app", version="1.0.0"),
    )
    async with client:
        # Every page of the tools, as an app that shows them all does; a
        # cursor seen before means the server loops: stop there.
        tools, seen, cursor = [], set(), None
        while True:
            page = await client.list_tools(cursor=cursor)
            tools.extend(page.tools)
            cursor = page.next_cursor
            if cursor is None:
                break
            if cursor in seen:
                print(f"tools/list: the cursor {cursor!r} came back: the server's pages loop; stopping", file=sys.stderr)
                break
            seen.add(cursor)
        print("tools: " + ", ".join(t.name for t in tools), file=sys.stderr)
        res = await client.call_tool("suggest_gifts", {"age": 25})
        if res.is_error:
            raise RuntimeError(f"suggest_gifts failed: {res.content}")
        print(f"suggest_gifts: {res.content}", file=sys.stderr)
        global DONE
        DONE = True


# DONE is set once the work succeeded: a failure after it is in closing.
DONE = False


def reason(err: BaseException) -> str:
    """The failure's text: the errors inside anyio's exception groups, one by one."""
    if isinstance(err, BaseExceptionGroup):
        return "; ".join(reason(e) for e in err.exceptions)
    return f"{type(err).__name__}: {err}"


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("http") else "auto"
    try:
        anyio.run(main, mode)
    except BaseException as err:  # the app reports any failure and exits 1
        if not DONE:
            print(f"py-sdk-app: {reason(err)}", file=sys.stderr)
            sys.exit(1)
        # The work succeeded and closing failed: the app logs it and goes on,
        # as one that closes in a finally block with a try of its own does.
        print(f"py-sdk-app: closing: {reason(err)}", file=sys.stderr)
