// A client app on the official TypeScript SDK (@modelcontextprotocol/sdk)
// that acts per scenario, for the agreement runs (.ci/agreement.sh): the
// same program is played by the official conformance suite's client mode
// (`conformance client --command "node ts-suite-client.mjs" --scenario X`)
// and by `mcpmock run --http --scenario X -- node ts-suite-client.mjs`.
// Both give the server URL as the last argument and the scenario's name in
// MCP_CONFORMANCE_SCENARIO (pre-registered credentials, tool calls to make,
// in MCP_CONFORMANCE_CONTEXT).
//
// What it does, written the way an app uses the SDK (no hand-made JSON):
// connect through StreamableHTTPClientTransport (with a headless
// OAuthClientProvider for auth/ scenarios, as ts-auth-client.mjs does),
// list the tools (in initialize, request-metadata and
// json-schema-ref-no-deref, nothing more), and call them:
//   - suggest_gifts {"age":25} when the server lists it (GiftGen), and
//     json_schema_echo beside it when listed too;
//   - otherwise every listed tool, with the arguments the context names for
//     it, else arguments made from its inputSchema's required properties;
//     json_schema_echo gets the inputSchema the app received for
//     json_schema_2020_12_tool (else the other tool), verbatim (the echo json-schema-2020-12-preservation asks for);
//   - in http-standard-headers also resources/list + read and prompts/list
//     + get of the first of each.
// It answers elicitation/create by accepting with empty content (the SDK
// applies the schema's defaults: elicitation.applyDefaults), or
// {"confirmed": true} where the schema has that field. Exit 0: every step
// succeeded; 1: one failed (the reasons on stderr).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { HeadlessProvider } from "./ts-oauth-provider.mjs";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const url = new URL(process.argv[process.argv.length - 1]);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO || "";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}");

const auth = scenario.startsWith("auth/");
const provider = auth ? new HeadlessProvider("ts-sdk-suite-app", context) : undefined;

function newClient() {
  const c = new Client(
    { name: "ts-sdk-suite-app", version: "1.0.0" },
    { capabilities: { elicitation: { form: { applyDefaults: true } } } },
  );
  c.setRequestHandler(ElicitRequestSchema, async (req) => {
    const props = req.params.requestedSchema?.properties || {};
    return { action: "accept", content: "confirmed" in props ? { confirmed: true } : {} };
  });
  return c;
}

let client;
async function connect() {
  client = newClient();
  const transport = new StreamableHTTPClientTransport(url, provider ? { authProvider: provider } : undefined);
  try {
    await client.connect(transport);
    return;
  } catch (err) {
    if (!provider || !(err instanceof UnauthorizedError) || !provider.code) throw err;
    console.error("authorized in the (headless) browser; finishing");
    await transport.finishAuth(provider.code);
  }
  client = newClient();
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
}

// argsFor makes a tool's arguments: the context's, else a value of each
// required property's type.
function argsFor(tool, tools) {
  const given = (context.toolCalls || []).find((c) => c.name === tool.name);
  if (given) return given.arguments;
  if (tool.name === "suggest_gifts") return { age: 25 };
  if (tool.name === "json_schema_echo") {
    const focal = tools.find((t) => t.name === "json_schema_2020_12_tool") || tools.find((t) => t.name !== tool.name);
    return { schema: focal ? focal.inputSchema : {} };
  }
  const schema = tool.inputSchema || {};
  const args = {};
  for (const name of schema.required || []) {
    const p = (schema.properties || {})[name] || {};
    const type = Array.isArray(p.type) ? p.type[0] : p.type;
    args[name] = { string: "x", integer: 1, number: 1, boolean: true, object: {}, array: [], null: null }[type] ?? "x";
  }
  return args;
}

const failures = [];
async function step(what, f) {
  try {
    const res = await f();
    if (res && res.isError) throw new Error(`isError: ${JSON.stringify(res.content)}`);
    console.error(`${what}: ok`);
  } catch (err) {
    console.error(`${what}: ${err && err.message ? err.message : err}`);
    failures.push(what);
  }
}

try {
  await connect();
  // Every page: follow nextCursor.
  const tools = [];
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  console.error(`tools: ${tools.map((t) => t.name).join(", ")}`);
  const gifts = tools.find((t) => t.name === "suggest_gifts");
  // initialize, request-metadata and json-schema-ref-no-deref ask for the
  // listing only (their servers answer no tools/call).
  const listOnly = ["initialize", "request-metadata", "json-schema-ref-no-deref"].includes(scenario);
  const calls = listOnly ? []
    : context.toolCalls && context.toolCalls.length
      ? context.toolCalls.map((c) => tools.find((t) => t.name === c.name) || { name: c.name })
      : gifts ? [gifts, ...tools.filter((t) => t.name === "json_schema_echo")] : tools;
  for (const tool of calls) {
    await step(`tools/call ${tool.name}`, () => client.callTool({ name: tool.name, arguments: argsFor(tool, tools) }));
  }
  if (scenario === "http-standard-headers") {
    const caps = client.getServerCapabilities() || {};
    if (caps.resources) {
      await step("resources", async () => {
        const { resources } = await client.listResources();
        if (resources.length) await client.readResource({ uri: resources[0].uri });
      });
    }
    if (caps.prompts) {
      await step("prompts", async () => {
        const { prompts } = await client.listPrompts();
        if (prompts.length) await client.getPrompt({ name: prompts[0].name, arguments: {} });
      });
    }
  }
} catch (err) {
  console.error(`ts-suite-client: ${err && err.message ? err.message : err}`);
  failures.push("connect");
} finally {
  try { await client.close(); } catch {}
}
process.exit(failures.length ? 1 : 0);
