package oauth_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/oauth"
)

// authRuleCase is a raw OAuth client that breaks authorization rules on
// purpose, or a correct one that must break none.
type authRuleCase struct {
	name    string
	version string // default 2025-11-25
	auth    oauth.Options
	faults  []mcptest.Fault
	knob    func(o *oauthRaw)
	run     func(t *testing.T, o *oauthRaw) // default: connect, then a tools/call
	rules   []mcptest.RuleID                // what it breaks; none: a correct client
}

func strp(s string) *string { return &s }

var authRuleCases = []authRuleCase{
	{name: "no code_challenge", knob: func(o *oauthRaw) { o.Bugs.NoPKCE = true }, rules: []mcptest.RuleID{"auth/pkce-s256"}, run: refusedRun},
	{name: "no code_challenge, 2025-03-26", version: "2025-03-26", knob: func(o *oauthRaw) { o.Bugs.NoPKCE = true }, rules: []mcptest.RuleID{"auth/pkce-s256"}, run: refusedRun},
	{name: "no resource, 2025-03-26 (no such rule)", version: "2025-03-26", knob: func(o *oauthRaw) { o.Bugs.NoResource = true; o.Bugs.NoTokenResource = true }},
	{name: "plain code_challenge", knob: func(o *oauthRaw) { o.Bugs.PlainPKCE = true }, rules: []mcptest.RuleID{"auth/pkce-s256"}, run: refusedRun},
	{name: "wrong code_verifier", knob: func(o *oauthRaw) { o.Bugs.WrongVerifier = true }, rules: []mcptest.RuleID{"auth/pkce-s256"}, run: refusedRun},
	{name: "goes on without code_challenge_methods_supported", faults: []mcptest.Fault{oauth.NoPKCEMethods()},
		knob: func(o *oauthRaw) { o.Bugs.IgnoreNoPKCE = true }, rules: []mcptest.RuleID{"auth/pkce-metadata"}},
	{name: "refuses without code_challenge_methods_supported", faults: []mcptest.Fault{oauth.NoPKCEMethods()}, run: refusedRun},
	{name: "no resource in the authorization request", knob: func(o *oauthRaw) { o.Bugs.NoResource = true }, rules: []mcptest.RuleID{"auth/resource-parameter"}},
	{name: "no resource in the token request", knob: func(o *oauthRaw) { o.Bugs.NoTokenResource = true }, rules: []mcptest.RuleID{"auth/resource-parameter"}},
	{name: "resource differs between the requests", knob: func(o *oauthRaw) { o.Bugs.TokenResource = strings.TrimSuffix(o.MCPURL, "/mcp") }, rules: []mcptest.RuleID{"auth/resource-parameter"}},
	{name: "resource of another server", knob: func(o *oauthRaw) { o.Bugs.Resource = "http://127.0.0.1:1/other" },
		rules: []mcptest.RuleID{"auth/resource-parameter", "auth/token-audience"}, run: refusedRun},
	{name: "origin as resource", knob: func(o *oauthRaw) { o.Bugs.Resource = strings.TrimSuffix(o.MCPURL, "/mcp") }},
	{name: "token in the query string", rules: []mcptest.RuleID{"auth/token-in-header"}, run: func(t *testing.T, o *oauthRaw) {
		o.connect()
		o.Bugs.TokenInQuery = true
		if status, _, _ := o.send("2", "tools/list", ""); status != http.StatusUnauthorized {
			t.Fatalf("token in the query: %d, want 401", status)
		}
	}},
	{name: "no token on a later request", rules: []mcptest.RuleID{"auth/token-every-request"}, run: tokenlessRun},
	{name: "no token on a later stateless request", version: "2026-07-28", rules: []mcptest.RuleID{"auth/token-every-request"}, run: tokenlessRun},
	{name: "a token never issued", rules: []mcptest.RuleID{"auth/token-audience"}, run: func(t *testing.T, o *oauthRaw) {
		o.Token = "forged"
		if status, _, _ := o.send("1", "tools/list", ""); status != http.StatusUnauthorized {
			t.Fatalf("a forged token: %d, want 401", status)
		}
	}},
	{name: "no state", knob: func(o *oauthRaw) { o.Bugs.NoState = true }, rules: []mcptest.RuleID{"auth/state"}},
	{name: "a forged state sent on", faults: []mcptest.Fault{oauth.WrongState()}, knob: func(o *oauthRaw) { o.Bugs.IgnoreState = true }, rules: []mcptest.RuleID{"auth/state"}},
	{name: "root PRM before the challenge's", knob: func(o *oauthRaw) { o.Bugs.RootPRMFirst = true }, rules: []mcptest.RuleID{"auth/discovery-order"}},
	{name: "root PRM before the path-inserted one", auth: oauth.Options{NoResourceMetadata: true, PRM: oauth.PRMAtRoot},
		knob: func(o *oauthRaw) { o.Bugs.RootPRMFirst = true }, rules: []mcptest.RuleID{"auth/discovery-order"}},
	{name: "PRM at a URL of its own", auth: oauth.Options{PRMURL: "/meta/prm"}},
	{name: "well-known PRM order", auth: oauth.Options{NoResourceMetadata: true, PRM: oauth.PRMAtRoot}},
	{name: "OpenID before OAuth metadata", auth: oauth.Options{MetadataAt: []oauth.MetadataForm{oauth.OAuthInserted, oauth.OpenIDInserted}}, knob: func(o *oauthRaw) { o.Bugs.OpenIDFirst = true }, rules: []mcptest.RuleID{"auth/discovery-order"}},
	{name: "OpenID appended only", auth: oauth.Options{MetadataAt: []oauth.MetadataForm{oauth.OpenIDAppended}}},
	{name: "scope not the challenge's", auth: oauth.Options{Scopes: []string{"mcp:read"}},
		knob: func(o *oauthRaw) { o.Bugs.Scope = strp("other") }, rules: []mcptest.RuleID{"auth/scope-selection"}},
	{name: "scope not scopes_supported", auth: oauth.Options{Scopes: []string{"mcp:read"}, NoChallengeScope: true},
		knob: func(o *oauthRaw) { o.Bugs.Scope = strp("") }, rules: []mcptest.RuleID{"auth/scope-selection"}},
	{name: "scopes_supported without a challenge scope", auth: oauth.Options{Scopes: []string{"a", "b"}, NoChallengeScope: true}},
	{name: "step-ups unbounded", auth: oauth.Options{ToolScopes: map[string][]string{"echo": {"mcp:admin"}}},
		knob: func(o *oauthRaw) { o.Bugs.Scope, o.Bugs.StepUps = strp("mcp:read"), 5 }, rules: []mcptest.RuleID{"auth/step-up-bounded", "auth/scope-selection"}, run: func(t *testing.T, o *oauthRaw) {
			o.connect()
			if status, _ := o.call("2", "tools/call", `{"name":"echo","arguments":{}}`); status != http.StatusForbidden {
				t.Fatalf("echo with the wrong scope: %d, want 403", status)
			}
		}},
	{name: "step-up drops granted scopes", version: "2026-07-28", auth: oauth.Options{Scopes: []string{"mcp:read"}, ToolScopes: map[string][]string{"delete": {"mcp:admin"}}}, knob: func(o *oauthRaw) { o.Bugs.NoUnion = true }, rules: []mcptest.RuleID{"auth/step-up-scope-union"}, run: deleteRun},
	{name: "step-up drops granted scopes, 2025-11-25 (no such rule)", auth: oauth.Options{Scopes: []string{"mcp:read"}, ToolScopes: map[string][]string{"delete": {"mcp:admin"}}}, knob: func(o *oauthRaw) { o.Bugs.NoUnion = true }, run: deleteRun},
	{name: "wrong iss sent on", version: "2026-07-28", faults: []mcptest.Fault{oauth.AuthorizationIss("http://evil.example/as")},
		knob: func(o *oauthRaw) { o.Bugs.IgnoreIss = true }, rules: []mcptest.RuleID{"auth/iss-check"}},
	{name: "missing iss sent on", version: "2026-07-28", faults: []mcptest.Fault{oauth.AuthorizationIss("")},
		knob: func(o *oauthRaw) { o.Bugs.IgnoreIss = true }, rules: []mcptest.RuleID{"auth/iss-check"}},
	{name: "iss with a trailing slash sent on", version: "2026-07-28", faults: []mcptest.Fault{oauth.IssTrailingSlash()},
		knob: func(o *oauthRaw) { o.Bugs.IgnoreIss = true }, rules: []mcptest.RuleID{"auth/iss-check"}},
	{name: "wrong iss refused", version: "2026-07-28", faults: []mcptest.Fault{oauth.IssTrailingSlash()}, run: refusedRun},
	{name: "wrong iss sent on, 2025-11-25 (no such rule)", faults: []mcptest.Fault{oauth.IssTrailingSlash()}, knob: func(o *oauthRaw) { o.Bugs.IgnoreIss = true }},
	{name: "metadata of another issuer used", version: "2026-07-28", faults: []mcptest.Fault{oauth.MetadataIssuer("http://evil.example")},
		knob: func(o *oauthRaw) { o.Bugs.IgnoreIssuer = true }, rules: []mcptest.RuleID{"auth/issuer-check"}},
	{name: "metadata of another issuer refused", version: "2026-07-28", faults: []mcptest.Fault{oauth.MetadataIssuer("http://evil.example")}, run: refusedRun},
	{name: "registration without application_type", version: "2026-07-28", knob: func(o *oauthRaw) { o.Bugs.NoAppType = true }, rules: []mcptest.RuleID{"auth/application-type"}},
	{name: "registration without application_type, 2025-11-25 (no such rule)", knob: func(o *oauthRaw) { o.Bugs.NoAppType = true }},
	{name: "credentials of another authorization server", version: "2026-07-28",
		auth:  oauth.Options{AuthorizationServers: 2},
		rules: []mcptest.RuleID{"auth/credentials-per-server"}, run: func(t *testing.T, o *oauthRaw) {
			o.connect() // registered with /as
			v := url.Values{"response_type": {"code"}, "client_id": {o.ClientID}, "redirect_uri": {"http://127.0.0.1:1/callback"}}
			resp, err := o.HTTP.Get(strings.TrimSuffix(o.MCPURL, "/mcp") + "/as2/authorize?" + v.Encode())
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest {
				t.Fatalf("another server's client id at /as2: %d, want 400", resp.StatusCode)
			}
		}},
	{name: "client_secret_post", knob: func(o *oauthRaw) { o.ClientAuth = "client_secret_post" }},
	{name: "client_secret_basic", knob: func(o *oauthRaw) { o.ClientAuth = "client_secret_basic" }},
}

