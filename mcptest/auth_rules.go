package mcptest

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mcpmock/mcpmock/internal/spec"
)

// Rule IDs of the client checks of the authorization flow (HTTP only,
// WithAuthorization). Each is checked against the protocol version of the
// client's MCP requests, and only for the versions whose spec states it.
const (
	// ruleAuthPKCE: the authorization request carries a code_challenge with
	// code_challenge_method S256, and the token request the code_verifier
	// that matches it (answered invalid_request, invalid_grant).
	ruleAuthPKCE RuleID = "auth/pkce-s256"
	// ruleAuthPKCEMetadata: a client whose authorization server's metadata
	// lists no code_challenge_methods_supported refuses to proceed: it
	// sends no authorization request there.
	ruleAuthPKCEMetadata RuleID = "auth/pkce-metadata"
	// ruleAuthResource: the authorization request and the token request
	// (authorization_code) carry the resource parameter (RFC 8707), the
	// canonical URI of the MCP server, the same in both.
	ruleAuthResource RuleID = "auth/resource-parameter"
	// ruleAuthTokenHeader: the access token goes in the Authorization
	// header as "Bearer <token>", never in the URI query string (answered 401).
	ruleAuthTokenHeader RuleID = "auth/token-in-header"
	// ruleAuthTokenEveryRequest: a client that holds a token sends it in
	// every HTTP request to the MCP server (answered 401).
	ruleAuthTokenEveryRequest RuleID = "auth/token-every-request"
	// ruleAuthTokenAudience: a client sends the MCP server only tokens its
	// authorization server issued for it (the resource they were asked for
	// is this server's), never one of another resource (answered 401).
	ruleAuthTokenAudience RuleID = "auth/token-audience"
	// ruleAuthState (a warning): the authorization request carries state,
	// and the client does not go on with a response whose state is not the
	// one it sent (WrongState).
	ruleAuthState RuleID = "auth/state"
	// ruleAuthDiscoveryOrder: Protected Resource Metadata is fetched from
	// the challenge's resource_metadata when it names one, else from the
	// path-inserted well-known URL before the root one; authorization
	// server metadata from the well-known forms in the spec's order
	// (OAuth inserted, OpenID inserted, OpenID appended). Reported once.
	ruleAuthDiscoveryOrder RuleID = "auth/discovery-order"
	// ruleAuthScopeSelection (a warning): the authorization request asks
	// for the challenge's scope when it had one, else for the PRM's
	// scopes_supported. Reported once.
	ruleAuthScopeSelection RuleID = "auth/scope-selection"
	// ruleAuthStepUpBounded (a warning): a client answered 403
	// insufficient_scope re-authorizes for the same scopes a few times at
	// most (more than 3 is reported). Reported once.
	ruleAuthStepUpBounded RuleID = "auth/step-up-bounded"
	// ruleAuthStepUpUnion (a warning; 2026-07-28): a step-up asks for the
	// challenged scopes together with those granted before. Reported once.
	ruleAuthStepUpUnion RuleID = "auth/step-up-scope-union"
	// ruleAuthIss (2026-07-28): a client rejects an authorization response
	// whose iss is not exactly the issuer (or is absent when the metadata
	// advertises it): it never sends such a code to the token endpoint.
	ruleAuthIss RuleID = "auth/iss-check"
	// ruleAuthIssuer (2026-07-28): a client does not use authorization
	// server metadata whose issuer is not the one it fetched it for.
	ruleAuthIssuer RuleID = "auth/issuer-check"
	// ruleAuthApplicationType (2026-07-28): a Dynamic Client Registration
	// request carries application_type.
	ruleAuthApplicationType RuleID = "auth/application-type"
	// ruleAuthCredentialsPerServer (2026-07-28): client credentials
	// registered with one authorization server are not used at another
	// (answered like an unknown client).
	ruleAuthCredentialsPerServer RuleID = "auth/credentials-per-server"
)

