package mcptest

import (
	"maps"
	"slices"
	"strings"

	"github.com/mcpmock/mcpmock/internal/spec"
)

// Rule is one client check of the mock: what the spec asks of a client,
// where it says so, and how the mock reports a client that does not do it.
// Rules returns them all; each Violation names one by its ID.
type Rule struct {
	// ID is the stable name tests give ExpectViolation, e.g. ruleInitializeFirst.
	ID RuleID
	// Spec is the address of the sentence the rule enforces: the page and
	// anchor of the protocol version that states it (or of JSON-RPC 2.0 or
	// an RFC, for the rules MCP inherits).
	Spec string
	// Keyword is that sentence's keyword: "MUST", "MUST NOT", "SHOULD" or
	// "SHOULD NOT".
	Keyword string
	// Severity follows from Keyword: a MUST or MUST NOT fails the test, a
	// SHOULD or SHOULD NOT is a warning. A MUST is reported as a warning
	// only when Softened says why.
	Severity Severity
	// Softened says why a MUST is reported as a warning ("" for the
	// others): the sentence binds the server, or the mock is as lenient as
	// servers are.
	Softened string
	// SoftIn lists the versions whose spec states the rule with SHOULD
	// instead of Keyword: there a violation is a warning.
	SoftIn []string
	// Versions are the protocol versions whose spec states the rule. A
	// violation in a session of an era none of them belongs to, or in a
	// session that negotiated a version not among them, is not recorded.
	Versions []string
	// Transport is "any", "stdio" (also the in-memory pipe, which stands for
	// it) or "http": where the rule applies.
	Transport string
	// OncePerSession says the rule is reported at most once per session.
	OncePerSession bool
	// Summary says in one line what a client does to keep the rule.
	Summary string
	// Reply is how the mock answers the offending message.
	Reply string
	// SpecIn gives the address of the sentence in the versions whose spec
	// states it on another page than Spec (the authorization pages were
	// split in 2026-07-28), keyed by version.
	SpecIn map[string]string
}

// The transports a Rule applies to.
const (
	transportAny   = "any"
	transportStdio = "stdio"
	transportHTTP  = "http"
)

// Version sets of the rule table, read from the protocol's (internal/spec).
var (
	vAll       = spec.All.List()
	vHandshake = spec.Handshake.List()
	vStateless = spec.Stateless.List()
	vEarly     = spec.Of(spec.V20241105, spec.V20250326).List() // "Both parties SHOULD" where later versions say MUST
	vStreamHS  = (spec.Since(spec.V20250326) & spec.Handshake).List()
	vStreamAll = spec.Since(spec.V20250326).List()
	vElicit    = spec.Since(spec.V20250618).List()
)

// mcpSpec returns the address of a page (and anchor) of a version of the spec.
func mcpSpec(version, page string) string {
	return "https://modelcontextprotocol.io/specification/" + version + "/" + page
}

// The address of JSON-RPC 2.0, and the versions most rules cite: the
// newest of each era.
const (
	jsonrpcSpec   = "https://www.jsonrpc.org/specification"
	specLatestHS  = spec.V20251125
	specStateless = spec.V20260728
)

