package oauth

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpmock/mcpmock/internal/authplug"
	"github.com/tidwall/gjson"
)

// This file is the mock's authorization server: metadata at the
// well-known URLs a test chooses, a headless /authorize that approves at
// once, /token with PKCE S256 and refresh rotation, and /register. Bad
// input gets the RFC's error and is journaled; it never stops the server.

func mediaType(ct string) string {
	mt, _, _ := mime.ParseMediaType(ct)
	return mt
}

// isASEndpoint reports whether path is /authorize, /token or /register of
// an authorization server, or of the origin (the 2025-03-26 defaults a
// client may try; answered 404 when no issuer is there).
func (a *authState) isASEndpoint(path string) bool {
	switch path {
	case "/authorize", "/token", "/register":
		return true
	}
	for _, ip := range a.issuerPaths() {
		if rest, ok := strings.CutPrefix(path, ip); ok {
			switch rest {
			case "/authorize", "/token", "/register", "/jwks":
				return true
			}
		}
	}
	return false
}

// metadataPath returns the path of a metadata form for an issuer path.
func metadataPath(ip string, form MetadataForm) string {
	switch form {
	case OAuthInserted:
		return "/.well-known/oauth-authorization-server" + ip
	case OpenIDInserted:
		return "/.well-known/openid-configuration" + ip
	}
	return ip + "/.well-known/openid-configuration"
}

// serveAuth serves a request to a well-known URL or to an authorization
// server's endpoint.
func (a *authState) serveAuth(w http.ResponseWriter, r *http.Request) {
	a.settle(false)
	path := r.URL.Path
	org := origin(r)
	a.mu.Lock()
	mcpPath := a.mcpPath
	a.mu.Unlock()
	// Protected Resource Metadata
	if strings.HasPrefix(path, "/.well-known/oauth-protected-resource") || (a.cfg.prmURL != "" && path == a.cfg.prmURL) {
		q := a.newAuthReq(w, r, authplug.PRM, "", 0)
		a.mu.Lock()
		a.flow.prmTried = append(a.flow.prmTried, org+path)
		a.mu.Unlock()
		a.checkPRMOrder(q, org, path, mcpPath)
		if p := a.prmPath(mcpPath); p == "" || p != path {
			q.notFound("no Protected Resource Metadata here")
			return
		}
		a.servePRM(q, org, mcpPath)
		return
	}
	// authorization server metadata
	for i, ip := range a.issuerPaths() {
		for _, form := range []MetadataForm{OAuthInserted, OpenIDInserted, OpenIDAppended} {
			if path != metadataPath(ip, form) {
				continue
			}
			iss := a.issuer(org, i)
			q := a.newAuthReq(w, r, authplug.Metadata, iss, form)
			a.mu.Lock()
			a.flow.metaTried[iss] = append(a.flow.metaTried[iss], form)
			a.mu.Unlock()
			a.checkMetadataOrder(q, iss, ip, form)
			served := !a.cfg.noMetadata && slices.Contains(a.cfg.forms, form)
			if ip == "" && form == OpenIDAppended {
				served = false // one URL with OpenIDInserted, matched first
			}
			if !served {
				q.notFound("no metadata at this form (Options.MetadataAt)")
				return
			}
			a.serveMetadata(q, org, i, form)
			return
		}
	}
	// the endpoints
	for i, ip := range a.issuerPaths() {
		rest, ok := strings.CutPrefix(path, ip)
		if !ok {
			continue
		}
		iss := a.issuer(org, i)
		switch rest {
		case "/authorize":
			a.authorize(a.newAuthReq(w, r, authplug.Authorize, iss, 0), org, i)
			return
		case "/token":
			a.token(a.newAuthReq(w, r, authplug.Token, iss, 0), org, i)
			return
		case "/register":
			a.register(a.newAuthReq(w, r, authplug.Register, iss, 0), org, i)
			return
		case "/jwks":
			// The OpenID forms' jwks_uri: an empty key set, since the mock
			// issues no ID tokens and signs nothing.
			a.newAuthReq(w, r, authplug.Metadata, iss, 0).reply(http.StatusOK, map[string]any{"keys": []any{}})
			return
		}
	}
	endpoint := authplug.Metadata
	switch path {
	case "/authorize":
		endpoint = authplug.Authorize
	case "/token":
		endpoint = authplug.Token
	case "/register":
		endpoint = authplug.Register
	}
	a.newAuthReq(w, r, endpoint, "", 0).notFound("no authorization server here")
}

