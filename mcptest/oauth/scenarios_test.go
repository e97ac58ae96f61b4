package oauth_test

// The authorization scenarios (scenarios.Auth) played by the hand-written
// OAuth client of auth_rawclient_test.go: it lives in this package, with
// the knobs that each break one thing, so the scenarios are proven here.
// For every scenario a correct client passes and a client with the bug
// the scenario names fails.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/mcptest/oauth"
	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// connectOAuth is the ConnectFunc of the raw OAuth client of version,
// bent by bend (nil: correct): it connects, authorizing on the 401, and
// calls suggest_gifts, stepping up on a 403 insufficient_scope.
func connectOAuth(t *testing.T, version string, bend func(o *oauthRaw)) scenarios.ConnectFunc {
	return func(ctx context.Context, ep *scenarios.Endpoint) error {
		// The play runs this outside the test's goroutine: the raw
		// client's Fatalf ends the goroutine ft.Run starts and becomes
		// this ConnectFunc's error; its cleanups run when t ends.
		ft := faketb.New(t)
		o := newOAuthRawAt(ft, ep.URL(), version)
		o.CIMDURL = scenarios.CIMDClientID
		if c := ep.ClientContext(); c["client_id"] != "" { // pre-registered
			o.ClientID, o.ClientSecret, o.AuthMethod = c["client_id"], c["client_secret"], "client_secret_basic"
			o.ClientCredentials = c["grant_type"] == "client_credentials"
		}
		if bend != nil {
			bend(o)
		}
		var status int
		var body string
		if !ft.Run(func() {
			o.connect()
			id := "2"
			if o.stateless() {
				id = "1"
			}
			defer func() {
				if o.w.SessionID != "" { // a client that is done, or gives up, ends its session
					_ = o.w.Delete(ctx)
				}
			}()
			status, body = o.call(id, "tools/call", `{"name":"suggest_gifts","arguments":{"age":8}}`)
		}) {
			return errors.New(ft.FatalOutput())
		}
		if status != http.StatusOK {
			return fmt.Errorf("tools/call: %d %s", status, body)
		}
		return nil
	}
}

