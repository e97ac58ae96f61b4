package integration_test

// Authorization with the official Go SDK's auth package (go-sdk v1.8.0):
// AuthorizationCodeHandler on StreamableClientTransport.OAuthHandler, with a
// headless code fetcher that follows /authorize's 302 with a plain
// http.Client, in both eras: discovery, registration, authorization,
// token, a call, a refresh, a step-up.
//
// What go-sdk v1.8.0 does not do (each a known deviation, written down):
//   - It sends no resource parameter when it refreshes a token (oauth2's
//     TokenSource refreshes with grant_type and refresh_token only). The
//     mock checks resource on authorization_code token requests only, so
//     it does not blame this.
//   - A token the server rejects (401 invalid_token after ExpireToken) is
//     answered with a whole new authorization, not a refresh: the refresh
//     token is used only when oauth2's own clock says the token expired.
//   - It compares the metadata's issuer with the issuer ignoring one
//     trailing slash (authutil.IssuersEqual) and uses the metadata;
//     2026-07-28 says identical (auth/issuer-check; the iss check stops
//     the flow later). See TestAuthGoSDKIssuerTrailingSlash.
//   - With a Client ID Metadata Document URL as client id it authenticates
//     at the token endpoint with HTTP Basic and an empty secret (oauth2's
//     AuthStyleAutoDetect), not with none; the mock accepts it.
//   - It registers anew (DCR) at every authorization, a step-up too: the
//     client credentials are not kept.
//   - With only handshake-era versions pinned (ClientSessionOptions
//     ProtocolVersion), initialize is the request that gets the 401; with
//     the default client it is server/discover.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/oauth"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// headlessFetcher is the AuthorizationCodeFetcher of a test: it GETs the
// authorization URL, reads the 302 the mock answers at once, and returns
// the code, state and iss of its Location — what a browser and a loopback
// redirect listener would do, without either.
func headlessFetcher(c *http.Client) auth.AuthorizationCodeFetcher {
	nc := *c
	nc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, args.URL, nil)
		if err != nil {
			return nil, err
		}
		resp, err := nc.Do(req)
		if err != nil {
			return nil, err
		}
		resp.Body.Close()
		loc, err := url.Parse(resp.Header.Get("Location"))
		if resp.StatusCode != http.StatusFound || err != nil {
			return nil, fmt.Errorf("authorize: %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
		}
		q := loc.Query()
		if e := q.Get("error"); e != "" {
			return nil, fmt.Errorf("authorize: %s: %s", e, q.Get("error_description"))
		}
		return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
	}
}

// goSDKOAuth returns go-sdk's authorization-code handler registering with
// DCR, headless.
func goSDKOAuth(t *testing.T, c *http.Client) *auth.AuthorizationCodeHandler {
	t.Helper()
	h, err := auth.NewAuthorizationCodeHandler(goSDKOAuthConfig(c))
	require.NoError(t, err)
	return h
}

// goSDKOAuthConfig is goSDKOAuth's configuration: dynamic registration.
func goSDKOAuthConfig(c *http.Client) *auth.AuthorizationCodeHandlerConfig {
	return &auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName:   "gosdk-oauth-app",
			RedirectURIs: []string{"http://127.0.0.1:1/callback"},
			GrantTypes:   []string{"authorization_code", "refresh_token"},
		}},
		AuthorizationCodeFetcher: headlessFetcher(c),
		Client:                   c,
	}
}

// connectGoSDKOAuth connects go-sdk with its OAuth handler to srv.URL();
// version "" is the default client (which goes stateless against the mock).
func connectGoSDKOAuth(t *testing.T, srv *mcptest.Server, version string) (*mcp.ClientSession, error) {
	t.Helper()
	c := httpClient(t)
	cl := mcp.NewClient(&mcp.Implementation{Name: "gosdk-oauth-app", Version: "1.0.0"}, nil)
	var opts *mcp.ClientSessionOptions
	if version != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := cl.Connect(testContext(t), &mcp.StreamableClientTransport{Endpoint: srv.URL(), HTTPClient: c, OAuthHandler: goSDKOAuth(t, c)}, opts)
	if err == nil {
		t.Cleanup(func() { _ = cs.Close() })
	}
	return cs, err
}

func authToolServer(t *testing.T, o oauth.Options) *mcptest.Server {
	return mcptest.NewServer(t).
		WithTools(mcptest.NewTool("echo").Returns(mcptest.TextResult("hi")), mcptest.NewTool("delete").Returns(mcptest.TextResult("gone"))).
		WithAuthorization(oauth.New(o))
}