// refusedRun: the client never gets through.
func refusedRun(t *testing.T, o *oauthRaw) {
	if o.stateless() {
		if status, _ := o.call("1", "tools/call", `{"name":"echo","arguments":{}}`); status == http.StatusOK {
			t.Fatalf("the call passed")
		}
		return
	}
	if status, _ := o.call("1", "initialize", `{"protocolVersion":"`+o.Version+`","capabilities":{},"clientInfo":{"name":"oauthraw","version":"1"}}`); status == http.StatusOK {
		t.Fatalf("initialize passed")
	}
}

// tokenlessRun: after a call with the token, one without it.
func tokenlessRun(t *testing.T, o *oauthRaw) {
	o.connect()
	if status, body := o.call("2", "tools/call", `{"name":"echo","arguments":{}}`); status != http.StatusOK {
		t.Fatalf("tools/call: %d %s", status, body)
	}
	o.Token = ""
	if status, _, _ := o.send("3", "tools/list", ""); status != http.StatusUnauthorized {
		t.Fatalf("without a token: %d, want 401", status)
	}
}

func deleteRun(t *testing.T, o *oauthRaw) {
	o.connect()
	if status, body := o.call("2", "tools/call", `{"name":"echo","arguments":{}}`); status != http.StatusOK {
		t.Fatalf("echo: %d %s", status, body)
	}
	o.call("3", "tools/call", `{"name":"delete","arguments":{}}`)
}

