package integration_test

// The examples of the section "Testing a client's authorization" of
// docs/authorization.md, run as they are written: the bodies between the
// markers are the page's blocks.

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	m3 "github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/oauth"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/stretchr/testify/require"
)

// docAuthServer is the page's server and its authorization.
func docAuthServer(t *testing.T) (*mcptest.Server, *oauth.Authorization) {
	authz := oauth.New(oauth.Options{
		Scopes:     []string{"mcp:read"},                         // scopes_supported, and the 401 challenge's scope
		ToolScopes: map[string][]string{"delete": {"mcp:admin"}}, // 403 insufficient_scope until the client steps up
	})
	srv := mcptest.NewServer(t).
		WithTools(mcptest.NewTool("echo").ReturnsText("hi"), mcptest.NewTool("delete").ReturnsText("gone")).
		WithAuthorization(authz)
	// mcpmock:fragment
	return srv, authz
}

func TestAuthDocGoSDK(t *testing.T) {
	t.Cleanup(http.DefaultTransport.(*http.Transport).CloseIdleConnections) // the page's clients use the default transport
	srv, authz := docAuthServer(t)
	ctx := testContext(t)
	impl := &mcp.Implementation{Name: "my-app", Version: "1.0.0"}
	// doc: go-sdk
	h, _ := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			RedirectURIs: []string{"http://127.0.0.1:1/callback"}}},
		AuthorizationCodeFetcher: func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			a, err := oauth.Approve(ctx, args.URL) // the mock approves at once: no browser
			return &auth.AuthorizationResult{Code: a.Code, State: a.State, Iss: a.Iss}, err
		},
	})
	cs, err := mcp.NewClient(impl, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL(), OAuthHandler: h}, nil)
	require.NoError(t, err)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "delete"}) // 403, step-up, retry: passes
	require.NoError(t, err)
	require.Equal(t, "gone", res.Content[0].(*mcp.TextContent).Text)

	authz.AssertAuthorized(t)
	authz.AssertDiscovery(t, "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server/as")
	authz.AssertReauthorized(t)                             // after the 403: a new authorization for mcp:admin, used
	authz.AssertScopesRequested(t, "mcp:read", "mcp:admin") // the step-up asked for the union
	authz.AssertGrant(t, "authorization_code", "client_secret_basic")
	// mcpmock:fragment
	// doc: end
	require.NoError(t, cs.Close())
}

func TestAuthDocMark3(t *testing.T) {
	t.Cleanup(http.DefaultTransport.(*http.Transport).CloseIdleConnections)
	srv, authz := docAuthServer(t)
	ctx := testContext(t)
	initRequest := m3.InitializeRequest{Params: m3.InitializeParams{ClientInfo: m3.Implementation{Name: "my-app", Version: "1.0.0"}}}
	// doc: mark3labs
	srv.ExpectViolation("auth/application-type") // v1.2.1 registers without application_type (2026-07-28)
	tr, _ := transport.NewStreamableHTTP(srv.URL(), transport.WithHTTPOAuth(transport.OAuthConfig{
		RedirectURI: "http://127.0.0.1:1/callback", PKCEEnabled: true, Scopes: []string{"mcp:read"}}))
	c := client.NewClient(tr)
	_ = c.Start(ctx)
	_, err := c.Initialize(ctx, initRequest)
	if client.IsOAuthAuthorizationRequiredError(err) {
		h := client.GetOAuthHandler(err)
		_ = h.RegisterClient(ctx, "my-app")
		verifier, _ := transport.GenerateCodeVerifier()
		state, _ := transport.GenerateState()
		authURL, _ := h.GetAuthorizationURL(ctx, state, transport.GenerateCodeChallenge(verifier))
		a, _ := oauth.Approve(ctx, authURL) // the mock approves at once: no browser
		_ = h.ProcessAuthorizationResponse(ctx, a.Code, a.State, verifier)
		_, err = c.Initialize(ctx, initRequest)
	}
	// mcpmock:fragment mark3labs
	// doc: end
	require.NoError(t, err)
	_, err = c.CallTool(ctx, m3.CallToolRequest{Params: m3.CallToolParams{Name: "echo"}})
	require.NoError(t, err)
	require.NoError(t, c.Close())
	authz.AssertAuthorized(t)
}

// TestAuthDocInStep: the blocks of docs/authorization.md are the ones
// above, line for line.
func TestAuthDocInStep(t *testing.T) {
	doc, name := readFile(t, "../docs/authorization.md"), "docs/authorization.md"
	section := between(t, doc+"\n## ", "## Testing a client's authorization\n", "\n## ", name) // the section runs to the next one, or to the end
	self := readFile(t, "auth_doc_test.go")
	dedent := func(s string) string {
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimPrefix(l, "\t")
		}
		return strings.Join(lines, "\n")
	}
	for _, c := range []struct{ marker, start string }{
		{"\t// doc: go-sdk\n", "```go\nh, _ := "},
		{"\t// doc: mark3labs\n", "```go\nsrv.ExpectViolation("},
	} {
		code := dedent(between(t, self, c.marker, "\t// doc: end\n", "auth_doc_test.go"))
		block := strings.TrimPrefix(c.start, "```go\n") + between(t, section, c.start, "```\n", name)
		sameLines(t, block, code, name, "auth_doc_test.go")
	}
	server := dedent(between(t, self, "\tauthz := oauth.New(oauth.Options{\n", "\treturn srv, authz\n", "auth_doc_test.go"))
	sameLines(t, "authz := oauth.New(oauth.Options{\n"+between(t, section, "```go\nauthz := oauth.New(oauth.Options{\n", "```\n", name), "authz := oauth.New(oauth.Options{\n"+server, name, "auth_doc_test.go")
}