var gosdkEras = []struct{ name, version, era string }{
	{"handshake", "2025-11-25", "2025-11-25"},
	{"stateless", "", "2026-07-28"},
}

// TestAuthGoSDK: discovery, registration, authorization, token, a call.
func TestAuthGoSDK(t *testing.T) {
	for _, e := range gosdkEras {
		t.Run(e.name, func(t *testing.T) {
			srv := authToolServer(t, oauth.Options{Scopes: []string{"mcp:read"}})
			cs, err := connectGoSDKOAuth(t, srv, e.version)
			require.NoError(t, err)
			res, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "echo"})
			require.NoError(t, err)
			assert.Equal(t, "hi", res.Content[0].(*mcp.TextContent).Text)

			oauth.Of(srv).AssertAuthorized(t)
			oauth.Of(srv).AssertDiscovery(t, "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server/as")
			oauth.Of(srv).AssertScopesRequested(t, "mcp:read")
			oauth.Of(srv).AssertGrant(t, "authorization_code", "client_secret_basic") // RFC 7591's default method: go-sdk asks none
			srv.AssertToolCalled(t, "echo", nil)
			assert.Empty(t, oauth.Of(srv).Violations(), "go-sdk breaks no authorization rule")
			var reg oauth.Exchange
			for _, x := range oauth.Of(srv).Exchanges() {
				if x.Endpoint == oauth.EndpointRegister {
					reg = x
				}
			}
			assert.Equal(t, "native", reg.Params.Get("application_type"), "go-sdk infers application_type from a loopback redirect URI")
			d := srv.Journal().All().SequenceDiagram()
			assert.Contains(t, d, "participant AS as Authorization server (mcptest)")
			assert.Contains(t, d, "302 redirect code iss")
		})
	}
}

// TestAuthGoSDKRefresh: a token that lives 5 s, which oauth2 takes for
// expired (it refreshes 10 s early): every call refreshes, with rotation.
func TestAuthGoSDKRefresh(t *testing.T) {
	for _, e := range gosdkEras {
		t.Run(e.name, func(t *testing.T) {
			srv := authToolServer(t, oauth.Options{TokenLifetime: 5 * time.Second})
			cs, err := connectGoSDKOAuth(t, srv, e.version)
			require.NoError(t, err)
			for range 2 {
				_, err = cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "echo"})
				require.NoError(t, err)
			}
			oauth.Of(srv).AssertGrant(t, "refresh_token", "client_secret_basic")
			for _, x := range oauth.Of(srv).Exchanges() {
				assert.NotEqual(t, "invalid_grant", x.Error, "a rotated refresh token used twice")
			}
			assert.Empty(t, oauth.Of(srv).Violations())
		})
	}
}

// TestAuthGoSDKStepUp: a tool that needs a scope the token lacks: 403
// insufficient_scope, go-sdk authorizes again for the union, and retries.
func TestAuthGoSDKStepUp(t *testing.T) {
	for _, e := range gosdkEras {
		t.Run(e.name, func(t *testing.T) {
			srv := authToolServer(t, oauth.Options{Scopes: []string{"mcp:read"}, ToolScopes: map[string][]string{"delete": {"mcp:admin"}}})
			cs, err := connectGoSDKOAuth(t, srv, e.version)
			require.NoError(t, err)
			res, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "delete"})
			require.NoError(t, err)
			assert.Equal(t, "gone", res.Content[0].(*mcp.TextContent).Text)
			oauth.Of(srv).AssertReauthorized(t)
			oauth.Of(srv).AssertScopesRequested(t, "mcp:read", "mcp:admin")
			assert.Empty(t, oauth.Of(srv).Violations())
		})
	}
}

