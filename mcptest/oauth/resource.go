package oauth

import (
	"crypto/rand"
	"encoding/base64"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpmock/mcpmock/internal/authplug"
	"github.com/mcpmock/mcpmock/internal/spec"
)

// This file is the mock as an OAuth-protected MCP server (the spec's
// basic/authorization): the protected resource, the gate in front of the
// MCP endpoint. server.go is its authorization server, rules.go what the
// spec asks of the client, faults.go how it breaks, assert.go what a test
// asks about it.

// authState is a server's authorization: its configuration, frozen, and
// what the flow has made so far.
type authState struct {
	host authplug.Host
	cfg  config

	mu        sync.Mutex
	mcpPath   string // the MCP endpoint's path, as last seen
	version   string // the protocol version of the newest MCP request refused or let through
	flowVer   string // that of the newest MCP request that reached the full check (a challenge starts a flow for it)
	exchanges []Exchange
	clients   map[string]*oauthClient
	codes     map[string]*authCode
	tokens    map[string]*accessToken
	refreshes map[string]*refreshToken
	issued    int // access tokens issued
	accepted  int // MCP requests let through with a token
	flow      flowState
	sessTok   map[string]string // the token each HTTP session's requests last carried, by Mcp-Session-Id
	pending   []pendingViolation
}

// flowState is what the client was told that the client rules weigh.
type flowState struct {
	challenge     challengeInfo   // the newest 401 or 403 challenge
	stepUps       map[string]int  // 403 insufficient_scope answers per scope set, each followed by a new authorization
	noPKCEServed  map[string]bool // issuers whose last metadata had no code_challenge_methods_supported
	badIssuer     map[string]bool // issuers whose last metadata named another issuer
	prmTried      []string        // PRM URLs requested, in order
	metaTried     map[string][]MetadataForm
	lastPRMScopes []string // scopes_supported of the PRM last served
	prmServed     bool
}

// challengeInfo is a challenge the mock sent.
type challengeInfo struct {
	status           int
	scope            []string
	resourceMetadata string
	seq              int
}

type oauthClient struct {
	id, secret string
	redirects  []string
	method     string // token_endpoint_auth_method
	issuer     string // the authorization server it was registered with ("" for any)
	cimd       bool
	grants     []string
}

type authCode struct {
	value, client, redirect string
	challenge, method       string
	scopes                  []string
	resource                string
	issuer                  string
	issSent                 string // the iss of the redirect ("" none), for the 2026-07-28 check
	issWrong                bool
	stateWrong              bool // a fault changed the state of the redirect
	expires                 time.Time
	used                    bool
}

type accessToken struct {
	okHost   string // the Host and path its audience was last checked for
	okPath   string
	value    string
	seq      int // issued n-th
	client   string
	issuer   string
	resource string
	scopes   []string
	expires  time.Time
	revoked  bool
	uses     int
}

type refreshToken struct {
	value, client, issuer, resource string
	scopes                          []string
	used                            bool
	revoked                         bool
}

func newAuthState(h authplug.Host, cfg config) *authState {
	st := &authState{host: h, cfg: cfg, mcpPath: "/mcp",
		clients: map[string]*oauthClient{}, codes: map[string]*authCode{},
		tokens: map[string]*accessToken{}, refreshes: map[string]*refreshToken{}, sessTok: map[string]string{}}
	st.flow.stepUps = map[string]int{}
	st.flow.noPKCEServed = map[string]bool{}
	st.flow.badIssuer = map[string]bool{}
	st.flow.metaTried = map[string][]MetadataForm{}
	for _, c := range cfg.clients {
		method := "none"
		if c.Secret != "" {
			method = "client_secret_basic"
		}
		st.clients[c.ID] = &oauthClient{id: c.ID, secret: c.Secret, redirects: c.RedirectURIs, method: method,
			grants: []string{"authorization_code", "refresh_token"}}
	}
	return st
}

// Settle decides the violations still waiting for the client's protocol
// version against the best version known: the test is ending.
func (a *authState) Settle() { a.settle(true) }

