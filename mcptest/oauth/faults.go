package oauth

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mcpmock/mcpmock/internal/authplug"
	"github.com/mcpmock/mcpmock/internal/faultkit"
	"github.com/mcpmock/mcpmock/internal/precheck"
	"github.com/mcpmock/mcpmock/mcptest"
)

// This file is the catalog of authorization faults: ways an
// OAuth-protected server and its authorization server break clients.
// They act only on a server with an Authorization, over HTTP, and are
// mcptest.Fault values like package fault's: installed with WithFaults or
// AddFault, refined with Nth, InSession and Optional, and reported when
// they never acted. Faults on the MCP endpoint (ExpireToken, RevokeToken,
// InsufficientScope, WWWAuthenticate) count the MCP requests they match;
// the others count requests to their endpoint.

// authPoint is where an authorization fault acts.
type authPoint int

const (
	atResource  authPoint = iota + 1 // an MCP request with a valid token
	atChallenge                      // the WWW-Authenticate header of a 401 or 403
	atPRM                            // the Protected Resource Metadata served
	atMetadata                       // the authorization server metadata served
	atAuthorize                      // the redirect of a successful authorization
	atToken                          // a token request
)

// authFault is what an authorization fault does.
type authFault struct {
	point authPoint
	// act does it; ctx holds what the point offers. It reports whether it acted.
	act func(h authplug.Fault, a *authState, ctx *authFaultCtx) bool
}

// authFaultCtx is what an authorization fault acts on.
type authFaultCtx struct {
	w       http.ResponseWriter
	r       *http.Request
	sess    authplug.Session
	q       *authReq       // a request to the authorization server or a metadata URL
	mcp     mcpRequest     // an MCP request
	token   string         // its token
	org     string         //
	doc     map[string]any // a metadata document to change
	values  url.Values     // the authorization response's parameters
	header  *string        // a challenge to change
	handled bool           // the fault answered the request
}

// authFaultOf returns the fault name of the catalog: mcptest installs it,
// counts it and reports it, and the authorization finds it among the
// Host's Faults by its Ext, the *authFault.
func authFaultOf(name, method string, point authPoint, act func(h authplug.Fault, a *authState, ctx *authFaultCtx) bool) mcptest.Fault {
	return mcptest.Fault(faultkit.Make(faultkit.Spec{Name: name, Method: method, Pkg: "oauth", Ext: &authFault{point: point, act: act}}))
}

// brokenFault is a fault whose constructor could not take its argument
// param: installing it fails the test with err (config places the reason
// at the file's parameter).
func brokenFault(name, param string, err error) mcptest.Fault {
	return mcptest.Fault(faultkit.Make(faultkit.Spec{Name: name, Pkg: "oauth", Ext: &authFault{}, Err: &precheck.ArgError{Param: param, Err: err}}))
}

// installed is an installed authorization fault and its action.
type installed struct {
	h authplug.Fault
	f *authFault
}

// authFaultsAt returns the installed authorization faults of a point.
func (a *authState) authFaultsAt(point authPoint) []installed {
	var out []installed
	for _, h := range a.host.Faults() {
		if f, ok := h.Ext().(*authFault); ok && f.point == point {
			out = append(out, installed{h, f})
		}
	}
	return out
}

// hasResourceFaults reports whether a fault acts on MCP requests or challenges.
func (a *authState) hasResourceFaults() bool {
	for _, h := range a.host.Faults() {
		if f, ok := h.Ext().(*authFault); ok && (f.point == atResource || f.point == atChallenge) {
			return true
		}
	}
	return false
}

// applyAuthFaults runs the faults of a point on ctx; method is the MCP
// method for the trigger ("" elsewhere).
func (a *authState) applyAuthFaults(point authPoint, sess authplug.Session, method string, ctx *authFaultCtx) {
	for _, in := range a.authFaultsAt(point) {
		if in.h.Method() != "" && point != atResource {
			continue
		}
		if in.h.Matches(sess, method) && in.f.act(in.h, a, ctx) {
			in.h.Hit()
			if ctx.handled {
				return
			}
		}
	}
}