// prmDocument is the Protected Resource Metadata the mock serves.
func (a *authState) prmDocument(org, mcpPath string) map[string]any {
	resource := org + mcpPath
	if a.cfg.prm == PRMAtRoot && a.cfg.prmURL == "" {
		resource = org
	}
	if a.cfg.resource != "" {
		resource = a.cfg.resource
	}
	servers := make([]string, a.cfg.servers)
	for i := range servers {
		servers[i] = a.issuer(org, i)
	}
	doc := map[string]any{"resource": resource, "authorization_servers": servers, "bearer_methods_supported": []string{"header"}}
	if len(a.cfg.scopes) > 0 {
		doc["scopes_supported"] = a.cfg.scopes
	}
	for k, v := range a.cfg.prmFields {
		if v == nil {
			delete(doc, k)
		} else {
			doc[k] = v
		}
	}
	return doc
}

func (a *authState) servePRM(q *authReq, org, mcpPath string) {
	doc := a.prmDocument(org, mcpPath)
	if a.faultPRM(q, doc) {
		return
	}
	a.mu.Lock()
	a.flow.prmServed = true
	a.flow.lastPRMScopes = nil
	if sc, ok := doc["scopes_supported"].([]string); ok {
		a.flow.lastPRMScopes = sc
	}
	a.mu.Unlock()
	q.reply(http.StatusOK, doc)
}

// metadataDocument is the metadata of the i-th authorization server, as
// configured (faults aside): the server acts on what it advertises.
func (a *authState) metadataDocument(org string, i int, form MetadataForm) map[string]any {
	iss := a.issuer(org, i)
	doc := map[string]any{
		"issuer":                                         iss,
		"authorization_endpoint":                         iss + "/authorize",
		"token_endpoint":                                 iss + "/token",
		"registration_endpoint":                          iss + "/register",
		"response_types_supported":                       []string{"code"},
		"response_modes_supported":                       []string{"query"},
		"grant_types_supported":                          []string{"authorization_code", "refresh_token"},
		"code_challenge_methods_supported":               []string{"S256"},
		"token_endpoint_auth_methods_supported":          []string{"none", "client_secret_basic", "client_secret_post"},
		"client_id_metadata_document_supported":          true,
		"authorization_response_iss_parameter_supported": true,
	}
	if len(a.cfg.scopes) > 0 {
		doc["scopes_supported"] = a.cfg.scopes
	}
	if form == OpenIDInserted || form == OpenIDAppended {
		// What OpenID Connect Discovery 1.0 §3 makes REQUIRED besides the
		// OAuth fields: a client that validates the document needs them.
		doc["jwks_uri"] = iss + "/jwks"
		doc["subject_types_supported"] = []string{"public"}
		doc["id_token_signing_alg_values_supported"] = []string{"RS256"}
	}
	for k, v := range a.cfg.fields {
		if v == nil {
			delete(doc, k)
		} else {
			doc[k] = v
		}
	}
	return doc
}

// advertised is the metadata of the i-th authorization server as JSON,
// for what the server does.
func (a *authState) advertised(org string, i int) gjson.Result {
	b, _ := json.Marshal(a.metadataDocument(org, i, OAuthInserted))
	return gjson.ParseBytes(b)
}

func (a *authState) serveMetadata(q *authReq, org string, i int, form MetadataForm) {
	doc := a.metadataDocument(org, i, form)
	if a.faultMetadata(q, doc) {
		return
	}
	iss := a.issuer(org, i)
	a.mu.Lock()
	_, hasPKCE := doc["code_challenge_methods_supported"]
	a.flow.noPKCEServed[iss] = !hasPKCE
	a.flow.badIssuer[iss] = doc["issuer"] != iss
	a.mu.Unlock()
	q.reply(http.StatusOK, doc)
}

// advertisedList reads a list of the metadata, with its RFC 8414 default when absent.
func advertisedList(md gjson.Result, field string, def ...string) []string {
	v := md.Get(field)
	if !v.Exists() {
		return def
	}
	var out []string
	for _, e := range v.Array() {
		out = append(out, e.String())
	}
	return out
}