// TestAuthGoSDKFaults: go-sdk against the authorization faults.
func TestAuthGoSDKFaults(t *testing.T) {
	t.Run("ExpireToken: re-authorizes", func(t *testing.T) {
		srv := authToolServer(t, oauth.Options{}).WithFaults(oauth.ExpireToken().Nth(2))
		cs, err := connectGoSDKOAuth(t, srv, "")
		require.NoError(t, err)
		for range 2 {
			_, err = cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "echo"})
			require.NoError(t, err)
		}
		n := 0
		for _, x := range oauth.Of(srv).Exchanges() {
			if x.Endpoint == oauth.EndpointAuthorize {
				n++
			}
		}
		assert.Equal(t, 2, n, "go-sdk answers invalid_token with a new authorization")
	})
	for _, f := range []struct {
		name  string
		fault mcptest.Fault
		want  string
	}{
		{"NoPKCEMethods", oauth.NoPKCEMethods(), "does not implement PKCE"},
		{"MetadataIssuer", oauth.MetadataIssuer("http://127.0.0.1:1/as"), "does not match issuer"},
		{"IssTrailingSlash", oauth.IssTrailingSlash(), "does not match expected issuer"},
		{"AuthorizationIss omitted", oauth.AuthorizationIss(""), "none was received"},
		{"PRMResource", oauth.PRMResource("http://127.0.0.1:1/mcp"), ""},
		{"TokenError", oauth.TokenError("invalid_grant"), "invalid_grant"},
		{"WrongState", oauth.WrongState(), "state mismatch"},
		{"TokenStatus", oauth.TokenStatus(503), "503"},
	} {
		t.Run(f.name+": refuses", func(t *testing.T) {
			srv := authToolServer(t, oauth.Options{}).WithFaults(f.fault)
			_, err := connectGoSDKOAuth(t, srv, "2025-11-25")
			require.Error(t, err)
			if f.want != "" {
				assert.Contains(t, err.Error(), f.want)
			}
			assert.Empty(t, oauth.Of(srv).Violations(), "go-sdk refuses: no rule broken")
			var reached []string
			for _, x := range oauth.Of(srv).Exchanges() {
				reached = append(reached, x.Endpoint)
			}
			if f.name != "TokenError" && f.name != "TokenStatus" && f.name != "IssTrailingSlash" && f.name != "AuthorizationIss omitted" && f.name != "WrongState" {
				assert.NotContains(t, strings.Join(reached, " "), oauth.EndpointToken, "it never asked for a token")
			}
		})
	}
	t.Run("WWWAuthenticate: several challenges, quoted commas", func(t *testing.T) {
		srv := authToolServer(t, oauth.Options{}).
			WithFaults(oauth.WWWAuthenticate(`Basic realm="a, b", Bearer error_description="x, y", resource_metadata="{prm}", Foo="bar"`))
		cs, err := connectGoSDKOAuth(t, srv, "")
		require.NoError(t, err)
		_, err = cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "echo"})
		require.NoError(t, err)
		oauth.Of(srv).AssertAuthorized(t)
	})
	t.Run("SlowToken: a client timeout fails", func(t *testing.T) {
		srv := authToolServer(t, oauth.Options{}).WithFaults(oauth.SlowToken(time.Minute))
		c := httpClient(t)
		c.Timeout = 100 * time.Millisecond
		cl := mcp.NewClient(&mcp.Implementation{Name: "gosdk-oauth-app", Version: "1.0.0"}, nil)
		_, err := cl.Connect(testContext(t), &mcp.StreamableClientTransport{Endpoint: srv.URL(), HTTPClient: httpClient(t), OAuthHandler: goSDKOAuth(t, c)},
			&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		require.Error(t, err)
		var ue *url.Error
		assert.True(t, errors.As(err, &ue) || strings.Contains(err.Error(), "Client.Timeout"), "%v", err)
	})
}

// goSDKConnectWith connects go-sdk with a handler config of the test's.
func goSDKConnectWith(t *testing.T, srv *mcptest.Server, version string, cfg *auth.AuthorizationCodeHandlerConfig) error {
	t.Helper()
	c := httpClient(t)
	cfg.AuthorizationCodeFetcher, cfg.Client = headlessFetcher(c), c
	h, err := auth.NewAuthorizationCodeHandler(cfg)
	require.NoError(t, err)
	cl := mcp.NewClient(&mcp.Implementation{Name: "gosdk-oauth-app", Version: "1.0.0"}, nil)
	var opts *mcp.ClientSessionOptions
	if version != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := cl.Connect(testContext(t), &mcp.StreamableClientTransport{Endpoint: srv.URL(), HTTPClient: c, OAuthHandler: h}, opts)
	if err != nil {
		return err
	}
	t.Cleanup(func() { _ = cs.Close() })
	_, err = cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "echo"})
	return err
}

