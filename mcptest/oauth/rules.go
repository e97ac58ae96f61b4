package oauth

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mcpmock/mcpmock/internal/authplug"
	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/mcpmock/mcpmock/mcptest"
)

// The client checks of the authorization flow: what the spec asks of an
// OAuth client, each rule a row of mcptest's rule table (its ID one of
// authplug's Rule… constants), raised through the Host. Each is judged
// against the protocol version of the client's MCP requests, and only for
// the versions whose spec states it.

// flowVersion is the protocol version the client settled on: that of
// its newest session the mock served (a handshake's negotiated version, or
// 2026-07-28 for a stateless one), else that of the newest MCP request
// refused or let through, else 2025-11-25. settled is false while no
// session has an era: a client may still be probing (a dual-era client's
// server/discover).
func (a *authState) flowVersion() (v string, settled bool) {
	if v, ok := a.host.Settled(); ok {
		return v, true
	}
	a.mu.Lock()
	v = a.version
	a.mu.Unlock()
	if !spec.Known(v) {
		v = spec.V20251125
	}
	return v, false
}

// pendingViolation is a broken authorization rule, and the protocol
// version of the MCP request whose challenge started the flow it broke
// it in ("" when the client authorized before any request: then the
// version it settles on decides).
type pendingViolation struct {
	rule    string
	seq     int // the message that broke it
	detail  string
	version string
}

// violate records a broken authorization rule. Whether it is a violation
// depends on the protocol version: that of the MCP request the flow
// answers (a client authorizing for a 2026-07-28 request follows that
// version's spec), or, for a client that authorized before sending any,
// the one it settles on (settle).
func (a *authState) violate(rule string, seq int, detail string) {
	a.mu.Lock()
	a.pending = append(a.pending, pendingViolation{rule, seq, detail, a.flowVer})
	a.mu.Unlock()
	a.settle(false)
}

// settle turns the pending broken rules into violations: those whose
// version is known at once, the others when the client's version is
// settled, or, with final (the test is ending), against the best version
// known. The assertions, Exchanges and every authorization request
// settle; so does the end of the test. The Host judges each against its
// version (the rule's row says in which versions it exists).
func (a *authState) settle(final bool) {
	a.mu.Lock()
	n := len(a.pending)
	a.mu.Unlock()
	if n == 0 {
		return
	}
	sv, settled := a.flowVersion()
	a.mu.Lock()
	pending := a.pending
	a.pending = nil
	var out []pendingViolation
	for _, p := range pending {
		if !spec.Known(p.version) {
			if !settled && !final {
				a.pending = append(a.pending, p) // not yet
				continue
			}
			p.version = sv
		}
		out = append(out, p)
	}
	a.mu.Unlock()
	for _, p := range out {
		a.host.Raise(p.rule, p.version, p.seq, p.detail)
	}
}

// checkPRMOrder checks the order of Protected Resource Metadata requests:
// the challenge's resource_metadata first when it named one, else the
// path-inserted URL before the root one.
func (a *authState) checkPRMOrder(q *authReq, org, path, mcpPath string) {
	a.mu.Lock()
	rm := a.flow.challenge.resourceMetadata
	tried := slices.Clone(a.flow.prmTried)
	a.mu.Unlock()
	here := org + path
	inserted := org + "/.well-known/oauth-protected-resource" + mcpPath
	switch {
	case rm != "" && here != rm && !slices.Contains(tried, rm):
		a.violate(authplug.RuleDiscoveryOrder, q.x.Seq, "the client fetched "+path+" although the challenge's resource_metadata named "+rm+", which it never fetched")
	case rm == "" && path == "/.well-known/oauth-protected-resource" && mcpPath != "" && mcpPath != "/" && !slices.Contains(tried, inserted):
		a.violate(authplug.RuleDiscoveryOrder, q.x.Seq, "the client fetched the root PRM URL without trying the path-inserted one ("+inserted+") first")
	}
}

// checkMetadataOrder checks that a metadata form is asked for only after
// the forms before it in the spec's order.
func (a *authState) checkMetadataOrder(q *authReq, iss, ip string, form MetadataForm) {
	order := []MetadataForm{OAuthInserted, OpenIDInserted, OpenIDAppended}
	if ip == "" {
		order = order[:2]
	}
	a.mu.Lock()
	tried := slices.Clone(a.flow.metaTried[iss])
	a.mu.Unlock()
	for _, earlier := range order {
		if earlier == form {
			return
		}
		if !slices.Contains(tried, earlier) {
			a.violate(authplug.RuleDiscoveryOrder, q.x.Seq, "the client asked for the metadata at "+metadataPath(ip, form)+" ("+form.String()+") without trying "+metadataPath(ip, earlier)+" ("+earlier.String()+") first")
			return
		}
	}
}

