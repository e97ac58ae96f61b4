package oauth_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/oauth"
	"github.com/tidwall/gjson"
)

// pkcePair is RFC 7636's example verifier and its S256 challenge.
const pkceVerifier, pkceChallenge = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

// directToken runs the flow of a pre-registered public client "app" by
// hand, asking for resource, and returns the token response.
func directToken(t *testing.T, srv *mcptest.Server, resource string) gjson.Result {
	t.Helper()
	base := strings.TrimSuffix(srv.URL(), "/mcp")
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	c := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	v := url.Values{"response_type": {"code"}, "client_id": {"app"}, "redirect_uri": {"http://127.0.0.1:1/cb"}, "state": {"s"},
		"code_challenge": {pkceChallenge}, "code_challenge_method": {"S256"}, "resource": {resource}}
	resp, err := c.Get(base + "/as/authorize?" + v.Encode())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	resp, err = c.PostForm(base+"/as/token", url.Values{"grant_type": {"authorization_code"}, "code": {loc.Query().Get("code")},
		"code_verifier": {pkceVerifier}, "client_id": {"app"}, "resource": {resource}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return gjson.ParseBytes(b)
}

func getJSON(t *testing.T, u string) (int, gjson.Result) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, gjson.ParseBytes(b)
}

// TestAuthKnobs: the options the other tests do not reach.
func TestAuthKnobs(t *testing.T) {
	t.Run("Resource: the server's name for itself", func(t *testing.T) {
		const named = "https://mcp.example.com/mcp"
		srv := authServer(t, oauth.Options{Clients: []oauth.Client{{ID: "app"}}, Resource: named})
		_, prm := getJSON(t, strings.TrimSuffix(srv.URL(), "/mcp")+"/.well-known/oauth-protected-resource/mcp")
		if prm.Get("resource").String() != named {
			t.Fatalf("PRM: %s", prm.Raw)
		}
		o := newOAuthRaw(t, srv, "2025-11-25")
		o.Token = directToken(t, srv, named).Get("access_token").String()
		o.connect()
		if v := oauth.Of(srv).Violations(); len(v) > 0 {
			t.Fatalf("violations: %v", v)
		}
	})
	t.Run("PRMFields", func(t *testing.T) {
		srv := authServer(t, oauth.Options{PRMFields: map[string]any{"resource_name": "Gifts", "bearer_methods_supported": nil}})
		_, prm := getJSON(t, strings.TrimSuffix(srv.URL(), "/mcp")+"/.well-known/oauth-protected-resource/mcp")
		if prm.Get("resource_name").String() != "Gifts" || prm.Get("bearer_methods_supported").Exists() {
			t.Fatalf("PRM: %s", prm.Raw)
		}
	})
	t.Run("NoRefreshTokens", func(t *testing.T) {
		srv := authServer(t, oauth.Options{Clients: []oauth.Client{{ID: "app"}}, NoRefreshTokens: true})
		_ = srv.URL()
		if tok := directToken(t, srv, srv.URL()); !tok.Get("access_token").Exists() || tok.Get("refresh_token").Exists() {
			t.Fatalf("token response: %s", tok.Raw)
		}
	})
	t.Run("RequireApplicationType", func(t *testing.T) {
		srv := authServer(t, oauth.Options{RequireApplicationType: true}).IgnoreViolations()
		resp, err := http.Post(strings.TrimSuffix(srv.URL(), "/mcp")+"/as/register", "application/json", strings.NewReader(`{"redirect_uris":["http://127.0.0.1:1/cb"]}`))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || gjson.GetBytes(b, "error").String() != "invalid_client_metadata" {
			t.Fatalf("register without application_type: %d %s", resp.StatusCode, b)
		}
	})
	t.Run("MethodScopes", func(t *testing.T) {
		srv := authServer(t, oauth.Options{Scopes: []string{"mcp:read"}, MethodScopes: map[string][]string{"tools/list": {"mcp:list"}}})
		o := newOAuthRaw(t, srv, "2025-11-25")
		o.connect()
		if status, body := o.call("2", "tools/list", ""); status != http.StatusOK || !strings.Contains(body, "echo") {
			t.Fatalf("tools/list: %d %s", status, body)
		}
		oauth.Of(srv).AssertReauthorized(t)
		oauth.Of(srv).AssertScopesRequested(t, "mcp:read", "mcp:list")
	})
	t.Run("NoMetadata: the defaults under the issuer", func(t *testing.T) {
		srv := authServer(t, oauth.Options{Clients: []oauth.Client{{ID: "app"}}, NoMetadata: true})
		if status, _ := getJSON(t, strings.TrimSuffix(srv.URL(), "/mcp")+"/.well-known/oauth-authorization-server/as"); status != http.StatusNotFound {
			t.Fatalf("metadata: %d, want 404", status)
		}
		if tok := directToken(t, srv, srv.URL()); !tok.Get("access_token").Exists() {
			t.Fatalf("token response: %s", tok.Raw)
		}
	})
}

// TestAuthOpenIDMetadata: the OpenID forms carry what OpenID Connect
// Discovery makes REQUIRED (jwks_uri, subject_types_supported,
// id_token_signing_alg_values_supported), and jwks_uri answers an empty
// key set: the TypeScript SDK refuses an OpenID document without jwks_uri.
func TestAuthOpenIDMetadata(t *testing.T) {
	srv := mcptest.NewServer(t).IgnoreViolations().WithAuthorization(oauth.New(oauth.Options{MetadataAt: []oauth.MetadataForm{oauth.OpenIDInserted}})) // it asks the OpenID form directly
	u, _ := url.Parse(srv.URL())
	get := func(target string) (int, gjson.Result) {
		resp, err := http.Get(target)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, gjson.ParseBytes(b)
	}
	status, md := get(u.Scheme + "://" + u.Host + "/.well-known/openid-configuration/as")
	if status != http.StatusOK {
		t.Fatalf("OpenID metadata: %d", status)
	}
	for _, f := range []string{"jwks_uri", "subject_types_supported", "id_token_signing_alg_values_supported"} {
		if !md.Get(f).Exists() {
			t.Errorf("the OpenID metadata lacks %s: %s", f, md.Raw)
		}
	}
	status, keys := get(md.Get("jwks_uri").String())
	if status != http.StatusOK || !keys.Get("keys").IsArray() {
		t.Errorf("jwks_uri: %d %s, want 200 with a keys array", status, keys.Raw)
	}
}
