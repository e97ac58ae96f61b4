package oauth_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/oauth"
)

// TestInstall: an Authorization serves one server, which Of finds; one
// given to a second server, one not built by New, a nil one and a second
// authorization on the same server fail WithAuthorization saying what to
// do.
func TestInstall(t *testing.T) {
	authz := oauth.New(oauth.Options{})
	srv := mcptest.NewServer(t).WithAuthorization(authz)
	if oauth.Of(srv) != authz {
		t.Errorf("Of(srv) is not the Authorization installed on it")
	}
	if oauth.Of(mcptest.NewServer(t)) != nil {
		t.Errorf("Of a server without authorization is not nil")
	}
	for _, c := range []struct {
		name    string
		install func(srv *mcptest.Server)
		want    string
	}{
		{"on a second server", func(srv *mcptest.Server) { srv.WithAuthorization(authz) },
			"mcptest: WithAuthorization: this *oauth.Authorization serves another server already: build one per server with oauth.New"},
		{"not built by New", func(srv *mcptest.Server) { srv.WithAuthorization(&oauth.Authorization{}) },
			"mcptest: WithAuthorization: an authorization not built by oauth.New; build it with oauth.New(oauth.Options{…})"},
		{"nil", func(srv *mcptest.Server) { srv.WithAuthorization((*oauth.Authorization)(nil)) },
			"mcptest: WithAuthorization: no authorization (nil); build one with oauth.New(oauth.Options{…})"},
		{"twice", func(srv *mcptest.Server) {
			srv.WithAuthorization(oauth.New(oauth.Options{})).WithAuthorization(oauth.New(oauth.Options{}))
		}, "mcptest: WithAuthorization: the server has an authorization already"},
	} {
		ft := faketb.New(t)
		ft.Run(func() { c.install(mcptest.NewServer(ft)) })
		if got := ft.FatalOutput(); got != c.want {
			t.Errorf("%s:\ngot  %s\nwant %s", c.name, got, c.want)
		}
	}
}

// TestAuthorizationShowsNoPlumbing: what makes an Authorization pluggable
// into mcptest is unexported: its exported methods are the test's API and
// nothing else (go doc shows the same).
func TestAuthorizationShowsNoPlumbing(t *testing.T) {
	var got []string
	typ := reflect.TypeOf(&oauth.Authorization{})
	for i := range typ.NumMethod() {
		got = append(got, typ.Method(i).Name)
	}
	want := []string{"AssertAuthorized", "AssertDiscovery", "AssertGrant", "AssertReauthorized", "AssertScopesRequested", "Exchanges", "Violations"}
	if !slices.Equal(got, want) {
		t.Errorf("*oauth.Authorization's exported methods: %s, want %s", strings.Join(got, ", "), strings.Join(want, ", "))
	}
	if f, ok := reflect.TypeOf(oauth.Authorization{}).FieldByName("Socket"); ok && f.IsExported() {
		t.Errorf("oauth.Authorization has an exported field Socket")
	}
}