// checkAuthorizeRequest checks what the spec asks of an authorization
// request: PKCE S256, metadata that allowed going on, resource, state,
// the scopes, and the step-up's.
func (a *authState) checkAuthorizeRequest(q *authReq, in int, iss string) {
	p := q.x.Params
	switch challenge, method := p.Get("code_challenge"), p.Get("code_challenge_method"); {
	case challenge == "":
		a.violate(authplug.RulePKCE, in, "the authorization request has no code_challenge")
	case method != "S256":
		a.violate(authplug.RulePKCE, in, "the authorization request's code_challenge_method is "+strconv.Quote(method)+", want S256")
	}
	a.mu.Lock()
	noPKCE, badIss := a.flow.noPKCEServed[iss], a.flow.badIssuer[iss]
	ch := a.flow.challenge
	prmScopes, prmServed := a.flow.lastPRMScopes, a.flow.prmServed
	mcpPath := a.mcpPath
	var granted []string // the scopes of the newest token used with this authorization server
	if ch.status == 403 {
		newest := 0
		for _, t := range a.tokens {
			if t.issuer == iss && t.uses > 0 && t.seq > newest {
				newest, granted = t.seq, t.scopes
			}
		}
	}
	a.mu.Unlock()
	if noPKCE {
		a.violate(authplug.RulePKCEMetadata, in, "the metadata of "+iss+" lists no code_challenge_methods_supported, and the client went on to authorize there")
	}
	if badIss {
		a.violate(authplug.RuleIssuer, in, "the metadata fetched for "+iss+" named another issuer, and the client used it")
	}
	a.checkResource(q, in, p.Get("resource"), "authorization", mcpPath)
	if p.Get("state") == "" {
		a.violate(authplug.RuleState, in, "the authorization request has no state")
	}
	asked := strings.Fields(p.Get("scope"))
	switch {
	case len(ch.scope) > 0 && ch.status != 0:
		if !containsAll(asked, ch.scope) {
			a.violate(authplug.RuleScopeSelection, in, "the client asked for scope "+strconv.Quote(strings.Join(asked, " "))+"; the challenge named "+strconv.Quote(strings.Join(ch.scope, " ")))
		}
	case prmServed && len(prmScopes) > 0:
		if !containsAll(asked, prmScopes) {
			a.violate(authplug.RuleScopeSelection, in, "the client asked for scope "+strconv.Quote(strings.Join(asked, " "))+"; with no scope in the challenge it asks for scopes_supported, "+strconv.Quote(strings.Join(prmScopes, " ")))
		}
	}
	if ch.status == 403 {
		key := strings.Join(ch.scope, " ")
		a.mu.Lock()
		a.flow.stepUps[key]++
		n := a.flow.stepUps[key]
		a.mu.Unlock()
		if n > 3 {
			a.violate(authplug.RuleStepUpBounded, in, "the client re-authorized "+strconv.Itoa(n)+" times for scope "+strconv.Quote(key)+"; it should give up after a few")
		}
		if len(granted) > 0 && !containsAll(asked, granted) {
			a.violate(authplug.RuleStepUpUnion, in, "the step-up asks for "+strconv.Quote(strings.Join(asked, " "))+", dropping scopes granted before ("+strings.Join(granted, " ")+")")
		}
	}
}

// checkResource checks a resource parameter: present, and the canonical
// URI of this MCP server (or a prefix of it on its origin).
func (a *authState) checkResource(q *authReq, in int, resource, what, mcpPath string) {
	org := origin(q.r)
	if resource == "" {
		a.violate(authplug.RuleResource, in, "the "+what+" request has no resource parameter")
		return
	}
	canon, ok := canonicalResource(resource)
	if !ok || !a.audienceOK(resource, org, mcpPath) {
		a.violate(authplug.RuleResource, in, "the "+what+" request's resource "+strconv.Quote(resource)+" is not the canonical URI of the MCP server ("+org+mcpPath+")")
		return
	}
	_ = canon
}

// checkTokenRequest checks an authorization_code token request: resource,
// the same as the authorization request's, and, in 2026-07-28, that the
// client did not go on with a response whose iss was wrong.
func (a *authState) checkTokenRequest(q *authReq, in int, code *authCode) {
	p := q.x.Params
	a.mu.Lock()
	mcpPath := a.mcpPath
	a.mu.Unlock()
	res := p.Get("resource")
	switch {
	case res == "":
		a.violate(authplug.RuleResource, in, "the token request has no resource parameter")
	case code.resource != "" && res != code.resource:
		a.violate(authplug.RuleResource, in, "the token request's resource "+strconv.Quote(res)+" differs from the authorization request's "+strconv.Quote(code.resource))
	default:
		if code.resource == "" {
			a.checkResource(q, in, res, "token", mcpPath)
		}
	}
	if code.stateWrong {
		a.violate(authplug.RuleState, in, "the client sent the token endpoint a code whose authorization response carried a state it never sent")
	}
	if code.issWrong {
		what := "no iss although the metadata advertises authorization_response_iss_parameter_supported"
		if code.issSent != "" {
			what = "iss " + strconv.Quote(code.issSent) + ", not the issuer " + strconv.Quote(code.issuer)
		}
		a.violate(authplug.RuleIss, in, "the client sent the token endpoint a code whose authorization response carried "+what)
	}
}

// Violations returns the violations of the authorization rules (auth/)
// so far, in order: nil before the authorization is installed. A rule
// broken by a client that authorized before sending any MCP request waits
// until the client's protocol version is settled (its session's era),
// since whether it is a violation depends on it; Violations decides those
// still waiting against the version known now, as the end of the test
// does.
func (authz *Authorization) Violations() []mcptest.Violation {
	a := authz.state()
	if a == nil {
		return nil
	}
	a.settle(true)
	var out []mcptest.Violation
	for _, v := range a.host.Server().(*mcptest.Server).Violations() {
		if strings.HasPrefix(string(v.Rule), "auth/") {
			out = append(out, v)
		}
	}
	return out
}
