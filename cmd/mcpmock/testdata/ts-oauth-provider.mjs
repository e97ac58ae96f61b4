// The headless OAuthClientProvider of the TypeScript SDK client apps
// (ts-auth-client.mjs, ts-suite-client.mjs): redirectToAuthorization GETs
// the authorization URL without following the redirect and keeps the code
// of its Location, as a browser and a loopback redirect listener would,
// refusing a response whose state is not the one sent. Pre-registered
// credentials come from MCP_CONFORMANCE_CONTEXT (client_id, client_secret),
// the official conformance suite's convention, which mcpmock run follows.
export const redirectUrl = "http://127.0.0.1:1/callback";

export class HeadlessProvider {
  // name is the client_name the app registers with.
  constructor(name, context) {
    this.name = name;
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
      client_name: this.name,
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
    this.iss = back.searchParams.get("iss") ?? undefined; // RFC 9207's, for a finishAuth that checks it
  }
}
