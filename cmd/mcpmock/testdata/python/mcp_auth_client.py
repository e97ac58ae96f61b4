"""A client app on the official Python SDK (mcp, 2.x) with OAuth, for
`mcpmock run --http --scenario auth/...`.

It connects to the URL given as its last argument through the SDK's
`streamable_http_client` with an `httpx2.AsyncClient` whose auth is the
SDK's `OAuthClientProvider` (the docs' way), lists the tools, calls
suggest_gifts {"age": 25} and closes. Headless: the redirect handler GETs
the authorization URL without following the redirect and keeps the code,
state and iss of its Location, as a browser and a loopback redirect
listener would; the callback handler hands them to the SDK, which checks
them. Pre-registered credentials come from MCP_CONFORMANCE_CONTEXT (the
official conformance suite's convention, which mcpmock run follows); with
"grant_type": "client_credentials" there, the app is a machine-to-machine
client (`ClientCredentialsOAuthProvider`). Exit 0: the workflow succeeded;
1: it failed (the reason on stderr).

    mcpmock run --http --scenario auth/metadata-default -- python mcp_auth_client.py legacy

The first argument is `Client(mode=...)`: "legacy" (the handshake era) or
"auto" (server/discover first, the SDK's default).
"""

import json
import os
import sys
from urllib.parse import parse_qs, urlsplit

import anyio
import httpx2
from mcp import Client
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider, TokenStorage
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken
from mcp_types import Implementation

REDIRECT_URL = "http://127.0.0.1:1/callback"
# The official suite's Client ID Metadata Document URL (scenarios.CIMDClientID):
# the SDK uses it as client_id where the server supports such documents.
CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json"


class MemoryStorage(TokenStorage):
    """Tokens and client information for the life of the app."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client_info: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client_info

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client_info = client_info


class HeadlessBrowser:
    """The user's browser and the app's redirect listener, without a user."""

    def __init__(self) -> None:
        self.result: AuthorizationCodeResult | None = None

    async def open(self, authorization_url: str) -> None:
        async with httpx2.AsyncClient() as http:
            res = await http.get(authorization_url, follow_redirects=False)
        location = res.headers.get("location")
        if not location:
            raise RuntimeError(f"authorize: {res.status_code} without Location")
        query = {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}
        if "error" in query:
            raise RuntimeError(f"authorize: {query['error']}")
        self.result = AuthorizationCodeResult(code=query["code"], state=query.get("state"), iss=query.get("iss"))

    async def callback(self) -> AuthorizationCodeResult:
        if self.result is None:
            raise RuntimeError("no authorization response: the browser was never opened")
        result, self.result = self.result, None
        return result


def provider(url: str) -> OAuthClientProvider:
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    storage = MemoryStorage()
    if context.get("grant_type") == "client_credentials":
        return ClientCredentialsOAuthProvider(
            server_url=url, storage=storage, client_id=context["client_id"], client_secret=context["client_secret"]
        )
    if context.get("client_id"):
        storage.client_info = OAuthClientInformationFull(
            client_id=context["client_id"],
            client_secret=context.get("client_secret"),
            redirect_uris=[REDIRECT_URL],
            token_endpoint_auth_method="client_secret_basic" if context.get("client_secret") else "none",
        )
    browser = HeadlessBrowser()
    return OAuthClientProvider(
        server_url=url,
        client_metadata=OAuthClientMetadata(
            client_name="py-sdk-oauth-app",
            redirect_uris=[REDIRECT_URL],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="none",
        ),
        storage=storage,
        redirect_handler=browser.open,
        callback_handler=browser.callback,
        client_metadata_url=CLIENT_METADATA_URL,
    )


async def main(mode: str, url: str) -> None:
    http = httpx2.AsyncClient(auth=provider(url), timeout=30.0)
    async with http, Client(
        streamable_http_client(url, http_client=http),
        mode=mode,
        client_info=Implementation(name="py-sdk-oauth-app", version="1.0.0"),
    ) as client:
        tools = await client.list_tools()
        print("tools: " + ", ".join(t.name for t in tools.tools), file=sys.stderr)
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
    mode = sys.argv[1] if len(sys.argv) > 2 else "auto"
    try:
        anyio.run(main, mode, sys.argv[-1])
    except BaseException as err:  # the app reports any failure and exits 1
        if not DONE:
            print(f"py-sdk-oauth-app: {reason(err)}", file=sys.stderr)
            sys.exit(1)
        # The work succeeded and closing failed: the app logs it and goes on,
        # as one that closes in a finally block with a try of its own does.
        print(f"py-sdk-oauth-app: closing: {reason(err)}", file=sys.stderr)
