package oauth_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/internal/mcpclient"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/oauth"
	"github.com/tidwall/gjson"
)

func authServer(t testing.TB, o oauth.Options) *mcptest.Server {
	return mcptest.NewServer(t).
		WithTools(mcptest.NewTool("echo").Returns(mcptest.TextResult("hi")), mcptest.NewTool("delete").Returns(mcptest.TextResult("gone"))).
		WithAuthorization(oauth.New(o))
}

func endpoints(xs []oauth.Exchange) []string {
	var out []string
	for _, x := range xs {
		out = append(out, strings.TrimPrefix(x.Endpoint, "auth/")+" "+x.Method+" "+pathOf(x.URL)+" "+http.StatusText(x.Status))
	}
	return out
}

func pathOf(u string) string {
	p, _ := url.Parse(u)
	return p.Path
}

// TestAuthCorrectClient: a correct client, in both eras, gets a 401 with
// the challenge, discovers, registers, authorizes, gets a token, calls a
// tool with it, refreshes (the refresh token rotates), and breaks no rule.
func TestAuthCorrectClient(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			srv := authServer(t, oauth.Options{Scopes: []string{"mcp:read"}})
			o := newOAuthRaw(t, srv, version)
			o.connect()
			status, body := o.call("2", "tools/call", `{"name":"echo","arguments":{}}`)
			if status != http.StatusOK || !strings.Contains(body, `"hi"`) {
				t.Fatalf("tools/call: %d %s", status, body)
			}
			old := o.RefreshToken
			if !o.refreshToken() {
				t.Fatalf("refresh failed")
			}
			if status, body := o.call("3", "tools/call", `{"name":"echo","arguments":{}}`); status != http.StatusOK {
				t.Fatalf("tools/call after refresh: %d %s", status, body)
			}
			o.RefreshToken = old
			if o.refreshToken() {
				t.Fatalf("a refresh token was accepted twice: it must rotate")
			}
			oauth.Of(srv).AssertAuthorized(t)
			if v := oauth.Of(srv).Violations(); len(v) > 0 {
				t.Fatalf("a correct client broke rules: %v", v)
			}
			got := strings.Join(endpoints(oauth.Of(srv).Exchanges()), "\n")
			want := []string{
				"resource POST /mcp Unauthorized",
				"protected-resource-metadata GET /.well-known/oauth-protected-resource/mcp OK",
				"authorization-server-metadata GET /.well-known/oauth-authorization-server/as OK",
				"register POST /as/register Created",
				"authorize GET /as/authorize Found",
				"token POST /as/token OK",
				"token POST /as/token OK",
				"token POST /as/token Bad Request",
			}
			if got != strings.Join(want, "\n") {
				t.Fatalf("exchanges:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
			}
			xs := oauth.Of(srv).Exchanges()
			if xs[0].Challenge == "" || !strings.Contains(xs[0].Challenge, `resource_metadata="`+strings.TrimSuffix(srv.URL(), "/mcp")+`/.well-known/oauth-protected-resource/mcp"`) ||
				!strings.Contains(xs[0].Challenge, `scope="mcp:read"`) {
				t.Fatalf("challenge: %q", xs[0].Challenge)
			}
			if xs[len(xs)-1].Error != "invalid_grant" {
				t.Fatalf("reused refresh token: error %q, want invalid_grant", xs[len(xs)-1].Error)
			}
			tr := srv.Transcript()
			for _, s := range []string{"GET /.well-known/oauth-protected-resource/mcp", "302 Location: http://127.0.0.1:1/callback?code=", "401 WWW-Authenticate: Bearer"} {
				if !strings.Contains(tr, s) {
					t.Fatalf("transcript lacks %q:\n%s", s, tr)
				}
			}
			d := srv.Journal().All().SequenceDiagram()
			for _, s := range []string{"participant AS as Authorization server (mcptest)", "->>AS: GET /as/authorize?…", "AS-->>", ": 302 redirect code iss", "S-->>C0: 401 challenge", "participant C0 as Client (no session)", ": no Authorization header\n"} {
				if !strings.Contains(d, s) {
					t.Fatalf("diagram lacks %q:\n%s", s, d)
				}
			}
		})
	}
}