func TestAuthScenarios(t *testing.T) {
	const hs, sl = "2025-11-25", "2026-07-28"
	cases := []struct {
		name    string
		version string            // the clients' protocol version (default hs)
		wrong   func(o *oauthRaw) // the bug the scenario catches
	}{
		{name: "auth/metadata-default", wrong: func(o *oauthRaw) { o.Bugs.RootPRMFirst = true }},
		{name: "auth/metadata-var1", wrong: func(o *oauthRaw) { o.Bugs.OneMetadataForm = true }},
		{name: "auth/metadata-var2", wrong: func(o *oauthRaw) { o.Bugs.NoRootPRM = true }},
		{name: "auth/metadata-var3", wrong: func(o *oauthRaw) { o.Bugs.IgnoreChallengePRM = true }},
		{name: "auth/basic-cimd", wrong: func(o *oauthRaw) { o.CIMDURL = "" }},
		{name: "auth/scope-from-www-authenticate", wrong: func(o *oauthRaw) { o.Bugs.Scope = strp("mcp:basic mcp:admin") }},
		{name: "auth/scope-from-scopes-supported", wrong: func(o *oauthRaw) { o.Bugs.Scope = strp("") }},
		{name: "auth/scope-omitted-when-undefined", wrong: func(o *oauthRaw) { o.Bugs.Scope = strp("openid") }},
		{name: "auth/scope-step-up", wrong: func(o *oauthRaw) { o.Bugs.NoUnion = true }},
		{name: "auth/scope-retry-limit", wrong: func(o *oauthRaw) { o.Bugs.StepUps = 5 }},
		{name: "auth/token-endpoint-auth-basic", wrong: func(o *oauthRaw) { o.Bugs.ForceAuth = "client_secret_post" }},
		{name: "auth/token-endpoint-auth-post", wrong: func(o *oauthRaw) { o.Bugs.ForceAuth = "client_secret_basic" }},
		{name: "auth/token-endpoint-auth-none", wrong: func(o *oauthRaw) { o.Bugs.ForceAuth = "client_secret_basic" }},
		{name: "auth/pre-registration", wrong: func(o *oauthRaw) { o.ClientID, o.ClientSecret, o.AuthMethod = "", "", "" }},
		{name: "auth/2025-03-26-oauth-metadata-backcompat", version: "2025-03-26", wrong: func(o *oauthRaw) { o.Bugs.NoLegacyFallback = true }},
		{name: "auth/2025-03-26-oauth-endpoint-fallback", version: "2025-03-26", wrong: func(o *oauthRaw) { o.Bugs.NoLegacyFallback = true }},
		{name: "auth/resource-mismatch", wrong: func(o *oauthRaw) { o.Bugs.IgnorePRMResource = true }},
		{name: "auth/iss-supported", version: sl, wrong: func(o *oauthRaw) { o.Bugs.IssSlash = true }},
		{name: "auth/iss-not-advertised", version: sl, wrong: func(o *oauthRaw) { o.Bugs.RequireIss = true }},
		{name: "auth/iss-supported-missing", version: sl, wrong: func(o *oauthRaw) { o.Bugs.IgnoreIss = true }},
		{name: "auth/iss-wrong-issuer", version: sl, wrong: func(o *oauthRaw) { o.Bugs.IgnoreIss = true }},
		{name: "auth/iss-unexpected", version: sl, wrong: func(o *oauthRaw) { o.Bugs.IgnoreIss = true }},
		{name: "auth/iss-normalized", version: sl, wrong: func(o *oauthRaw) { o.Bugs.IgnoreIss = true }},
		{name: "auth/metadata-issuer-mismatch", wrong: func(o *oauthRaw) { o.Bugs.IgnoreIssuer = true }},
		{name: "auth/offline-access-scope", wrong: func(o *oauthRaw) { o.Bugs.NoRefreshGrant = true }},
		{name: "auth/offline-access-not-supported", wrong: func(o *oauthRaw) { o.Bugs.AddOffline = true }},
		{name: "auth/authorization-server-migration", wrong: func(o *oauthRaw) { o.Bugs.KeepClient = true }},
		{name: "auth/client-credentials-basic", wrong: func(o *oauthRaw) { o.Bugs.ForceAuth, o.AuthMethod = "client_secret_post", "client_secret_post" }},
		{name: "auth/no-pkce-support", wrong: func(o *oauthRaw) { o.Bugs.IgnoreNoPKCE = true }},
		{name: "auth/state-mismatch", wrong: func(o *oauthRaw) { o.Bugs.IgnoreState = true }},
		{name: "auth/token-expired", wrong: func(o *oauthRaw) { o.Bugs.NoReauth = true }},
		{name: "auth/token-revoked", wrong: func(o *oauthRaw) { o.Bugs.NoReauth = true }},
		{name: "auth/hard-www-authenticate", wrong: func(o *oauthRaw) { o.Bugs.IgnoreChallengePRM = true }},
		{name: "auth/no-prm", wrong: func(o *oauthRaw) { o.Bugs.LoopOn401 = true }},
		{name: "auth/several-authorization-servers", wrong: func(o *oauthRaw) { o.Bugs.MixServers = true }},
	}
	var names []string
	for _, s := range scenarios.Auth() {
		names = append(names, s.Name)
	}
	var tested []string
	for _, tc := range cases {
		tested = append(tested, tc.name)
		t.Run(tc.name, func(t *testing.T) {
			sc, ok := scenarios.Lookup(tc.name)
			require.True(t, ok, "Lookup(%q)", tc.name)
			version := tc.version
			if version == "" {
				version = hs
			}
			o := sc.Play(t, connectOAuth(t, version, nil))
			r := sc.Evaluate(o)
			assert.Equal(t, scenarios.Pass, r.Status, "a correct client: %s", r)
			assert.Empty(t, o.Violations, "a correct client breaks no rule")
			r = sc.Evaluate(sc.Play(t, connectOAuth(t, version, tc.wrong)))
			assert.Equal(t, scenarios.Fail, r.Status, "a client with the bug: %s", r)
		})
	}
	assert.ElementsMatch(t, names, tested, "every scenario of Auth is tested")

	// plain is the HTTP client of the clients below, which have no OAuth.
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	plain := &http.Client{Transport: tr}
	t.Run("a client without OAuth is not applicable", func(t *testing.T) {
		for _, sc := range scenarios.Auth() {
			r := sc.Evaluate(sc.Play(t, func(ctx context.Context, ep *scenarios.Endpoint) error { _ = ep.URL(); return nil }))
			assert.Equal(t, scenarios.NotApplicable, r.Status, "%s: %s", sc.Name, r)
			assert.Contains(t, r.Observed, "never met the authorization", sc.Name)
			r = sc.Evaluate(sc.Play(t, func(ctx context.Context, ep *scenarios.Endpoint) error {
				resp, err := plain.Post(ep.URL(), "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"plain","version":"1"}}}`))
				if err == nil {
					resp.Body.Close()
				}
				return err
			}))
			assert.Equal(t, scenarios.NotApplicable, r.Status, "%s: %s", sc.Name, r)
			assert.Contains(t, r.Observed, "no OAuth support", sc.Name)
		}
	})
	t.Run("a client that stops after the discovery never passes", func(t *testing.T) {
		for _, sc := range scenarios.Auth() {
			if sc.Name == "auth/resource-mismatch" {
				continue // stopping at a PRM for another resource is what it asks
			}
			r := sc.Evaluate(sc.Play(t, func(ctx context.Context, ep *scenarios.Endpoint) error {
				u, _ := url.Parse(ep.URL())
				resp, err := plain.Get(u.Scheme + "://" + u.Host + "/.well-known/oauth-protected-resource" + u.Path)
				if err == nil {
					resp.Body.Close()
				}
				return err
			}))
			assert.Contains(t, []scenarios.Status{scenarios.NotReached, scenarios.Fail}, r.Status, "%s: %s", sc.Name, r)
		}
	})
	t.Run("auth/no-prm does not blame the 2025-03-26 fallback", func(t *testing.T) {
		sc, _ := scenarios.Lookup("auth/no-prm")
		o := sc.Play(t, connectOAuth(t, "2025-03-26", nil))
		r := sc.Evaluate(o)
		assert.Equal(t, scenarios.Pass, r.Status, "%s", r)
		assert.Empty(t, o.Violations)
		var fellBack bool
		for _, x := range oauth.Of(o.Server).Exchanges() {
			fellBack = fellBack || x.Endpoint == oauth.EndpointMetadata && strings.HasSuffix(x.URL, "/.well-known/oauth-authorization-server")
		}
		assert.True(t, fellBack, "the 2025-03-26 client tried the origin's metadata")
	})
	t.Run("client-credentials does not apply to an authorization-code client", func(t *testing.T) {
		sc, _ := scenarios.Lookup("auth/client-credentials-basic")
		r := sc.Evaluate(sc.Play(t, connectOAuth(t, hs, func(o *oauthRaw) { o.ClientCredentials = false })))
		assert.Equal(t, scenarios.NotApplicable, r.Status, "%s", r)
	})
	t.Run("a stdio client is not applicable", func(t *testing.T) {
		for _, sc := range scenarios.Auth() {
			r := sc.Evaluate(sc.Play(t, func(ctx context.Context, ep *scenarios.Endpoint) error {
				conn, err := ep.Open()
				if err == nil {
					conn.Close()
				}
				return err
			}))
			assert.Equal(t, scenarios.NotApplicable, r.Status, "%s: %s", sc.Name, r)
		}
	})
	t.Run("Run plays them when Only names them", func(t *testing.T) {
		rep := scenarios.Run(t, connectOAuth(t, hs, nil), scenarios.Only("auth/metadata-default", "auth/state-mismatch"))
		require.Len(t, rep.Results, 2)
		for _, r := range rep.Results {
			assert.Equal(t, scenarios.Pass, r.Status, "%s", r)
		}
	})
	t.Run("the iss scenarios do not apply to a handshake-era client", func(t *testing.T) {
		sc, _ := scenarios.Lookup("auth/iss-wrong-issuer")
		r := sc.Evaluate(sc.Play(t, connectOAuth(t, hs, func(o *oauthRaw) { o.Bugs.IgnoreIss = true })))
		assert.Equal(t, scenarios.NotApplicable, r.Status, "%s", r)
		assert.Contains(t, r.Observed, "requirement of 2026-07-28")
	})
}
