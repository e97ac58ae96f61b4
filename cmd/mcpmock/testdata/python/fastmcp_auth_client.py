"""A client app on FastMCP's client (fastmcp 4.x) with OAuth, for
`mcpmock run --http --scenario auth/...`.

It connects to the URL given as its last argument with `fastmcp.Client(url,
auth=OAuth(...))` (the docs' way), lists the tools, calls suggest_gifts
{"age": 25} and closes. FastMCP's `OAuth` opens the authorization URL with
Python's `webbrowser` and waits for the redirect on its own loopback
callback server; here the browser is headless: registered with `webbrowser`
as the preferred one, it GETs the authorization URL without following the
redirect and delivers the redirect's Location to that callback server, as a
browser with a user who consents would. Pre-registered credentials come
from MCP_CONFORMANCE_CONTEXT (the official conformance suite's convention,
which mcpmock run follows); with "grant_type": "client_credentials" there,
the app is a machine-to-machine client (`ClientCredentialsOAuthProvider`).
Exit 0: the workflow succeeded; 1: it failed (the reason on stderr).

    mcpmock run --http --scenario auth/metadata-default -- python fastmcp_auth_client.py legacy

The first argument is `Client(mode=...)`: "legacy" (the handshake era) or
"auto" (server/discover first, the default).
"""

import json
import os
import sys
import threading
import time
import urllib.error
import urllib.request
import webbrowser

import anyio
from fastmcp import Client
from fastmcp.client.auth import ClientCredentialsOAuthProvider, OAuth

# The official suite's Client ID Metadata Document URL (scenarios.CIMDClientID):
# used as client_id where the server supports such documents.
CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json"


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """Leaves redirects to the caller."""

    def redirect_request(self, *args, **kwargs):
        return None


class HeadlessBrowser(webbrowser.BaseBrowser):
    """A browser whose user consents: it follows the authorization request's
    redirect to the app's callback listener, from a thread of its own, as a
    browser is a process of its own."""

    def open(self, url, new=0, autoraise=True):
        threading.Thread(target=self.consent, args=(url,), daemon=True).start()
        return True

    def consent(self, url: str) -> None:
        opener = urllib.request.build_opener(NoRedirect)
        try:
            opener.open(url)
            print("headless browser: the authorization request was not redirected", file=sys.stderr)
            return
        except urllib.error.HTTPError as res:
            location = res.headers.get("Location")
        if not location:
            print("headless browser: the redirect has no Location", file=sys.stderr)
            return
        # The callback listener starts once the browser was opened: a browser
        # would show "unable to connect" and the user would reload.
        for _ in range(100):
            try:
                urllib.request.urlopen(location).read()
                return
            except urllib.error.HTTPError:
                return  # the listener answered (an error page is its own business)
            except OSError:
                time.sleep(0.05)
        print(f"headless browser: nothing listens at {location}", file=sys.stderr)


def auth(url: str):
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    if context.get("grant_type") == "client_credentials":
        return ClientCredentialsOAuthProvider(url, client_id=context["client_id"], client_secret=context["client_secret"])
    return OAuth(
        url,
        client_name="fastmcp-oauth-app",
        callback_host="127.0.0.1",
        callback_timeout=10,
        client_metadata_url=CLIENT_METADATA_URL,
        client_id=context.get("client_id"),
        client_secret=context.get("client_secret"),
    )


async def main(mode: str, url: str) -> None:
    async with Client(url, name="fastmcp-oauth-app", auth=auth(url), mode=mode) as client:
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
    webbrowser.register("headless", None, HeadlessBrowser("headless"), preferred=True)
    mode = sys.argv[1] if len(sys.argv) > 2 else "auto"
    try:
        anyio.run(main, mode, sys.argv[-1])
    except BaseException as err:  # the app reports any failure and exits 1
        if not DONE:
            print(f"fastmcp-oauth-app: {reason(err)}", file=sys.stderr)
            sys.exit(1)
        # The work succeeded and closing failed: the app logs it and goes on,
        # as one that closes in a finally block with a try of its own does.
        print(f"fastmcp-oauth-app: closing: {reason(err)}", file=sys.stderr)
