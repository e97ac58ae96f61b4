"""A client app on FastMCP's client (fastmcp 4.x) that acts per scenario,
for the agreement runs (.ci/agreement.sh): the official conformance suite's
client mode (`conformance client --command "python fastmcp_suite_client.py"
--scenario X`) and `mcpmock run --http --scenario X -- python
fastmcp_suite_client.py` play the same program, giving the server URL as
its last argument and the scenario's name in MCP_CONFORMANCE_SCENARIO.

Written the way FastMCP's docs tell an app to connect: `fastmcp.Client(url)`
in mode "auto" (the default: server/discover first, the initialize
handshake on a server that does not know it), for auth/ scenarios with
`auth=OAuth(...)` and its headless browser, as fastmcp_auth_client.py builds
them (a Client ID Metadata Document URL where the server supports them,
else dynamic registration, or the pre-registered client of
MCP_CONFORMANCE_CONTEXT). It lists the tools (`Client.list_tools` fetches
every page) and makes the calls suite_app.py says (in http-standard-headers
also the first resource and prompt), and answers elicitation/create by
accepting with the content suite_app.elicit_content gives. Exit 0: every
step succeeded; 1: one failed (the reasons on stderr).
"""

import sys
import webbrowser

from fastmcp import Client
from fastmcp.client.elicitation import ElicitResult

import suite_app
from fastmcp_auth_client import HeadlessBrowser, auth


async def elicit(_message, _response_type, params, _context) -> ElicitResult:
    return ElicitResult(action="accept", content=suite_app.elicit_content(getattr(params, "requested_schema", None)))


async def main(env: suite_app.Env, steps: suite_app.Steps, done) -> None:
    client = Client(
        env.url,
        name="fastmcp-suite-app",
        auth=auth(env.url) if env.auth else None,
        elicitation_handler=elicit,
    )
    async with client:
        await work(env, steps, client)
        done()


async def work(env: suite_app.Env, steps: suite_app.Steps, client: Client) -> None:
    async def list_tools() -> list[tuple[str, dict]]:
        return [(t.name, t.input_schema) for t in await client.list_tools()]

    tools = await steps.do("tools/list", list_tools) or []
    print("tools: " + ", ".join(n for n, _ in tools), file=sys.stderr)
    for name, args in env.calls(tools):

        async def call(name=name, args=args) -> None:
            # call_tool raises ToolError when the result is an error.
            await client.call_tool(name, args)

        await steps.do(f"tools/call {name}", call)
    if env.resources_and_prompts:
        caps = client.server_capabilities
        if caps is not None and caps.resources is not None:

            async def resources() -> None:
                res = await client.list_resources()
                if res:
                    await client.read_resource(res[0].uri)

            await steps.do("resources", resources)
        if caps is not None and caps.prompts is not None:

            async def prompts() -> None:
                res = await client.list_prompts()
                if res:
                    await client.get_prompt(res[0].name, {})

            await steps.do("prompts", prompts)


if __name__ == "__main__":
    webbrowser.register("headless", None, HeadlessBrowser("headless"), preferred=True)
    suite_app.run("fastmcp-suite-app", main)
