package oauth_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/oauth"
	"github.com/tidwall/gjson"
)

// Example: the mock as an OAuth-protected MCP server with its
// authorization server on the same origin. Raw net/http requests stand in
// for the client under test, a pre-registered public client (in your
// test: go-sdk's auth.AuthorizationCodeHandler on
// StreamableClientTransport.OAuthHandler, or mark3labs'
// transport.WithHTTPOAuth).
func Example() {
	t := &faketb.TB{Out: os.Stdout, FatalReturns: true}
	defer t.Finish()
	auth := oauth.New(oauth.Options{Scopes: []string{"mcp:read"}, Clients: []oauth.Client{{ID: "app"}}})
	srv := mcptest.NewServer(t).
		WithTools(mcptest.NewTool("echo").ReturnsText("hi")).
		WithAuthorization(auth)

	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	initialize := func(token string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, srv.URL(), strings.NewReader(
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"app","version":"1"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := c.Do(req)
		if err != nil {
			panic(err)
		}
		resp.Body.Close()
		return resp
	}

	resp := initialize("")
	fmt.Println("without a token:", resp.StatusCode, strings.Contains(resp.Header.Get("WWW-Authenticate"), `resource_metadata="`))

	// the flow: PRM, metadata, a headless authorization, the token
	base := strings.TrimSuffix(srv.URL(), "/mcp")
	get := func(u string) gjson.Result {
		resp, err := c.Get(u)
		if err != nil {
			panic(err)
		}
		defer resp.Body.Close()
		return gjson.Parse(readAll(resp))
	}
	prm := get(base + "/.well-known/oauth-protected-resource/mcp")
	meta := get(base + "/.well-known/oauth-authorization-server/as")
	fmt.Println("authorization server:", strings.TrimPrefix(prm.Get("authorization_servers.0").String(), base), "PKCE:", meta.Get("code_challenge_methods_supported").Raw)

	const verifier, challenge = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM" // RFC 7636's example
	q := url.Values{"response_type": {"code"}, "client_id": {"app"}, "redirect_uri": {"http://127.0.0.1:1/cb"}, "state": {"xyz"},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "resource": {prm.Get("resource").String()}, "scope": {"mcp:read"}}
	resp, _ = c.Get(meta.Get("authorization_endpoint").String() + "?" + q.Encode())
	resp.Body.Close()
	back, _ := url.Parse(resp.Header.Get("Location"))
	fmt.Println("authorize:", resp.StatusCode, "state", back.Query().Get("state"), "iss is the issuer:", back.Query().Get("iss") == meta.Get("issuer").String())

	resp, _ = c.PostForm(meta.Get("token_endpoint").String(), url.Values{"grant_type": {"authorization_code"}, "code": {back.Query().Get("code")},
		"code_verifier": {verifier}, "client_id": {"app"}, "redirect_uri": {"http://127.0.0.1:1/cb"}, "resource": {prm.Get("resource").String()}})
	tok := gjson.Parse(readAll(resp))
	resp.Body.Close()
	fmt.Println("token:", resp.StatusCode, tok.Get("token_type"), tok.Get("scope"))

	resp = initialize(tok.Get("access_token").String())
	fmt.Println("with the token:", resp.StatusCode)

	auth.AssertAuthorized(t)
	auth.AssertGrant(t, "authorization_code", "none")
	for _, x := range auth.Exchanges() {
		fmt.Println(x.Endpoint, x.Method, x.Status)
	}
	fmt.Println("violations:", len(auth.Violations()))
	// Output:
	// without a token: 401 true
	// authorization server: /as PKCE: ["S256"]
	// authorize: 302 state xyz iss is the issuer: true
	// token: 200 Bearer mcp:read
	// with the token: 200
	// auth/resource POST 401
	// auth/protected-resource-metadata GET 200
	// auth/authorization-server-metadata GET 200
	// auth/authorize GET 302
	// auth/token POST 200
	// violations: 0
}

func readAll(resp *http.Response) string {
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}
