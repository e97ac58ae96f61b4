package oauth

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpmock/mcpmock/internal/authplug"
	"github.com/mcpmock/mcpmock/mcptest"
)

// The assertions over the authorization flow. Like mcptest's waiting
// assertions they wait up to the server's wait timeout
// (mcptest.Options.WaitTimeout) for the flow to get there, and fail at
// once when it is settled: the server closed, or the answer can no longer
// change.

// wait evaluates cond over the authorization state each time the journal
// grows, until it holds, the wait timeout passes, or the answer is
// settled: the server closed, or every session ended. It returns the
// state, whether cond held, what it last said, and why it is settled (""
// when the wait timed out); a nil state when the authorization serves no
// server, which failed the test.
func (authz *Authorization) wait(t mcptest.TB, call string, cond func(a *authState) (ok bool, got, settled string)) (a *authState, ok bool, got, why string) {
	t.Helper()
	if a = authz.state(); a == nil {
		t.Fatalf("oauth: %s: the authorization serves no server; install it with srv.WithAuthorization(auth) before the client connects", call)
		return nil, false, "", ""
	}
	defer a.settle(false)
	ok, got, why = a.host.Wait(func() (bool, string, string) { return cond(a) })
	return a, ok, got, why
}

// fail reports an assertion failure, with the journal's tail, and returns false.
func (a *authState) fail(t mcptest.TB, call, want, got, why string) bool {
	t.Helper()
	t.Errorf("%s", a.host.Failure(call, want, got, why))
	return false
}

// AssertAuthorized checks that the client got an access token and used
// it: an MCP request passed with a valid token. It waits up to the wait
// timeout.
func (authz *Authorization) AssertAuthorized(t mcptest.TB) bool {
	t.Helper()
	a, ok, got, why := authz.wait(t, "AssertAuthorized", func(a *authState) (bool, string, string) {
		a.mu.Lock()
		defer a.mu.Unlock()
		return a.issued > 0 && a.accepted > 0, fmt.Sprintf("%d token(s) issued, %d MCP request(s) let through with one", a.issued, a.accepted), ""
	})
	if ok || a == nil {
		return ok
	}
	return a.fail(t, "AssertAuthorized", "a token issued and an MCP request let through with it", got, why)
}

// AssertDiscovery checks the URLs (paths, e.g.
// "/.well-known/oauth-protected-resource/mcp") of the client's first
// discovery requests — Protected Resource Metadata and authorization
// server metadata — in the order it sent them. It waits up to the wait
// timeout for as many.
func (authz *Authorization) AssertDiscovery(t mcptest.TB, paths ...string) bool {
	t.Helper()
	call := fmt.Sprintf("AssertDiscovery(%s)", quoteFull(paths))
	a, ok, got, why := authz.wait(t, call, func(a *authState) (bool, string, string) {
		var tried []string
		for _, x := range a.snapshot() {
			if x.Endpoint == authplug.PRM || x.Endpoint == authplug.Metadata {
				tried = append(tried, pathOfURL(x.URL))
			}
		}
		n := min(len(tried), len(paths))
		if !slices.Equal(tried[:n], paths[:n]) {
			return false, "tried " + quoteFull(tried), "the order differs already"
		}
		return len(tried) >= len(paths), "tried " + quoteFull(tried), ""
	})
	if ok || a == nil {
		return ok
	}
	return a.fail(t, call, "discovery requests "+quoteFull(paths)+" in this order", got, why)
}

func pathOfURL(u string) string {
	if p, err := url.Parse(u); err == nil {
		return p.Path
	}
	return u
}

func (a *authState) snapshot() []Exchange {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.exchanges)
}