// TestAuthPipeUnaffected: a session of Dial needs no token.
func TestAuthPipeUnaffected(t *testing.T) {
	srv := authServer(t, oauth.Options{})
	c := mcpclient.Pipe(srv.Dial(), mcpclient.Options{Version: "2025-11-25"})
	defer c.Close()
	ctx := context.Background()
	if err := c.Connect(ctx); err != nil {
		t.Fatalf("the handshake over a pipe: %v", err)
	}
	res, err := c.Call(ctx, "tools/call", `{"name":"echo","arguments":{}}`)
	if err != nil || !strings.Contains(res.Raw, "hi") {
		t.Fatalf("tools/call over a pipe: %s %v", res.Raw, err)
	}
	if n := len(oauth.Of(srv).Exchanges()); n != 0 {
		t.Fatalf("%d authorization exchanges for a pipe session", n)
	}
}

// TestAuthStepUp: a tool that needs a scope the token lacks gets 403
// insufficient_scope naming it; the client re-authorizes with the union
// and the call passes.
func TestAuthStepUp(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			srv := authServer(t, oauth.Options{Scopes: []string{"mcp:read"}, ToolScopes: map[string][]string{"delete": {"mcp:admin"}}})
			o := newOAuthRaw(t, srv, version)
			o.connect()
			if status, body := o.call("2", "tools/call", `{"name":"echo","arguments":{}}`); status != http.StatusOK {
				t.Fatalf("echo: %d %s", status, body)
			}
			if status, body := o.call("3", "tools/call", `{"name":"delete","arguments":{}}`); status != http.StatusOK || !strings.Contains(body, "gone") {
				t.Fatalf("delete after step-up: %d %s", status, body)
			}
			var forbidden []oauth.Exchange
			for _, x := range oauth.Of(srv).Exchanges() {
				if x.Status == http.StatusForbidden {
					forbidden = append(forbidden, x)
				}
			}
			if len(forbidden) != 1 || !strings.Contains(forbidden[0].Challenge, `error="insufficient_scope"`) || !strings.Contains(forbidden[0].Challenge, `scope="mcp:admin"`) {
				t.Fatalf("403s: %+v", forbidden)
			}
			oauth.Of(srv).AssertReauthorized(t)
			oauth.Of(srv).AssertScopesRequested(t, "mcp:read", "mcp:admin")
			if v := oauth.Of(srv).Violations(); len(v) > 0 {
				t.Fatalf("violations: %v", v)
			}
		})
	}
}

