package integration_test

// Authorization with mark3labs/mcp-go v1.2.1's OAuth client
// (transport.WithHTTPOAuth): the app drives the flow the SDK offers —
// on OAuthAuthorizationRequiredError it registers (RegisterClient), builds
// the authorization URL (GetAuthorizationURL), follows the 302 headless,
// and hands the code over (ProcessAuthorizationResponse) — in both eras.
//
// What mark3labs v1.2.1 does not do (each a known deviation, written down):
//   - PKCE is off unless OAuthConfig.PKCEEnabled is set: without it the
//     authorization request has no code_challenge (auth/pkce-s256; the mock
//     refuses the authorization with invalid_request).
//   - Its registration request carries no application_type, which
//     2026-07-28 makes a MUST (auth/application-type, in the stateless era).
//   - Scopes come from OAuthConfig.Scopes only, never from the challenge's
//     scope or the PRM's scopes_supported (auth/scope-selection, a warning,
//     when the server names scopes the app did not configure).
//   - A 403 insufficient_scope is an error for the app: there is no step-up.
//   - It compares the metadata's issuer ignoring a trailing slash and uses
//     it (auth/issuer-check, 2026-07-28).
//   - It does not check the authorization response's iss (the app gets the
//     code and state from the redirect; ProcessAuthorizationResponse takes
//     no iss).
//   - It discovers before its first request, from the endpoint's URL (no
//     401 first): the path-inserted PRM URL only, never the root one the
//     spec lists second; when that is missing it takes the 2025-03-26
//     fallback with the endpoint's path as the issuer. (After a 401 it uses
//     the challenge's resource_metadata.)
//   - Its DELETE at Close carries no Authorization header
//     (auth/token-every-request, in the handshake era).
//   - It refreshes only when its own clock says the token expired; the test
//     calls OAuthHandler.RefreshToken, the SDK's refresh, directly.

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	m3client "github.com/mark3labs/mcp-go/client"
	m3transport "github.com/mark3labs/mcp-go/client/transport"
	m3 "github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/oauth"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// followAuthorize GETs an authorization URL and returns the code and