// TestAuthGoSDKRegistration: pre-registered clients (client_secret_post,
// as go-sdk prefers), Client ID Metadata Documents, and the 2025-03-26
// fallbacks (no PRM; metadata at the origin, or none).
func TestAuthGoSDKRegistration(t *testing.T) {
	t.Run("pre-registered confidential client", func(t *testing.T) {
		srv := authToolServer(t, oauth.Options{Clients: []oauth.Client{{ID: "app", Secret: "s3cret", RedirectURIs: []string{"http://127.0.0.1:1/callback"}}}})
		require.NoError(t, goSDKConnectWith(t, srv, "", &auth.AuthorizationCodeHandlerConfig{
			PreregisteredClient: &oauthex.ClientCredentials{ClientID: "app", ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: "s3cret"}},
			RedirectURL:         "http://127.0.0.1:1/callback",
		}))
		oauth.Of(srv).AssertGrant(t, "authorization_code", "client_secret_post")
		assert.Empty(t, oauth.Of(srv).Violations())
	})
	t.Run("pre-registered client, wrong secret", func(t *testing.T) {
		srv := authToolServer(t, oauth.Options{Clients: []oauth.Client{{ID: "app", Secret: "s3cret"}}})
		err := goSDKConnectWith(t, srv, "2025-11-25", &auth.AuthorizationCodeHandlerConfig{
			PreregisteredClient: &oauthex.ClientCredentials{ClientID: "app", ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: "wrong"}},
			RedirectURL:         "http://127.0.0.1:1/callback",
		})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "invalid_client")
	})
	t.Run("client_secret_basic only", func(t *testing.T) {
		srv := authToolServer(t, oauth.Options{Clients: []oauth.Client{{ID: "app", Secret: "s3cret"}}, MetadataFields: map[string]any{"token_endpoint_auth_methods_supported": []string{"client_secret_basic"}}})
		require.NoError(t, goSDKConnectWith(t, srv, "", &auth.AuthorizationCodeHandlerConfig{
			PreregisteredClient: &oauthex.ClientCredentials{ClientID: "app", ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: "s3cret"}},
			RedirectURL:         "http://127.0.0.1:1/callback",
		}))
		oauth.Of(srv).AssertGrant(t, "authorization_code", "client_secret_basic")
	})
	t.Run("Client ID Metadata Document", func(t *testing.T) {
		srv := authToolServer(t, oauth.Options{})
		require.NoError(t, goSDKConnectWith(t, srv, "", &auth.AuthorizationCodeHandlerConfig{
			ClientIDMetadataDocumentConfig: &auth.ClientIDMetadataDocumentConfig{URL: "https://client.example/oauth/app.json"},
			RedirectURL:                    "http://127.0.0.1:1/callback",
		}))
		// oauth2's AuthStyleAutoDetect: HTTP Basic with the URL and an empty secret, not none
		oauth.Of(srv).AssertGrant(t, "authorization_code", "client_secret_basic")
		for _, x := range oauth.Of(srv).Exchanges() {
			assert.NotEqual(t, oauth.EndpointRegister, x.Endpoint, "a CIMD client does not register")
		}
	})
	for _, metadata := range []bool{true, false} {
		t.Run(fmt.Sprintf("2025-03-26 fallback, metadata %v", metadata), func(t *testing.T) {
			srv := authToolServer(t, oauth.Options{LegacyDiscovery: true, NoMetadata: !metadata})
			require.NoError(t, goSDKConnectWith(t, srv, "2025-11-25", &auth.AuthorizationCodeHandlerConfig{
				DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
					RedirectURIs: []string{"http://127.0.0.1:1/callback"}}},
			}))
			discovery := []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server"}
			if !metadata {
				discovery = append(discovery, "/.well-known/openid-configuration")
			}
			oauth.Of(srv).AssertDiscovery(t, discovery...)
			oauth.Of(srv).AssertAuthorized(t)
			var paths []string
			for _, x := range oauth.Of(srv).Exchanges() {
				if x.Endpoint == oauth.EndpointRegister || x.Endpoint == oauth.EndpointAuthorize || x.Endpoint == oauth.EndpointToken {
					u, _ := url.Parse(x.URL)
					paths = append(paths, u.Path)
				}
			}
			assert.Equal(t, []string{"/register", "/authorize", "/token"}, paths, "the endpoints at the origin's root")
			assert.Empty(t, oauth.Of(srv).Violations())
		})
	}
	t.Run("OpenID metadata forms", func(t *testing.T) {
		srv := authToolServer(t, oauth.Options{MetadataAt: []oauth.MetadataForm{oauth.OpenIDAppended}})
		require.NoError(t, goSDKConnectWith(t, srv, "", &auth.AuthorizationCodeHandlerConfig{
			DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
				RedirectURIs: []string{"http://127.0.0.1:1/callback"}}},
		}))
		oauth.Of(srv).AssertDiscovery(t, "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server/as",
			"/.well-known/openid-configuration/as", "/as/.well-known/openid-configuration")
		assert.Empty(t, oauth.Of(srv).Violations())
	})
	for _, c := range []struct {
		name      string
		a         oauth.Options
		discovery []string
	}{
		{"PRM at the root, named by no challenge", oauth.Options{PRM: oauth.PRMAtRoot, NoResourceMetadata: true},
			[]string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server/as"}},
		{"PRM at a URL of its own", oauth.Options{PRMURL: "/meta/prm"},
			[]string{"/meta/prm", "/.well-known/oauth-authorization-server/as"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := authToolServer(t, c.a)
			require.NoError(t, goSDKConnectWith(t, srv, "", &auth.AuthorizationCodeHandlerConfig{
				DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
					RedirectURIs: []string{"http://127.0.0.1:1/callback"}}},
			}))
			oauth.Of(srv).AssertDiscovery(t, c.discovery...)
			oauth.Of(srv).AssertAuthorized(t)
			assert.Empty(t, oauth.Of(srv).Violations())
		})
	}
	t.Run("two authorization servers: the first is used", func(t *testing.T) {
		srv := authToolServer(t, oauth.Options{AuthorizationServers: 2})
		require.NoError(t, goSDKConnectWith(t, srv, "", &auth.AuthorizationCodeHandlerConfig{
			DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
				RedirectURIs: []string{"http://127.0.0.1:1/callback"}}},
		}))
		for _, x := range oauth.Of(srv).Exchanges() {
			if x.Endpoint == oauth.EndpointToken {
				assert.True(t, strings.HasSuffix(x.Issuer, "/as"), x.Issuer)
			}
		}
	})
}

