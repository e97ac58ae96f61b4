// A client app on the official TypeScript SDK (@modelcontextprotocol/sdk)
// with OAuth, for `mcpmock run --http --scenario auth/...`: it connects to
// the URL given as its last argument through StreamableHTTPClientTransport
// with a headless OAuthClientProvider, calls suggest_gifts {"age":25} and
// closes. Headless: redirectToAuthorization GETs the authorization URL
// without following the redirect and keeps the code of its Location, as a
// browser and a loopback redirect listener would; the app then calls
// finishAuth and connects again, as the SDK asks. Pre-registered
// credentials come from MCP_CONFORMANCE_CONTEXT (the official conformance
// suite's convention, which mcpmock run follows). Exit 0: the workflow
// succeeded; 1: it failed (the reason on stderr). BUG_SDK=v2 runs the same
// app on @modelcontextprotocol/client (2.x), for the bug catalog's proofs.
import { HeadlessProvider } from "./ts-oauth-provider.mjs";

const v2 = process.env.BUG_SDK === "v2";
const { Client, StreamableHTTPClientTransport, UnauthorizedError } = v2
  ? await import("@modelcontextprotocol/client")
  : {
      ...(await import("@modelcontextprotocol/sdk/client/index.js")),
      ...(await import("@modelcontextprotocol/sdk/client/streamableHttp.js")),
      ...(await import("@modelcontextprotocol/sdk/client/auth.js")),
    };

// V2Provider keeps what discovery found across the redirect, which 2.x
// asks for to check the authorization response's iss against it (1.x
// would use it too, and its verdicts, those of check_node_clients, are
// without).
class V2Provider extends HeadlessProvider {
  saveDiscoveryState(state) { this.discovery = state; }
  discoveryState() { return this.discovery; }
}

const url = new URL(process.argv[process.argv.length - 1]);
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}");

const provider = v2 ? new V2Provider("ts-sdk-oauth-app", context) : new HeadlessProvider("ts-sdk-oauth-app", context);
let client;
async function connect() {
  client = new Client({ name: "ts-sdk-oauth-app", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
  try {
    await client.connect(transport);
    return;
  } catch (err) {
    if (!(err instanceof UnauthorizedError) || !provider.code) throw err;
    console.error("authorized in the (headless) browser; finishing");
    await transport.finishAuth(provider.code, provider.iss);
  }
  client = new Client({ name: "ts-sdk-oauth-app", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
}

let code = 0;
try {
  await connect();
  const res = await client.callTool({ name: "suggest_gifts", arguments: { age: 25 } });
  if (res.isError) throw new Error(`suggest_gifts failed: ${JSON.stringify(res.content)}`);
  console.error(`suggest_gifts: ${JSON.stringify(res.content)}`);
} catch (err) {
  console.error(`ts-auth-client: ${err && err.message ? err.message : err}`);
  code = 1;
} finally {
  try { await client.close(); } catch {}
}
process.exit(code);