// TestAuthRules: each rule is broken by a client that gets it wrong, and
// a client that gets it right breaks none.
func TestAuthRules(t *testing.T) {
	for _, c := range authRuleCases {
		t.Run(c.name, func(t *testing.T) {
			srv := authServer(t, c.auth).WithFaults(c.faults...).ExpectViolation(c.rules...)
			version := c.version
			if version == "" {
				version = "2025-11-25"
			}
			o := newOAuthRaw(t, srv, version)
			if c.knob != nil {
				c.knob(o)
			}
			if c.run != nil {
				c.run(t, o)
			} else {
				o.connect()
				if status, body := o.call("2", "tools/call", `{"name":"echo","arguments":{}}`); status != http.StatusOK {
					t.Fatalf("tools/call: %d %s", status, body)
				}
			}
			var got []mcptest.RuleID
			for _, v := range oauth.Of(srv).Violations() {
				if strings.HasPrefix(string(v.Rule), "auth/") && !slices.Contains(got, v.Rule) {
					got = append(got, v.Rule)
				}
				if v.Rule == "auth/pkce-s256" && version == "2025-03-26" && !strings.HasSuffix(v.URL(), "/2025-03-26/basic/authorization#implementation-requirements") {
					t.Errorf("%s at %s, want 2025-03-26's section", v.Rule, v.URL())
				}
				if strings.HasPrefix(string(v.Rule), "auth/") && (v.Spec != version || !strings.Contains(v.URL(), "/basic/authorization")) {
					t.Errorf("%s checked against %s at %s, want %s", v.Rule, v.Spec, v.URL(), version)
				}
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(c.rules))
			if !slices.Equal(got, want) {
				t.Fatalf("broke %v, want %v:\n%v", got, want, srv.Violations())
			}
		})
	}
}

