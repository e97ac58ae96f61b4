// Package oauth makes an mcptest server an OAuth-protected MCP server,
// with its authorization server in the same test on the same loopback
// origin, and checks what the spec's basic/authorization asks of the
// client (2025-03-26 to 2026-07-28). A go-sdk client with the SDK's auth:
//
//	authz := oauth.New(oauth.Options{Scopes: []string{"mcp:read"}})
//	srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("echo").ReturnsText("hi")).WithAuthorization(authz)
//
//	h, _ := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
//		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{
//			Metadata: &oauthex.ClientRegistrationMetadata{RedirectURIs: []string{"http://127.0.0.1:1/callback"}}},
//		AuthorizationCodeFetcher: func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
//			a, err := oauth.Approve(ctx, args.URL) // the mock approves at once: no browser
//			return &auth.AuthorizationResult{Code: a.Code, State: a.State, Iss: a.Iss}, err
//		},
//	})
//	cs, err := mcp.NewClient(impl, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL(), OAuthHandler: h}, nil)
//	// mcpmock:fragment … the code under test calls tools through cs …
//	authz.AssertAuthorized(t) // a token issued, and an MCP request let through with it
//
// Every HTTP request to the MCP endpoint then needs Authorization: Bearer
// <token>; a request without one gets 401 with the challenge, and the
// client discovers (Protected Resource Metadata, authorization server
// metadata), registers, authorizes with PKCE, and gets a token. Sessions
// of Server.Dial and Server.Serve are unaffected: stdio has no
// authorization in the spec.
//
// # Options
//
// Options configure the arrangement, and their zero value follows the
// current spec: where the metadata is served (PRM, PRMURL, IssuerPath,
// MetadataAt, LegacyDiscovery for the 2025-03-26 one), what it says
// (Scopes, PRMFields, MetadataFields: the server does what it
// advertises), which scopes a method or tool needs (MethodScopes,
// ToolScopes: 403 insufficient_scope, the step-up), the clients
// registered beforehand (Clients), and the tokens (TokenLifetime,
// NoRefreshTokens). An Authorization serves one server; Of returns the one
// a server has.
//
// # What the test reads
//
// Every exchange of the flow is in the server's one journal, as messages of
// Kind mcptest.KindAuth whose Method is the endpoint (EndpointResource,
// EndpointPRM, …), drawn in the transcript and the sequence diagram
// between the client, the server and an "Authorization server" lane;
// Authorization.Exchanges lists them with their parameters, status,
// challenge and OAuth error. The assertions (AssertAuthorized,
// AssertDiscovery, AssertScopesRequested, AssertGrant, AssertReauthorized)
// wait up to the server's wait timeout, as mcptest's do.
//
// # Client rules
//
// What the spec asks of the client is checked: the auth/… rules are rows
// of mcptest's one rule table (mcptest.Rules), so Server.ExpectViolation
// and the end-of-test verdict know them like any other. Each is judged
// against the protocol version the client's flow is for;
// Authorization.Violations lists those broken.
//
// # Faults
//
// The authorization faults (ExpireToken, RevokeToken, InsufficientScope,
// WWWAuthenticate, AuthorizationIss, WrongState, NoPRM, TokenError, …) are
// mcptest.Fault values like package fault's: installed with
// Server.WithFaults or Server.AddFault, refined with Nth, InSession and
// Optional, and reported when they never acted. They act only on a server
// with an Authorization.
//
// docs/authorization.md describes what the mock serves in full, with the
// mark3labs client and the authorization scenarios of package scenarios.
package oauth