// TestAuthGoSDKSwitchServer: the resource moves to another authorization
// server after its token is revoked; go-sdk discovers again and registers
// with the new one.
func TestAuthGoSDKSwitchServer(t *testing.T) {
	srv := authToolServer(t, oauth.Options{AuthorizationServers: 2}).
		WithFaults(oauth.RevokeToken().Nth(2), oauth.SwitchAuthorizationServer())
	cs, err := connectGoSDKOAuth(t, srv, "")
	require.NoError(t, err)
	for range 2 {
		_, err = cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "echo"})
		require.NoError(t, err)
	}
	var issuers []string
	for _, x := range oauth.Of(srv).Exchanges() {
		if x.Endpoint == oauth.EndpointRegister || x.Endpoint == oauth.EndpointToken {
			issuers = append(issuers, x.Endpoint+" "+x.Issuer[strings.LastIndex(x.Issuer, "/"):])
		}
	}
	assert.Equal(t, []string{"auth/register /as", "auth/token /as", "auth/register /as2", "auth/token /as2"}, issuers)
	assert.Empty(t, oauth.Of(srv).Violations())
}

// TestAuthGoSDKHandler: the same flow through srv.HTTPHandler() mounted on a
// server of the test's, at its root.
func TestAuthGoSDKHandler(t *testing.T) {
	srv := authToolServer(t, oauth.Options{})
	hs := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(hs.Close)
	c := httpClient(t)
	cl := mcp.NewClient(&mcp.Implementation{Name: "gosdk-oauth-app", Version: "1.0.0"}, nil)
	cs, err := cl.Connect(testContext(t), &mcp.StreamableClientTransport{Endpoint: hs.URL + "/mcp", HTTPClient: c, OAuthHandler: goSDKOAuth(t, c)}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	_, err = cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "echo"})
	require.NoError(t, err)
	oauth.Of(srv).AssertAuthorized(t)
	assert.Empty(t, oauth.Of(srv).Violations())
}

// TestAuthGoSDKIssuerTrailingSlash: metadata whose issuer is the issuer
// with a trailing slash. 2026-07-28 says the two MUST be identical, and a
// client MUST NOT use metadata whose issuer differs; go-sdk v1.8.0
// compares them ignoring one trailing slash (authutil.IssuersEqual) and
// uses the metadata — it registers and sends the authorization request —
// and fails only when the response's iss does not match the metadata's
// issuer. In the stateless era (its flow answers a 2026-07-28
// server/discover) that breaks auth/issuer-check; 2025-11-25 states no
// such rule.
func TestAuthGoSDKIssuerTrailingSlash(t *testing.T) {
	for _, e := range gosdkEras {
		t.Run(e.name, func(t *testing.T) {
			srv := authToolServer(t, oauth.Options{})
			srv.AddFault(oauth.MetadataIssuer(strings.TrimSuffix(srv.URL(), "/mcp") + "/as/")) // the issuer needs the URL: the server has started
			var want []mcptest.RuleID
			if e.version == "" {
				want = []mcptest.RuleID{"auth/issuer-check"}
				srv.ExpectViolation(want...)
			}
			_, err := connectGoSDKOAuth(t, srv, e.version)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "does not match expected issuer")
			var got []mcptest.RuleID
			for _, v := range oauth.Of(srv).Violations() {
				got = append(got, v.Rule)
			}
			assert.Equal(t, want, got)
		})
	}
}
