"""What the Python client programs of the agreement runs share
(mcp_suite_client.py and fastmcp_suite_client.py, played by
.ci/agreement.sh): how an app acts per scenario, as the Go programs'
integration/clients/suiteapp and ts-suite-client.mjs do. Each program is
given the server URL as its last argument and the scenario's name in
MCP_CONFORMANCE_SCENARIO (pre-registered credentials and the tool calls to
make in MCP_CONFORMANCE_CONTEXT), by the official conformance suite's client
mode and by `mcpmock run --http` alike; it connects and calls through its
SDK, and asks this module only which calls to make and with what arguments.
"""

import json
import os
import sys
from typing import Any

# The whole run's limit, as the Go programs' context has.
TIMEOUT_SECONDS = 25


class Env:
    """What the runner gave the program."""

    def __init__(self) -> None:
        self.url = sys.argv[-1] if len(sys.argv) > 1 else ""
        if not self.url.startswith(("http://", "https://")):
            print("usage: <program> <server URL> (run me with mcpmock run --http or conformance client)", file=sys.stderr)
            sys.exit(2)
        self.scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
        try:
            self.context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
        except ValueError as err:
            print(f"MCP_CONFORMANCE_CONTEXT: {err}", file=sys.stderr)
            self.context = {}

    @property
    def auth(self) -> bool:
        """Whether the scenario is an authorization one."""
        return self.scenario.startswith("auth/")

    @property
    def list_only(self) -> bool:
        """initialize, request-metadata and json-schema-ref-no-deref ask for
        the tool listing alone (their servers answer no tools/call)."""
        return self.scenario in ("initialize", "request-metadata", "json-schema-ref-no-deref")

    @property
    def resources_and_prompts(self) -> bool:
        """http-standard-headers asks for each method's headers: the app also
        lists and reads the first resource and gets the first prompt."""
        return self.scenario == "http-standard-headers"

    def calls(self, tools: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
        """The tool calls (name, arguments) to make after the listing of
        tools (name, inputSchema as the app received it): those the context
        names; else suggest_gifts {"age": 25} when listed (GiftGen), with
        json_schema_echo beside it when listed too; else every listed tool,
        with arguments made from its inputSchema (json_schema_echo gets
        json_schema_2020_12_tool's inputSchema, else the other tool's,
        verbatim)."""
        if self.list_only:
            return []
        given = self.context.get("toolCalls") or []
        if given:
            return [(c["name"], c.get("arguments") or {}) for c in given]
        names = [n for n, _ in tools]
        if "suggest_gifts" in names:
            out = [("suggest_gifts", {"age": 25})]
            if "json_schema_echo" in names:
                out.append(("json_schema_echo", args_for("json_schema_echo", {}, tools)))
            return out
        return [(n, args_for(n, s, tools)) for n, s in tools]


def args_for(name: str, schema: dict[str, Any], tools: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """A tool's arguments: a value of each required property's type."""
    if name == "json_schema_echo":
        focal = next((s for n, s in tools if n == "json_schema_2020_12_tool"), None)
        if focal is None:
            focal = next((s for n, s in tools if n != name), {})
        return {"schema": focal}
    props = schema.get("properties") or {}
    args: dict[str, Any] = {}
    for req in schema.get("required") or []:
        typ = (props.get(req) or {}).get("type")
        if isinstance(typ, list):
            typ = typ[0] if typ else None
        args[req] = {"integer": 1, "number": 1, "boolean": True, "object": {}, "array": [], "null": None}.get(typ, "x")
    return args


def elicit_content(requested_schema: Any) -> dict[str, Any]:
    """The app's answer to elicitation/create (it accepts): {"confirmed":
    true} when the form asks for that field, else empty content."""
    props = (requested_schema or {}).get("properties") or {} if isinstance(requested_schema, dict) else {}
    return {"confirmed": True} if "confirmed" in props else {}


class Steps:
    """The app's steps, each logged to stderr; exit status 1 when one failed."""

    def __init__(self) -> None:
        self.failed: list[str] = []

    async def do(self, what: str, f) -> Any:
        try:
            res = await f()
        except Exception as err:  # a failed step is logged, and the app goes on
            print(f"{what}: {reason(err)}", file=sys.stderr)
            self.failed.append(what)
            return None
        print(f"{what}: ok", file=sys.stderr)
        return res


def reason(err: BaseException) -> str:
    """The failure's text: the errors inside anyio's exception groups, one by one."""
    if isinstance(err, BaseExceptionGroup):
        return "; ".join(reason(e) for e in err.exceptions)
    return f"{type(err).__name__}: {err}"


def run(name: str, main) -> None:
    """Runs the app's `async main(env, steps, done)` (done() once its
    work is over, before closing) within TIMEOUT_SECONDS and
    exits: 0 when every step succeeded, 1 when one failed or the app could
    not connect. A failure in closing, after the work was done, is logged
    only, as by an app that closes in a finally block with a try of its own."""
    import anyio

    env, steps = Env(), Steps()
    done = False

    async def wrapped() -> None:
        def mark() -> None:
            nonlocal done
            done = True

        with anyio.fail_after(TIMEOUT_SECONDS):
            await main(env, steps, mark)

    try:
        anyio.run(wrapped)
    except BaseException as err:  # the app reports any failure
        if not done:
            print(f"{name}: {reason(err)}", file=sys.stderr)
            sys.exit(1)
        print(f"{name}: closing: {reason(err)}", file=sys.stderr)
    sys.exit(1 if steps.failed else 0)
