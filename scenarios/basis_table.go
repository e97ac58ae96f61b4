package scenarios

// The spec's sentences are quoted as the spec renders them: markdown
// (bold, code, links, list markers, line breaks) stripped, the words and
// punctuation kept; "…" marks a cut. TestBasisQuotesTheSpec checks the
// quotes of the MCP versions against a checkout of the spec repository
// (MCPMOCK_SPEC_REPO); the RFC quotes are checked by hand.

// Sentences that more than one scenario rests on.
const (
	// initializedMUST is the handshake's last step (2025-11-25 lifecycle).
	initializedMUST = "After successful initialization, the client MUST send an initialized notification to indicate it is ready to begin normal operations"
	// negotiatedMUST is the operation phase's rule (2025-11-25 lifecycle).
	negotiatedMUST = "Both parties MUST: … Only use capabilities that were successfully negotiated"
	// prmDiscoveryMUST is where a client looks for the Protected Resource
	// Metadata (2025-11-25 authorization).
	prmDiscoveryMUST = "MCP clients MUST support both discovery mechanisms and use the resource metadata URL from the parsed WWW-Authenticate headers when present; otherwise, they MUST fall back to constructing and requesting the well-known URIs in the order listed above."
	// scopeOrderSHOULD is the scope selection (2025-11-25 authorization).
	scopeOrderSHOULD = "During the initial authorization handshake, MCP clients SHOULD follow this priority order for scope selection: … If scope is not available, use all scopes defined in scopes_supported from the Protected Resource Metadata document, omitting the scope parameter if scopes_supported is undefined."
	// respond401MUST is how a client meets a 401 (2025-11-25 authorization).
	respond401MUST = "MCP clients MUST be able to parse WWW-Authenticate headers and respond appropriately to HTTP 401 Unauthorized responses from the MCP server."
	// issValidationMUST is RFC 9207's check, made an MCP requirement
	// (2026-07-28 authorization).
	issValidationMUST = "On receiving the authorization response, MCP clients MUST apply the validation in RFC9207 Section 2.4 before transmitting the authorization code to any token endpoint"
	// tokenClientAuthMUST is RFC 6749 §3.2.1.
	tokenClientAuthMUST = "Confidential clients or other clients issued client credentials MUST authenticate with the authorization server … when making requests to the token endpoint."
)

