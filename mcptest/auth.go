package mcptest

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"github.com/mcpmock/mcpmock/internal/spec"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// This file is the mock as an OAuth-protected MCP server (the spec's
// basic/authorization): the protected resource. auth_server.go is its
// authorization server, auth_rules.go what the spec asks of the client,
// auth_faults.go how it breaks, auth_assert.go what a test asks about it.

// PRMLocation says where the mock serves its Protected Resource Metadata
// (RFC 9728).
type PRMLocation int

const (
	// PRMAtPath serves it at the path-inserted well-known URL,
	// /.well-known/oauth-protected-resource/mcp for the endpoint /mcp (the default).
	PRMAtPath PRMLocation = iota
	// PRMAtRoot serves it at /.well-known/oauth-protected-resource, for the
	// origin as the resource.
	PRMAtRoot
	// PRMNowhere serves none, and the challenge names none: the 2025-03-26
	// fallback, where a client takes the MCP server's origin as its
	// authorization server.
	PRMNowhere
)

// MetadataForm is one of the well-known URLs where an authorization
// server's metadata may be served, for an issuer with a path such as
// http://127.0.0.1:1234/as (for an issuer without a path the two
// OpenID forms are one URL).
type MetadataForm int

const (
	// OAuthInserted is RFC 8414's form: /.well-known/oauth-authorization-server/as.
	OAuthInserted MetadataForm = iota + 1
	// OpenIDInserted is OpenID Connect Discovery with path insertion:
	// /.well-known/openid-configuration/as.
	OpenIDInserted
	// OpenIDAppended is OpenID Connect Discovery with path appending:
	// /as/.well-known/openid-configuration.
	OpenIDAppended
)

// String returns the form's name, e.g. "OAuthInserted".
func (f MetadataForm) String() string {
	switch f {
	case OAuthInserted:
		return "OAuthInserted"
	case OpenIDInserted:
		return "OpenIDInserted"
	case OpenIDAppended:
		return "OpenIDAppended"
	}
	return "MetadataForm(" + strconv.Itoa(int(f)) + ")"
}

// Authorization is the configuration of the mock as an OAuth-protected
// MCP server with its own authorization server. Build it with
// NewAuthorization and the chained With… methods, and turn it on with
// Server.WithAuthorization. Changes after that have no effect.
type Authorization struct {
	scopes          []string            // scopes_supported of the PRM and the metadata
	ungranted       []string            // WithUngrantedScopes: never put in a token
	challengeScope  bool                // the 401 challenge carries scope
	noResourceMeta  bool                // the challenge carries no resource_metadata
	prm             PRMLocation         //
	prmURL          string              // a PRM path of its own, given only in the challenge
	resource        string              // the PRM's resource, instead of the endpoint's URL
	prmFields       map[string]any      // PRM fields set (nil: removed)
	servers         int                 // authorization servers
	issuerPath      string              // the first one's issuer path; "" for the origin
	forms           []MetadataForm      // where the metadata is served
	noMetadata      bool                // no metadata at all (2025-03-26 fallback)
	fields          map[string]any      // metadata fields set (nil: removed)
	clients         []preClient         // pre-registered
	tokenTTL        time.Duration       //
	codeTTL         time.Duration       //
	methodScopes    map[string][]string // scopes a method needs
	toolScopes      map[string][]string // scopes a tool needs
	requireAppType  bool                // DCR without application_type is refused
	noRefreshTokens bool                //
	errs            []string
}

// preClient is a client registered before the test, as a pre-registered
// client of a real authorization server.
type preClient struct {
	id, secret string
	redirects  []string
	method     string // token_endpoint_auth_method
}

// NewAuthorization returns the default authorization, which follows the
// current spec (2025-11-25, and 2026-07-28 for stateless requests): a 401
// with WWW-Authenticate: Bearer resource_metadata="…", Protected Resource
// Metadata at the path-inserted well-known URL, one authorization server
// under the issuer <origin>/as with RFC 8414 metadata at
// /.well-known/oauth-authorization-server/as, PKCE S256, Dynamic Client
// Registration, Client ID Metadata Documents, the iss parameter, client
// authentication none, client_secret_basic and client_secret_post, opaque
// tokens that live an hour, refresh tokens that rotate, and no scopes.
func NewAuthorization() *Authorization {
	return &Authorization{
		challengeScope: true,
		servers:        1,
		issuerPath:     "/as",
		forms:          []MetadataForm{OAuthInserted},
		tokenTTL:       time.Hour,
		codeTTL:        time.Minute,
	}
}