// randomToken returns n random bytes from crypto/rand, base64url-encoded.
func randomToken(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// origin is the scheme and host the client used to reach the server.
func origin(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// issuer returns the issuer of the i-th authorization server (from 0).
func (a *authState) issuer(org string, i int) string {
	p := a.cfg.issuerPath
	if i > 0 {
		p += strconv.Itoa(i + 1)
	}
	return org + p
}

// issuerPaths returns the issuer paths of every authorization server.
func (a *authState) issuerPaths() []string {
	out := make([]string, a.cfg.servers)
	for i := range out {
		out[i] = a.issuer("", i)
	}
	return out
}

// prmPath is the path the Protected Resource Metadata is served at, "" for none.
func (a *authState) prmPath(mcpPath string) string {
	switch {
	case a.cfg.prmURL != "":
		return a.cfg.prmURL
	case a.cfg.prm == PRMAtPath:
		return "/.well-known/oauth-protected-resource" + mcpPath
	case a.cfg.prm == PRMAtRoot:
		return "/.well-known/oauth-protected-resource"
	}
	return ""
}

// Serve serves what authorization adds to the HTTP endpoint: the metadata
// documents and the authorization server's endpoints. It reports whether
// the request was one of them (false: the gate and the MCP endpoint serve
// it).
func (a *authState) Serve(w http.ResponseWriter, r *http.Request) bool {
	path := r.URL.Path
	if strings.Contains(path, "/.well-known/") || a.isASEndpoint(path) || (a.cfg.prmURL != "" && path == a.cfg.prmURL) {
		a.serveAuth(w, r)
		return true
	}
	return false
}

// Gate checks the bearer token of an MCP request: it lets one with a
// valid token through (false), and answers every other one itself: 401
// with the challenge, or 403 when the token lacks a scope the request
// needs.
func (a *authState) Gate(w http.ResponseWriter, r *http.Request, in authplug.Request) bool {
	hdr := r.Header.Get("Authorization")
	q := r.URL.RawQuery
	if hdr != "" && q == "" && len(a.cfg.methodScopes) == 0 && len(a.cfg.toolScopes) == 0 && !a.hasResourceFaults() {
		// the common path: a token, no query, no per-request scopes
		scheme, tok, _ := strings.Cut(hdr, " ")
		if strings.EqualFold(scheme, "Bearer") {
			a.mu.Lock()
			t := a.tokens[tok]
			if t != nil && !t.revoked && time.Now().Before(t.expires) && t.okHost == r.Host && t.okPath == r.URL.Path && r.TLS == nil {
				t.uses++
				a.accepted++
				a.mcpPath = r.URL.Path
				if sid := r.Header.Get(spec.HeaderSessionID); sid != "" && a.sessTok[sid] != tok {
					a.sessTok[sid] = tok
				}
				if v := r.Header.Get(spec.HeaderProtocolVersion); v != "" {
					a.version = v
				}
				a.mu.Unlock()
				return false
			}
			a.mu.Unlock()
		}
	}
	return a.checkTokenSlow(w, r, in)
}

// mcpRequest is what the token check reads of a refused MCP request.
type mcpRequest struct {
	authplug.Peek
	in authplug.Request
}

// checkTokenSlow is Gate for every other case: it reads the body.
func (a *authState) checkTokenSlow(w http.ResponseWriter, r *http.Request, in authplug.Request) bool {
	a.settle(false)
	q := mcpRequest{in.Peek(), in}
	org := origin(r)
	sess := in.Session()
	a.mu.Lock()
	a.mcpPath = r.URL.Path
	if q.Version != "" {
		a.version, a.flowVer = q.Version, q.Version // a challenge now starts a flow for this version
	}
	a.mu.Unlock()
	what := q.Method
	if what == "" {
		what = r.Method + " request"
	}
	if vals, err := url.ParseQuery(r.URL.RawQuery); err == nil && vals.Has("access_token") {
		seq := a.journalMCP(sess, r, q, "access_token in the query string")
		a.violate(authplug.RuleTokenHeader, seq, "the access token was sent in the URI query string of "+what+"; it goes in the Authorization header only")
		a.challenge(sess, w, r, org, http.StatusUnauthorized, "invalid_request", "the access token goes in the Authorization header, never in the query string", nil)
		return true
	}
	hdr := r.Header.Get("Authorization")
	if hdr == "" {
		seq := a.journalMCP(sess, r, q, "no Authorization header")
		if a.authorizedBefore(r, q) {
			a.violate(authplug.RuleTokenEveryRequest, seq, "a client that holds a token sent "+what+" without it; authorization goes in every HTTP request")
		}
		a.challenge(sess, w, r, org, http.StatusUnauthorized, "", "", a.cfg.scopesFor(q))
		return true
	}
	scheme, tok, _ := strings.Cut(hdr, " ")
	tok = strings.TrimSpace(tok)
	if !strings.EqualFold(scheme, "Bearer") || tok == "" {
		seq := a.journalMCP(sess, r, q, "Authorization "+shorten(scheme, 20)+" is not a bearer token")
		a.violate(authplug.RuleTokenHeader, seq, "Authorization header "+strconv.Quote(shorten(hdr, 40))+" is not \"Bearer <token>\"")
		a.challenge(sess, w, r, org, http.StatusUnauthorized, "invalid_request", "want Authorization: Bearer <token>", nil)
		return true
	}
	a.mu.Lock()
	t := a.tokens[tok]
	var tc accessToken
	if t != nil {
		tc = *t
	}
	a.mu.Unlock()
	switch {
	case t == nil:
		seq := a.journalMCP(sess, r, q, "a token this server's authorization server never issued")
		a.violate(authplug.RuleTokenAudience, seq, "the client sent a token the MCP server's authorization server never issued")
		a.challenge(sess, w, r, org, http.StatusUnauthorized, "invalid_token", "unknown token", nil)
		return true
	case !a.audienceOK(tc.resource, org, r.URL.Path):
		seq := a.journalMCP(sess, r, q, "a token for "+tc.resource)
		a.violate(authplug.RuleTokenAudience, seq, "the client sent a token issued for "+strconv.Quote(tc.resource)+" to "+org+r.URL.Path)
		a.challenge(sess, w, r, org, http.StatusUnauthorized, "invalid_token", "the token is for another resource", nil)
		return true
	case tc.revoked:
		a.journalMCP(sess, r, q, "a revoked token")
		a.challenge(sess, w, r, org, http.StatusUnauthorized, "invalid_token", "the token was revoked", nil)
		return true
	case !time.Now().Before(tc.expires):
		a.journalMCP(sess, r, q, "an expired token")
		a.challenge(sess, w, r, org, http.StatusUnauthorized, "invalid_token", "the token expired", nil)
		return true
	}
	if a.faultResource(sess, w, r, q, tok, org) {
		return true
	}
	if need := a.cfg.scopesFor(q); len(need) > 0 && !containsAll(tc.scopes, need) {
		a.journalMCP(sess, r, q, "a token without "+strings.Join(need, " "))
		a.challenge(sess, w, r, org, http.StatusForbidden, "insufficient_scope", what+" needs "+strings.Join(need, " "), need)
		return true
	}
	a.mu.Lock()
	if t := a.tokens[tok]; t != nil {
		t.uses++
		if r.TLS == nil {
			t.okHost, t.okPath = r.Host, r.URL.Path // the audience held here: the next request to it takes the short path
		}
	}
	if sid := r.Header.Get(spec.HeaderSessionID); sid != "" {
		a.sessTok[sid] = tok
	}
	a.accepted++
	a.mu.Unlock()
	return false
}

// scopesFor returns the scopes a request needs: its method's and, for
// tools/call, its tool's. For a request that needs none, it is the scopes
// of the initial challenge (scopes_supported).
func (c *config) scopesFor(q mcpRequest) []string {
	var need []string
	need = append(need, c.methodScopes[q.Method]...)
	if q.Tool != "" {
		for _, sc := range c.toolScopes[q.Tool] {
			if !slices.Contains(need, sc) {
				need = append(need, sc)
			}
		}
	}
	return need
}

func containsAll(have, need []string) bool {
	for _, n := range need {
		if !slices.Contains(have, n) {
			return false
		}
	}
	return true
}

// audienceOK reports whether a token bound to resource may be used at the
// MCP endpoint path of origin org: the resource is the endpoint's URL, one
// of its path prefixes on the same origin (the origin itself, for PRM at
// the root), or the resource the PRM names (Options.Resource).
func (a *authState) audienceOK(resource, org, path string) bool {
	if resource == "" {
		return true // asked for without a resource: bound to nothing narrower than this server (the violation was recorded then)
	}
	if a.cfg.resource != "" && resource == a.cfg.resource {
		return true
	}
	res, ok := canonicalResource(resource)
	if !ok {
		return false
	}
	here, _ := canonicalResource(org + path)
	return res == here || strings.HasPrefix(here, strings.TrimSuffix(res, "/")+"/") || res == strings.ToLower(org)
}

// canonicalResource is the canonical form of a resource URI the spec
// describes (RFC 8707): lower-case scheme and host, no fragment, no
// trailing slash; ok is false for a URI that cannot be one.
func canonicalResource(s string) (string, bool) {
	u, err := url.Parse(s)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Fragment != "" {
		return "", false
	}
	u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	u.Path = strings.TrimSuffix(u.Path, "/")
	return u.String(), true
}

// authorizedBefore reports whether the client of a request without a
// token holds one the server would take: the session it names was used
// with a token still valid, or, in the stateless era, its clientInfo is
// that of requests let through with a token, and a token used before is
// still valid. A client whose token was revoked or expired, and that sends
// a request without one to be told how to authorize again, is not blamed.
func (a *authState) authorizedBefore(r *http.Request, q mcpRequest) bool {
	valid := func(t *accessToken) bool { return t != nil && !t.revoked && time.Now().Before(t.expires) }
	if sid := r.Header.Get(spec.HeaderSessionID); sid != "" {
		a.mu.Lock()
		defer a.mu.Unlock()
		return valid(a.tokens[a.sessTok[sid]])
	}
	if !spec.IsStateless(q.Version) {
		return false
	}
	a.mu.Lock()
	usable := false
	for _, t := range a.tokens {
		usable = usable || (t.uses > 0 && valid(t))
	}
	a.mu.Unlock()
	return usable && q.in.KnownClient()
}

// challengeScope is the scope parameter of the Bearer challenge in a
// WWW-Authenticate header (nil for none).
func challengeScope(header string) []string {
	i := strings.Index(strings.ToLower(header), "bearer")
	if i < 0 {
		return nil
	}
	rest := header[i+len("bearer"):]
	for {
		j := strings.Index(strings.ToLower(rest), `scope="`)
		if j < 0 {
			return nil
		}
		if j == 0 || strings.ContainsRune(" ,", rune(rest[j-1])) {
			v, _, _ := strings.Cut(rest[j+len(`scope="`):], `"`)
			return strings.Fields(v)
		}
		rest = rest[j+1:]
	}
}

// challenge answers an MCP request 401 (or 403) with the WWW-Authenticate
// challenge, and journals the answer.
func (a *authState) challenge(sess authplug.Session, w http.ResponseWriter, r *http.Request, org string, status int, errCode, desc string, scope []string) {
	a.mu.Lock()
	path := a.mcpPath
	a.mu.Unlock()
	if status == http.StatusUnauthorized && len(scope) == 0 && a.cfg.challengeScope {
		scope = a.cfg.scopes
	}
	params := []string{}
	if errCode != "" {
		params = append(params, `error="`+errCode+`"`)
	}
	if len(scope) > 0 && (a.cfg.challengeScope || status == http.StatusForbidden) {
		params = append(params, `scope="`+strings.Join(scope, " ")+`"`)
	}
	rm := ""
	if p := a.prmPath(path); p != "" && !a.cfg.noResourceMeta {
		rm = org + p
		params = append(params, `resource_metadata="`+rm+`"`)
	}
	if desc != "" {
		params = append(params, `error_description="`+strings.ReplaceAll(desc, `"`, `'`)+`"`)
	}
	header := "Bearer"
	if len(params) > 0 {
		header += " " + strings.Join(params, ", ")
	}
	header = a.faultChallenge(sess, header)
	// The rules judge the client against the scope it was shown: the
	// header's (a fault may rewrite it; NoChallengeScope leaves out
	// even the scope a method needs), not the one the server has in mind.
	scope = challengeScope(header)
	w.Header().Set("WWW-Authenticate", header)
	body := `{"error":"` + cmpOr(errCode, "invalid_token") + `"}`
	if errCode == "" {
		body = `{"error":"unauthorized","error_description":"a bearer token is required"}`
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
	seq := a.journalReply(sess, r, authplug.Resource, status, "application/json", "WWW-Authenticate: "+header)
	a.mu.Lock()
	a.flow.challenge = challengeInfo{status: status, scope: scope, resourceMetadata: rm, seq: seq}
	a.mu.Unlock()
}

func cmpOr(s, def string) string {
	if s != "" {
		return s
	}
	return def
}

// shorten cuts s to n bytes, marking the cut.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