// ruleTable is every client check, one row each. To add a rule: declare
// its RuleID, add its row here (the address and keyword of the spec
// sentence it enforces, the versions whose spec states it, the transport,
// whether it is reported once per session, a one-line summary and the
// reply; Severity is derived from Keyword, and a MUST that must not fail
// a test says why in Softened), and raise it with
// s.violate(rule, message, detail) where the processing decides the
// reply. Everything else follows from the row: Rules, LookupRule,
// ExpectViolation's did-you-mean, violate's severity, era and transport
// gating and once per session, Violation.URL, `mcpmock list --rules`, and
// the rule list of docs/rules.md (go test ./mcptest -run TestRulesDoc
// -update rewrites it). TestRuleTable checks every row; TestEveryRuleHasACase
// wants a client that breaks the rule.
var ruleTable = []Rule{
	{ID: ruleParseError, Spec: mcpSpec(specLatestHS, "basic/index#messages"), Keyword: "MUST", Versions: vAll, Transport: transportAny,
		Summary: "send valid JSON (messages MUST follow JSON-RPC 2.0)", Reply: "-32700, id null"},
	{ID: ruleInvalidRequest, Spec: mcpSpec(specLatestHS, "basic/index#messages"), Keyword: "MUST", Versions: vAll, Transport: transportAny,
		Summary: "send request, notification or response objects (batches only in 2024-11-05 and 2025-03-26; nesting at most 1000 deep)", Reply: "-32600"},
	{ID: ruleJSONRPCVersion, Spec: jsonrpcSpec + "#request_object", Keyword: "MUST", Versions: vAll, Transport: transportAny,
		Summary: `send "jsonrpc": "2.0" (JSON-RPC 2.0: MUST be exactly "2.0")`, Reply: "-32600"},
	{ID: ruleIDType, Spec: mcpSpec(specLatestHS, "basic/index#requests"), Keyword: "MUST", Versions: vAll, Transport: transportAny,
		Summary: "give a request a string or integer id, never null", Reply: "-32600"},
	{ID: ruleIDUnique, Spec: mcpSpec(specLatestHS, "basic/index#requests"), Keyword: "MUST NOT", Versions: vHandshake, Transport: transportAny,
		Summary: "not reuse a request id within the session (2026-07-28 asks only that it not match a request still in flight)", Reply: "answered"},
	{ID: ruleIDPrecision, Spec: "https://www.rfc-editor.org/rfc/rfc7493#section-2.2", Keyword: "SHOULD NOT", Versions: vAll, Transport: transportAny,
		Summary: "keep integer ids within ±(2^53−1), which JavaScript peers hold exactly (I-JSON)", Reply: "answered"},
	{ID: ruleMethodNotFound, Spec: mcpSpec(specLatestHS, "basic/lifecycle#operation"), Keyword: "MUST", SoftIn: vEarly, Versions: vAll, Transport: transportAny,
		Summary: "call only methods of the negotiated protocol version (respect the negotiated version)", Reply: "-32601"},
	{ID: ruleInvalidParams, Spec: jsonrpcSpec + "#parameter_structures", Keyword: "MUST", Versions: vAll, Transport: transportAny,
		Summary: "send params as an object, well formed for the method (the schema is the source of truth)", Reply: "-32602"},
	{ID: ruleUnexpectedResponse, Spec: mcpSpec(specLatestHS, "basic/index#result-responses"), Keyword: "MUST", Versions: vAll, Transport: transportAny,
		Summary: "answer only pending requests of the server, each once, with the id of the request", Reply: "—"},
	{ID: ruleServerRequestUnanswered, Spec: jsonrpcSpec + "#response_object", Keyword: "MUST", Versions: vAll, Transport: transportAny,
		Summary: "answer every request of the server (ping, roots, sampling, elicitation) before its deadline or the session's end", Reply: "—"},

	{ID: ruleInitializeFirst, Spec: mcpSpec(specLatestHS, "basic/lifecycle#initialization"), Keyword: "MUST", Versions: vHandshake, Transport: transportAny,
		Summary: "start with initialize (the initialization phase MUST be the first interaction; only ping before it)", Reply: "answered"},
	{ID: ruleInitializeParams, Spec: mcpSpec(specLatestHS, "basic/lifecycle#initialization"), Keyword: "MUST", Versions: vHandshake, Transport: transportAny,
		Summary: "send protocolVersion, capabilities and clientInfo {name, version} in initialize", Reply: "-32602 if no version"},
	{ID: ruleInitializeOnce, Spec: mcpSpec(specLatestHS, "basic/lifecycle#initialization"), Keyword: "MUST", Versions: vHandshake, Transport: transportAny,
		Summary: "initialize once per session (the initialization phase is the first interaction, not a later one)", Reply: "answered"},
	{ID: ruleInitializedFirst, Spec: mcpSpec(specLatestHS, "basic/lifecycle#initialization"), Keyword: "MUST", Versions: vHandshake, Transport: transportAny,
		Summary: "send notifications/initialized, which says it is ready for normal operations, before any request but ping", Reply: "answered"},
	{ID: ruleInitializeNotBatched, Spec: mcpSpec("2025-03-26", "basic/lifecycle#initialization"), Keyword: "MUST NOT", Versions: []string{"2025-03-26"}, Transport: transportAny,
		Summary: "send initialize alone, never in a JSON-RPC batch", Reply: "answered"},
	{ID: ruleCancelInitialize, Spec: mcpSpec(specLatestHS, "basic/utilities/cancellation#behavior-requirements"), Keyword: "MUST NOT", Versions: vHandshake, Transport: transportAny,
		Summary: "never cancel initialize", Reply: "—"},
	{ID: ruleProtocolVersionFormat, Spec: mcpSpec(specLatestHS, "basic/lifecycle#version-negotiation"), Keyword: "MUST", Versions: vHandshake, Transport: transportAny,
		Summary: `ask for a protocol version it supports, such as "2025-11-25", never "" or free text`, Reply: "answered with the newest"},
	{ID: ruleUnofferedVersion, Spec: mcpSpec(specLatestHS, "basic/lifecycle#version-negotiation"), Keyword: "SHOULD", Versions: vHandshake, Transport: transportAny, OncePerSession: true,
		Summary: "disconnect when answered a version it does not support (unknown, or of the stateless era)", Reply: "answered"},
	{ID: ruleUndeclaredMethod, Spec: mcpSpec(specLatestHS, "basic/lifecycle#operation"), Keyword: "MUST", SoftIn: vEarly, Versions: vAll, Transport: transportAny,
		Summary: "use only capabilities the server declared (tools, resources, resources.subscribe, prompts, logging, completions)",
		Reply:   "answered (handshake); -32601 (stateless) unless the server does serve it, e.g. under OmitCapability"},
	{ID: ruleInvalidCursor, Spec: mcpSpec(specLatestHS, "server/utilities/pagination#implementation-guidelines"), Keyword: "MUST", Versions: vAll, Transport: transportAny,
		Summary: "treat cursors as opaque: send back only a cursor this server issued, unparsed and unmodified", Reply: "-32602"},
	{ID: ruleArgumentsNull, Spec: mcpSpec(specLatestHS, "schema#calltoolrequestparams-arguments"), Keyword: "MUST", Versions: vAll, Transport: transportAny,
		Softened: "the mock takes null as no arguments, as lenient servers do (go-sdk v1.8.0 sends null for a typed nil map); strict servers reject it",
		Summary:  "send arguments as an object or leave them out, never null (tools/call, prompts/get)", Reply: "answered, as if absent"},
	{ID: ruleProgressTokenType, Spec: mcpSpec(specLatestHS, "basic/utilities/progress#progress-flow"), Keyword: "MUST", Versions: vAll, Transport: transportAny,
		Summary: "make a progressToken a string or an integer", Reply: "answered"},
	{ID: ruleCancelRequestIDType, Spec: mcpSpec(specLatestHS, "basic/utilities/cancellation#behavior-requirements"), Keyword: "MUST", Versions: vAll, Transport: transportAny,
		Summary: "name a cancelled request by its id, a string or an integer (it MUST reference a request it issued)", Reply: "—"},
	{ID: ruleArgumentsSchema, Spec: mcpSpec(specLatestHS, "server/tools#security-considerations"), Keyword: "MUST", Versions: vAll, Transport: transportAny,
		Softened: "the sentence binds the server (\"Servers MUST validate all tool inputs\"); arguments that fail are a tool execution error, not a broken protocol, so the finding is reported but never fails",
		Summary:  "send tools/call arguments that satisfy the tool's inputSchema", Reply: "answered"},
	{ID: ruleElicitationContent, Spec: mcpSpec(specLatestHS, "client/elicitation#form-mode-security"), Keyword: "SHOULD", Versions: vElicit, Transport: transportAny,
		Summary: "validate an accepted elicitation's content against its requestedSchema (elicitation/create and input requests alike)", Reply: "answered"},
	{ID: ruleElicitationDefaults, Spec: mcpSpec(specLatestHS, "client/elicitation#requested-schema"), Keyword: "SHOULD", Versions: []string{"2025-11-25", "2026-07-28"}, Transport: transportAny,
		Summary: "pre-populate the requestedSchema's defaults, so an accepted content carries them (SEP-1034)", Reply: "answered"},

	{ID: ruleMetaRequired, Spec: mcpSpec(specStateless, "basic/index#meta"), Keyword: "MUST", Versions: vStateless, Transport: transportAny,
		Summary: "put protocolVersion (a string) and clientCapabilities (an object) in every request's _meta", Reply: "-32602"},
	{ID: ruleClientInfo, Spec: mcpSpec(specStateless, "basic/index#meta"), Keyword: "SHOULD", Versions: vStateless, Transport: transportAny, OncePerSession: true,
		Summary: "send io.modelcontextprotocol/clientInfo in every request's _meta", Reply: "answered"},
	{ID: ruleRemovedMethod, Spec: mcpSpec(specStateless, "changelog#major-changes"), Keyword: "MUST", Versions: vStateless, Transport: transportAny,
		Summary: "not use a method 2026-07-28 removed (ping, logging/setLevel, resources/subscribe, notifications/initialized, …)", Reply: "-32601"},
	{ID: ruleRetrySupportedVersion, Spec: mcpSpec(specStateless, "basic/versioning#protocol-version-negotiation"), Keyword: "SHOULD", Versions: vStateless, Transport: transportAny,
		Summary: "retry after -32022 with a version from the error's supported list", Reply: "-32022"},
	{ID: ruleInitializeAfterDiscover, Spec: mcpSpec(specStateless, "basic/versioning#backward-compatibility-with-initialization-based-versions"), Keyword: "SHOULD", Versions: vStateless, Transport: transportAny,
		Summary: "keep the era it found (cache it for the server's lifetime): no initialize after server/discover succeeded", Reply: "rejected"},
	{ID: ruleDiscoverFirst, Spec: mcpSpec(specStateless, "basic/transports/stdio#backward-compatibility"), Keyword: "SHOULD", Versions: vStateless, Transport: transportStdio, OncePerSession: true,
		Summary: "on stdio, probe with server/discover before any other request", Reply: "answered"},
	{ID: ruleMRTRRequestState, Spec: mcpSpec(specStateless, "basic/patterns/mrtr#client-requirements-basic-workflow"), Keyword: "MUST", Versions: vStateless, Transport: transportAny,
		Summary: "echo requestState exactly in the retry, and never invent one", Reply: "-32602 for a changed or invented one (it fails verification); a dropped one is answered"},
	{ID: ruleMRTRNewID, Spec: mcpSpec(specStateless, "basic/patterns/mrtr#client-requirements-basic-workflow"), Keyword: "MUST", Versions: vStateless, Transport: transportAny,
		Summary: "give a retry after input_required a new JSON-RPC id", Reply: "answered"},
	{ID: ruleMRTRComplete, Spec: mcpSpec(specStateless, "basic/patterns/mrtr#client-requirements-basic-workflow"), Keyword: "MUST", Versions: vStateless, Transport: transportAny,
		Summary: "construct every requested input before retrying: a response for each input request", Reply: "input_required again"},

	{ID: ruleHTTPAccept, Spec: mcpSpec(specLatestHS, "basic/transports#sending-messages-to-the-server"), Keyword: "MUST", Versions: vStreamAll, Transport: transportHTTP,
		Summary: "list application/json and text/event-stream in a POST's Accept, text/event-stream in a GET's", Reply: "406"},
	{ID: ruleHTTPContentType, Spec: "https://www.rfc-editor.org/rfc/rfc9110#section-8.3", Keyword: "SHOULD", Versions: vStreamAll, Transport: transportHTTP,
		Summary: "label a POST's JSON-RPC body Content-Type: application/json", Reply: "415"},
	{ID: ruleHTTPSessionID, Spec: mcpSpec(specLatestHS, "basic/transports#session-management"), Keyword: "MUST", Versions: vStreamHS, Transport: transportHTTP,
		Summary: "after initialize assigned an Mcp-Session-Id, send it, and only it, on every request", Reply: "400 without one, 404 for an unknown one"},
	{ID: ruleHTTPProtocolVersion, Spec: mcpSpec(specLatestHS, "basic/transports#protocol-version-header"), Keyword: "MUST", Versions: []string{"2025-06-18", "2025-11-25"}, Transport: transportHTTP, OncePerSession: true,
		Summary: "send MCP-Protocol-Version on every request after the handshake", Reply: "answered; 400 for an unsupported version"},
	{ID: ruleHTTPProtocolVersionNegotiated, Spec: mcpSpec(specLatestHS, "basic/transports#protocol-version-header"), Keyword: "SHOULD", Versions: []string{"2025-06-18", "2025-11-25"}, Transport: transportHTTP, OncePerSession: true,
		Summary: "send in MCP-Protocol-Version the version negotiated during initialization", Reply: "answered"},
	{ID: ruleHTTPReinitialize, Spec: mcpSpec(specLatestHS, "basic/transports#session-management"), Keyword: "MUST", Versions: vStreamHS, Transport: transportHTTP, OncePerSession: true,
		Summary: "start a new session with initialize after a 404 for its session, not reuse the ended session's id", Reply: "404"},
	{ID: ruleHTTPDelete, Spec: mcpSpec(specLatestHS, "basic/transports#session-management"), Keyword: "SHOULD", Versions: vStreamHS, Transport: transportHTTP, OncePerSession: true,
		Summary: "end a session it no longer needs with DELETE", Reply: "— (reported when the server closes)"},
	{ID: ruleHTTPStatelessHeaders, Spec: mcpSpec(specStateless, "basic/transports/streamable-http#sending-messages"), Keyword: "MUST", Versions: vStateless, Transport: transportHTTP,
		Summary: "send MCP-Protocol-Version, Mcp-Method and (tools/call, prompts/get, resources/read) Mcp-Name, each agreeing with the body", Reply: "400, -32020"},
	{ID: ruleHTTPParamHeaders, Spec: mcpSpec(specStateless, "basic/transports/streamable-http#client-behavior"), Keyword: "MUST", Versions: vStateless, Transport: transportHTTP,
		Summary: "mirror each tools/call argument its inputSchema marks with x-mcp-header into Mcp-Param-{name}, agreeing with the body, and leave the header out when the argument is null or absent", Reply: "400, -32020"},
	{ID: ruleHTTPHeaderEncoding, Spec: mcpSpec(specStateless, "basic/transports/streamable-http#value-encoding"), Keyword: "MUST", Versions: vStateless, Transport: transportHTTP,
		Summary: "send an Mcp-Name or Mcp-Param-* value that is not plain header-safe ASCII (or looks like the sentinel) as =?base64?{Base64 of its UTF-8}?=", Reply: "400, -32020"},
	{ID: ruleHTTPOrigin, Spec: mcpSpec(specLatestHS, "basic/transports#security-warning"), Keyword: "MUST", Versions: vStreamAll, Transport: transportHTTP,
		Softened: "the sentence binds the server (\"Servers MUST validate the Origin header\"): a client with another Origin is refused, not at fault",
		Summary:  "come from a loopback Origin or one of HTTPOptions.AllowedOrigins", Reply: "403"},
	{ID: ruleHTTPHost, Spec: mcpSpec(specLatestHS, "basic/transports#security-warning"), Keyword: "MUST", Versions: vStreamAll, Transport: transportHTTP,
		Softened: "the sentence binds the server (validating requests against DNS rebinding): a client with another Host is refused, not at fault",
		Summary:  "name a loopback address in Host (against DNS rebinding)", Reply: "403"},
	// Authorization (WithAuthorization; raised by package oauth through
	// authHost.Raise, which reports an OncePerSession rule once per server:
	// a flow spans sessions).
	{ID: ruleAuthPKCE, Spec: mcpSpec(specLatestHS, "basic/authorization#authorization-code-protection"), Keyword: "MUST", Versions: []string{"2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}, Transport: transportHTTP,
		SpecIn:  map[string]string{"2026-07-28": mcpSpec(specStateless, "basic/authorization/security-considerations#authorization-code-protection"), "2025-03-26": mcpSpec("2025-03-26", "basic/authorization#implementation-requirements")},
		Summary: "send a code_challenge with code_challenge_method S256, and the matching code_verifier to the token endpoint", Reply: "invalid_request, invalid_grant"},
	{ID: ruleAuthPKCEMetadata, Spec: mcpSpec(specLatestHS, "basic/authorization#authorization-code-protection"), Keyword: "MUST", Versions: []string{"2025-11-25", "2026-07-28"}, Transport: transportHTTP, OncePerSession: true,
		SpecIn:  map[string]string{"2026-07-28": mcpSpec(specStateless, "basic/authorization/security-considerations#authorization-code-protection")},
		Summary: "refuse to proceed when the metadata lists no code_challenge_methods_supported", Reply: "—"},
	{ID: ruleAuthResource, Spec: mcpSpec(specLatestHS, "basic/authorization#resource-parameter-implementation"), Keyword: "MUST", Versions: []string{"2025-06-18", "2025-11-25", "2026-07-28"}, Transport: transportHTTP,
		Summary: "send the resource parameter, the MCP server's canonical URI, in the authorization and token requests, the same in both", Reply: "invalid_target"},
	{ID: ruleAuthTokenHeader, Spec: mcpSpec(specLatestHS, "basic/authorization#token-requirements"), Keyword: "MUST NOT", Versions: []string{"2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}, Transport: transportHTTP,
		Summary: "send the access token in the Authorization header, never in the query string", Reply: "401"},
	{ID: ruleAuthTokenEveryRequest, Spec: mcpSpec(specLatestHS, "basic/authorization#token-requirements"), Keyword: "MUST", Versions: []string{"2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}, Transport: transportHTTP, OncePerSession: true,
		Summary: "send the token in every HTTP request to the MCP server once it holds one", Reply: "401"},
	{ID: ruleAuthTokenAudience, Spec: mcpSpec(specLatestHS, "basic/authorization#token-handling"), Keyword: "MUST NOT", Versions: []string{"2025-06-18", "2025-11-25", "2026-07-28"}, Transport: transportHTTP,
		Summary: "send the MCP server only tokens its own authorization server issued for it", Reply: "401"},
	{ID: ruleAuthState, Spec: mcpSpec(specLatestHS, "basic/authorization#open-redirection"), Keyword: "SHOULD", Versions: []string{"2025-11-25", "2026-07-28"}, Transport: transportHTTP, OncePerSession: true,
		SpecIn:  map[string]string{"2026-07-28": mcpSpec(specStateless, "basic/authorization/security-considerations#open-redirection")},
		Summary: "send state in the authorization request and drop a response whose state differs", Reply: "—"},
	{ID: ruleAuthDiscoveryOrder, Spec: mcpSpec(specLatestHS, "basic/authorization#protected-resource-metadata-discovery-requirements"), Keyword: "MUST", Versions: []string{"2025-11-25", "2026-07-28"}, Transport: transportHTTP, OncePerSession: true,
		SpecIn:  map[string]string{"2026-07-28": mcpSpec(specStateless, "basic/authorization/authorization-server-discovery#protected-resource-metadata-discovery-requirements")},
		Summary: "fetch PRM from the challenge's resource_metadata, else the path-inserted then the root URL; metadata forms in the spec's order", Reply: "—"},
	{ID: ruleAuthScopeSelection, Spec: mcpSpec(specLatestHS, "basic/authorization#scope-selection-strategy"), Keyword: "SHOULD", Versions: []string{"2025-11-25", "2026-07-28"}, Transport: transportHTTP, OncePerSession: true,
		Summary: "ask for the challenge's scope, else the PRM's scopes_supported, else none", Reply: "—"},
	{ID: ruleAuthStepUpBounded, Spec: mcpSpec(specLatestHS, "basic/authorization#step-up-authorization-flow"), Keyword: "SHOULD", Versions: []string{"2025-11-25", "2026-07-28"}, Transport: transportHTTP, OncePerSession: true,
		Summary: "re-authorize after 403 insufficient_scope a bounded number of times", Reply: "403"},
	{ID: ruleAuthStepUpUnion, Spec: mcpSpec(specStateless, "basic/authorization#scope-selection-strategy"), Keyword: "SHOULD", Versions: []string{"2026-07-28"}, Transport: transportHTTP, OncePerSession: true,
		Summary: "on step-up, ask for the challenged scopes together with those granted before", Reply: "—"},
	{ID: ruleAuthIss, Spec: mcpSpec(specStateless, "basic/authorization#authorization-response-validation"), Keyword: "MUST", Versions: []string{"2026-07-28"}, Transport: transportHTTP,
		Summary: "check the authorization response's iss against the issuer before sending the code to a token endpoint", Reply: "invalid_grant"},
	{ID: ruleAuthIssuer, Spec: mcpSpec(specStateless, "basic/authorization/authorization-server-discovery#authorization-server-metadata-discovery"), Keyword: "MUST NOT", Versions: []string{"2026-07-28"}, Transport: transportHTTP,
		Summary: "use no authorization server metadata whose issuer differs from the one it was fetched for", Reply: "—"},
	{ID: ruleAuthApplicationType, Spec: mcpSpec(specStateless, "basic/authorization/client-registration#application-type-and-redirect-uri-constraints"), Keyword: "MUST", Versions: []string{"2026-07-28"}, Transport: transportHTTP,
		Summary: "send application_type in a Dynamic Client Registration request", Reply: "invalid_client_metadata"},
	{ID: ruleAuthCredentialsPerServer, Spec: mcpSpec(specStateless, "basic/authorization/client-registration#authorization-server-binding"), Keyword: "MUST NOT", Versions: []string{"2026-07-28"}, Transport: transportHTTP,
		Summary: "register anew with each authorization server; never reuse another one's credentials", Reply: "invalid_client"},
}

// rulesByID indexes ruleTable, with each row's Severity filled in.
var rulesByID = indexRules(ruleTable)

func indexRules(table []Rule) map[RuleID]*Rule {
	m := make(map[RuleID]*Rule, len(table))
	for i := range table {
		r := &table[i]
		r.Severity = severityOf(r.Keyword, r.Softened)
		if _, dup := m[r.ID]; dup {
			panic("mcptest: rule " + string(r.ID) + " has two rows in the rule table")
		}
		m[r.ID] = r
	}
	return m
}

// severityOf derives a rule's severity from its keyword: a MUST or MUST
// NOT is an error unless softened, a SHOULD or SHOULD NOT a warning.
func severityOf(keyword, softened string) Severity {
	if (keyword == "MUST" || keyword == "MUST NOT") && softened == "" {
		return SeverityError
	}
	return SeverityWarning
}

// Rules returns every client check, sorted by ID. The slices in each Rule
// are copies.
func Rules() []Rule {
	out := make([]Rule, len(ruleTable))
	for i, r := range ruleTable {
		r.SoftIn, r.Versions, r.SpecIn = slices.Clone(r.SoftIn), slices.Clone(r.Versions), maps.Clone(r.SpecIn)
		out[i] = r
	}
	slices.SortFunc(out, func(a, b Rule) int { return strings.Compare(string(a.ID), string(b.ID)) })
	return out
}

// LookupRule returns the rule with this ID, and whether there is one.
func LookupRule(id RuleID) (Rule, bool) {
	r, ok := rulesByID[id]
	if !ok {
		return Rule{}, false
	}
	c := *r
	c.SoftIn, c.Versions, c.SpecIn = slices.Clone(r.SoftIn), slices.Clone(r.Versions), maps.Clone(r.SpecIn)
	return c, true
}

// severityIn is the rule's severity in a session of version v.
func (r *Rule) severityIn(v string) Severity {
	if slices.Contains(r.SoftIn, v) {
		return SeverityWarning
	}
	return r.Severity
}

// inEra reports whether the rule's versions include one of the era of v.
func (r *Rule) inEra(statelessEra bool) bool {
	return slices.ContainsFunc(r.Versions, func(v string) bool { return isStateless(v) == statelessEra })
}

// KeywordText is the keyword as a report prints it, with the versions
// that soften it: "MUST (SHOULD in 2024-11-05, 2025-03-26)".
func (r Rule) KeywordText() string {
	if len(r.SoftIn) == 0 {
		return r.Keyword
	}
	return r.Keyword + " (SHOULD in " + strings.Join(r.SoftIn, ", ") + ")"
}

// unknownRule explains a RuleID that names no rule: a did-you-mean when
// one is close, else the rules of its family (one per line), else the
// families.
func unknownRule(id RuleID) string {
	names := make([]string, len(ruleTable))
	for i, r := range ruleTable {
		names[i] = string(r.ID)
	}
	if hint := didYouMean(string(id), names); hint != "" {
		return hint
	}
	family, _, _ := strings.Cut(string(id), "/")
	var same, families []string
	for _, r := range Rules() {
		f, _, _ := strings.Cut(string(r.ID), "/")
		if f == family {
			same = append(same, string(r.ID))
		}
		if !slices.Contains(families, f+"/…") {
			families = append(families, f+"/…")
		}
	}
	if len(same) > 0 {
		return "; the " + family + "/ rules are:\n\t" + strings.Join(same, "\n\t")
	}
	return "; rule IDs start with " + strings.Join(families, ", ") + " (mcptest.Rules and `mcpmock list --rules` list them)"
}

// versionFor is the version a violation in a session of version v is
// checked against: v when the rule applies to it, else the newest of the
// rule's versions of the session's era (of any era when it has none).
func (r *Rule) versionFor(v string, statelessEra bool) string {
	if v != "" && slices.Contains(r.Versions, v) && isStateless(v) == statelessEra {
		return v
	}
	for i := len(r.Versions) - 1; i >= 0; i-- {
		if isStateless(r.Versions[i]) == statelessEra {
			return r.Versions[i]
		}
	}
	return r.Versions[len(r.Versions)-1]
}

// versionsText names a rule's versions briefly: "all", "handshake era",
// or the list.
func versionsText(vs []string) string {
	switch {
	case slices.Equal(vs, vAll):
		return "all"
	case slices.Equal(vs, vHandshake):
		return "handshake era"
	}
	return strings.Join(vs, ", ")
}

// specFor is the address of the rule's sentence in version v: SpecIn's
// when that version states it on another page, else Spec.
func (r *Rule) specFor(v string) string {
	if a, ok := r.SpecIn[v]; ok {
		return a
	}
	return r.Spec
}