// TestAuthScopeSelectionJudgesTheSentChallenge: auth/scope-selection
// judges the client against the scope of the challenge it was shown. With
// NoChallengeScope the 401 names no scope even when the method needs one
// (MethodScopes), so a client that asks for scopes_supported is right,
// then steps up on the 403 that does name it.
func TestAuthScopeSelectionJudgesTheSentChallenge(t *testing.T) {
	auth := oauth.New(oauth.Options{Scopes: []string{"mcp:x"}, MethodScopes: map[string][]string{"initialize": {"mcp:init"}}, NoChallengeScope: true})
	srv := mcptest.NewServer(t).WithAuthorization(auth)
	o := newOAuthRaw(t, srv, "2025-11-25")
	o.connect()
	auth.AssertAuthorized(t)
	if v := auth.Violations(); len(v) != 0 {
		t.Errorf("a client that asked for what it was shown was blamed: %v", v)
	}
}

// TestEveryAuthRuleHasACase fails when an authorization rule of mcptest's
// table (an auth/ ID) has no case of authRuleCases whose client breaks
// it, or a case names a rule the table does not have.
func TestEveryAuthRuleHasACase(t *testing.T) {
	covered := map[mcptest.RuleID]bool{}
	for _, c := range authRuleCases {
		for _, r := range c.rules {
			covered[r] = true
		}
	}
	auth := 0
	for _, r := range mcptest.Rules() {
		if !strings.HasPrefix(string(r.ID), "auth/") {
			continue
		}
		auth++
		if !covered[r.ID] {
			t.Errorf("rule %s has no wrong client: add a case that breaks it to authRuleCases", r.ID)
		}
		delete(covered, r.ID)
	}
	if auth == 0 {
		t.Fatal("mcptest.Rules() lists no auth/ rule")
	}
	for r := range covered {
		t.Errorf("a case names %q, which mcptest.Rules() does not list", r)
	}
}