// faultResource applies the faults on an MCP request with a valid token;
// it reports whether one answered it.
func (a *authState) faultResource(sess authplug.Session, w http.ResponseWriter, r *http.Request, q mcpRequest, tok, org string) bool {
	if len(a.authFaultsAt(atResource)) == 0 {
		return false
	}
	ctx := &authFaultCtx{w: w, r: r, sess: sess, mcp: q, token: tok, org: org}
	a.applyAuthFaults(atResource, sess, q.Method, ctx)
	return ctx.handled
}

// faultChallenge applies the faults on a challenge header.
func (a *authState) faultChallenge(sess authplug.Session, header string) string {
	if len(a.authFaultsAt(atChallenge)) == 0 {
		return header
	}
	ctx := &authFaultCtx{sess: sess, header: &header}
	a.applyAuthFaults(atChallenge, sess, "", ctx)
	return header
}

func (a *authState) faultPRM(q *authReq, doc map[string]any) bool {
	ctx := &authFaultCtx{q: q, doc: doc, sess: q.sess}
	a.applyAuthFaults(atPRM, q.sess, "", ctx)
	return ctx.handled
}

func (a *authState) faultMetadata(q *authReq, doc map[string]any) bool {
	ctx := &authFaultCtx{q: q, doc: doc, sess: q.sess}
	a.applyAuthFaults(atMetadata, q.sess, "", ctx)
	return ctx.handled
}

func (a *authState) faultAuthorizeResponse(q *authReq, v url.Values) {
	ctx := &authFaultCtx{q: q, values: v, sess: q.sess}
	a.applyAuthFaults(atAuthorize, q.sess, "", ctx)
}

func (a *authState) faultToken(q *authReq) bool {
	ctx := &authFaultCtx{q: q, sess: q.sess}
	a.applyAuthFaults(atToken, q.sess, "", ctx)
	return ctx.handled
}

// ExpireToken makes the access token of the MCP request it matches (any
// request with a valid token; choose which with Nth) expire at once: that
// request and every later one with the token get 401 invalid_token. Its
// refresh token still works. Reproduces: a token that expires before the
// client thinks it does — the client must refresh (or re-authorize) and
// retry.
func ExpireToken() mcptest.Fault {
	return authFaultOf("ExpireToken()", "", atResource, func(h authplug.Fault, a *authState, ctx *authFaultCtx) bool {
		a.mu.Lock()
		if t := a.tokens[ctx.token]; t != nil {
			t.expires = time.Now().Add(-time.Second)
		}
		a.mu.Unlock()
		a.journalMCP(ctx.sess, ctx.r, ctx.mcp, "a token that expired (fault "+h.String()+")")
		a.challenge(ctx.sess, ctx.w, ctx.r, ctx.org, http.StatusUnauthorized, "invalid_token", "the token expired", nil)
		ctx.handled = true
		return true
	})
}

// RevokeToken revokes the access token of the MCP request it matches, and
// every refresh token of its client: that request gets 401 invalid_token,
// and a refresh invalid_grant. Reproduces: a grant the user withdrew — the
// client must authorize again from the start.
func RevokeToken() mcptest.Fault {
	return authFaultOf("RevokeToken()", "", atResource, func(h authplug.Fault, a *authState, ctx *authFaultCtx) bool {
		a.mu.Lock()
		if t := a.tokens[ctx.token]; t != nil {
			t.revoked = true
			for _, rt := range a.refreshes {
				if rt.client == t.client && rt.issuer == t.issuer {
					rt.revoked = true
				}
			}
		}
		a.mu.Unlock()
		a.journalMCP(ctx.sess, ctx.r, ctx.mcp, "a revoked token (fault "+h.String()+")")
		a.challenge(ctx.sess, ctx.w, ctx.r, ctx.org, http.StatusUnauthorized, "invalid_token", "the token was revoked", nil)
		ctx.handled = true
		return true
	})
}