// flowVersion is the protocol version the client settled on: that of
// its newest session the mock served (a handshake's negotiated version, or
// 2026-07-28 for a stateless one), else that of the newest MCP request
// refused or let through, else 2025-11-25. settled is false while no
// session has an era: a client may still be probing (a dual-era client's
// server/discover).
func (a *authState) flowVersion() (v string, settled bool) {
	sessions := a.srv.Sessions()
	for i := len(sessions) - 1; i >= 0; i-- {
		switch sessions[i].Era() {
		case EraHandshake:
			if pv := sessions[i].ProtocolVersion(); spec.Known(pv) {
				return pv, true
			}
		case EraStateless:
			return spec.Stateless.Latest(), true
		}
	}
	a.mu.Lock()
	v = a.version
	a.mu.Unlock()
	if !spec.Known(v) {
		v = v20251125
	}
	return v, false
}

// pendingViolation is a broken authorization rule, and the protocol
// version of the MCP request whose challenge started the flow it broke
// it in ("" when the client authorized before any request: then the
// version it settles on decides).
type pendingViolation struct {
	rule    RuleID
	m       Message
	detail  string
	version string
}

// violate records a broken authorization rule. Whether it is a violation
// depends on the protocol version: that of the MCP request the flow
// answers (a client authorizing for a 2026-07-28 request follows that
// version's spec), or, for a client that authorized before sending any,
// the one it settles on (settle).
func (a *authState) violate(sess *Session, rule RuleID, m Message, detail string) {
	a.mu.Lock()
	a.pending = append(a.pending, pendingViolation{rule, m, detail, a.flowVer})
	a.mu.Unlock()
	a.settle(false)
}

// settle turns the pending broken rules into violations: those whose
// version is known at once, the others when the client's version is
// settled, or, with final (the test is ending), against the best version
// known. The assertions, AuthExchanges and every authorization request
// settle; so does the end of the test.
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
	var out []Violation
	for _, p := range pending {
		v := p.version
		if !spec.Known(v) {
			if !settled && !final {
				a.pending = append(a.pending, p) // not yet
				continue
			}
			v = sv
		}
		row := rulesByID[p.rule]
		if row == nil || !slices.Contains(row.Versions, v) {
			continue
		}
		if row.OncePerSession {
			if a.warned == nil {
				a.warned = map[RuleID]bool{}
			}
			if a.warned[p.rule] {
				continue
			}
			a.warned[p.rule] = true
		}
		sec := section(row.specFor(v))
		out = append(out, Violation{Rule: p.rule, Severity: row.severityIn(v), Spec: v, Section: sec, Detail: p.detail, Message: p.m})
	}
	a.mu.Unlock()
	if len(out) == 0 {
		return
	}
	s := a.srv
	s.mu.Lock()
	s.violations = append(s.violations, out...)
	s.mu.Unlock()
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
		a.violate(q.sess, ruleAuthDiscoveryOrder, q.message(), "the client fetched "+path+" although the challenge's resource_metadata named "+rm+", which it never fetched")
	case rm == "" && path == "/.well-known/oauth-protected-resource" && mcpPath != "" && mcpPath != "/" && !slices.Contains(tried, inserted):
		a.violate(q.sess, ruleAuthDiscoveryOrder, q.message(), "the client fetched the root PRM URL without trying the path-inserted one ("+inserted+") first")
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
			a.violate(q.sess, ruleAuthDiscoveryOrder, q.message(), "the client asked for the metadata at "+metadataPath(ip, form)+" ("+form.String()+") without trying "+metadataPath(ip, earlier)+" ("+earlier.String()+") first")
			return
		}
	}
}

