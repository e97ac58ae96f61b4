package main

import (
	"strings"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/oauth"
)

// authFlag is --auth and --auth-client: authorization on every server
// mcpmock serves over HTTP, for a scenario-less run (or a scenario that has
// none of its own) that should require OAuth.
type authFlag struct {
	on     bool
	client string // "ID:SECRET", pre-registered, or ""
}

// enabled says whether the flags turn authorization on.
func (a authFlag) enabled() bool { return a.on || a.client != "" }

// check reports a malformed --auth-client, and the flags without --http.
func (a authFlag) check(overHTTP bool) error {
	if a.client != "" {
		if id, _, ok := strings.Cut(a.client, ":"); !ok || id == "" {
			return usagef("--auth-client %q: write ID:SECRET (SECRET may be empty for a public client), e.g. --auth-client my-app:s3cret", a.client)
		}
	}
	if a.enabled() && !overHTTP {
		return usagef("--auth and --auth-client need --http: authorization is for HTTP transports (a stdio client takes its credentials from its environment)")
	}
	return nil
}

// apply turns the mock's authorization on for srv: oauth.Options' healthy
// defaults, with the --auth-client client pre-registered.
func (a authFlag) apply(srv *mcptest.Server) *mcptest.Server {
	if !a.enabled() {
		return srv
	}
	var o oauth.Options
	if a.client != "" {
		id, secret, _ := strings.Cut(a.client, ":")
		o.Clients = []oauth.Client{{ID: id, Secret: secret}}
	}
	return srv.WithAuthorization(oauth.New(o))
}

// clientContext is what --auth-client hands the client program in
// MCP_CONFORMANCE_CONTEXT (nil without it), as a scenario's ClientContext.
func (a authFlag) clientContext() map[string]string {
	if a.client == "" {
		return nil
	}
	id, secret, _ := strings.Cut(a.client, ":")
	c := map[string]string{"client_id": id}
	if secret != "" {
		c["client_secret"] = secret
	}
	return c
}
