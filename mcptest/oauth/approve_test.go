package oauth_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/mcptest/oauth"
)

// TestApprove: Approve plays the browser at the mock's /authorize: an
// approved request gives the redirect's code, state and iss; a refused one
// (an error in the redirect, or no redirect at all) is an error that says
// which.
func TestApprove(t *testing.T) {
	srv := authServer(t, oauth.Options{Clients: []oauth.Client{{ID: "app"}}}).IgnoreViolations()
	base := strings.TrimSuffix(srv.URL(), "/mcp")
	authorize := func(v url.Values) string { return base + "/as/authorize?" + v.Encode() }
	good := url.Values{"response_type": {"code"}, "client_id": {"app"}, "redirect_uri": {"http://127.0.0.1:1/cb"}, "state": {"xyz"},
		"code_challenge": {"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"}, "code_challenge_method": {"S256"}, "resource": {srv.URL()}}
	ctx := context.Background()

	a, err := oauth.Approve(ctx, authorize(good))
	if err != nil || a.Code == "" || a.State != "xyz" || a.Iss != base+"/as" {
		t.Fatalf("an approved request: %+v, %v; want a code, state xyz and iss %s", a, err, base+"/as")
	}

	noPKCE := url.Values{}
	for k, v := range good {
		noPKCE[k] = v
	}
	noPKCE.Del("code_challenge")
	a, err = oauth.Approve(ctx, authorize(noPKCE))
	if err == nil || !strings.Contains(err.Error(), "invalid_request: code_challenge is required (PKCE)") || a.State != "xyz" || a.Code != "" {
		t.Errorf("a request without PKCE: %+v, %v; want the redirect's error, and its state", a, err)
	}

	unknown := url.Values{"response_type": {"code"}, "client_id": {"nobody"}, "redirect_uri": {"http://127.0.0.1:1/cb"}}
	if _, err = oauth.Approve(ctx, authorize(unknown)); err == nil || !strings.Contains(err.Error(), "answered 400, not a redirect") {
		t.Errorf("an unknown client: %v; want an error saying the endpoint answered 400", err)
	}
}