// InsufficientScope answers requests of method whose token lacks scope
// with 403 and WWW-Authenticate: Bearer error="insufficient_scope",
// scope="<scope>": once the client comes back with a token that has it,
// they pass. Reproduces: a tool that needs more than the client asked
// for — the client must step up (authorize again for the union of its
// scopes and scope) and retry, a few times at most.
func InsufficientScope(method, scope string) mcptest.Fault {
	name := fmt.Sprintf("InsufficientScope(%q, %q)", method, scope)
	if scope == "" || strings.ContainsAny(scope, "\"\\") {
		return brokenFault(name, "scope", fmt.Errorf("scope %q: want space-separated scope tokens without quotes", scope))
	}
	need := strings.Fields(scope)
	return authFaultOf(name, method, atResource, func(h authplug.Fault, a *authState, ctx *authFaultCtx) bool {
		a.mu.Lock()
		t := a.tokens[ctx.token]
		ok := t != nil && containsAll(t.scopes, need)
		a.mu.Unlock()
		if ok {
			return false
		}
		a.journalMCP(ctx.sess, ctx.r, ctx.mcp, "a token without "+scope+" (fault "+h.String()+")")
		a.challenge(ctx.sess, ctx.w, ctx.r, ctx.org, http.StatusForbidden, "insufficient_scope", method+" needs "+scope, need)
		ctx.handled = true
		return true
	})
}

// WWWAuthenticate replaces the WWW-Authenticate header of the challenges
// (401, 403) with header, verbatim: several challenges in one header
// (`Basic realm="x", Bearer resource_metadata="…"`), quoted commas,
// unknown parameters, odd case. "{prm}" in header becomes the Protected
// Resource Metadata URL. Reproduces: a real server's challenge that a naive
// parser misreads.
func WWWAuthenticate(header string) mcptest.Fault {
	return authFaultOf(fmt.Sprintf("WWWAuthenticate(%q)", header), "", atChallenge, func(h authplug.Fault, a *authState, ctx *authFaultCtx) bool {
		rm := authplug.ChallengeParam(*ctx.header, "resource_metadata")
		*ctx.header = strings.ReplaceAll(header, "{prm}", rm)
		return true
	})
}

// AuthorizationIss sets the iss parameter of the authorization response
// (the 302 of /authorize) to iss, or leaves it out when iss is "".
// Reproduces: a mix-up attack, or a server that omits iss although its
// metadata advertises it — a 2026-07-28 client must not send the code on.
func AuthorizationIss(iss string) mcptest.Fault {
	return authFaultOf(fmt.Sprintf("AuthorizationIss(%q)", iss), "", atAuthorize, func(h authplug.Fault, a *authState, ctx *authFaultCtx) bool {
		if iss == "" {
			ctx.values.Del("iss")
		} else {
			ctx.values.Set("iss", iss)
		}
		return true
	})
}

// IssTrailingSlash sends the authorization response's iss with a trailing
// slash the issuer lacks. Reproduces: an issuer normalized by a proxy — a
// 2026-07-28 client compares exactly and must reject it.
func IssTrailingSlash() mcptest.Fault {
	return authFaultOf("IssTrailingSlash()", "", atAuthorize, func(h authplug.Fault, a *authState, ctx *authFaultCtx) bool {
		ctx.values.Set("iss", ctx.q.x.Issuer+"/")
		return true
	})
}

// MetadataIssuer serves authorization server metadata whose issuer is
// issuer instead of the one it was fetched for. Reproduces: a metadata
// document from the wrong server — a client must not use it.
func MetadataIssuer(issuer string) mcptest.Fault {
	return authFaultOf(fmt.Sprintf("MetadataIssuer(%q)", issuer), "", atMetadata, func(h authplug.Fault, a *authState, ctx *authFaultCtx) bool {
		ctx.doc["issuer"] = issuer
		return true
	})
}

// NoPKCEMethods serves authorization server metadata without
// code_challenge_methods_supported. Reproduces: a server that does not
// support PKCE — a client must refuse to proceed.
func NoPKCEMethods() mcptest.Fault {
	return authFaultOf("NoPKCEMethods()", "", atMetadata, func(h authplug.Fault, a *authState, ctx *authFaultCtx) bool {
		delete(ctx.doc, "code_challenge_methods_supported")
		return true
	})
}

// PRMResource serves Protected Resource Metadata whose resource is
// resource instead of this server's. Reproduces: metadata of another
// resource (RFC 9728 §3.3) — a client must not use it.
func PRMResource(resource string) mcptest.Fault {
	return authFaultOf(fmt.Sprintf("PRMResource(%q)", resource), "", atPRM, func(h authplug.Fault, a *authState, ctx *authFaultCtx) bool {
		ctx.doc["resource"] = resource
		return true
	})
}

