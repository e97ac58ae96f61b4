package scenarios

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/oauth"
)

// Auth returns the authorization scenarios: the server is an
// OAuth-protected resource with its own authorization server (see
// oauth.Authorization), arranged as the official MCP conformance suite's
// client scenarios arrange theirs, under the same names, so results line
// up. All ends with them. Each is not applicable to a client that never
// asked for Endpoint.URL (stdio has no authorization), nor to one that
// never asked the authorization side for anything (no metadata,
// registration, authorization or token request: it has no OAuth support,
// or it is off); each decision point needs the client to have met the
// part of the flow it is about, so a client that starts the flow and
// stops is not-reached or fails, never a pass.
//
// Only auth/basic-cimd advertises client_id_metadata_document_supported,
// as in the official suite: elsewhere a client that can use a Client ID
// Metadata Document registers (or uses what it was given), and is judged
// on that.
func Auth() []Scenario {
	list := []Scenario{
		authMetadata("auth/metadata-default", "the Protected Resource Metadata at the path-inserted well-known URL, named in the challenge; the authorization server at the origin, its metadata at /.well-known/oauth-authorization-server",
			func(a *oauth.Options) { a.IssuerPath = "/" }, true),
		authMetadata("auth/metadata-var1", "the Protected Resource Metadata at the path-inserted well-known URL, not named in the challenge; the authorization server at the origin, its metadata at /.well-known/openid-configuration only",
			func(a *oauth.Options) {
				a.NoResourceMetadata, a.IssuerPath, a.MetadataAt = true, "/", []oauth.MetadataForm{oauth.OpenIDInserted}
			}, false),
		authMetadata("auth/metadata-var2", "the Protected Resource Metadata at the root well-known URL only, not named in the challenge; the authorization server's issuer /tenant1, its metadata at /.well-known/oauth-authorization-server/tenant1",
			func(a *oauth.Options) {
				a.PRM, a.NoResourceMetadata, a.IssuerPath = oauth.PRMAtRoot, true, "/tenant1"
			}, false),
		authMetadata("auth/metadata-var3", "the Protected Resource Metadata at /custom/metadata/location.json, named in the challenge only; the authorization server's issuer /tenant1, its metadata at /tenant1/.well-known/openid-configuration only",
			func(a *oauth.Options) {
				a.PRMURL, a.IssuerPath, a.MetadataAt = "/custom/metadata/location.json", "/tenant1", []oauth.MetadataForm{oauth.OpenIDAppended}
			}, false),
		authBasicCIMD(),
		authScopeFromChallenge(),
		authScopeFromScopesSupported(),
		authScopeOmitted(),
		authScopeStepUp(),
		authScopeRetryLimit(),
		authTokenEndpointAuth("client_secret_basic", "auth/token-endpoint-auth-basic"),
		authTokenEndpointAuth("client_secret_post", "auth/token-endpoint-auth-post"),
		authTokenEndpointAuth("none", "auth/token-endpoint-auth-none"),
		authPreRegistration(),
		authLegacy("auth/2025-03-26-oauth-metadata-backcompat", true),
		authLegacy("auth/2025-03-26-oauth-endpoint-fallback", false),
		authResourceMismatch(),
		authIssAccepted("auth/iss-supported", "advertises the iss parameter and sends the right one", nil),
		authIssAccepted("auth/iss-not-advertised", "does not advertise the iss parameter and sends none (fault AuthorizationIss)",
			func(a *oauth.Options) {
				a.MetadataFields["authorization_response_iss_parameter_supported"] = false
			}, oauth.AuthorizationIss("")),
		authIssRejected("auth/iss-supported-missing", "advertises the iss parameter but leaves it out of the authorization response (fault AuthorizationIss)", nil, oauth.AuthorizationIss("")),
		authIssRejected("auth/iss-wrong-issuer", "sends an iss naming another authorization server (fault AuthorizationIss)", nil, oauth.AuthorizationIss("https://attacker.example")),
		authIssRejected("auth/iss-unexpected", "does not advertise the iss parameter, yet sends one naming another authorization server (fault AuthorizationIss)",
			func(a *oauth.Options) {
				a.MetadataFields["authorization_response_iss_parameter_supported"] = false
			}, oauth.AuthorizationIss("https://attacker.example")),
		authIssRejected("auth/iss-normalized", "sends its issuer with a trailing slash the issuer lacks, a normalized variant (fault IssTrailingSlash)", nil, oauth.IssTrailingSlash()),
		authMetadataIssuerMismatch(),
		authOfflineAccess(),
		authOfflineAccessNotSupported(),
		authServerMigration(),
		authClientCredentials(),
		// What the official suite does not test.
		authNoPKCESupport(),
		authStateMismatch(),
		authTokenLost("auth/token-expired", oauth.ExpireToken().Nth(2),
			"The access token expires on the server before the client thinks it does: its second MCP request with it gets 401 invalid_token, while the refresh token still works (fault ExpireToken). "+
				"It catches clients that give up, or loop, instead of refreshing (or authorizing again) and retrying once.", false),
		authTokenLost("auth/token-revoked", oauth.RevokeToken().Nth(2),
			"The user withdraws the grant: the client's second MCP request with its token gets 401 invalid_token, and its refresh token is revoked too, invalid_grant (fault RevokeToken). "+
				"It catches clients that give up, or retry the refresh in a loop, instead of authorizing again from the start.", true),
		authHardChallenge(),
		authNoPRM(),
		authSeveralServers(),
	}
	for i := range list {
		list[i].Expect.NotApplicable = unlessOAuth(list[i].Expect.NotApplicable)
	}
	return withBases(list)
}

// unlessOAuth is an authorization scenario's NotApplicable: overDial, then
// withoutOAuth, then the scenario's own (when set), which Auth wraps so
// that no scenario repeats the first two.
func unlessOAuth(own func(o Outcome) string) func(o Outcome) string {
	return func(o Outcome) string {
		if why := overDial(o); why != "" {
			return why
		}
		if why := withoutOAuth(o); why != "" {
			return why
		}
		if own != nil {
			return own(o)
		}
		return ""
	}
}

