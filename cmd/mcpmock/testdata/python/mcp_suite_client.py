"""A client app on the official Python SDK (mcp, 2.x) that acts per
scenario, for the agreement runs (.ci/agreement.sh): the official
conformance suite's client mode (`conformance client --command "python
mcp_suite_client.py" --scenario X`) and `mcpmock run --http --scenario X --
python mcp_suite_client.py` play the same program, giving the server URL as
its last argument and the scenario's name in MCP_CONFORMANCE_SCENARIO.

Written the way the SDK's docs tell an app to connect (no hand-made JSON):
`mcp.Client` on the URL in mode "auto" (the SDK's default: server/discover
first, the initialize handshake on a server that does not know it); for
auth/ scenarios on `streamable_http_client` with an `httpx2.AsyncClient`
whose auth is the SDK's `OAuthClientProvider`, headless, as
mcp_auth_client.py builds it (a Client ID Metadata Document URL where the
server supports them, else dynamic registration, or the pre-registered
client of MCP_CONFORMANCE_CONTEXT). It lists every page of the tools and
makes the calls suite_app.py says (in http-standard-headers also the first
resource and prompt), and answers elicitation/create by accepting with the
content suite_app.elicit_content gives. Exit 0: every step succeeded; 1:
one failed (the reasons on stderr).
"""

import sys

import httpx2
import mcp_types as types
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import Implementation

import suite_app
from mcp_auth_client import provider


async def elicit(_context, params: types.ElicitRequestParams) -> types.ElicitResult:
    return types.ElicitResult(action="accept", content=suite_app.elicit_content(getattr(params, "requested_schema", None)))


async def main(env: suite_app.Env, steps: suite_app.Steps, done) -> None:
    server = env.url
    http = None
    if env.auth:
        http = httpx2.AsyncClient(auth=provider(env.url), timeout=30.0)
        server = streamable_http_client(env.url, http_client=http)
    client = Client(
        server,
        elicitation_callback=elicit,
        client_info=Implementation(name="py-sdk-suite-app", version="1.0.0"),
    )
    try:
        async with client:
            await work(env, steps, client)
            done()
    finally:
        if http is not None:
            await http.aclose()


async def work(env: suite_app.Env, steps: suite_app.Steps, client: Client) -> None:
    async def list_tools() -> list[tuple[str, dict]]:
        # Every page: follow next_cursor (stop at a cursor seen before).
        tools, seen, cursor = [], set(), None
        while True:
            page = await client.list_tools(cursor=cursor)
            tools.extend((t.name, t.input_schema) for t in page.tools)
            cursor = page.next_cursor
            if cursor is None or cursor in seen:
                return tools
            seen.add(cursor)

    tools = await steps.do("tools/list", list_tools) or []
    print("tools: " + ", ".join(n for n, _ in tools), file=sys.stderr)
    for name, args in env.calls(tools):

        async def call(name=name, args=args) -> None:
            res = await client.call_tool(name, args)
            if res.is_error:
                raise RuntimeError(f"the result is an error: {res.content}")

        await steps.do(f"tools/call {name}", call)
    if env.resources_and_prompts:
        caps = client.server_capabilities
        if caps.resources is not None:

            async def resources() -> None:
                res = await client.list_resources()
                if res.resources:
                    await client.read_resource(res.resources[0].uri)

            await steps.do("resources", resources)
        if caps.prompts is not None:

            async def prompts() -> None:
                res = await client.list_prompts()
                if res.prompts:
                    await client.get_prompt(res.prompts[0].name, {})

            await steps.do("prompts", prompts)


if __name__ == "__main__":
    suite_app.run("py-sdk-suite-app", main)