func (a *Authorization) errorf(format string, args ...any) *Authorization {
	a.errs = append(a.errs, fmt.Sprintf(format, args...))
	return a
}

// WithScopes sets scopes_supported of the Protected Resource Metadata and
// of the authorization server's metadata; the 401 challenge names them in
// its scope parameter (see WithoutChallengeScope). Tokens carry the scopes
// the client asked for, listed or not (a step-up's scope often is not),
// except those of WithUngrantedScopes.
func (a *Authorization) WithScopes(scopes ...string) *Authorization {
	for _, sc := range scopes {
		if sc == "" || strings.ContainsAny(sc, " \"\\") {
			return a.errorf("WithScopes(%q): a scope is a non-empty token without spaces, quotes or backslashes", sc)
		}
	}
	a.scopes = slices.Clone(scopes)
	return a
}

// WithUngrantedScopes makes the authorization server leave scopes out of
// every token, though the client asks for them: a request that needs one
// (WithMethodScopes, WithToolScopes) is refused 403 insufficient_scope
// after every step-up. Reproduces: a scope the user may never grant — the
// client must stop stepping up after a few tries.
func (a *Authorization) WithUngrantedScopes(scopes ...string) *Authorization {
	a.ungranted = append(a.ungranted, scopes...)
	return a
}

// WithoutChallengeScope leaves the scope parameter out of the 401
// challenge: a client then asks for scopes_supported, or no scope.
func (a *Authorization) WithoutChallengeScope() *Authorization {
	a.challengeScope = false
	return a
}

// WithoutResourceMetadata leaves resource_metadata out of the 401
// challenge, as a server that relies on the well-known URLs does: a client
// must then try the path-inserted URL, then the root one.
func (a *Authorization) WithoutResourceMetadata() *Authorization {
	a.noResourceMeta = true
	return a
}

// WithPRMAt says where the Protected Resource Metadata is served:
// PRMAtPath (the default), PRMAtRoot or PRMNowhere.
func (a *Authorization) WithPRMAt(loc PRMLocation) *Authorization {
	if loc < PRMAtPath || loc > PRMNowhere {
		return a.errorf("WithPRMAt(%d): not a PRMLocation", loc)
	}
	a.prm, a.prmURL = loc, ""
	return a
}

// WithPRMURL serves the Protected Resource Metadata at path (e.g.
// "/meta/prm") of the server's origin and nowhere else: a client finds it
// only through the challenge's resource_metadata.
func (a *Authorization) WithPRMURL(path string) *Authorization {
	if !strings.HasPrefix(path, "/") || strings.ContainsAny(path, "?#") {
		return a.errorf("WithPRMURL(%q): want an absolute path without query or fragment, e.g. \"/meta/prm\"", path)
	}
	a.prm, a.prmURL = PRMAtPath, path
	return a
}

// WithResource sets the resource the Protected Resource Metadata names,
// instead of the MCP endpoint's URL (or its origin, at the root). Tokens
// asked for with it are accepted: it is the server's name for itself.
func (a *Authorization) WithResource(resource string) *Authorization {
	if u, err := url.Parse(resource); err != nil || !u.IsAbs() || u.Fragment != "" {
		return a.errorf("WithResource(%q): want an absolute URI without a fragment", resource)
	}
	a.resource = resource
	return a
}

// WithResourceMetadataField sets a field of the Protected Resource
// Metadata document to a Go value (a json.RawMessage for JSON text), or
// removes it when value is nil.
func (a *Authorization) WithResourceMetadataField(name string, value any) *Authorization {
	if a.prmFields == nil {
		a.prmFields = map[string]any{}
	}
	a.prmFields[name] = value
	return a
}

