package oauth_test

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/oauth"
)

// TestAuthAssertionsFail: each authorization assertion fails with what it
// wanted and what it got, at once when the answer is settled.
func TestAuthAssertionsFail(t *testing.T) {
	t.Run("discovery in another order fails at once", func(t *testing.T) {
		srv := authServer(t, oauth.Options{})
		o := newOAuthRaw(t, srv, "2025-11-25")
		o.connect()
		ft := faketb.New(t)
		start := time.Now()
		ft.Run(func() {
			oauth.Of(srv).AssertDiscovery(ft, "/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp")
		})
		got := strings.Join(ft.Errors(), "\n")
		if !strings.Contains(got, `AssertDiscovery("/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp") failed`) ||
			!strings.Contains(got, "the order differs already") || !strings.Contains(got, `tried "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server/as"`) {
			t.Fatalf("failure:\n%s", ft.Report())
		}
		if d := time.Since(start); d >= 10*time.Second { // the default wait timeout
			t.Fatalf("it waited %v", d)
		}
	})
	t.Run("no client", func(t *testing.T) {
		srv := authServer(t, oauth.Options{}).WithOptions(mcptest.Options{WaitTimeout: 20 * time.Millisecond})
		_ = srv.URL()
		ft := faketb.New(t)
		ft.Run(func() {
			oauth.Of(srv).AssertAuthorized(ft)
			oauth.Of(srv).AssertGrant(ft, "authorization_code", "none")
			oauth.Of(srv).AssertReauthorized(ft)
			oauth.Of(srv).AssertScopesRequested(ft, "a")
		})
		got := strings.Join(ft.Errors(), "\n")
		for _, s := range []string{
			"AssertAuthorized failed", "0 token(s) issued, 0 MCP request(s) let through with one, within 20ms",
			`AssertGrant("authorization_code", "none") failed`, "no token request",
			"AssertReauthorized failed", "no 403 insufficient_scope was answered",
			`AssertScopesRequested("a") failed`, "no authorization request",
		} {
			if !strings.Contains(got, s) {
				t.Errorf("failure lacks %q:\n%s", s, got)
			}
		}
	})
	t.Run("scopes asked differ", func(t *testing.T) {
		srv := authServer(t, oauth.Options{Scopes: []string{"mcp:read"}}).WithOptions(mcptest.Options{WaitTimeout: 20 * time.Millisecond})
		o := newOAuthRaw(t, srv, "2025-11-25")
		o.connect()
		ft := faketb.New(t)
		ft.Run(func() { oauth.Of(srv).AssertScopesRequested(ft, "mcp:write") })
		if got := strings.Join(ft.Errors(), "\n"); !strings.Contains(got, `got:  scope "mcp:read"`) {
			t.Fatalf("failure:\n%s", got)
		}
	})
	t.Run("not installed", func(t *testing.T) {
		for name, auth := range map[string]*oauth.Authorization{
			"built, never installed": oauth.New(oauth.Options{}),
			"Of a server without":    oauth.Of(mcptest.NewServer(t)),
		} {
			ft := faketb.New(t)
			ft.Run(func() { auth.AssertAuthorized(ft) })
			if !strings.Contains(ft.FatalOutput(), "oauth: AssertAuthorized: the authorization serves no server; install it with srv.WithAuthorization(auth)") {
				t.Errorf("%s: fatal: %s", name, ft.Report())
			}
		}
	})
	t.Run("misconfigured", func(t *testing.T) {
		ft := faketb.New(t)
		ft.Run(func() {
			mcptest.NewServer(ft).WithAuthorization(oauth.New(oauth.Options{Scopes: []string{"a b"}, IssuerPath: "as/"}))
		})
		want := `mcptest: WithAuthorization: Scopes: scope "a b": a scope is a non-empty token without spaces, quotes or backslashes; IssuerPath "as/": want a path such as "/as" without a trailing slash, or "/" for the origin`
		if ft.FatalOutput() != want {
			t.Fatalf("fatal:\n%s\nwant:\n%s", ft.FatalOutput(), want)
		}
	})
}