// client returns the client with id for the i-th authorization server:
// registered there, pre-registered, or a Client ID Metadata Document URL
// when the server advertises them.
func (a *authState) client(id, iss string, md gjson.Result) *oauthClient {
	a.mu.Lock()
	c := a.clients[id]
	a.mu.Unlock()
	if c != nil {
		if c.issuer != "" && c.issuer != iss {
			return nil // registered with another authorization server
		}
		return c
	}
	if md.Get("client_id_metadata_document_supported").Bool() && isCIMDClientID(id) {
		return &oauthClient{id: id, method: "none", cimd: true, grants: []string{"authorization_code", "refresh_token"}}
	}
	return nil
}

// isCIMDClientID reports whether id is a Client ID Metadata Document URL:
// https with a path.
func isCIMDClientID(id string) bool {
	u, err := url.Parse(id)
	return err == nil && u.Scheme == "https" && u.Host != "" && u.Path != "" && u.Path != "/"
}

// isLoopbackRedirect reports whether a redirect URI is an http(s) URI of
// a loopback host: localhost (or a name under it), or a loopback address.
func isLoopbackRedirect(s string) bool {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	host := u.Hostname()
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// authorize serves /authorize: it approves at once and redirects to the
// client's redirect_uri with code, state and iss.
func (a *authState) authorize(q *authReq, org string, i int) {
	if q.r.Method != http.MethodGet && q.r.Method != http.MethodPost {
		q.header.Set("Allow", "GET, POST")
		q.oauthError(http.StatusMethodNotAllowed, "invalid_request", "the authorization endpoint takes GET (or POST)")
		return
	}
	p := q.x.Params
	iss := a.issuer(org, i)
	md := a.advertised(org, i)
	clientID, redirect := p.Get("client_id"), p.Get("redirect_uri")
	c := a.client(clientID, iss, md)
	if c == nil {
		a.checkForeignClient(q, clientID, iss)
		q.oauthError(http.StatusBadRequest, "invalid_request", "unknown client_id "+strconv.Quote(clientID)+": register it (/register), pre-register it (Options.Clients), or use a Client ID Metadata Document URL")
		return
	}
	if redirect == "" && len(c.redirects) == 1 {
		redirect = c.redirects[0]
	}
	switch {
	case redirect == "":
		q.oauthError(http.StatusBadRequest, "invalid_request", "redirect_uri is missing")
		return
	case len(c.redirects) > 0 && !slices.Contains(c.redirects, redirect):
		q.oauthError(http.StatusBadRequest, "invalid_request", "redirect_uri "+strconv.Quote(redirect)+" is not registered for the client")
		return
	case len(c.redirects) == 0 && !c.cimd && !isLoopbackRedirect(redirect):
		q.oauthError(http.StatusBadRequest, "invalid_request", "redirect_uri "+strconv.Quote(redirect)+" is not a loopback URI")
		return
	}
	if _, err := url.Parse(redirect); err != nil {
		q.oauthError(http.StatusBadRequest, "invalid_request", "redirect_uri is not a URI")
		return
	}
	in := q.x.Seq
	a.checkAuthorizeRequest(q, in, iss)
	// RFC 9207 §2.3: a server that sends iss advertises it; one that serves no metadata cannot
	sendIss := md.Get("authorization_response_iss_parameter_supported").Bool() && !a.cfg.noMetadata
	fail := func(code, desc string) {
		v := url.Values{"error": {code}, "error_description": {desc}}
		if s := p.Get("state"); s != "" {
			v.Set("state", s)
		}
		if sendIss {
			v.Set("iss", iss)
		}
		q.x.Error = code
		q.redirect(withQuery(redirect, v))
	}
	if p.Get("response_type") != "code" {
		fail("unsupported_response_type", "response_type must be code")
		return
	}
	challenge, method := p.Get("code_challenge"), p.Get("code_challenge_method")
	if challenge == "" {
		fail("invalid_request", "code_challenge is required (PKCE)")
		return
	}
	if method != "S256" {
		fail("invalid_request", "code_challenge_method must be S256")
		return
	}
	scopes := strings.Fields(p.Get("scope"))
	scopes = slices.DeleteFunc(scopes, func(sc string) bool { return slices.Contains(a.cfg.ungranted, sc) })
	code := &authCode{value: randomToken(24), client: c.id, redirect: redirect, challenge: challenge, method: method,
		scopes: scopes, resource: p.Get("resource"), issuer: iss, expires: time.Now().Add(a.cfg.codeTTL)}
	v := url.Values{"code": {code.value}}
	if s := p.Get("state"); s != "" {
		v.Set("state", s)
	}
	if sendIss {
		v.Set("iss", iss)
	}
	a.faultAuthorizeResponse(q, v)
	code.stateWrong = v.Get("state") != p.Get("state")
	code.issSent = v.Get("iss")
	code.issWrong = (v.Has("iss") && code.issSent != iss) || (sendIss && !v.Has("iss"))
	a.mu.Lock()
	a.codes[code.value] = code
	a.mu.Unlock()
	q.redirect(withQuery(redirect, v))
}

// withQuery adds v to the query of a URI.
func withQuery(uri string, v url.Values) string {
	u, err := url.Parse(uri)
	if err != nil {
		return uri
	}
	qv := u.Query()
	for k, vs := range v {
		qv[k] = vs
	}
	u.RawQuery = qv.Encode()
	return u.String()
}

// clientAuth reads a token request's client authentication: the method,
// the client id and the secret.
func clientAuth(r *http.Request, p url.Values) (method, id, secret string, ok bool) {
	if user, pass, basic := r.BasicAuth(); basic {
		id, err1 := url.QueryUnescape(user)
		secret, err2 := url.QueryUnescape(pass)
		if err1 != nil || err2 != nil {
			return "client_secret_basic", user, pass, false
		}
		return "client_secret_basic", id, secret, true
	}
	if p.Has("client_secret") {
		return "client_secret_post", p.Get("client_id"), p.Get("client_secret"), true
	}
	return "none", p.Get("client_id"), "", true
}

// token serves /token: authorization_code and refresh_token.
func (a *authState) token(q *authReq, org string, i int) {
	if q.r.Method != http.MethodPost {
		q.header.Set("Allow", "POST")
		q.oauthError(http.StatusMethodNotAllowed, "invalid_request", "the token endpoint takes POST")
		return
	}
	if ct := mediaType(q.r.Header.Get("Content-Type")); ct != "application/x-www-form-urlencoded" {
		q.oauthError(http.StatusBadRequest, "invalid_request", "POST the token request as application/x-www-form-urlencoded, not "+strconv.Quote(ct))
		return
	}
	if a.faultToken(q) {
		return
	}
	p := q.x.Params
	iss := a.issuer(org, i)
	md := a.advertised(org, i)
	method, id, secret, ok := clientAuth(q.r, p)
	q.x.ClientAuth = method
	invalidClient := func(desc string) {
		if method == "client_secret_basic" {
			q.header.Set("WWW-Authenticate", `Basic realm="mcptest"`)
		}
		q.oauthError(http.StatusUnauthorized, "invalid_client", desc)
	}
	if !ok || id == "" {
		invalidClient("no client authentication (client_id, client_secret_basic or client_secret_post)")
		return
	}
	c := a.client(id, iss, md)
	if c == nil {
		a.checkForeignClient(q, id, iss)
		invalidClient("unknown client_id " + strconv.Quote(id))
		return
	}
	if methods := advertisedList(md, "token_endpoint_auth_methods_supported", "client_secret_basic"); !slices.Contains(methods, method) {
		invalidClient("client authentication " + method + " is not among token_endpoint_auth_methods_supported " + strings.Join(methods, ", "))
		return
	}
	if c.secret != "" && subtle.ConstantTimeCompare([]byte(secret), []byte(c.secret)) != 1 {
		invalidClient("wrong client secret")
		return
	}
	grants := advertisedList(md, "grant_types_supported", "authorization_code")
	switch gt := p.Get("grant_type"); {
	case gt == "":
		q.oauthError(http.StatusBadRequest, "invalid_request", "grant_type is missing")
	case !slices.Contains(grants, gt) || (gt != "authorization_code" && gt != "refresh_token" && gt != "client_credentials"):
		q.oauthError(http.StatusBadRequest, "unsupported_grant_type", "grant_type "+strconv.Quote(gt)+" is not supported ("+strings.Join(grants, ", ")+")")
	case gt == "authorization_code":
		a.codeGrant(q, c, iss, grants)
	case gt == "client_credentials":
		// RFC 6749 §4.4: a confidential client, for itself; no refresh token.
		if c.secret == "" {
			q.oauthError(http.StatusBadRequest, "unauthorized_client", "the client_credentials grant is for a confidential client (one with a secret)")
			return
		}
		scopes := slices.DeleteFunc(strings.Fields(p.Get("scope")), func(sc string) bool { return slices.Contains(a.cfg.ungranted, sc) })
		a.issue(q, c, iss, p.Get("resource"), scopes, false)
	default:
		a.refreshGrant(q, c, iss, grants)
	}
}

// s256 is the PKCE S256 transformation of a verifier.
func s256(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

func (a *authState) codeGrant(q *authReq, c *oauthClient, iss string, grants []string) {
	p := q.x.Params
	in := q.x.Seq
	a.mu.Lock()
	code := a.codes[p.Get("code")]
	var cc authCode
	fresh := code != nil && !code.used
	if code != nil {
		cc = *code
		code.used = true // single use, whatever comes next
	}
	a.mu.Unlock()
	switch {
	case p.Get("code") == "":
		q.oauthError(http.StatusBadRequest, "invalid_request", "code is missing")
		return
	case code == nil:
		q.oauthError(http.StatusBadRequest, "invalid_grant", "unknown authorization code")
		return
	case !fresh:
		q.oauthError(http.StatusBadRequest, "invalid_grant", "the authorization code was used already")
		return
	case !time.Now().Before(cc.expires):
		q.oauthError(http.StatusBadRequest, "invalid_grant", "the authorization code expired")
		return
	case cc.client != c.id:
		q.oauthError(http.StatusBadRequest, "invalid_grant", "the authorization code was issued to another client")
		return
	case cc.issuer != iss:
		q.oauthError(http.StatusBadRequest, "invalid_grant", "the authorization code was issued by another authorization server")
		return
	case p.Has("redirect_uri") && p.Get("redirect_uri") != cc.redirect:
		q.oauthError(http.StatusBadRequest, "invalid_grant", "redirect_uri differs from the authorization request's")
		return
	}
	a.checkTokenRequest(q, in, &cc)
	verifier := p.Get("code_verifier")
	if verifier == "" || s256(verifier) != cc.challenge {
		what := "code_verifier is missing"
		if verifier != "" {
			what = "code_verifier does not match the S256 code_challenge"
		}
		a.violate(authplug.RulePKCE, in, "the token request's "+what)
		q.oauthError(http.StatusBadRequest, "invalid_grant", what)
		return
	}
	resource := cc.resource
	if resource == "" {
		resource = p.Get("resource")
	}
	a.issue(q, c, iss, resource, cc.scopes, slices.Contains(grants, "refresh_token"))
}

func (a *authState) refreshGrant(q *authReq, c *oauthClient, iss string, grants []string) {
	p := q.x.Params
	a.mu.Lock()
	rt := a.refreshes[p.Get("refresh_token")]
	var rc refreshToken
	fresh := rt != nil && !rt.used && !rt.revoked
	if rt != nil {
		rc = *rt
		if fresh && rc.client == c.id && rc.issuer == iss {
			rt.used = true // rotated: the old one is spent
		}
	}
	a.mu.Unlock()
	switch {
	case p.Get("refresh_token") == "":
		q.oauthError(http.StatusBadRequest, "invalid_request", "refresh_token is missing")
		return
	case rt == nil:
		q.oauthError(http.StatusBadRequest, "invalid_grant", "unknown refresh token")
		return
	case rc.revoked:
		q.oauthError(http.StatusBadRequest, "invalid_grant", "the refresh token was revoked")
		return
	case !fresh:
		q.oauthError(http.StatusBadRequest, "invalid_grant", "the refresh token was used already (it rotates)")
		return
	case rc.client != c.id || rc.issuer != iss:
		q.oauthError(http.StatusBadRequest, "invalid_grant", "the refresh token was issued to another client")
		return
	}
	scopes := rc.scopes
	if s := p.Get("scope"); s != "" {
		want := strings.Fields(s)
		if !containsAll(rc.scopes, want) {
			q.oauthError(http.StatusBadRequest, "invalid_scope", "a refresh may not widen the scopes granted")
			return
		}
		scopes = want
	}
	resource := rc.resource
	if r := p.Get("resource"); r != "" && resource == "" {
		resource = r
	}
	a.issue(q, c, iss, resource, scopes, true)
}

// issue answers a token request with a new access token (and refresh token).
func (a *authState) issue(q *authReq, c *oauthClient, iss, resource string, scopes []string, refresh bool) {
	ttl := a.cfg.tokenTTL
	t := &accessToken{value: randomToken(32), client: c.id, issuer: iss, resource: resource, scopes: slices.Clone(scopes), expires: time.Now().Add(ttl)}
	resp := map[string]any{"access_token": t.value, "token_type": "Bearer", "expires_in": int(ttl / time.Second)}
	if len(scopes) > 0 {
		resp["scope"] = strings.Join(scopes, " ")
	}
	a.mu.Lock()
	a.tokens[t.value] = t
	a.issued++
	t.seq = a.issued
	if refresh && !a.cfg.noRefreshTokens {
		rt := &refreshToken{value: randomToken(32), client: c.id, issuer: iss, resource: resource, scopes: slices.Clone(scopes)}
		a.refreshes[rt.value] = rt
		resp["refresh_token"] = rt.value
	}
	a.mu.Unlock()
	q.reply(http.StatusOK, resp)
}

// register serves /register: Dynamic Client Registration (RFC 7591).
func (a *authState) register(q *authReq, org string, i int) {
	md := a.advertised(org, i)
	iss := a.issuer(org, i)
	if !md.Get("registration_endpoint").Exists() {
		q.notFound("the authorization server offers no registration (its metadata has no registration_endpoint)")
		return
	}
	if q.r.Method != http.MethodPost {
		q.header.Set("Allow", "POST")
		q.oauthError(http.StatusMethodNotAllowed, "invalid_request", "the registration endpoint takes POST")
		return
	}
	if !gjson.ValidBytes(q.body) || !gjson.ParseBytes(q.body).IsObject() {
		q.oauthError(http.StatusBadRequest, "invalid_client_metadata", "the body is not a JSON object of client metadata")
		return
	}
	body := gjson.ParseBytes(q.body)
	var redirects []string
	for _, u := range body.Get("redirect_uris").Array() {
		redirects = append(redirects, u.String())
	}
	if len(redirects) == 0 || !body.Get("redirect_uris").IsArray() {
		q.oauthError(http.StatusBadRequest, "invalid_redirect_uri", "redirect_uris is missing or empty")
		return
	}
	for _, u := range redirects {
		if pu, err := url.Parse(u); err != nil || !pu.IsAbs() || pu.Fragment != "" {
			q.oauthError(http.StatusBadRequest, "invalid_redirect_uri", "redirect URI "+strconv.Quote(u)+" is not an absolute URI without a fragment")
			return
		}
	}
	in := q.x.Seq
	appType := body.Get("application_type")
	if !appType.Exists() {
		a.violate(authplug.RuleApplicationType, in, "the registration request has no application_type")
		if a.cfg.requireAppType {
			q.oauthError(http.StatusBadRequest, "invalid_client_metadata", "application_type is required")
			return
		}
	}
	methods := advertisedList(md, "token_endpoint_auth_methods_supported", "client_secret_basic")
	method := body.Get("token_endpoint_auth_method").String()
	if method == "" {
		method = "client_secret_basic" // RFC 7591 §2's default
	}
	if !slices.Contains(methods, method) && len(methods) > 0 {
		method = methods[0]
	}
	grants := []string{"authorization_code"}
	if g := body.Get("grant_types"); g.IsArray() {
		grants = nil
		for _, e := range g.Array() {
			grants = append(grants, e.String())
		}
	}
	c := &oauthClient{id: "mcptest-" + randomToken(12), redirects: redirects, method: method, issuer: iss, grants: grants}
	if method != "none" {
		c.secret = randomToken(24)
	}
	a.mu.Lock()
	a.clients[c.id] = c
	a.mu.Unlock()
	resp := map[string]any{}
	_ = json.Unmarshal(q.body, &resp)
	resp["client_id"] = c.id
	resp["client_id_issued_at"] = time.Now().Unix()
	resp["token_endpoint_auth_method"] = method
	resp["redirect_uris"] = redirects
	resp["grant_types"] = grants
	if c.secret != "" {
		resp["client_secret"] = c.secret
		resp["client_secret_expires_at"] = 0
	}
	if appType.Exists() {
		resp["application_type"] = appType.String()
	}
	q.reply(http.StatusCreated, resp)
}

// checkForeignClient records a client id registered with another
// authorization server of this resource, used at iss.
func (a *authState) checkForeignClient(q *authReq, id, iss string) {
	a.mu.Lock()
	c := a.clients[id]
	a.mu.Unlock()
	if c != nil && c.issuer != "" && c.issuer != iss {
		a.violate(authplug.RuleCredentialsPerServer, q.x.Seq, "client_id "+strconv.Quote(id)+" was registered with "+c.issuer+", and used at "+iss)
	}
}