// WithAuthorizationServers makes n authorization servers (n ≥ 1), all on
// the server's origin, the first under the issuer path (by default /as),
// the others under it followed by their number (/as2, /as3, …); the
// Protected Resource Metadata lists them all, in that order.
func (a *Authorization) WithAuthorizationServers(n int) *Authorization {
	if n < 1 {
		return a.errorf("WithAuthorizationServers(%d): want 1 or more", n)
	}
	a.servers = n
	return a
}

// WithIssuerPath sets the path of the authorization server's issuer on the
// server's origin (by default "/as"); "" makes the origin itself the issuer.
func (a *Authorization) WithIssuerPath(path string) *Authorization {
	if path != "" && (!strings.HasPrefix(path, "/") || strings.HasSuffix(path, "/") || strings.ContainsAny(path, "?#")) {
		return a.errorf("WithIssuerPath(%q): want \"\" or a path such as \"/as\" without a trailing slash", path)
	}
	a.issuerPath = path
	return a
}

// WithMetadataAt says at which well-known URLs the authorization server
// serves its metadata (by default OAuthInserted only); a request to
// another is journaled and answered 404.
func (a *Authorization) WithMetadataAt(forms ...MetadataForm) *Authorization {
	if len(forms) == 0 {
		return a.errorf("WithMetadataAt(): name at least one form, or use WithoutMetadata")
	}
	for _, f := range forms {
		if f < OAuthInserted || f > OpenIDAppended {
			return a.errorf("WithMetadataAt(%d): not a MetadataForm", f)
		}
	}
	a.forms, a.noMetadata = slices.Clone(forms), false
	return a
}

// WithoutMetadata serves no authorization server metadata at all: a
// client falls back to the 2025-03-26 defaults, /authorize, /token and
// /register under the issuer, which keep working.
func (a *Authorization) WithoutMetadata() *Authorization {
	a.noMetadata = true
	return a
}

// WithLegacyDiscovery is the 2025-03-26 arrangement: no Protected Resource
// Metadata, the MCP server's origin as the authorization server, its
// metadata at /.well-known/oauth-authorization-server when metadata is
// true, else none, with /authorize, /token and /register at the root.
func (a *Authorization) WithLegacyDiscovery(metadata bool) *Authorization {
	a.prm, a.prmURL, a.issuerPath, a.noMetadata = PRMNowhere, "", "", !metadata
	a.forms = []MetadataForm{OAuthInserted}
	return a
}

// WithMetadataField sets a field of the authorization server's metadata
// to a Go value (a json.RawMessage for JSON text), or removes it when
// value is nil: e.g. ("code_challenge_methods_supported", nil),
// ("registration_endpoint", nil), ("client_id_metadata_document_supported",
// false), ("authorization_response_iss_parameter_supported", false),
// ("token_endpoint_auth_methods_supported", []string{"client_secret_basic"}),
// ("grant_types_supported", []string{"authorization_code"}). The server
// acts on what it advertises: no registration_endpoint, no /register; no
// refresh_token grant, no refresh tokens; client_credentials listed, the
// client credentials grant (RFC 6749 §4.4) for a confidential client (one
// pre-registered with a secret, see WithClient); the client authentication
// methods listed are the ones accepted.
func (a *Authorization) WithMetadataField(name string, value any) *Authorization {
	if a.fields == nil {
		a.fields = map[string]any{}
	}
	a.fields[name] = value
	return a
}

// WithClient pre-registers a client: its id, its secret ("" for a public
// client, which authenticates with none), and the redirect URIs it may use
// (none: any loopback one).
func (a *Authorization) WithClient(id, secret string, redirectURIs ...string) *Authorization {
	if id == "" {
		return a.errorf("WithClient(%q): empty client id", id)
	}
	method := "none"
	if secret != "" {
		method = "client_secret_basic"
	}
	a.clients = append(a.clients, preClient{id: id, secret: secret, redirects: slices.Clone(redirectURIs), method: method})
	return a
}

// WithTokenLifetime sets how long an access token lives (by default an
// hour); expires_in says so. A request with an expired token gets 401
// invalid_token.
func (a *Authorization) WithTokenLifetime(d time.Duration) *Authorization {
	if d < time.Second {
		return a.errorf("WithTokenLifetime(%v): want a second or more", d)
	}
	a.tokenTTL = d
	return a
}