// withoutOAuth says why an authorization scenario does not apply to a
// client that asked the authorization side for nothing: no metadata
// document, no registration, no authorization or token request.
func withoutOAuth(o Outcome) string {
	challenged := false
	for _, x := range authExchanges(o, "") {
		if x.Endpoint != oauth.EndpointResource {
			return ""
		}
		challenged = challenged || x.Status == 401
	}
	if challenged {
		return "the server answered the client's MCP request 401 and the client asked for no metadata, registration or token: it has no OAuth support (or it is off), and this scenario is about authorization"
	}
	return "the client made no MCP request and asked for no metadata, registration or token: it never met the authorization, and this scenario is about authorization"
}

// IsAuth reports whether name is the name of an authorization scenario
// (one of Auth, which All ends with): those names start with "auth/".
func IsAuth(name string) bool { return strings.HasPrefix(name, "auth/") }

// authServer turns the authorization on for base, arranged by arrange,
// with faults (made Optional: whether they acted is the decision point's
// business).
func authServer(base *mcptest.Server, arrange func(a *oauth.Options), faults ...mcptest.Fault) *mcptest.Server {
	// Client ID Metadata Documents are auth/basic-cimd's business (which
	// turns them back on), as in the official suite.
	a := oauth.Options{MetadataFields: map[string]any{"client_id_metadata_document_supported": nil}}
	if arrange != nil {
		arrange(&a)
	}
	return faulty(base.WithAuthorization(oauth.New(a)), faults...)
}

// authSpec is the authorization section of the current handshake-era spec.
func authSpec(anchor string) string {
	return spec(latestHandshake, "basic/authorization#"+anchor)
}

// authExchanges are the exchanges of the play's authorization flow with
// endpoint (all of them for "").
func authExchanges(o Outcome, endpoint string) []oauth.Exchange {
	var out []oauth.Exchange
	for _, x := range oauth.Of(o.Server).Exchanges() {
		if endpoint == "" || x.Endpoint == endpoint {
			out = append(out, x)
		}
	}
	return out
}

// challenged is reached once the client met the authorization: the
// protected resource refused an MCP request of it with 401, or it went
// looking for the metadata on its own (a client configured for OAuth may
// authorize before its first request).
func challenged(o Outcome) error {
	for _, x := range authExchanges(o, "") {
		if x.Endpoint == oauth.EndpointResource && x.Status == 401 || x.Endpoint == oauth.EndpointPRM || x.Endpoint == oauth.EndpointMetadata {
			return nil
		}
	}
	return notReachedf("the client never met the authorization: no MCP request of it was challenged, and it asked for no metadata (%s)", sentWhat(o))
}

// authorizeSent is reached once the client sent an authorization request.
var authorizeSent = metThen("the client never sent an authorization request after the 401",
	func(x oauth.Exchange) bool { return x.Endpoint == oauth.EndpointAuthorize })

// authorizeAnswered is reached once /authorize redirected the client back
// with a code: the client holds the authorization response.
var authorizeAnswered = metThen("no authorization request of the client was answered with a code",
	func(x oauth.Exchange) bool {
		return x.Endpoint == oauth.EndpointAuthorize && x.Status == 302 && strings.Contains(x.Location, "code=")
	})

// metThen is reached once the client met the authorization (challenged)
// and the flow holds an exchange that want accepts; missing says what was
// missing otherwise.
func metThen(missing string, want func(x oauth.Exchange) bool) func(o Outcome) error {
	return func(o Outcome) error {
		if err := challenged(o); err != nil {
			return err
		}
		for _, x := range authExchanges(o, "") {
			if want(x) {
				return nil
			}
		}
		return notReachedf("%s (%s)", missing, flowWhat(o))
	}
}