// state of the 302 the mock answers.
func followAuthorize(ctx context.Context, c *http.Client, authURL string) (code, state string, err error) {
	nc := *c
	nc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return "", "", err
	}
	resp, err := nc.Do(req)
	if err != nil {
		return "", "", err
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil {
		return "", "", fmt.Errorf("authorize: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	q := loc.Query()
	if e := q.Get("error"); e != "" {
		return "", "", fmt.Errorf("authorize: %s: %s", e, q.Get("error_description"))
	}
	return q.Get("code"), q.Get("state"), nil
}

// mark3OAuth is a mark3labs client with OAuth, and what the test reads of it.
type mark3OAuth struct {
	c     *m3client.Client
	store *m3transport.MemoryTokenStore
	h     *m3transport.OAuthHandler
}

// connectMark3OAuth starts mark3labs with OAuth against srv.URL() and
// initializes it, running the authorization flow the way an app does
// when the SDK says it is required.
func connectMark3OAuth(t *testing.T, srv *mcptest.Server, cfg m3transport.OAuthConfig) (*mark3OAuth, error) {
	t.Helper()
	hc := httpClient(t)
	store := m3transport.NewMemoryTokenStore()
	cfg.RedirectURI, cfg.TokenStore, cfg.HTTPClient = "http://127.0.0.1:1/callback", store, hc
	tr, err := m3transport.NewStreamableHTTP(srv.URL(), m3transport.WithHTTPOAuth(cfg), m3transport.WithHTTPBasicClient(hc))
	require.NoError(t, err)
	c := m3client.NewClient(tr)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { _ = c.Close(); cancel() })
	require.NoError(t, c.Start(ctx))
	m := &mark3OAuth{c: c, store: store}
	init := func() error {
		_, err := c.Initialize(testContext(t), m3.InitializeRequest{Params: m3.InitializeParams{
			ClientInfo: m3.Implementation{Name: "mark3-oauth-app", Version: "1.0.0"},
		}})
		return err
	}
	err = init()
	if !m3client.IsOAuthAuthorizationRequiredError(err) {
		return m, err
	}
	m.h = m3client.GetOAuthHandler(err)
	ctx = testContext(t)
	if err := m.h.RegisterClient(ctx, "mark3-oauth-app"); err != nil {
		return m, err
	}
	verifier, err := m3transport.GenerateCodeVerifier()
	require.NoError(t, err)
	state, err := m3transport.GenerateState()
	require.NoError(t, err)
	authURL, err := m.h.GetAuthorizationURL(ctx, state, m3transport.GenerateCodeChallenge(verifier))
	if err != nil {
		return m, err
	}
	code, gotState, err := followAuthorize(ctx, hc, authURL)
	if err != nil {
		return m, err
	}
	if err := m.h.ProcessAuthorizationResponse(ctx, code, gotState, verifier); err != nil {
		return m, err
	}
	return m, init()
}

var mark3Eras = []struct {
	name     string
	versions []string
	rules    []mcptest.RuleID // broken during the flow
	atClose  []mcptest.RuleID // broken when the client closes
}{
	{"handshake", mcptest.HandshakeVersions(), nil, []mcptest.RuleID{"auth/token-every-request"}},
	{"stateless", nil, []mcptest.RuleID{"auth/application-type"}, nil},
}

// mark3HandshakeServer is a handshake-only server for mark3labs with
// authorization: its Close sends DELETE without the token.
func mark3HandshakeServer(t *testing.T, o oauth.Options) *mcptest.Server {
	return authToolServer(t, o).WithProtocolVersions(mcptest.HandshakeVersions()...).ExpectViolation("auth/token-every-request")
}

// TestAuthMark3: discovery, registration, authorization (PKCE on), token,
// a call, a refresh with rotation.
func TestAuthMark3(t *testing.T) {
	for _, e := range mark3Eras {
		t.Run(e.name, func(t *testing.T) {
			srv := authToolServer(t, oauth.Options{Scopes: []string{"mcp:read"}}).ExpectViolation(e.rules...).ExpectViolation(e.atClose...)
			if e.versions != nil {
				srv.WithProtocolVersions(e.versions...)
			}
			m, err := connectMark3OAuth(t, srv, m3transport.OAuthConfig{PKCEEnabled: true, Scopes: []string{"mcp:read"}})
			require.NoError(t, err)
			res, err := m.c.CallTool(testContext(t), m3.CallToolRequest{Params: m3.CallToolParams{Name: "echo"}})
			require.NoError(t, err)
			assert.Equal(t, "hi", res.Content[0].(m3.TextContent).Text)

			tok, err := m.store.GetToken(testContext(t))
			require.NoError(t, err)
			_, err = m.h.RefreshToken(testContext(t), tok.RefreshToken)
			require.NoError(t, err, "the SDK's refresh")
			_, err = m.h.RefreshToken(testContext(t), tok.RefreshToken)
			require.Error(t, err, "a rotated refresh token is spent")
			_, err = m.c.CallTool(testContext(t), m3.CallToolRequest{Params: m3.CallToolParams{Name: "echo"}})
			require.NoError(t, err, "a call with the refreshed token")

			oauth.Of(srv).AssertAuthorized(t)
			oauth.Of(srv).AssertDiscovery(t, "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server/as")
			oauth.Of(srv).AssertScopesRequested(t, "mcp:read")
			oauth.Of(srv).AssertGrant(t, "authorization_code", "none")
			oauth.Of(srv).AssertGrant(t, "refresh_token", "none")
			var got []mcptest.RuleID
			for _, v := range oauth.Of(srv).Violations() {
				got = append(got, v.Rule)
			}
			assert.ElementsMatch(t, e.rules, got, "%v", oauth.Of(srv).Violations())
		})
	}
}

// TestAuthMark3Deviations: what mark3labs does not do, as the mock sees it.
func TestAuthMark3Deviations(t *testing.T) {
	t.Run("PKCE off by default", func(t *testing.T) {
		srv := authToolServer(t, oauth.Options{}).WithProtocolVersions(mcptest.HandshakeVersions()...).ExpectViolation("auth/pkce-s256")
		_, err := connectMark3OAuth(t, srv, m3transport.OAuthConfig{})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "code_challenge is required")
	})
	t.Run("scopes from the config only", func(t *testing.T) {
		srv := mark3HandshakeServer(t, oauth.Options{Scopes: []string{"mcp:read"}})
		_, err := connectMark3OAuth(t, srv, m3transport.OAuthConfig{PKCEEnabled: true})
		require.NoError(t, err)
		var rules []mcptest.RuleID
		for _, v := range oauth.Of(srv).Violations() {
			rules = append(rules, v.Rule)
			assert.Equal(t, mcptest.SeverityWarning, v.Severity)
		}
		assert.Equal(t, []mcptest.RuleID{"auth/scope-selection"}, rules)
	})
	t.Run("no step-up", func(t *testing.T) {
		srv := mark3HandshakeServer(t, oauth.Options{ToolScopes: map[string][]string{"delete": {"mcp:admin"}}})
		m, err := connectMark3OAuth(t, srv, m3transport.OAuthConfig{PKCEEnabled: true})
		require.NoError(t, err)
		_, err = m.c.CallTool(testContext(t), m3.CallToolRequest{Params: m3.CallToolParams{Name: "delete"}})
		require.Error(t, err, "a 403 insufficient_scope reaches the app")
		n := 0
		for _, x := range oauth.Of(srv).Exchanges() {
			if x.Endpoint == oauth.EndpointAuthorize {
				n++
			}
		}
		assert.Equal(t, 1, n, "no second authorization")
	})
	t.Run("a forged state is refused", func(t *testing.T) {
		srv := authToolServer(t, oauth.Options{}).WithFaults(oauth.WrongState()) // refused before any MCP request: no era, no 2026-07-28 rule
		_, err := connectMark3OAuth(t, srv, m3transport.OAuthConfig{PKCEEnabled: true})
		require.ErrorIs(t, err, m3transport.ErrInvalidState)
	})
	t.Run("an issuer with a trailing slash is taken", func(t *testing.T) {
		// it compares issuers ignoring a trailing slash; 2026-07-28 says identical
		srv := authToolServer(t, oauth.Options{})
		srv.AddFault(oauth.MetadataIssuer(strings.TrimSuffix(srv.URL(), "/mcp") + "/as/")) // the issuer needs the URL: the server has started
		srv.ExpectViolation("auth/issuer-check", "auth/application-type")
		_, err := connectMark3OAuth(t, srv, m3transport.OAuthConfig{PKCEEnabled: true})
		require.NoError(t, err)
	})
	t.Run("a wrong iss goes unnoticed", func(t *testing.T) {
		// 2025-11-25 states no iss check, so no rule is broken; in
		// 2026-07-28 the same client breaks auth/iss-check.
		srv := authToolServer(t, oauth.Options{}).WithFaults(oauth.AuthorizationIss("http://127.0.0.1:1/as")).
			ExpectViolation("auth/iss-check", "auth/application-type")
		_, err := connectMark3OAuth(t, srv, m3transport.OAuthConfig{PKCEEnabled: true})
		require.NoError(t, err)
	})
	t.Run("no root PRM fallback", func(t *testing.T) {
		// It discovers before any request (no 401 first), from the
		// endpoint's URL: the path-inserted PRM URL, then, when that is
		// missing, the 2025-03-26 fallback with the endpoint's path as
		// issuer — never the root PRM URL the spec lists second.
		srv := authToolServer(t, oauth.Options{NoResourceMetadata: true, PRM: oauth.PRMAtRoot}).
			WithProtocolVersions(mcptest.HandshakeVersions()...)
		_, err := connectMark3OAuth(t, srv, m3transport.OAuthConfig{PKCEEnabled: true})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "404")
		oauth.Of(srv).AssertDiscovery(t, "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server/mcp",
			"/.well-known/openid-configuration/mcp", "/mcp/.well-known/openid-configuration")
	})
}