// bases is the Basis of every scenario of the catalog, by name: the
// requirement on the client it checks, quoted from the spec, or the
// sentence a robustness scenario's server breaks.
func bases() map[string]Basis {
	return map[string]Basis{
		// ---- the healthy servers: the requirement they check ----
		"giftgen-handshake": {Keyword: "MUST", Sentence: initializedMUST, Version: "2025-11-25"},
		"giftgen-stateless": {Keyword: "MUST", Sentence: "Client requests carry the following io.modelcontextprotocol/* fields in _meta; fields marked as required MUST be included on every request.", Version: "2026-07-28"},

		// ---- the handshake and capability mistakes ----

		// Nothing asks a client to reject a malformed result; what the
		// server breaks is the shape of its answer (capabilities true).
		"initialize-result-malformed": {Sentence: "The server MUST respond with its own capabilities and information", Version: "2025-11-25"},
		// The check also wants the error to name the version: stricter
		// than the sentence, which asks only for the disconnect.
		"protocol-version-unknown": {Keyword: "SHOULD", Sentence: "If the client does not support the version in the server's response, it SHOULD disconnect.", Version: "2025-11-25"},
		// The server breaks "Servers that support tools MUST declare the
		// tools capability", but the check is on the client's own MUST.
		// 2026-07-28 has no counterpart of this sentence: a stateless client
		// that calls tools/list after a discover without tools breaks no
		// sentence of its version.
		"tools-capability-missing": {Keyword: "MUST", Sentence: negotiatedMUST, Version: "2025-11-25"},
		"undeclared-methods":       {Keyword: "MUST", Sentence: negotiatedMUST, Version: "2025-11-25"},
		"capabilities-per-session": {Keyword: "MUST", Sentence: negotiatedMUST, Version: "2025-11-25"},
		// The sentence names requests (and logging, which are
		// notifications); notifications/tools/list_changed before
		// notifications/initialized is outside what it allows. No sentence
		// asks the client to tolerate it.
		"notify-before-initialized": {Sentence: "The server SHOULD NOT send requests other than pings and logging before receiving the initialized notification.", Version: "2025-11-25"},
		// Re-listing after an unexpected -32602 is a MAY (2026-07-28
		// caching: "Clients MAY re-fetch before the TTL expires if they have
		// reason to believe the data has changed"); the server is the one
		// that broke a sentence.
		"tools-schema-changed-quietly": {Sentence: "When the list of available tools changes, servers that declared the listChanged capability SHOULD send a notification", Version: "2025-11-25"},
		"capabilities-lie":             {Sentence: "Servers that declare the tools capability MUST respond to tools/list requests with the set of tools currently available to the requesting client.", Version: "2026-07-28"},
		// server/discover leaves out the tools the server serves. The
		// stateless half of the check (no tools/list after such a discover)
		// is stricter than any 2026-07-28 sentence on the client.
		"capabilities-differ-by-era": {Sentence: "Servers that support tools MUST declare the tools capability", Version: "2026-07-28"},
		// The server makes no mistake (the schema: capabilities are "not a
		// closed set: any server can define its own, additional
		// capabilities"); no sentence says a client ignores keys it does not
		// know, so the check is the handshake it must complete anyway.
		"capabilities-unknown-keys": {Keyword: "MUST", Sentence: initializedMUST, Version: "2025-11-25"},
		// No sentence of 2025-11-25 asks a client to re-list after
		// notifications/tools/list_changed. The nearest is 2026-07-28's
		// caching: the notification makes the list stale, and a stale list
		// SHOULD be re-fetched "on next access". The check (a tools/list
		// within 2s, without a next access) is stricter than that.
		"tools-list-changed": {Keyword: "SHOULD", Sentence: "Once the TTL expires, the response is stale and the client SHOULD re-fetch on next access.", Version: "2026-07-28"},

		// ---- version negotiation and era detection ----
		"negotiate-older-version":   {Keyword: "MUST", Sentence: "Both parties MUST: Respect the negotiated protocol version", Version: "2025-11-25"},
		"negotiate-unknown-version": {Keyword: "SHOULD", Sentence: "The client SHOULD select a mutually supported version from the supported list and retry the request, or surface an error to the user if no compatible version exists.", Version: "2026-07-28"},
		// "not at all": a probe left unanswered. The check bounds the wait
		// by the scenario's deadline (10s); the spec says only "a
		// reasonable timeout".
		"discover-never-answered": {Keyword: "MUST NOT", Sentence: "The fallback MUST NOT be keyed to one specific error code: legacy servers respond to unknown pre-initialize requests with implementation-defined errors (commonly -32601 or -32602) or not at all.", Version: "2026-07-28"},
		// The stdio binding's steps ("the server is modern. Select a
		// mutually supported version from supportedVersions and continue")
		// carry no keyword; the nearest keyword is keeping the era once
		// determined. The handshake-only branch (stop after initialize is
		// rejected) rests on no sentence.
		"modern-only": {Keyword: "SHOULD", Sentence: "The era determination is a property of the server, not of an individual request. Clients SHOULD cache the result for the lifetime of the server process (stdio) or origin (HTTP)…", Version: "2026-07-28"},

		// ---- framing and failures in the middle of a call ----
		"stdout-banner": {Sentence: "The server MUST NOT write anything to its stdout that is not a valid MCP message.", Version: "2025-11-25"},
		"wrong-id-type": {Sentence: "Result responses MUST include the same ID as the request they correspond to.", Version: "2025-11-25"},
		// The server MAY close its output stream (lifecycle), but not with
		// a call pending: the call is never answered.
		"disconnect-mid-call": {Sentence: "When a rpc call is made, the Server MUST reply with a Response, except for in the case of Notifications.", Version: "JSON-RPC 2.0 §5"},
		// 2025-11-25's timeouts. Under 2026-07-28 over Streamable HTTP,
		// closing the response stream is the cancellation and "No
		// notifications/cancelled message is required or expected".
		"slow-tool-timeout": {Keyword: "SHOULD", Sentence: "When the request has not received a success or error response within the timeout period, the sender SHOULD issue a cancellation notification for that request and stop waiting for a response.", Version: "2025-11-25"},
		// The check also wants the call to complete; the spec obliges no
		// retry ("Servers MUST NOT assume that clients will fulfill the
		// inputRequests or retry the original request").
		"elicitation-round-trip": {Keyword: "MUST", Sentence: "If a client receives an InputRequiredResult that contains the inputRequests field, the client MUST construct the requested inputs before retrying the original request.", Version: "2026-07-28"},
		// The loop offers a nextCursor when no more results exist; the
		// sentence has no keyword, and none asks the client to stop.
		"looping-cursor": {Sentence: "Pagination starts when the server sends a response that includes: … An optional nextCursor field if more results exist", Version: "2025-11-25"},

		// ---- Streamable HTTP ----
		"http-session-expired": {Keyword: "MUST", Sentence: "When a client receives HTTP 404 in response to a request containing an MCP-Session-Id, it MUST start a new session by sending a new InitializeRequest without a session ID attached.", Version: "2025-11-25"},
		// A 503 HTML page is neither an SSE stream nor a JSON object. The
		// check also wants the session ended with DELETE, a SHOULD of its own
		// ("Clients that no longer need a particular session … SHOULD send
		// an HTTP DELETE").
		"http-error-page":     {Sentence: "If the input is a JSON-RPC request, the server MUST either return Content-Type: text/event-stream, to initiate an SSE stream, or Content-Type: application/json, to return one JSON object.", Version: "2025-11-25"},
		"http-stream-dropped": {Keyword: "SHOULD", Sentence: "If the client wishes to resume after a disconnection (whether due to network failure or server-initiated closure), it SHOULD issue an HTTP GET to the MCP endpoint, and include the Last-Event-ID header to indicate the last event ID it received.", Version: "2025-11-25"},
		// The server is one of 2024-11-05, and the fallback steps of the
		// backwards-compatibility section carry no keyword ("Clients wanting
		// to support older servers should: …"): robustness, quoting what
		// the server is not.
		"http-legacy-sse-only": {Sentence: "The server MUST provide a single HTTP endpoint path (hereafter referred to as the MCP endpoint) that supports both POST and GET methods.", Version: "2025-11-25"},

		// ---- authorization: discovery ----
		"auth/metadata-default": {Keyword: "MUST", Sentence: prmDiscoveryMUST, Version: "2025-11-25"},
		"auth/metadata-var1":    {Keyword: "MUST", Sentence: "For issuer URLs without path components (e.g., https://auth.example.com), clients MUST try: … OpenID Connect Discovery 1.0: https://auth.example.com/.well-known/openid-configuration", Version: "2025-11-25"},
		"auth/metadata-var2":    {Keyword: "MUST", Sentence: prmDiscoveryMUST, Version: "2025-11-25"},
		"auth/metadata-var3":    {Keyword: "MUST", Sentence: "For issuer URLs with path components (e.g., https://auth.example.com/tenant1), clients MUST try endpoints in the following priority order: … OpenID Connect Discovery 1.0 path appending: https://auth.example.com/tenant1/.well-known/openid-configuration", Version: "2025-11-25"},
		// A 2025-03-26 requirement: a client of 2025-06-18 or later that
		// dropped the older discovery breaks no sentence of its version.
		"auth/2025-03-26-oauth-metadata-backcompat": {Keyword: "MUST", Sentence: "MCP clients MUST follow the OAuth 2.0 Authorization Server Metadata protocol defined in RFC8414.", Version: "2025-03-26"},
		"auth/2025-03-26-oauth-endpoint-fallback":   {Keyword: "MUST", Sentence: "For servers that do not implement OAuth 2.0 Authorization Server Metadata, clients MUST use the following default endpoint paths relative to the authorization base URL", Version: "2025-03-26"},
		"auth/resource-mismatch":                    {Keyword: "MUST NOT", Sentence: "If these values are not identical, the data contained in the response MUST NOT be used.", Version: "RFC 9728 §3.3"},
		"auth/metadata-issuer-mismatch":             {Keyword: "MUST NOT", Sentence: "If these values are not identical, the data contained in the response MUST NOT be used.", Version: "RFC 8414 §3.3"},
		"auth/hard-www-authenticate":                {Keyword: "MUST", Sentence: respond401MUST, Version: "2025-11-25"},
		"auth/no-prm":                               {Sentence: "MCP servers MUST implement one of the following discovery mechanisms to provide authorization server location information to MCP clients", Version: "2025-11-25"},
		"auth/several-authorization-servers":        {Keyword: "MUST", Sentence: "Clients MUST maintain separate registration state (client credentials, tokens) per authorization server and MUST NOT assume that credentials valid for one authorization server will be accepted by another.", Version: "2026-07-28"},
		// The check wants a new registration there: a client with a
		// portable Client ID Metadata Document URL would not need one, but
		// this scenario's authorization servers do not offer that.
		"auth/authorization-server-migration": {Keyword: "MUST NOT", Sentence: "When the authorization server changes (detected via updated protected resource metadata), clients MUST NOT reuse client credentials from a different authorization server and MUST re-register with the new authorization server.", Version: "2026-07-28"},

		// ---- authorization: registration and the token endpoint ----

		// A client without Client ID Metadata Documents breaks another
		// SHOULD ("MCP clients and authorization servers SHOULD support
		// OAuth Client ID Metadata Documents").
		"auth/basic-cimd": {Keyword: "SHOULD", Sentence: "Clients supporting all options SHOULD follow the following priority order: … Use Client ID Metadata Documents if the Authorization Server indicates if the server supports it (via client_id_metadata_document_supported in OAuth Authorization Server Metadata)", Version: "2025-11-25"},
		// The check's other half, a token request authenticated with the
		// secret given, is RFC 6749 §3.2.1's MUST.
		"auth/pre-registration": {Keyword: "SHOULD", Sentence: "MCP clients SHOULD support an option for static client credentials such as those supplied by a preregistration flow.", Version: "2025-11-25"},
		// No sentence obliges a client to use the one method of
		// token_endpoint_auth_methods_supported (or the one its registration
		// was given): the checks are stricter than RFC 6749 §3.2.1, the
		// nearest requirement. Under -none the client is issued no
		// credentials, so the sentence does not reach it at all.
		"auth/token-endpoint-auth-basic": {Keyword: "MUST", Sentence: tokenClientAuthMUST, Version: "RFC 6749 §3.2.1"},
		"auth/token-endpoint-auth-post":  {Keyword: "MUST", Sentence: tokenClientAuthMUST, Version: "RFC 6749 §3.2.1"},
		"auth/token-endpoint-auth-none":  {Keyword: "MUST", Sentence: tokenClientAuthMUST, Version: "RFC 6749 §3.2.1"},
		// HTTP Basic in particular (the one method listed) is stricter than
		// the sentence.
		"auth/client-credentials-basic": {Keyword: "MUST", Sentence: "The client MUST authenticate with the authorization server as described in Section 3.2.1.", Version: "RFC 6749 §4.4.2"},
		// The subject is a client "that desire[s] refresh tokens".
		"auth/offline-access-scope": {Keyword: "SHOULD", Sentence: "MCP Clients that desire refresh tokens: … SHOULD include refresh_token in their grant_types client metadata", Version: "2026-07-28"},

		// ---- authorization: scopes ----
		"auth/scope-from-www-authenticate":  {Keyword: "SHOULD", Sentence: "During the initial authorization handshake, MCP clients SHOULD follow this priority order for scope selection: Use scope parameter from the initial WWW-Authenticate header in the 401 response, if provided", Version: "2025-11-25"},
		"auth/scope-from-scopes-supported":  {Keyword: "SHOULD", Sentence: scopeOrderSHOULD, Version: "2025-11-25"},
		"auth/scope-omitted-when-undefined": {Keyword: "SHOULD", Sentence: scopeOrderSHOULD, Version: "2025-11-25"},
		// The check also wants the union of the old and the new scopes:
		// 2026-07-28's step-up (its "When re-authorizing, clients SHOULD
		// include these scopes alongside any previously granted scopes");
		// under 2025-11-25 the scopes come from the challenge alone.
		"auth/scope-step-up":     {Keyword: "SHOULD", Sentence: "Clients acting on behalf of a user SHOULD attempt the step-up authorization flow.", Version: "2026-07-28"},
		"auth/scope-retry-limit": {Keyword: "SHOULD", Sentence: "Clients SHOULD implement retry limits and SHOULD track scope upgrade attempts to avoid repeated failures for the same resource and operation combination.", Version: "2025-11-25"},
		// The spec has no MUST NOT here: asking for offline_access is a MAY
		// when the authorization server lists it, and otherwise a scope
		// beyond what least privilege and the selection order ask for.
		"auth/offline-access-not-supported": {Keyword: "SHOULD", Sentence: "When implementing authorization flows, MCP clients SHOULD follow the principle of least privilege by requesting only the scopes necessary for their intended operations.", Version: "2026-07-28"},

		// ---- authorization: the authorization response and tokens ----
		"auth/iss-supported":         {Keyword: "MUST", Sentence: issValidationMUST, Version: "2026-07-28"},
		"auth/iss-not-advertised":    {Keyword: "MUST", Sentence: issValidationMUST, Version: "2026-07-28"},
		"auth/iss-supported-missing": {Keyword: "MUST", Sentence: issValidationMUST, Version: "2026-07-28"},
		"auth/iss-wrong-issuer":      {Keyword: "MUST", Sentence: issValidationMUST, Version: "2026-07-28"},
		"auth/iss-unexpected":        {Keyword: "MUST", Sentence: issValidationMUST, Version: "2026-07-28"},
		"auth/iss-normalized":        {Keyword: "MUST NOT", Sentence: "… clients MUST NOT apply scheme or host case folding, default-port elision, trailing-slash, or percent-encoding normalization … before comparison.", Version: "2026-07-28"},
		"auth/no-pkce-support":       {Keyword: "MUST", Sentence: "If code_challenge_methods_supported is absent, the authorization server does not support PKCE and MCP clients MUST refuse to proceed.", Version: "2025-11-25"},
		// MCP's own word is SHOULD (PKCE already binds the code to the
		// client); RFC 6749 §10.12's CSRF MUST can be met by PKCE.
		"auth/state-mismatch": {Keyword: "SHOULD", Sentence: "MCP clients SHOULD use and verify state parameters in the authorization code flow and discard any results that do not include or have a mismatch with the original state.", Version: "2025-11-25"},
		// "Respond appropriately" is read as: get a new token (a refresh,
		// or a new authorization) and retry, a few times at most.
		"auth/token-expired": {Keyword: "MUST", Sentence: respond401MUST, Version: "2025-11-25"},
		"auth/token-revoked": {Keyword: "MUST", Sentence: respond401MUST, Version: "2025-11-25"},
		// ---- the official suite's client scenarios (catalog_suite.go) ----
		"initialize": {Keyword: "MUST", Sentence: "The client MUST initiate this phase by sending an initialize request containing: Protocol version supported Client capabilities Client implementation information", Version: "2025-11-25"},
		// No sentence asks a client for arguments of the schema's types
		// (validating inputs is the server's MUST); the nearest requirement
		// on the client is to keep to the version's messages. The check is
		// the suite's (two numbers for add_numbers) and a result, nothing
		// stricter.
		"tools_call": {Keyword: "MUST", Sentence: "Both parties MUST: Respect the negotiated protocol version", Version: "2025-11-25"},
		// The sentence binds "clients that support defaults"; the check asks
		// every client that accepts the form for the five values.
		"elicitation-sep1034-client-defaults": {Keyword: "SHOULD", Sentence: "All primitive types support optional default values to provide sensible starting points. Clients that support defaults SHOULD pre-populate form fields with these values.", Version: "2025-11-25"},
		// The resumption itself is a SHOULD ("The client SHOULD then poll
		// the SSE stream by attempting to reconnect"); the wait is a MUST.
		"sse-retry":                     {Keyword: "MUST", Sentence: "The client MUST respect the retry field, waiting the given number of milliseconds before attempting to reconnect.", Version: "2025-11-25"},
		"request-metadata":              {Keyword: "MUST", Sentence: "Client requests carry the following io.modelcontextprotocol/* fields in _meta; fields marked as required MUST be included on every request.", Version: "2026-07-28"},
		"sep-2322-client-request-state": {Keyword: "MUST", Sentence: "If an InputRequiredResult contains the requestState field, the client MUST echo back the exact value of that field when retrying the original request.", Version: "2026-07-28"},
		"http-standard-headers":         {Keyword: "MUST", Sentence: "The client MUST include the request metadata headers", Version: "2026-07-28"},
		"http-custom-headers":           {Keyword: "MUST", Sentence: "When a server's tool definition includes x-mcp-header annotations, conforming clients MUST mirror the designated parameter values into HTTP headers.", Version: "2026-07-28"},
		"http-invalid-tool-headers":     {Keyword: "MUST", Sentence: "Clients using the Streamable HTTP transport MUST reject tool definitions where any x-mcp-header value violates these constraints. Rejection means the client MUST exclude the invalid tool from the result of tools/list.", Version: "2026-07-28"},
		"json-schema-ref-no-deref":      {Keyword: "MUST NOT", Sentence: "Implementations MUST NOT automatically dereference $ref values that resolve to a network URI.", Version: "2026-07-28"},
		// SEP-1613's and SEP-2106's keywords: a client that supports 2020-12
		// keeps them; the sentence is the support, the echo is the suite's
		// way to see it.
		"json-schema-2020-12-preservation": {Keyword: "MUST", Sentence: "Clients and servers MUST support JSON Schema 2020-12 for schemas without an explicit $schema field", Version: "2025-11-25"},
	}
}
