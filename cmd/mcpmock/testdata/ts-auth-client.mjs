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
const v2 = process.env.BUG_SDK === "v2";
const { Client, StreamableHTTPClientTransport, UnauthorizedError } = v2
  ? await import("@modelcontextprotocol/client")
  : {
      ...(await import("@modelcontextprotocol/sdk/client/index.js")),
      ...(await import("@modelcontextprotocol/sdk/client/streamableHttp.js")),
      ...(await import("@modelcontextprotocol/sdk/client/auth.js")),
    };

const url = new URL(process.argv[process.argv.length - 1]);
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}");
const redirectUrl = "http://127.0.0.1:1/callback";

class HeadlessProvider {
  constructor() {
    this.info = context.client_id
      ? { client_id: context.client_id, client_secret: context.client_secret }
      : undefined;
    this.code = undefined;
  }
  get redirectUrl() { return redirectUrl; }
  // The official suite's Client ID Metadata Document URL (scenarios.CIMDClientID):
  // the SDK uses it as client_id where the server supports such documents.
  get clientMetadataUrl() { return "https://conformance-test.local/client-metadata.json"; }
  get clientMetadata() {
    return {
      client_name: "ts-sdk-oauth-app",
      redirect_uris: [redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state() {
    this.sentState = crypto.randomUUID();
    return this.sentState;
  }
  clientInformation() { return this.info; }
  saveClientInformation(info) { this.info = info; }
  tokens() { return this.saved; }
  saveTokens(tokens) { this.saved = tokens; }
  saveCodeVerifier(v) { this.verifier = v; }
  codeVerifier() { return this.verifier; }
  async redirectToAuthorization(authorizationUrl) {
    const res = await fetch(authorizationUrl, { redirect: "manual" });
    const location = res.headers.get("location");
    if (!location) throw new Error(`authorize: ${res.status} without Location`);
    const back = new URL(location);
    if (back.searchParams.get("error")) throw new Error(`authorize: ${back.searchParams.get("error")}`);
    // The redirect handler's duty: a response to another request is dropped.
    if (back.searchParams.get("state") !== this.sentState) throw new Error("authorize: the state is not the one sent (CSRF?)");
    this.code = back.searchParams.get("code");
    this.iss = back.searchParams.get("iss") ?? undefined; // RFC 9207, which 2.x checks
  }
}
if (v2) {
  // 2.x keeps what discovery found across the redirect, to check the
  // authorization response's iss against it (1.x would use it too, and
  // its verdicts, those of check_node_clients, are without).
  HeadlessProvider.prototype.saveDiscoveryState = function (state) { this.discovery = state; };
  HeadlessProvider.prototype.discoveryState = function () { return this.discovery; };
}

const provider = new HeadlessProvider();
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