// WithMethodScopes makes requests of method need scopes: a token without
// them gets 403 with WWW-Authenticate: Bearer error="insufficient_scope",
// scope="…", the step-up the spec describes.
func (a *Authorization) WithMethodScopes(method string, scopes ...string) *Authorization {
	if len(scopes) == 0 {
		return a.errorf("WithMethodScopes(%q): no scopes", method)
	}
	if a.methodScopes == nil {
		a.methodScopes = map[string][]string{}
	}
	a.methodScopes[method] = slices.Clone(scopes)
	return a
}

// WithToolScopes makes tools/call of the named tool need scopes, as
// WithMethodScopes does for a method.
func (a *Authorization) WithToolScopes(tool string, scopes ...string) *Authorization {
	if len(scopes) == 0 {
		return a.errorf("WithToolScopes(%q): no scopes", tool)
	}
	if a.toolScopes == nil {
		a.toolScopes = map[string][]string{}
	}
	a.toolScopes[tool] = slices.Clone(scopes)
	return a
}

// WithRequiredApplicationType makes /register refuse (400
// invalid_client_metadata) a registration without application_type, as an
// OpenID Connect server may. Without it the registration succeeds, and,
// for a 2026-07-28 client, is a violation either way.
func (a *Authorization) WithRequiredApplicationType() *Authorization {
	a.requireAppType = true
	return a
}

// WithoutRefreshTokens issues no refresh tokens: the spec says a client
// must not assume them.
func (a *Authorization) WithoutRefreshTokens() *Authorization {
	a.noRefreshTokens = true
	return a
}

// WithAuthorization makes the server's HTTP endpoint (URL, HTTPHandler) an
// OAuth-protected MCP server with its own authorization server on the same
// origin: every HTTP request to the MCP endpoint needs a bearer token in
// its Authorization header. Sessions of Dial and Serve are unaffected (the
// spec has no authorization on stdio). Every exchange of the
// authorization flow is journaled (Kind KindAuth), drawn in Transcript and
// Messages.SequenceDiagram, and listed by AuthExchanges; what the spec asks of the
// client is checked (the auth/ rules).
func (s *Server) WithAuthorization(a *Authorization) *Server {
	s.t.Helper()
	return s.configure("WithAuthorization", func() error {
		if a == nil {
			return fmt.Errorf("nil *Authorization; build one with NewAuthorization()")
		}
		if len(a.errs) > 0 {
			return fmt.Errorf("%s", strings.Join(a.errs, "; "))
		}
		if a.servers > 1 && a.issuerPath == "" {
			return fmt.Errorf("WithAuthorizationServers(%d) needs an issuer path (WithIssuerPath): the origin is one issuer", a.servers)
		}
		s.auth = newAuthState(s, a)
		s.t.Cleanup(func() { s.auth.settle(true) }) // before NewServer's cleanup reports the violations
		return nil
	})
}