// checkAuthorizeRequest checks what the spec asks of an authorization
// request: PKCE S256, metadata that allowed going on, resource, state,
// the scopes, and the step-up's.
func (a *authState) checkAuthorizeRequest(q *authReq, in Message, iss string) {
	p := q.x.Params
	switch challenge, method := p.Get("code_challenge"), p.Get("code_challenge_method"); {
	case challenge == "":
		a.violate(q.sess, ruleAuthPKCE, in, "the authorization request has no code_challenge")
	case method != "S256":
		a.violate(q.sess, ruleAuthPKCE, in, "the authorization request's code_challenge_method is "+strconv.Quote(method)+", want S256")
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
		a.violate(q.sess, ruleAuthPKCEMetadata, in, "the metadata of "+iss+" lists no code_challenge_methods_supported, and the client went on to authorize there")
	}
	if badIss {
		a.violate(q.sess, ruleAuthIssuer, in, "the metadata fetched for "+iss+" named another issuer, and the client used it")
	}
	a.checkResource(q, in, p.Get("resource"), "authorization", mcpPath)
	if p.Get("state") == "" {
		a.violate(q.sess, ruleAuthState, in, "the authorization request has no state")
	}
	asked := strings.Fields(p.Get("scope"))
	switch {
	case len(ch.scope) > 0 && ch.status != 0:
		if !containsAll(asked, ch.scope) {
			a.violate(q.sess, ruleAuthScopeSelection, in, "the client asked for scope "+strconv.Quote(strings.Join(asked, " "))+"; the challenge named "+strconv.Quote(strings.Join(ch.scope, " ")))
		}
	case prmServed && len(prmScopes) > 0:
		if !containsAll(asked, prmScopes) {
			a.violate(q.sess, ruleAuthScopeSelection, in, "the client asked for scope "+strconv.Quote(strings.Join(asked, " "))+"; with no scope in the challenge it asks for scopes_supported, "+strconv.Quote(strings.Join(prmScopes, " ")))
		}
	}
	if ch.status == 403 {
		key := strings.Join(ch.scope, " ")
		a.mu.Lock()
		a.flow.stepUps[key]++
		n := a.flow.stepUps[key]
		a.mu.Unlock()
		if n > 3 {
			a.violate(q.sess, ruleAuthStepUpBounded, in, "the client re-authorized "+strconv.Itoa(n)+" times for scope "+strconv.Quote(key)+"; it should give up after a few")
		}
		if len(granted) > 0 && !containsAll(asked, granted) {
			a.violate(q.sess, ruleAuthStepUpUnion, in, "the step-up asks for "+strconv.Quote(strings.Join(asked, " "))+", dropping scopes granted before ("+strings.Join(granted, " ")+")")
		}
	}
}

// checkResource checks a resource parameter: present, and the canonical
// URI of this MCP server (or a prefix of it on its origin).
func (a *authState) checkResource(q *authReq, in Message, resource, what, mcpPath string) {
	org := origin(q.r)
	if resource == "" {
		a.violate(q.sess, ruleAuthResource, in, "the "+what+" request has no resource parameter")
		return
	}
	canon, ok := canonicalResource(resource)
	if !ok || !a.audienceOK(resource, org, mcpPath) {
		a.violate(q.sess, ruleAuthResource, in, "the "+what+" request's resource "+strconv.Quote(resource)+" is not the canonical URI of the MCP server ("+org+mcpPath+")")
		return
	}
	_ = canon
}

// checkTokenRequest checks an authorization_code token request: resource,
// the same as the authorization request's, and, in 2026-07-28, that the
// client did not go on with a response whose iss was wrong.
func (a *authState) checkTokenRequest(q *authReq, in Message, code *authCode) {
	p := q.x.Params
	a.mu.Lock()
	mcpPath := a.mcpPath
	a.mu.Unlock()
	res := p.Get("resource")
	switch {
	case res == "":
		a.violate(q.sess, ruleAuthResource, in, "the token request has no resource parameter")
	case code.resource != "" && res != code.resource:
		a.violate(q.sess, ruleAuthResource, in, "the token request's resource "+strconv.Quote(res)+" differs from the authorization request's "+strconv.Quote(code.resource))
	default:
		if code.resource == "" {
			a.checkResource(q, in, res, "token", mcpPath)
		}
	}
	if code.stateWrong {
		a.violate(q.sess, ruleAuthState, in, "the client sent the token endpoint a code whose authorization response carried a state it never sent")
	}
	if code.issWrong {
		what := "no iss although the metadata advertises authorization_response_iss_parameter_supported"
		if code.issSent != "" {
			what = "iss " + strconv.Quote(code.issSent) + ", not the issuer " + strconv.Quote(code.issuer)
		}
		a.violate(q.sess, ruleAuthIss, in, "the client sent the token endpoint a code whose authorization response carried "+what)
	}
}

// AuthViolations returns the violations of the authorization rules (auth/)
// so far, in order. A rule broken by a client that authorized before
// sending any MCP request waits until the client's protocol version is
// settled (its session's era), since whether it is a violation depends on
// it; AuthViolations decides those still waiting against the version
// known now, as the end of the test does.
func (s *Server) AuthViolations() []Violation {
	if s.auth == nil {
		return nil
	}
	s.auth.settle(true)
	var out []Violation
	for _, v := range s.Violations() {
		if strings.HasPrefix(string(v.Rule), "auth/") {
			out = append(out, v)
		}
	}
	return out
}