// TestAuthBadInput: bad input at every endpoint gets the RFC's error,
// is journaled, and the server goes on.
func TestAuthBadInput(t *testing.T) {
	srv := authServer(t, oauth.Options{}).IgnoreViolations()
	o := newOAuthRaw(t, srv, "2025-11-25")
	o.connect() // a client registered, holding a token
	base := strings.TrimSuffix(srv.URL(), "/mcp")
	form := func(v url.Values) (int, gjson.Result) { return o.postForm(base+"/as/token", v) }
	cases := []struct {
		name   string
		do     func() (int, gjson.Result)
		status int
		err    string
	}{
		{"no grant_type", func() (int, gjson.Result) { return form(url.Values{"client_id": {o.ClientID}}) }, 400, "invalid_request"},
		{"unknown grant", func() (int, gjson.Result) {
			return form(url.Values{"client_id": {o.ClientID}, "grant_type": {"password"}})
		}, 400, "unsupported_grant_type"},
		{"unknown client", func() (int, gjson.Result) {
			return form(url.Values{"client_id": {"nobody"}, "grant_type": {"authorization_code"}, "code": {"x"}})
		}, 401, "invalid_client"},
		{"unknown code", func() (int, gjson.Result) {
			return form(url.Values{"client_id": {o.ClientID}, "grant_type": {"authorization_code"}, "code": {"x"}})
		}, 400, "invalid_grant"},
		{"register without redirect_uris", func() (int, gjson.Result) {
			resp, err := http.Post(base+"/as/register", "application/json", strings.NewReader(`{"client_name":"x"}`))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, gjson.ParseBytes(b)
		}, 400, "invalid_redirect_uri"},
		{"register garbage", func() (int, gjson.Result) {
			resp, err := http.Post(base+"/as/register", "application/json", strings.NewReader(`{`))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, gjson.ParseBytes(b)
		}, 400, "invalid_client_metadata"},
		{"authorize unknown client", func() (int, gjson.Result) {
			return o.getJSON(base + "/as/authorize?response_type=code&client_id=nobody&redirect_uri=http://127.0.0.1:1/cb")
		}, 400, "invalid_request"},
		{"metadata form not served", func() (int, gjson.Result) {
			return o.getJSON(base + "/.well-known/openid-configuration/as")
		}, 404, ""},
		{"GET the token endpoint", func() (int, gjson.Result) { return o.getJSON(base + "/as/token") }, 405, "invalid_request"},
		{"token request as JSON", func() (int, gjson.Result) {
			resp, err := http.Post(base+"/as/token", "application/json", strings.NewReader(`{"grant_type":"authorization_code"}`))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, gjson.ParseBytes(b)
		}, 400, "invalid_request"},
		{"a reused code", func() (int, gjson.Result) {
			v := url.Values{"response_type": {"code"}, "client_id": {o.ClientID}, "redirect_uri": {"http://127.0.0.1:1/callback"},
				"code_challenge": {"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"}, "code_challenge_method": {"S256"}, "resource": {srv.URL()}, "state": {"s"}}
			resp, err := o.HTTP.Get(base + "/as/authorize?" + v.Encode())
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			loc, _ := url.Parse(resp.Header.Get("Location"))
			tv := url.Values{"grant_type": {"authorization_code"}, "code": {loc.Query().Get("code")}, "client_id": {o.ClientID},
				"code_verifier": {"dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"}, "resource": {srv.URL()}}
			if status, _ := form(tv); status != http.StatusOK {
				t.Fatalf("the code's first use: %d", status)
			}
			return form(tv)
		}, 400, "invalid_grant"},
		{"a Basic credential at the MCP endpoint", func() (int, gjson.Result) {
			req, _ := http.NewRequest(http.MethodPost, srv.URL(), strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.SetBasicAuth("u", "p")
			resp, err := o.HTTP.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, gjson.ParseBytes(b)
		}, 401, "invalid_request"},
	}
	for _, c := range cases {
		status, body := c.do()
		if status != c.status || body.Get("error").String() != c.err {
			t.Errorf("%s: %d %s, want %d %s", c.name, status, body.Raw, c.status, c.err)
		}
	}
	// the server goes on
	if status, body := o.call("5", "tools/call", `{"name":"echo","arguments":{}}`); status != http.StatusOK {
		t.Fatalf("after bad input: %d %s", status, body)
	}
	n := 0
	for _, x := range oauth.Of(srv).Exchanges() {
		if x.Error != "" || x.Status == http.StatusNotFound {
			n++
		}
	}
	if n != len(cases) {
		t.Fatalf("%d refused exchanges journaled, want %d:\n%s", n, len(cases), strings.Join(endpoints(oauth.Of(srv).Exchanges()), "\n"))
	}
}

// TestAuthAdvertised: the authorization server does what its metadata
// says: no refresh_token grant, no refresh tokens; no
// registration_endpoint, no /register; no iss advertised, no iss sent.
func TestAuthAdvertised(t *testing.T) {
	srv := authServer(t, oauth.Options{Clients: []oauth.Client{{ID: "app"}}, MetadataFields: map[string]any{"grant_types_supported": []string{"authorization_code"}, "registration_endpoint": nil, "authorization_response_iss_parameter_supported": false}})
	o := newOAuthRaw(t, srv, "2025-11-25")
	o.ClientID, o.AuthMethod = "app", "none"
	o.connect()
	if o.RefreshToken != "" {
		t.Fatalf("a refresh token without the refresh_token grant")
	}
	o.RefreshToken = "x"
	if o.refreshToken() {
		t.Fatal("a refresh passed")
	}
	base := strings.TrimSuffix(srv.URL(), "/mcp")
	resp, err := http.Post(base+"/as/register", "application/json", strings.NewReader(`{"redirect_uris":["http://127.0.0.1:1/cb"]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var got []string
	for _, x := range oauth.Of(srv).Exchanges() {
		switch x.Endpoint {
		case oauth.EndpointAuthorize:
			got = append(got, "iss sent: "+fmt.Sprint(strings.Contains(x.Location, "iss=")))
		case oauth.EndpointToken:
			got = append(got, x.Params.Get("grant_type")+" "+x.Error)
		case oauth.EndpointRegister:
			got = append(got, "register "+fmt.Sprint(x.Status))
		}
	}
	want := "iss sent: false\nauthorization_code \nrefresh_token unsupported_grant_type\nregister 404"
	if strings.Join(got, "\n") != want {
		t.Fatalf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}