// authState is a server's authorization: its configuration, frozen, and
// what the flow has made so far.
type authState struct {
	srv *Server
	cfg Authorization

	mu        sync.Mutex
	mcpPath   string // the MCP endpoint's path, as last seen
	version   string // the protocol version of the newest MCP request refused or let through
	flowVer   string // that of the newest MCP request that reached the full check (a challenge starts a flow for it)
	exchanges []AuthExchange
	clients   map[string]*oauthClient
	codes     map[string]*authCode
	tokens    map[string]*accessToken
	refreshes map[string]*refreshToken
	issued    int // access tokens issued
	accepted  int // MCP requests let through with a token
	flow      flowState
	warned    map[RuleID]bool
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

func newAuthState(s *Server, a *Authorization) *authState {
	cfg := *a // a copy: changing the builder later changes nothing
	cfg.scopes, cfg.forms, cfg.clients = slices.Clone(a.scopes), slices.Clone(a.forms), slices.Clone(a.clients)
	cfg.fields, cfg.prmFields = maps.Clone(a.fields), maps.Clone(a.prmFields)
	cfg.methodScopes, cfg.toolScopes = maps.Clone(a.methodScopes), maps.Clone(a.toolScopes)
	cfg.ungranted = slices.Clone(a.ungranted)
	st := &authState{srv: s, cfg: cfg, mcpPath: "/mcp",
		clients: map[string]*oauthClient{}, codes: map[string]*authCode{},
		tokens: map[string]*accessToken{}, refreshes: map[string]*refreshToken{}, sessTok: map[string]string{}}
	st.flow.stepUps = map[string]int{}
	st.flow.noPKCEServed = map[string]bool{}
	st.flow.badIssuer = map[string]bool{}
	st.flow.metaTried = map[string][]MetadataForm{}
	for _, c := range a.clients {
		st.clients[c.id] = &oauthClient{id: c.id, secret: c.secret, redirects: c.redirects, method: c.method,
			grants: []string{"authorization_code", "refresh_token"}}
	}
	return st
}

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

// intercept serves what authorization adds to the HTTP endpoint: the
// metadata documents and the authorization server's endpoints, and the
// check of the bearer token on every MCP request. It reports whether it
// answered the request (false: the MCP endpoint serves it).
func (a *authState) intercept(f *httpFront, w http.ResponseWriter, r *http.Request, in *postBody) bool {
	path := r.URL.Path
	if strings.Contains(path, "/.well-known/") || a.isASEndpoint(path) || (a.cfg.prmURL != "" && path == a.cfg.prmURL) {
		a.serveAuth(f, w, r)
		return true
	}
	return a.checkToken(f, w, r, in)
}

// checkToken lets an MCP request with a valid token through (false), and
// answers every other one itself: 401 with the challenge, or 403 when the
// token lacks a scope the request needs.
func (a *authState) checkToken(f *httpFront, w http.ResponseWriter, r *http.Request, in *postBody) bool {
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
	return a.checkTokenSlow(f, w, r, in)
}

// mcpRequest is what the token check reads of a refused MCP request.
type mcpRequest struct {
	body    []byte
	decoded *peeked // body's decoding, shared with the MCP endpoint (postBody)
	method  string
	tool    string
	version string
}

// readMCPRequest reads what the token check needs of an MCP request. A
// POST's body is decoded into in, where the MCP endpoint (post) finds it
// when the request passes: the body is decoded once.
func readMCPRequest(r *http.Request, limit int64, in *postBody) mcpRequest {
	var q mcpRequest
	var p *peeked
	if r.Body != nil && r.Method == http.MethodPost {
		q.body, _ = io.ReadAll(io.LimitReader(r.Body, limit))
		r.Body = io.NopCloser(bytes.NewReader(q.body))
		p = in.decode(q.body)
	} else {
		var none postBody // no body: nothing the endpoint reads
		p = none.decode(nil)
	}
	q.decoded = p
	q.method = p.method.String()
	if q.method == "tools/call" {
		q.tool = p.name().String()
	}
	q.version = r.Header.Get(spec.HeaderProtocolVersion)
	if q.version == "" && p.pv.Type != 0 {
		q.version = p.pv.String()
	}
	if q.version == "" && q.method == "initialize" {
		q.version = gjsonGet(q.body, "params.protocolVersion")
	}
	return q
}

// checkTokenSlow is checkToken for every other case: it reads the body.
func (a *authState) checkTokenSlow(f *httpFront, w http.ResponseWriter, r *http.Request, in *postBody) bool {
	a.settle(false)
	q := readMCPRequest(r, f.srv.httpCfg.bodyLimit, in)
	org := origin(r)
	sess := a.sessionOf(f, r)
	a.mu.Lock()
	a.mcpPath = r.URL.Path
	if q.version != "" {
		a.version, a.flowVer = q.version, q.version // a challenge now starts a flow for this version
	}
	a.mu.Unlock()
	what := q.method
	if what == "" {
		what = r.Method + " request"
	}
	if vals, err := url.ParseQuery(r.URL.RawQuery); err == nil && vals.Has("access_token") {
		in := a.journalMCP(sess, r, q, "access_token in the query string")
		a.violate(sess, ruleAuthTokenHeader, in, "the access token was sent in the URI query string of "+what+"; it goes in the Authorization header only")
		a.challenge(sess, w, r, org, http.StatusUnauthorized, "invalid_request", "the access token goes in the Authorization header, never in the query string", nil)
		return true
	}
	hdr := r.Header.Get("Authorization")
	if hdr == "" {
		in := a.journalMCP(sess, r, q, "no Authorization header")
		if a.authorizedBefore(f, r, q) {
			a.violate(sess, ruleAuthTokenEveryRequest, in, "a client that holds a token sent "+what+" without it; authorization goes in every HTTP request")
		}
		a.challenge(sess, w, r, org, http.StatusUnauthorized, "", "", a.cfg.scopesFor(q))
		return true
	}
	scheme, tok, _ := strings.Cut(hdr, " ")
	tok = strings.TrimSpace(tok)
	if !strings.EqualFold(scheme, "Bearer") || tok == "" {
		in := a.journalMCP(sess, r, q, "Authorization "+shorten(scheme, 20)+" is not a bearer token")
		a.violate(sess, ruleAuthTokenHeader, in, "Authorization header "+strconv.Quote(shorten(hdr, 40))+" is not \"Bearer <token>\"")
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
		in := a.journalMCP(sess, r, q, "a token this server's authorization server never issued")
		a.violate(sess, ruleAuthTokenAudience, in, "the client sent a token the MCP server's authorization server never issued")
		a.challenge(sess, w, r, org, http.StatusUnauthorized, "invalid_token", "unknown token", nil)
		return true
	case !a.audienceOK(tc.resource, org, r.URL.Path):
		in := a.journalMCP(sess, r, q, "a token for "+tc.resource)
		a.violate(sess, ruleAuthTokenAudience, in, "the client sent a token issued for "+strconv.Quote(tc.resource)+" to "+org+r.URL.Path)
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
	if a.faultResource(f, sess, w, r, q, tok, org) {
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
func (c *Authorization) scopesFor(q mcpRequest) []string {
	var need []string
	need = append(need, c.methodScopes[q.method]...)
	if q.tool != "" {
		for _, sc := range c.toolScopes[q.tool] {
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
// the root), or the resource the PRM names (WithResource).
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

// sessionOf returns the session an MCP request names with Mcp-Session-Id,
// or the one that journals what belongs to none.
func (a *authState) sessionOf(f *httpFront, r *http.Request) *Session {
	if c := f.lookup(r.Header.Get(spec.HeaderSessionID)); c != nil {
		return c.sess
	}
	return f.strays()
}

// authorizedBefore reports whether the client of a request without a
// token holds one the server would take: the session it names was used
// with a token still valid, or, in the stateless era, its clientInfo is
// that of requests let through with a token, and a token used before is
// still valid. A client whose token was revoked or expired, and that sends
// a request without one to be told how to authorize again, is not blamed.
func (a *authState) authorizedBefore(f *httpFront, r *http.Request, q mcpRequest) bool {
	valid := func(t *accessToken) bool { return t != nil && !t.revoked && time.Now().Before(t.expires) }
	if sid := r.Header.Get(spec.HeaderSessionID); sid != "" {
		a.mu.Lock()
		defer a.mu.Unlock()
		return valid(a.tokens[a.sessTok[sid]])
	}
	if !isStateless(q.version) {
		return false
	}
	a.mu.Lock()
	usable := false
	for _, t := range a.tokens {
		usable = usable || (t.uses > 0 && valid(t))
	}
	a.mu.Unlock()
	if !usable {
		return false
	}
	info := q.decoded.info
	if !info.Exists() {
		return false
	}
	key := info.Raw
	if v, err := parseJSONValue([]byte(key)); err == nil {
		if b, err := marshalJSON(v); err == nil {
			key = string(b)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.stateless[key]
	return ok
}

// challenge answers an MCP request 401 (or 403) with the WWW-Authenticate
// challenge, and journals the answer.
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

func (a *authState) challenge(sess *Session, w http.ResponseWriter, r *http.Request, org string, status int, errCode, desc string, scope []string) {
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
	// header's (a fault may rewrite it; WithoutChallengeScope leaves out
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
	m := a.journalReply(sess, r, authResource, status, "application/json", "WWW-Authenticate: "+header)
	a.mu.Lock()
	a.flow.challenge = challengeInfo{status: status, scope: scope, resourceMetadata: rm, seq: m.Seq}
	a.mu.Unlock()
}

func cmpOr(s, def string) string {
	if s != "" {
		return s
	}
	return def
}
