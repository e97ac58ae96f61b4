package oauth_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/oauth"
)

func errorsOf(srv *mcptest.Server) []string {
	var out []string
	for _, x := range oauth.Of(srv).Exchanges() {
		if x.Error != "" || x.Status >= 400 {
			out = append(out, strings.TrimPrefix(x.Endpoint, "auth/")+" "+http.StatusText(x.Status)+" "+x.Error)
		}
	}
	return out
}

// TestAuthFaults: each authorization fault acts as it says, and a
// correct client copes or fails as it should.
func TestAuthFaults(t *testing.T) {
	echo := func(t *testing.T, o *oauthRaw) int {
		status, _ := o.call("2", "tools/call", `{"name":"echo","arguments":{}}`)
		return status
	}
	cases := []struct {
		name   string
		fault  mcptest.Fault
		status int      // of the tools/call
		errors []string // the refused exchanges, in order
		check  func(t *testing.T, srv *mcptest.Server, o *oauthRaw)
	}{
		{name: "ExpireToken at the 2nd request", fault: oauth.ExpireToken().Nth(2), status: 200,
			errors: []string{"resource Unauthorized ", "resource Unauthorized invalid_token"}},
		{name: "RevokeToken", fault: oauth.RevokeToken().Nth(2), status: 200,
			errors: []string{"resource Unauthorized ", "resource Unauthorized invalid_token"},
			check: func(t *testing.T, srv *mcptest.Server, o *oauthRaw) {
				// the first grant's refresh token was revoked with the token; the client re-authorized
				if n := strings.Count(strings.Join(endpoints(oauth.Of(srv).Exchanges()), "\n"), "authorize GET"); n != 2 {
					t.Fatalf("%d authorizations, want 2", n)
				}
			}},
		{name: "InsufficientScope", fault: oauth.InsufficientScope("tools/call", "mcp:write"), status: 200,
			errors: []string{"resource Unauthorized ", "resource Forbidden insufficient_scope"},
			check: func(t *testing.T, srv *mcptest.Server, o *oauthRaw) {
				oauth.Of(srv).AssertReauthorized(t)
				oauth.Of(srv).AssertScopesRequested(t, "mcp:write")
			}},
		{name: "PRMResource", fault: oauth.PRMResource("http://127.0.0.1:1/other"), status: 401,
			errors: []string{"resource Unauthorized "}},
		{name: "NoPRM", fault: oauth.NoPRM(), status: 401,
			errors: []string{"resource Unauthorized ", "protected-resource-metadata Not Found ", "protected-resource-metadata Not Found ", "protected-resource-metadata Not Found "},
			check: func(t *testing.T, srv *mcptest.Server, o *oauthRaw) {
				oauth.Of(srv).AssertDiscovery(t, "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource")
			}},
		{name: "TokenError", fault: oauth.TokenError("invalid_grant"), status: 401,
			errors: []string{"resource Unauthorized ", "token Bad Request invalid_grant"}},
		{name: "TokenError on the refresh only", fault: oauth.TokenError("invalid_grant").Nth(2), status: 200,
			errors: []string{"resource Unauthorized "},
			check: func(t *testing.T, srv *mcptest.Server, o *oauthRaw) {
				if o.refreshToken() {
					t.Fatal("the refresh passed")
				}
				last := oauth.Of(srv).Exchanges()[len(oauth.Of(srv).Exchanges())-1]
				if last.Endpoint != oauth.EndpointToken || last.Params.Get("grant_type") != "refresh_token" || last.Error != "invalid_grant" {
					t.Fatalf("last exchange: %+v", last)
				}
			}},
		{name: "TokenStatus 500", fault: oauth.TokenStatus(500), status: 401,
			errors: []string{"resource Unauthorized ", "token Internal Server Error "}},
		{name: "SlowToken", fault: oauth.SlowToken(50 * time.Millisecond), status: 200,
			errors: []string{"resource Unauthorized "},
			check: func(t *testing.T, srv *mcptest.Server, o *oauthRaw) {
				for _, x := range oauth.Of(srv).Exchanges() {
					if x.Endpoint == oauth.EndpointToken {
						if d := x.Time.Sub(srv.Journal().All()[x.Seq-1].Time); d < 50*time.Millisecond {
							t.Fatalf("the token endpoint answered after %v, want 50ms or more", d)
						}
					}
				}
			}},
		{name: "WWWAuthenticate", fault: oauth.WWWAuthenticate(`Basic realm="a, b", Bearer resource_metadata="{prm}", foo="bar"`), status: 200,
			errors: []string{"resource Unauthorized "},
			check: func(t *testing.T, srv *mcptest.Server, o *oauthRaw) {
				want := `Basic realm="a, b", Bearer resource_metadata="` + strings.TrimSuffix(srv.URL(), "/mcp") + `/.well-known/oauth-protected-resource/mcp", foo="bar"`
				if got := oauth.Of(srv).Exchanges()[0].Challenge; got != want {
					t.Fatalf("challenge %q, want %q", got, want)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := authServer(t, oauth.Options{})
			h := srv.AddFault(c.fault)
			o := newOAuthRaw(t, srv, "2026-07-28")
			if c.status == 200 {
				o.connect()
			}
			if got := echo(t, o); got != c.status {
				t.Fatalf("tools/call: %d, want %d", got, c.status)
			}
			if got := errorsOf(srv); strings.Join(got, "\n") != strings.Join(c.errors, "\n") {
				t.Fatalf("refused exchanges:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.errors, "\n"))
			}
			if c.check != nil {
				c.check(t, srv, o)
			}
			if h.Hits() == 0 {
				t.Fatalf("the fault never acted")
			}
		})
	}
}

// TestAuthFaultUnfired: an authorization fault that never acts fails the
// test, as every fault does.
func TestAuthFaultUnfired(t *testing.T) {
	ft := faketb.New(t)
	ft.Run(func() {
		srv := authServer(ft, oauth.Options{}).WithFaults(oauth.TokenError("invalid_grant"))
		_ = srv.URL()
	})
	ft.Finish()
	if !strings.Contains(strings.Join(ft.Errors(), "\n"), `TokenError("invalid_grant") never acted`) {
		t.Fatalf("report: %s", ft.Report())
	}
}