// flowWhat lists the client's authorization requests, for a verdict.
func flowWhat(o Outcome) string {
	var parts []string
	for _, x := range authExchanges(o, "") {
		if x.Endpoint == oauth.EndpointResource {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %s → %d", x.Method, pathOf(x.URL), x.Status))
	}
	if len(parts) == 0 {
		return "its only requests were MCP requests without a valid token"
	}
	return "its authorization requests: " + strings.Join(parts, ", ")
}

func pathOf(u string) string {
	if p, err := url.Parse(u); err == nil {
		return p.Path
	}
	return u
}

// authorized is nil once the client got a token and an MCP request with
// it got a result (with the authorization on, every answered request
// passed the token check).
func authorized(o Outcome) error {
	tokens := 0
	for _, x := range authExchanges(o, oauth.EndpointToken) {
		if x.Status == 200 {
			tokens++
		}
	}
	if tokens == 0 {
		return gotf("the client got no access token (%s); connect returned %s", flowWhat(o), errText(o.Err))
	}
	for _, m := range o.Journal {
		if m.Direction == mcptest.FromServer && m.Kind == mcptest.KindResult {
			return nil
		}
	}
	return gotf("the client got a token but no MCP request of it got a result; connect returned %s", errText(o.Err))
}

// tokenRedeemed is nil when the client exchanged no authorization code
// for a token, else an error naming the token request.
func tokenRedeemed(o Outcome, why string) error {
	for _, x := range authExchanges(o, oauth.EndpointToken) {
		if x.Params.Get("grant_type") == "authorization_code" {
			return gotf("the client sent the authorization code to the token endpoint (#%d) although %s", x.Seq, why)
		}
	}
	return nil
}

// scopesOf is the scope parameter of an authorization request, as a set.
func scopesOf(x oauth.Exchange) []string {
	s := strings.Fields(x.Params.Get("scope"))
	slices.Sort(s)
	return s
}

func authMetadata(name, arrangement string, arrange func(a *oauth.Options), trapRootPRM bool) Scenario {
	check := func(o Outcome) error {
		if trapRootPRM {
			for _, x := range authExchanges(o, oauth.EndpointPRM) {
				if pathOf(x.URL) == "/.well-known/oauth-protected-resource" {
					return gotf("the client asked the root Protected Resource Metadata (#%d), although the challenge named where it is", x.Seq)
				}
			}
		}
		return authorized(o)
	}
	return Scenario{
		Name: name,
		Mistake: "Not a mistake: a discovery arrangement the spec allows, " + arrangement + ". " +
			"It catches clients that look for the metadata in one place only: they never get a token.",
		Spec:   authSpec("authorization-server-location"),
		Server: func(base *mcptest.Server) *mcptest.Server { return authServer(base, arrange) },
		Expect: Expectation{
			Description:   "the client finds both metadata documents, gets a token and makes an authorized MCP request",
			DecisionPoint: "the server challenged an MCP request with 401",
			Reached:       challenged,
			Check:         check,
		},
	}
}

func authScopeFromChallenge() Scenario {
	return Scenario{
		Name: "auth/scope-from-www-authenticate",
		Mistake: "The 401 challenge names the scope mcp:basic, while scopes_supported lists mcp:basic and mcp:admin (fault WWWAuthenticate). " +
			"It catches clients that ignore the challenge's scope, the first source the spec's scope selection names.",
		Spec: authSpec("scope-selection-strategy"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return authServer(base, func(a *oauth.Options) { a.Scopes = []string{"mcp:basic", "mcp:admin"} },
				oauth.WWWAuthenticate(`Bearer resource_metadata="{prm}", scope="mcp:basic"`))
		},
		Expect: Expectation{
			Description:   "the authorization request asks for exactly the challenge's scope, mcp:basic (SHOULD), and the client gets through",
			DecisionPoint: "the client sent an authorization request after the 401",
			Reached:       authorizeSent,
			Check:         checkScopes([]string{"mcp:basic"}),
		},
	}
}

func authScopeFromScopesSupported() Scenario {
	return Scenario{
		Name: "auth/scope-from-scopes-supported",
		Mistake: "The 401 challenge names no scope; the Protected Resource Metadata's scopes_supported lists mcp:basic and mcp:read. " +
			"It catches clients that then ask for no scope, or for scopes of their own configuration.",
		Spec: authSpec("scope-selection-strategy"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return authServer(base, func(a *oauth.Options) { a.Scopes, a.NoChallengeScope = []string{"mcp:basic", "mcp:read"}, true })
		},
		Expect: Expectation{
			Description:   "the authorization request asks for every scope of scopes_supported (SHOULD), and the client gets through",
			DecisionPoint: "the client sent an authorization request after the 401",
			Reached:       authorizeSent,
			Check:         checkScopes([]string{"mcp:basic", "mcp:read"}),
		},
	}
}

func authScopeOmitted() Scenario {
	return Scenario{
		Name: "auth/scope-omitted-when-undefined",
		Mistake: "Neither the challenge nor the metadata names a scope. " +
			"It catches clients that invent one (a default such as openid or mcp), which a server may refuse.",
		Spec:   authSpec("scope-selection-strategy"),
		Server: func(base *mcptest.Server) *mcptest.Server { return authServer(base, nil) },
		Expect: Expectation{
			Description:   "the authorization request has no scope parameter (SHOULD omit it), and the client gets through",
			DecisionPoint: "the client sent an authorization request after the 401",
			Reached:       authorizeSent,
			Check:         checkScopes(nil),
		},
	}
}

// checkScopes checks the scope of the client's first authorization
// request, then that it got through.
func checkScopes(want []string) func(o Outcome) error {
	return func(o Outcome) error {
		first := authExchanges(o, oauth.EndpointAuthorize)[0]
		if got := scopesOf(first); !slices.Equal(got, want) {
			if len(want) == 0 {
				return gotf("the authorization request (#%d) asked for scope %q where none is defined", first.Seq, first.Params.Get("scope"))
			}
			return gotf("the authorization request (#%d) asked for scope %q, want %q", first.Seq, first.Params.Get("scope"), strings.Join(want, " "))
		}
		return authorized(o)
	}
}

// insufficientScope are the 403 insufficient_scope challenges of the play.
func insufficientScope(o Outcome) []oauth.Exchange {
	var out []oauth.Exchange
	for _, x := range authExchanges(o, "") {
		if isInsufficientScope(x) {
			out = append(out, x)
		}
	}
	return out
}

func isInsufficientScope(x oauth.Exchange) bool {
	return x.Endpoint == oauth.EndpointResource && x.Status == 403 && strings.Contains(x.Challenge, "insufficient_scope")
}

var steppedUp = metThen("no request of the client was refused 403 insufficient_scope: it never called a tool with its first token", isInsufficientScope)

func authScopeStepUp() Scenario {
	return Scenario{
		Name: "auth/scope-step-up",
		Mistake: "The challenge asks for mcp:basic; calling a tool then needs mcp:write, and the call is refused 403 insufficient_scope, scope=\"mcp:write\" (fault InsufficientScope). " +
			"It catches clients that give up on the 403, or authorize again for the new scope alone (losing what they had), instead of stepping up.",
		Spec: authSpec("scope-challenge-handling"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			// scopes_supported (and so the 401's scope) is mcp:basic only;
			// a token carries the scopes asked, listed or not.
			return authServer(base, func(a *oauth.Options) { a.Scopes = []string{"mcp:basic"} },
				oauth.InsufficientScope("tools/call", "mcp:write"))
		},
		Expect: Expectation{
			Description:   "after the 403 the client authorizes again for mcp:basic and mcp:write, and its tool call is retried and gets a result",
			DecisionPoint: "a tool call was refused 403 insufficient_scope",
			Reached:       steppedUp,
			Check: func(o Outcome) error {
				refused := insufficientScope(o)[0]
				var again *oauth.Exchange
				for _, x := range authExchanges(o, oauth.EndpointAuthorize) {
					if x.Seq > refused.Seq {
						again = &x
						break
					}
				}
				if again == nil {
					return gotf("after the 403 (#%d) the client did not authorize again; connect returned %s", refused.Seq, errText(o.Err))
				}
				if got := scopesOf(*again); !slices.Contains(got, "mcp:write") || !slices.Contains(got, "mcp:basic") {
					return gotf("the step-up's authorization request (#%d) asked for %q, want mcp:basic and mcp:write (the union: a step-up keeps what the client had)", again.Seq, again.Params.Get("scope"))
				}
				for _, m := range o.Journal.After(refused.Seq) {
					if m.Direction == mcptest.FromServer && m.Kind == mcptest.KindResult && m.Method == "tools/call" {
						return nil
					}
				}
				return gotf("the client stepped up but its tool call got no result after; connect returned %s", errText(o.Err))
			},
		},
	}
}

// authRetryLimit is how many authorizations after a 403 the suite allows.
const authRetryLimit = 3

func authScopeRetryLimit() Scenario {
	return Scenario{
		Name: "auth/scope-retry-limit",
		Mistake: "Calling a tool needs the scope mcp:admin, which the authorization server never grants: every call is refused 403 insufficient_scope, whatever the client does. " +
			"It catches clients that authorize again and again, a loop the spec asks them to bound.",
		Spec: authSpec("scope-challenge-handling"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return authServer(base, func(a *oauth.Options) {
				a.Scopes = []string{"mcp:basic"}
				a.ToolScopes = map[string][]string{"suggest_gifts": {"mcp:admin"}}
				a.UngrantedScopes = []string{"mcp:admin"}
			})
		},
		Expect: Expectation{
			Description:   fmt.Sprintf("the client stops stepping up after at most %d authorizations following the first 403 (SHOULD bound its retries)", authRetryLimit),
			DecisionPoint: "a tool call was refused 403 insufficient_scope",
			Reached:       steppedUp,
			Check: func(o Outcome) error {
				first := insufficientScope(o)[0]
				n := 0
				for _, x := range authExchanges(o, oauth.EndpointAuthorize) {
					if x.Seq > first.Seq {
						n++
					}
				}
				if n > authRetryLimit {
					return gotf("after the first 403 (#%d) the client authorized %d times (more than %d): an authorization loop", first.Seq, n, authRetryLimit)
				}
				return nil
			},
		},
	}
}

func authTokenEndpointAuth(method, name string) Scenario {
	return Scenario{
		Name: name,
		Mistake: fmt.Sprintf("The authorization server's metadata lists only %s in token_endpoint_auth_methods_supported. ", method) +
			"It catches clients that authenticate at the token endpoint their own way, which the server refuses.",
		Spec: authSpec("dynamic-client-registration"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return authServer(base, func(a *oauth.Options) {
				a.MetadataFields["token_endpoint_auth_methods_supported"] = []string{method}
			})
		},
		Expect: Expectation{
			Description:   "every token request authenticates with " + method + ", and the client gets through",
			DecisionPoint: "the client sent a token request",
			Reached:       sentTo(oauth.EndpointToken, "the client sent no token request"),
			Check: func(o Outcome) error {
				for _, x := range authExchanges(o, oauth.EndpointToken) {
					if x.ClientAuth != method {
						return gotf("the token request #%d authenticated with %s, want %s", x.Seq, x.ClientAuth, method)
					}
				}
				return authorized(o)
			},
		},
	}
}

func authLegacy(name string, metadata bool) Scenario {
	arrangement := "its metadata at /.well-known/oauth-authorization-server"
	if !metadata {
		arrangement = "no metadata at all: the client uses the default endpoints /authorize, /token and /register"
	}
	return Scenario{
		Name: name,
		Mistake: "A server of the 2025-03-26 spec: no Protected Resource Metadata, the MCP server's origin is the authorization server, " + arrangement + ". " +
			"It catches clients that cannot fall back to the older discovery.",
		Spec: spec("2025-03-26", "basic/authorization#2-3-server-metadata-discovery"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return authServer(base, func(a *oauth.Options) { a.LegacyDiscovery, a.NoMetadata = true, !metadata })
		},
		Expect: Expectation{
			Description:   "the client falls back to the origin as authorization server, gets a token and makes an authorized MCP request",
			DecisionPoint: "the server challenged an MCP request with 401",
			Reached:       challenged,
			Check:         func(o Outcome) error { return authorized(o) },
		},
	}
}

func authResourceMismatch() Scenario {
	return Scenario{
		Name: "auth/resource-mismatch",
		Mistake: "The Protected Resource Metadata names another resource (https://other.example/mcp) than the server it was fetched for (fault PRMResource). " +
			"It catches clients that use metadata of another resource (RFC 9728 §3.3: the client MUST NOT), and send their user to authorize for it.",
		Spec: "https://www.rfc-editor.org/rfc/rfc9728#section-3.3",
		Server: func(base *mcptest.Server) *mcptest.Server {
			return authServer(base, nil, oauth.PRMResource("https://other.example/mcp"))
		},
		Expect: Expectation{
			Description:   "the client does not use the metadata: no authorization request, no token",
			DecisionPoint: "the client fetched the Protected Resource Metadata",
			Reached: metThen("the client never fetched the Protected Resource Metadata",
				func(x oauth.Exchange) bool { return x.Endpoint == oauth.EndpointPRM && x.Status == 200 }),
			Check: func(o Outcome) error {
				if xs := authExchanges(o, oauth.EndpointAuthorize); len(xs) > 0 {
					return gotf("the client sent an authorization request (#%d, resource %q) with metadata of another resource", xs[0].Seq, xs[0].Params.Get("resource"))
				}
				return nil
			},
		},
	}
}

// issApplies says why an iss scenario does not apply to a client that
// spoke only handshake-era versions: RFC 9207's check is a 2026-07-28
// requirement. A client that spoke 2026-07-28 in any request (go-sdk
// probes with server/discover, then may fall back to initialize) is
// judged, as is one that sent no version at all.
func issApplies(o Outcome) string {
	if newest := newestVersion(o); newest != "" && newest < latestStateless {
		return "the client speaks " + newest + ": checking the authorization response's iss (RFC 9207) is a requirement of " + latestStateless
	}
	return ""
}

// newestVersion is the newest protocol version the client named in any
// request (initialize, _meta, the MCP-Protocol-Version header); "" for none.
func newestVersion(o Outcome) string {
	newest := ""
	for _, m := range o.Journal {
		if m.Direction != mcptest.FromClient {
			continue
		}
		for _, v := range []string{m.Get("params.protocolVersion").String(), m.Get(metaVersionPath).String(), headerVersion(m)} {
			newest = max(newest, v)
		}
	}
	return newest
}

func headerVersion(m mcptest.Message) string {
	if m.HTTP == nil {
		return ""
	}
	return m.HTTP.ProtocolVersion
}

func authIssAccepted(name, what string, arrange func(a *oauth.Options), faults ...mcptest.Fault) Scenario {
	return Scenario{
		Name:    name,
		Mistake: "Not a mistake: the authorization server " + what + ". It catches clients whose iss check refuses a correct response.",
		Spec:    spec(latestStateless, "basic/authorization"),
		Server:  func(base *mcptest.Server) *mcptest.Server { return authServer(base, arrange, faults...) },
		Expect: Expectation{
			Description:   "the client accepts the authorization response, gets a token and makes an authorized MCP request",
			DecisionPoint: "the authorization server answered an authorization request with a code",
			NotApplicable: issApplies,
			Reached:       authorizeAnswered,
			Check:         func(o Outcome) error { return authorized(o) },
		},
	}
}

func authIssRejected(name, what string, arrange func(a *oauth.Options), faults ...mcptest.Fault) Scenario {
	return Scenario{
		Name: name,
		Mistake: "The authorization server " + what + ". " +
			"It catches clients that do not check the authorization response's iss against the issuer they asked (RFC 9207; a mix-up attack), and redeem a code they MUST reject.",
		Spec:   spec(latestStateless, "basic/authorization"),
		Server: func(base *mcptest.Server) *mcptest.Server { return authServer(base, arrange, faults...) },
		Expect: Expectation{
			Description:   "the client rejects the authorization response: it never sends the code to the token endpoint",
			DecisionPoint: "the authorization server answered an authorization request with a code",
			NotApplicable: issApplies,
			Reached:       authorizeAnswered,
			Check: func(o Outcome) error {
				return tokenRedeemed(o, "the authorization response's iss was wrong")
			},
		},
	}
}

func authMetadataIssuerMismatch() Scenario {
	return Scenario{
		Name: "auth/metadata-issuer-mismatch",
		Mistake: "The authorization server's metadata names another issuer (https://attacker.example) than the one the client built its URL from (fault MetadataIssuer). " +
			"It catches clients that use the endpoints of such a document (RFC 8414 §3.3: the issuer MUST be identical, else the metadata MUST NOT be used).",
		Spec: "https://www.rfc-editor.org/rfc/rfc8414#section-3.3",
		Server: func(base *mcptest.Server) *mcptest.Server {
			return authServer(base, nil, oauth.MetadataIssuer("https://attacker.example"))
		},
		Expect: Expectation{
			Description:   "the client does not use the metadata: no registration, no authorization request, no token",
			DecisionPoint: "the client fetched the authorization server's metadata",
			Reached:       metadataFetched,
			Check:         usedNoEndpoint("the metadata names another issuer"),
		},
	}
}

func authNoPKCESupport() Scenario {
	return Scenario{
		Name: "auth/no-pkce-support",
		Mistake: "The authorization server's metadata has no code_challenge_methods_supported: nothing says it supports PKCE (fault NoPKCEMethods). " +
			"It catches clients that go on without the protection the spec makes mandatory (they MUST refuse to proceed).",
		Spec:   authSpec("authorization-code-protection"),
		Server: func(base *mcptest.Server) *mcptest.Server { return authServer(base, nil, oauth.NoPKCEMethods()) },
		Expect: Expectation{
			Description:   "the client refuses to proceed: no registration, no authorization request, no token",
			DecisionPoint: "the client fetched the authorization server's metadata",
			Reached:       metadataFetched,
			Check:         usedNoEndpoint("the metadata does not say the server supports PKCE"),
		},
	}
}

// metadataFetched is reached once the client fetched the authorization
// server's metadata (answered 200).
var metadataFetched = metThen("the client never fetched the authorization server's metadata",
	func(x oauth.Exchange) bool { return x.Endpoint == oauth.EndpointMetadata && x.Status == 200 })

// tokenLost is reached once a request with the client's token was refused.
var tokenLost = metThen("no request with the client's token was refused: it made fewer than two MCP requests with one", isTokenRefusal)

// sentTo is reached once the client sent a request to endpoint.
func sentTo(endpoint, missing string) func(o Outcome) error {
	return metThen(missing, func(x oauth.Exchange) bool { return x.Endpoint == endpoint })
}

// usedNoEndpoint checks that the client sent nothing to the registration,
// authorization or token endpoint.
func usedNoEndpoint(why string) func(o Outcome) error {
	return func(o Outcome) error {
		for _, x := range authExchanges(o, "") {
			if x.Endpoint == oauth.EndpointRegister || x.Endpoint == oauth.EndpointAuthorize || x.Endpoint == oauth.EndpointToken {
				return gotf("the client went on although %s: %s %s (#%d)", why, x.Method, pathOf(x.URL), x.Seq)
			}
		}
		return nil
	}
}

func authStateMismatch() Scenario {
	return Scenario{
		Name: "auth/state-mismatch",
		Mistake: "The authorization response comes back with another state than the client sent: a forged or mixed-up response, the CSRF case (fault WrongState). " +
			"It catches clients that do not check state and redeem the code.",
		Spec:   "https://www.rfc-editor.org/rfc/rfc6749#section-10.12",
		Server: func(base *mcptest.Server) *mcptest.Server { return authServer(base, nil, oauth.WrongState()) },
		Expect: Expectation{
			Description:   "the client rejects the response: it never sends the code to the token endpoint",
			DecisionPoint: "the authorization server answered an authorization request with a code",
			Reached:       authorizeAnswered,
			Check: func(o Outcome) error {
				return tokenRedeemed(o, "the authorization response's state was not the one it sent")
			},
		},
	}
}

// tokenRefused is the first 401 invalid_token of a request that carried
// a token the server had issued.
func tokenRefused(o Outcome) (oauth.Exchange, bool) {
	for _, x := range authExchanges(o, "") {
		if isTokenRefusal(x) {
			return x, true
		}
	}
	return oauth.Exchange{}, false
}

func isTokenRefusal(x oauth.Exchange) bool {
	return x.Endpoint == oauth.EndpointResource && x.Status == 401 && strings.Contains(x.Challenge, "invalid_token") && strings.HasPrefix(x.Authorization, "Bearer ")
}

// authTokenLostLimit is how many token requests after a lost token count
// as recovering, not looping.
const authTokenLostLimit = 3

func authTokenLost(name string, fault mcptest.Fault, mistake string, revoked bool) Scenario {
	return Scenario{
		Name:    name,
		Mistake: mistake,
		Spec:    authSpec("token-handling"),
		Server:  func(base *mcptest.Server) *mcptest.Server { return authServer(base, nil, fault) },
		Expect: Expectation{
			Description:   "the client gets a new token (a refresh, or a new authorization when the refresh is refused), retries, and its request gets a result; a few token requests at most",
			DecisionPoint: "a request with the client's token was refused 401 invalid_token",
			Reached:       tokenLost,
			Check: func(o Outcome) error {
				lost, _ := tokenRefused(o)
				var tokens, got, authorize int
				for _, x := range authExchanges(o, "") {
					if x.Seq < lost.Seq {
						continue
					}
					switch {
					case x.Endpoint == oauth.EndpointToken:
						tokens++
						if x.Status == 200 {
							got++
						}
					case x.Endpoint == oauth.EndpointAuthorize:
						authorize++
					}
				}
				if tokens > authTokenLostLimit {
					return gotf("after the 401 (#%d) the client sent %d token requests (more than %d): a loop", lost.Seq, tokens, authTokenLostLimit)
				}
				if got == 0 {
					if revoked && authorize == 0 {
						return gotf("after the revocation (#%d) the client never authorized again (its refresh is refused); connect returned %s", lost.Seq, errText(o.Err))
					}
					return gotf("after the 401 (#%d) the client got no new token; connect returned %s", lost.Seq, errText(o.Err))
				}
				for _, m := range o.Journal.After(lost.Seq) {
					if m.Direction == mcptest.FromServer && m.Kind == mcptest.KindResult {
						return nil
					}
				}
				return gotf("the client got a new token after the 401 (#%d) but no request of it got a result after; connect returned %s", lost.Seq, errText(o.Err))
			},
		},
	}
}

func authHardChallenge() Scenario {
	return Scenario{
		Name: "auth/hard-www-authenticate",
		Mistake: `The 401 carries two challenges in one WWW-Authenticate header, Basic first, then Bearer with a quoted comma in its error_description and resource_metadata last; the metadata is only where the challenge says (fault WWWAuthenticate). ` +
			"It catches clients whose header parser reads the first challenge only, or splits on every comma, and never finds the metadata.",
		Spec: "https://www.rfc-editor.org/rfc/rfc9110#section-11.6.1",
		Server: func(base *mcptest.Server) *mcptest.Server {
			return authServer(base, func(a *oauth.Options) { a.PRMURL = "/meta/prm.json" },
				oauth.WWWAuthenticate(`Basic realm="mcp", Bearer error="invalid_token", error_description="no token, or an old one", resource_metadata="{prm}"`))
		},
		Expect: Expectation{
			Description:   "the client reads the Bearer challenge's resource_metadata, gets a token and makes an authorized MCP request",
			DecisionPoint: "the server challenged an MCP request with 401",
			Reached:       challenged,
			Check:         func(o Outcome) error { return authorized(o) },
		},
	}
}

// authNoPRMTries is how many times auth/no-prm lets a client send its
// refused request: the first, and a few retries.
const authNoPRMTries = 4

func authNoPRM() Scenario {
	return Scenario{
		Name: "auth/no-prm",
		Mistake: "No Protected Resource Metadata anywhere: the challenge names none, every well-known PRM URL answers 404, and the origin serves no 2025-03-26 authorization server either. " +
			"It catches clients that retry the refused request in a loop, or swallow the failure, instead of stopping with an error (a client may also try the 2025-03-26 discovery first: it leads nowhere here, and is not blamed).",
		Spec: authSpec("protected-resource-metadata-discovery-requirements"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return authServer(base, func(a *oauth.Options) { a.PRM = oauth.PRMNowhere })
		},
		Expect: Expectation{
			Description:   fmt.Sprintf("the client stops: its refused request is sent %d times at most, and connect returns an error", authNoPRMTries),
			DecisionPoint: "a request of the client for Protected Resource Metadata was answered 404",
			Reached: metThen("the client never asked for the Protected Resource Metadata",
				func(x oauth.Exchange) bool { return x.Endpoint == oauth.EndpointPRM && x.Status == 404 }),
			Check: func(o Outcome) error {
				refused := 0
				for _, x := range authExchanges(o, oauth.EndpointResource) {
					if x.Status == 401 {
						refused++
					}
				}
				if refused > authNoPRMTries {
					return gotf("the client's requests were refused with 401 %d times: a loop (%s)", refused, flowWhat(o))
				}
				if o.Err == nil {
					return gotf("connect returned nil although the client could not authorize: the failure never reached the app (%s)", flowWhat(o))
				}
				return nil
			},
		},
	}
}

func authSeveralServers() Scenario {
	return Scenario{
		Name: "auth/several-authorization-servers",
		Mistake: "The Protected Resource Metadata lists three authorization servers, each with its own issuer, metadata and endpoints. " +
			"It catches clients that mix them in one flow (the metadata of one, the registration or token endpoint of another, a client_id of one at another), or refuse a list of more than one.",
		Spec: spec(latestStateless, "basic/authorization/authorization-server-discovery#authorization-server-location"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return authServer(base, func(a *oauth.Options) { a.AuthorizationServers = 3 })
		},
		Expect: Expectation{
			Description:   "the client picks one of the listed authorization servers, registers, authorizes and gets its token there alone, and gets through",
			DecisionPoint: "the client sent an authorization request",
			Reached:       authorizeSent,
			Check: func(o Outcome) error {
				var first oauth.Exchange
				for _, x := range authExchanges(o, "") {
					switch x.Endpoint {
					case oauth.EndpointRegister, oauth.EndpointAuthorize, oauth.EndpointToken:
					default:
						continue
					}
					if first.Issuer == "" {
						first = x
					} else if x.Issuer != first.Issuer {
						return gotf("one flow used two authorization servers: %s %s (#%d) at %s, then %s %s (#%d) at %s",
							first.Method, pathOf(first.URL), first.Seq, first.Issuer, x.Method, pathOf(x.URL), x.Seq, x.Issuer)
					}
				}
				return authorized(o)
			},
		},
	}
}

// The pre-registered client of auth/pre-registration.
const (
	preregisteredID     = "mcpmock-preregistered"
	preregisteredSecret = "mcpmock-preregistered-secret"
)

// CIMDClientID is the client_id URL the official conformance suite's
// clients use for a Client ID Metadata Document
// (https://conformance-test.local/client-metadata.json); auth/basic-cimd
// accepts it, as it accepts any https URL with a path.
const CIMDClientID = "https://conformance-test.local/client-metadata.json"

func authBasicCIMD() Scenario {
	return Scenario{
		Name: "auth/basic-cimd",
		Mistake: "The authorization server advertises client_id_metadata_document_supported (it also offers registration). " +
			"It catches clients that register dynamically when they could use a Client ID Metadata Document URL as their client_id, the registration the spec puts before dynamic registration.",
		Spec: authSpec("client-id-metadata-documents"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return authServer(base, func(a *oauth.Options) {
				a.MetadataFields["client_id_metadata_document_supported"] = true
			})
		},
		Expect: Expectation{
			Description:   "every authorization request uses an https URL as client_id (SHOULD, such as " + CIMDClientID + "), the client registers nothing, and it gets through",
			DecisionPoint: "the client sent an authorization request",
			NotApplicable: func(o Outcome) string {
				for _, x := range authExchanges(o, oauth.EndpointToken) {
					if x.Params.Get("grant_type") == "client_credentials" {
						return "the client authorizes without a user (client_credentials): Client ID Metadata Documents are for the authorization code flow"
					}
				}
				return ""
			},
			Reached: authorizeSent,
			Check: func(o Outcome) error {
				if xs := authExchanges(o, oauth.EndpointRegister); len(xs) > 0 {
					return gotf("the client registered (#%d) instead of using a Client ID Metadata Document URL as client_id", xs[0].Seq)
				}
				for _, x := range authExchanges(o, oauth.EndpointAuthorize) {
					if id := x.Params.Get("client_id"); !strings.HasPrefix(id, "https://") {
						return gotf("the authorization request #%d has client_id %q, not a Client ID Metadata Document URL", x.Seq, id)
					}
				}
				return authorized(o)
			},
		},
	}
}

func authPreRegistration() Scenario {
	return Scenario{
		Name: "auth/pre-registration",
		Mistake: "The authorization server offers no registration (no registration_endpoint): the client was registered beforehand, and is given its client_id and client_secret (ClientContext; MCP_CONFORMANCE_CONTEXT for a program). " +
			"It catches clients that can only register dynamically, or do not authenticate with the secret they were given.",
		Spec: authSpec("client-registration-approaches"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return authServer(base, func(a *oauth.Options) {
				a.Clients = []oauth.Client{{ID: preregisteredID, Secret: preregisteredSecret}}
				a.MetadataFields["registration_endpoint"] = nil
			})
		},
		ClientContext: map[string]string{"client_id": preregisteredID, "client_secret": preregisteredSecret},
		Expect: Expectation{
			Description:   "the client uses the credentials it was given: no registration, every token request authenticated with the secret, and it gets through",
			DecisionPoint: "the client met the authorization (a 401, or its own discovery)",
			Reached:       challenged,
			Check: func(o Outcome) error {
				if xs := authExchanges(o, oauth.EndpointRegister); len(xs) > 0 {
					return gotf("the client tried to register (#%d) although it was given pre-registered credentials and the server offers no registration", xs[0].Seq)
				}
				for _, x := range authExchanges(o, oauth.EndpointToken) {
					if x.ClientAuth == "none" {
						return gotf("the token request #%d did not authenticate with the client secret it was given", x.Seq)
					}
				}
				return authorized(o)
			},
		},
	}
}

func authOfflineAccess() Scenario {
	return Scenario{
		Name: "auth/offline-access-scope",
		Mistake: "The authorization server lists offline_access in its metadata's scopes_supported and issues refresh tokens (the PRM lists only mcp:basic, as SEP-2207 asks of servers). " +
			"It catches clients that register without the refresh_token grant, and so never get to refresh.",
		Spec: spec(latestStateless, "basic/authorization"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return authServer(base, func(a *oauth.Options) {
				a.Scopes = []string{"mcp:basic"}
				a.MetadataFields["scopes_supported"] = []string{"mcp:basic", "offline_access"}
			})
		},
		Expect: Expectation{
			Description:   "the client registers with refresh_token among its grant_types (SHOULD; asking for offline_access is a MAY, not judged), and gets through",
			DecisionPoint: "the client registered dynamically",
			Reached:       sentTo(oauth.EndpointRegister, "the client did not register dynamically"),
			Check: func(o Outcome) error {
				reg := authExchanges(o, oauth.EndpointRegister)[0]
				if !strings.Contains(reg.Params.Get("grant_types"), `"refresh_token"`) {
					return gotf("the registration (#%d) asked for grant_types %s, without refresh_token", reg.Seq, reg.Params.Get("grant_types"))
				}
				return authorized(o)
			},
		},
	}
}

func authOfflineAccessNotSupported() Scenario {
	return Scenario{
		Name: "auth/offline-access-not-supported",
		Mistake: "Neither the authorization server's metadata nor the PRM lists offline_access (scopes_supported mcp:basic and mcp:read). " +
			"It catches clients that ask for offline_access anyway (SEP-2207: only when the authorization server lists it), which a strict server refuses.",
		Spec: spec(latestStateless, "basic/authorization"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return authServer(base, func(a *oauth.Options) { a.Scopes = []string{"mcp:basic", "mcp:read"} })
		},
		Expect: Expectation{
			Description:   "no authorization request asks for offline_access (MUST NOT)",
			DecisionPoint: "the client sent an authorization request after the 401",
			Reached:       authorizeSent,
			Check: func(o Outcome) error {
				for _, x := range authExchanges(o, oauth.EndpointAuthorize) {
					if slices.Contains(scopesOf(x), "offline_access") {
						return gotf("the authorization request (#%d) asked for offline_access, which the authorization server does not list", x.Seq)
					}
				}
				return authorized(o)
			},
		},
	}
}

func authServerMigration() Scenario {
	return Scenario{
		Name: "auth/authorization-server-migration",
		Mistake: "The resource moves to another authorization server: once the client's grant is revoked (its second MCP request gets 401), the Protected Resource Metadata names the second of two authorization servers first (faults RevokeToken, SwitchAuthorizationServer). " +
			"It catches clients that keep using the old server, or present the old server's client credentials to the new one.",
		Spec: authSpec("authorization-server-location"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return authServer(base, func(a *oauth.Options) { a.AuthorizationServers = 2 },
				oauth.RevokeToken().Nth(2), oauth.SwitchAuthorizationServer())
		},
		Expect: Expectation{
			Description:   "the client discovers again, registers with the new authorization server, authorizes there with its new client_id, and gets through",
			DecisionPoint: "the client's grant was revoked (401) after the move",
			Reached:       tokenLost,
			Check: func(o Outcome) error {
				lost, _ := tokenRefused(o)
				old := map[string]bool{} // client ids of the first authorization server
				first := ""
				for _, x := range authExchanges(o, "") {
					if x.Seq > lost.Seq {
						break
					}
					if x.Endpoint == oauth.EndpointAuthorize {
						first = x.Issuer
						old[x.Params.Get("client_id")] = true
					}
				}
				var moved *oauth.Exchange
				registered := false
				for _, x := range authExchanges(o, "") {
					if x.Seq < lost.Seq || x.Issuer == "" {
						continue
					}
					if x.Issuer == first && (x.Endpoint == oauth.EndpointAuthorize || x.Endpoint == oauth.EndpointToken) {
						return gotf("after the move the client went on with the old authorization server: %s %s (#%d)", x.Method, pathOf(x.URL), x.Seq)
					}
					if x.Endpoint == oauth.EndpointRegister && x.Status == 201 {
						registered = true
					}
					if x.Endpoint == oauth.EndpointAuthorize && moved == nil {
						moved = &x
					}
				}
				if moved == nil {
					return gotf("after the move (#%d) the client never authorized with the new authorization server; connect returned %s", lost.Seq, errText(o.Err))
				}
				if old[moved.Params.Get("client_id")] || !registered {
					return gotf("the client authorized with the new authorization server (#%d) as client %q, the old server's, without registering there", moved.Seq, moved.Params.Get("client_id"))
				}
				return authorized(o)
			},
		},
	}
}

func authClientCredentials() Scenario {
	return Scenario{
		Name: "auth/client-credentials-basic",
		Mistake: "A machine-to-machine server: the authorization server offers the client credentials grant only (no authorization code, no registration), and the client was registered beforehand with a secret, which it is given (ClientContext, with grant_type client_credentials). " +
			"It catches clients of the client-credentials extension that send the secret the wrong way (anything but HTTP Basic, the only method listed) or go through a user's authorization.",
		Spec: "https://www.rfc-editor.org/rfc/rfc6749#section-4.4",
		Server: func(base *mcptest.Server) *mcptest.Server {
			return authServer(base, func(a *oauth.Options) {
				a.Clients = []oauth.Client{{ID: preregisteredID, Secret: preregisteredSecret}}
				a.MetadataFields["registration_endpoint"] = nil
				a.MetadataFields["grant_types_supported"] = []string{"client_credentials"}
				a.MetadataFields["token_endpoint_auth_methods_supported"] = []string{"client_secret_basic"}
			})
		},
		ClientContext: map[string]string{"client_id": preregisteredID, "client_secret": preregisteredSecret, "grant_type": "client_credentials"},
		Expect: Expectation{
			Description:   "the client asks the token endpoint for a client_credentials token, authenticated with HTTP Basic, and gets through",
			DecisionPoint: "the client sent a token request (a client that never uses the grant, not implementing the extension, is not judged)",
			NotApplicable: func(o Outcome) string {
				if len(authExchanges(o, oauth.EndpointAuthorize)) > 0 {
					return "the client authorizes with a user (the authorization code flow): it does not implement the client credentials extension"
				}
				return ""
			},
			Reached: sentTo(oauth.EndpointToken, "the client sent no token request"),
			Check: func(o Outcome) error {
				for _, x := range authExchanges(o, oauth.EndpointToken) {
					if g := x.Params.Get("grant_type"); g != "client_credentials" {
						return gotf("the token request #%d asked for grant_type %q, want client_credentials", x.Seq, g)
					}
					if x.ClientAuth != "client_secret_basic" {
						return gotf("the token request #%d authenticated with %s, want client_secret_basic", x.Seq, x.ClientAuth)
					}
				}
				return authorized(o)
			},
		},
	}
}