// AssertScopesRequested checks that the client's newest authorization
// request asked for exactly these scopes (in any order; none: no scope
// parameter). It waits up to the wait timeout for an authorization request.
func (authz *Authorization) AssertScopesRequested(t mcptest.TB, scopes ...string) bool {
	t.Helper()
	call := fmt.Sprintf("AssertScopesRequested(%s)", quoteFull(scopes))
	want := slices.Sorted(slices.Values(scopes))
	a, ok, got, why := authz.wait(t, call, func(a *authState) (bool, string, string) {
		var last *Exchange
		xs := a.snapshot()
		for i := range xs {
			if xs[i].Endpoint == authplug.Authorize {
				last = &xs[i]
			}
		}
		if last == nil {
			return false, "no authorization request", ""
		}
		asked := slices.Sorted(slices.Values(strings.Fields(last.Params.Get("scope"))))
		return slices.Equal(asked, want), fmt.Sprintf("scope %q", last.Params.Get("scope")), ""
	})
	if ok || a == nil {
		return ok
	}
	return a.fail(t, call, "the newest authorization request asks for scope "+fmt.Sprintf("%q", strings.Join(scopes, " ")), got, why)
}

// AssertGrant checks that the client got a token with grant type grant
// ("authorization_code" or "refresh_token") and client authentication
// method ("none", "client_secret_basic", "client_secret_post"; "" for
// any). It waits up to the wait timeout.
func (authz *Authorization) AssertGrant(t mcptest.TB, grant, method string) bool {
	t.Helper()
	call := fmt.Sprintf("AssertGrant(%q, %q)", grant, method)
	a, ok, got, why := authz.wait(t, call, func(a *authState) (bool, string, string) {
		var seen []string
		for _, x := range a.snapshot() {
			if x.Endpoint != authplug.Token {
				continue
			}
			seen = append(seen, fmt.Sprintf("%s/%s %d", x.Params.Get("grant_type"), x.ClientAuth, x.Status))
			if x.Status == http.StatusOK && x.Params.Get("grant_type") == grant && (method == "" || x.ClientAuth == method) {
				return true, "", ""
			}
		}
		if len(seen) == 0 {
			return false, "no token request", ""
		}
		return false, "token requests: " + strings.Join(seen, ", "), ""
	})
	if ok || a == nil {
		return ok
	}
	return a.fail(t, call, "a token granted by "+grant+" with client authentication "+cmpOr(method, "(any)"), got, why)
}

// AssertReauthorized checks the step-up: after a 403 insufficient_scope,
// the client authorized again asking for the challenged scopes, got a
// token with them, and an MCP request passed with it. It waits up to the
// wait timeout.
func (authz *Authorization) AssertReauthorized(t mcptest.TB) bool {
	t.Helper()
	a, ok, got, why := authz.wait(t, "AssertReauthorized", func(a *authState) (bool, string, string) {
		xs := a.snapshot()
		var need []string
		stage := "no 403 insufficient_scope was answered"
		for _, x := range xs {
			switch {
			case x.Status == http.StatusForbidden && x.Error == "insufficient_scope":
				need = strings.Fields(authplug.ChallengeParam(x.Challenge, "scope"))
				stage = "no authorization request after the 403 asked for " + strings.Join(need, " ")
			case need != nil && x.Endpoint == authplug.Authorize && containsAll(strings.Fields(x.Params.Get("scope")), need):
				stage = "no token was issued for " + strings.Join(need, " ") + " after the 403"
			}
		}
		if need == nil {
			return false, stage, ""
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		for _, tok := range a.tokens {
			if containsAll(tok.scopes, need) && tok.uses > 0 {
				return true, "", ""
			}
			if containsAll(tok.scopes, need) {
				stage = "a token with " + strings.Join(need, " ") + " was issued but no MCP request used it"
			}
		}
		return false, stage, ""
	})
	if ok || a == nil {
		return ok
	}
	return a.fail(t, "AssertReauthorized", "a step-up: 403 insufficient_scope, authorization for its scope, a token with it, used", got, why)
}

// quoteFull quotes each string whole, comma-separated: paths and scopes
// are short, and cut they would not say which they are.
func quoteFull(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}
