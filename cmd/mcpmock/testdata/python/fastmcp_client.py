"""A client app on FastMCP's client (fastmcp 4.x), for `mcpmock run`.

Written the way FastMCP's docs tell an application to connect
(`fastmcp.Client` on a `StdioTransport` or a URL): connect, list the tools
(`Client.list_tools` fetches every page and stops at a cursor it has seen),
call suggest_gifts {"age": 25}, close. Over stdio it spawns the server
named in MCPMOCK_SERVER_ARGV; with `mcpmock run --http` it connects to the
URL given as its last argument. Its timeout is 70% of the scenario's
deadline (MCPMOCK_DEADLINE_MS), as an app with a request timeout has.
Exit 0: the workflow succeeded; 1: it failed (the reason on stderr).

    mcpmock run -- python fastmcp_client.py legacy   # the initialize handshake
    mcpmock run -- python fastmcp_client.py auto     # server/discover first (the default)

The first argument is the client's `Client(mode=...)`: "legacy" forces the
handshake era, "auto" (the default) probes server/discover and falls back to
initialize.
"""

import json
import os
import sys

import anyio
from fastmcp import Client
from fastmcp.client.transports import StdioTransport

DEADLINE = int(os.environ.get("MCPMOCK_DEADLINE_MS", "2000")) / 1000
# Leave room for the round trips before the call and for the cancellation.
TIMEOUT = max(0.1, DEADLINE * 0.7)


def transport() -> StdioTransport | str:
    """The server to connect to: the URL run --http appends, or the stdio command."""
    last = sys.argv[-1]
    if last.startswith(("http://", "https://")):
        return last
    argv = json.loads(os.environ.get("MCPMOCK_SERVER_ARGV") or "null")
    if not argv:
        raise RuntimeError("no server: MCPMOCK_SERVER_ARGV is not set (run me with mcpmock run)")
    return StdioTransport(command=argv[0], args=argv[1:])


async def main(mode: str) -> None:
    client = Client(transport(), name="fastmcp-app", timeout=TIMEOUT, mode=mode)
    async with client:
        tools = await client.list_tools()
        print("tools: " + ", ".join(t.name for t in tools), file=sys.stderr)
        # call_tool raises ToolError when the result is an error.
        res = await client.call_tool("suggest_gifts", {"age": 25})
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
            print(f"fastmcp-app: {reason(err)}", file=sys.stderr)
            sys.exit(1)
        # The work succeeded and closing failed: the app logs it and goes on,
        # as one that closes in a finally block with a try of its own does.
        print(f"fastmcp-app: closing: {reason(err)}", file=sys.stderr)