// NoPRM answers every request for Protected Resource Metadata 404.
// Reproduces: a server without PRM — a 2025-11-25 client falls back to
// the 2025-03-26 discovery (the origin as authorization server), or fails
// saying why.
func NoPRM() mcptest.Fault {
	return authFaultOf("NoPRM()", "", atPRM, func(h authplug.Fault, a *authState, ctx *authFaultCtx) bool {
		ctx.q.notFound("no Protected Resource Metadata (fault " + h.String() + ")")
		ctx.handled = true
		return true
	})
}

// TokenError answers token requests with 400 and the OAuth error code
// (e.g. "invalid_grant", "invalid_client", "temporarily_unavailable").
// Reproduces: a refresh token the server forgot — the client must
// re-authorize, not loop.
func TokenError(code string) mcptest.Fault {
	name := fmt.Sprintf("TokenError(%q)", code)
	if code == "" || strings.ContainsAny(code, "\"\\ ") {
		return brokenFault(name, "code", fmt.Errorf("error code %q: want an OAuth error code such as invalid_grant", code))
	}
	return authFaultOf(name, "", atToken, func(h authplug.Fault, a *authState, ctx *authFaultCtx) bool {
		ctx.q.oauthError(http.StatusBadRequest, code, "fault "+h.String())
		ctx.handled = true
		return true
	})
}

// TokenStatus answers token requests with an HTTP error status (500-599,
// or 400-499) and an HTML error page, as a proxy in front of the token
// endpoint does. Reproduces: an outage of the authorization server — the
// client must surface the error.
func TokenStatus(status int) mcptest.Fault {
	name := fmt.Sprintf("TokenStatus(%d)", status)
	if status < 400 || status > 599 {
		return brokenFault(name, "status", fmt.Errorf("status %d is not an HTTP error (400-599)", status))
	}
	return authFaultOf(name, "", atToken, func(h authplug.Fault, a *authState, ctx *authFaultCtx) bool {
		text := http.StatusText(status)
		ctx.q.finish(status, "text/html", "<html><head><title>"+strconv.Itoa(status)+" "+text+"</title></head><body><h1>"+text+"</h1></body></html>", "")
		ctx.handled = true
		return true
	})
}

// SlowToken makes the token endpoint wait d before it answers.
// Reproduces: a slow authorization server — a client with a short
// timeout fails the authorization.
func SlowToken(d time.Duration) mcptest.Fault {
	name := fmt.Sprintf("SlowToken(%v)", d)
	if d <= 0 {
		return brokenFault(name, "d", fmt.Errorf("delay %v is not positive", d))
	}
	return authFaultOf(name, "", atToken, func(h authplug.Fault, a *authState, ctx *authFaultCtx) bool {
		wait(ctx.q.r.Context(), d)
		return true
	})
}

// SwitchAuthorizationServer makes the Protected Resource Metadata name the
// authorization servers in another order — the second first — once a
// token was revoked or expired (RevokeToken, ExpireToken): the resource
// moved to another authorization server. It needs Options'
// AuthorizationServers 2 or more. Reproduces: a client that keeps
// using the old server, or its credentials at the new one — it must
// discover again and register anew.
func SwitchAuthorizationServer() mcptest.Fault {
	return authFaultOf("SwitchAuthorizationServer()", "", atPRM, func(h authplug.Fault, a *authState, ctx *authFaultCtx) bool {
		servers, _ := ctx.doc["authorization_servers"].([]string)
		if len(servers) < 2 {
			return false
		}
		a.mu.Lock()
		invalidated := false
		for _, t := range a.tokens {
			invalidated = invalidated || t.revoked || (t.uses > 0 && !time.Now().Before(t.expires))
		}
		a.mu.Unlock()
		if !invalidated {
			return false
		}
		ctx.doc["authorization_servers"] = append(servers[1:2:2], append(servers[:1:1], servers[2:]...)...)
		return true
	})
}

// WrongState answers the authorization request with a state other than
// the one the client sent. Reproduces: a forged or mixed-up authorization
// response (CSRF) — the client must not go on with it.
func WrongState() mcptest.Fault {
	return authFaultOf("WrongState()", "", atAuthorize, func(h authplug.Fault, a *authState, ctx *authFaultCtx) bool {
		ctx.values.Set("state", "mcptest-forged-"+randomToken(6))
		return true
	})
}

// wait waits d, or until ctx ends (the client gave up).
func wait(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
