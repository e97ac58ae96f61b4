package mcptest_test

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/tidwall/gjson"
)

// oauthRaw is a hand-written OAuth client of an MCP server, written from
// the spec, standard library only: correct by default, and each knob
// breaks one thing the spec asks of a client, to send what no SDK would.
type oauthRaw struct {
	t       testing.TB
	c       *http.Client // never follows redirects: /authorize's 302 is read, not followed
	mcpURL  string
	version string // the protocol version of its MCP requests

	// what it gets wrong
	noPKCE, plainPKCE, wrongVerifier bool
	noResource, noTokenResource      bool
	resource, tokenResource          string // instead of the PRM's resource
	noState, ignoreState             bool
	tokenInQuery                     bool
	rootPRMFirst                     bool // fetches the root PRM before the path-inserted one, ignoring the challenge
	openIDFirst                      bool // asks OpenIDInserted before OAuthInserted
	scope                            *string
	noUnion                          bool // a step-up asks for the challenged scopes only
	noAppType                        bool
	ignoreIss, ignoreIssuer          bool   // goes on whatever iss or the metadata's issuer says
	ignoreNoPKCE                     bool   // goes on when the metadata lists no code_challenge_methods_supported
	clientAuth                       string // "client_secret_post" to register for it
	stepUps                          int    // step-ups allowed per request (0: 3, the suite's bound)
	oneMetadataForm                  bool   // asks RFC 8414's path-inserted form only
	noRootPRM                        bool   // never tries the root PRM URL
	ignoreChallengePRM               bool   // ignores the challenge's resource_metadata
	ignorePRMResource                bool   // uses PRM that names another resource
	noLegacyFallback                 bool   // without PRM, gives up instead of the 2025-03-26 discovery
	requireIss                       bool   // refuses a response without iss, advertised or not
	forceAuth                        string // authenticates at /token this way, whatever registration said
	issSlash                         bool   // compares iss with the issuer plus a trailing slash
	noReauth                         bool   // a 401 once it holds a token ends its work
	noRefreshGrant                   bool   // registers for authorization_code only
	addOffline                       bool   // asks for offline_access whatever the metadata lists
	keepClient                       bool   // keeps its client_id when the authorization server changes
	clientCredentials                bool   // takes tokens with the client_credentials grant (a machine client)
	cimdURL                          string // its Client ID Metadata Document URL, used where the server supports them ("": registers)
	loopOn401                        bool   // sends a refused request again even when it could not authorize
	mixServers                       bool   // with several authorization servers, takes the second one's token endpoint
	tokenEndpoint                    string // the token endpoint, when not the metadata's (mixServers)

	// what it holds
	token, refresh     string
	clientID, secret   string
	authMethod         string
	sessionID          string
	granted            []string
	challenge          map[string]string
	prmDoc, metaDoc    gjson.Result
	lastAuthorizeError string
	prmRejected        bool   // a PRM document was found and not used
	clientIssuer       string // the authorization server clientID was registered with
}

func newOAuthRaw(t testing.TB, srv *mcptest.Server, version string) *oauthRaw {
	return newOAuthRawAt(t, srv.URL(), version)
}

// newOAuthRawAt is newOAuthRaw for the MCP endpoint at mcpURL.
func newOAuthRawAt(t testing.TB, mcpURL, version string) *oauthRaw {
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &oauthRaw{t: t, version: version, mcpURL: mcpURL,
		c: &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// stateless reports whether the client speaks the stateless era.
func (o *oauthRaw) stateless() bool { return o.version >= "2026-07-28" }

// send sends one MCP request or notification (id "" for one) with the
// headers its era asks for, and the token.
func (o *oauthRaw) send(id, method, params string) (int, http.Header, string) {
	o.t.Helper()
	var body string
	if o.stateless() && id != "" {
		if params == "" {
			params = "{" + statelessMeta + "}"
		} else {
			params = strings.TrimSuffix(params, "}") + "," + statelessMeta + "}"
		}
	}
	if id == "" {
		body = rawNotificationJSON(method, params)
	} else {
		body = fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q`, id, method)
		if params != "" {
			body += `,"params":` + params
		}
		body += "}"
	}
	target := o.mcpURL
	if o.tokenInQuery && o.token != "" {
		target += "?access_token=" + url.QueryEscape(o.token)
	}
	req, _ := http.NewRequest(http.MethodPost, target, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", both)
	if o.token != "" && !o.tokenInQuery {
		req.Header.Set("Authorization", "Bearer "+o.token)
	}
	if o.sessionID != "" {
		req.Header.Set(mcptest.HeaderSessionID, o.sessionID)
	}
	if method != "initialize" {
		req.Header.Set(mcptest.HeaderProtocolVersion, o.version)
	}
	if o.stateless() {
		req.Header.Set(mcptest.HeaderMethod, method)
		if name := gjson.Get(params, "name"); name.Exists() {
			req.Header.Set(mcptest.HeaderName, name.String())
		}
	}
	resp, err := o.c.Do(req)
	if err != nil {
		o.t.Fatalf("oauthRaw: %s: %v", method, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

func rawNotificationJSON(method, params string) string {
	if params == "" {
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":%q}`, method)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s}`, method, params)
}

// call sends a request and, on 401 or 403 insufficient_scope, authorizes
// and sends it again (step-ups bounded to 3); it returns the last answer.
func (o *oauthRaw) call(id, method, params string) (int, string) {
	o.t.Helper()
	limit := o.stepUps
	if limit == 0 {
		limit = 3
	}
	stepUps := 0
	for range limit + 2 {
		status, hdr, body := o.send(id, method, params)
		switch {
		case status == http.StatusUnauthorized:
			if o.noReauth && o.token != "" {
				return status, body
			}
			o.challenge = parseChallenge(hdr.Get("WWW-Authenticate"))
			if !o.authorize() && !o.loopOn401 {
				return status, body
			}
		case status == http.StatusForbidden && parseChallenge(hdr.Get("WWW-Authenticate"))["error"] == "insufficient_scope":
			if stepUps == limit {
				return status, body
			}
			stepUps++
			o.challenge = parseChallenge(hdr.Get("WWW-Authenticate"))
			if !o.authorize() {
				return status, body
			}
		default:
			if sid := hdr.Get(mcptest.HeaderSessionID); sid != "" {
				o.sessionID = sid
			}
			return status, body
		}
	}
	status, _, body := o.send(id, method, params) // a few step-ups at most, then it gives up
	return status, body
}

// connect calls initialize and sends notifications/initialized (handshake
// era), or server/discover (stateless era).
func (o *oauthRaw) connect() {
	o.t.Helper()
	if o.stateless() {
		if status, body := o.call("0", "server/discover", ""); status != http.StatusOK {
			o.t.Fatalf("oauthRaw: server/discover: %d %s", status, body)
		}
		return
	}
	status, body := o.call("1", "initialize", fmt.Sprintf(`{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"oauthraw","version":"1"}}`, o.version))
	if status != http.StatusOK {
		o.t.Fatalf("oauthRaw: initialize: %d %s", status, body)
	}
	if s, b := o.call("", "notifications/initialized", ""); s != http.StatusAccepted {
		o.t.Fatalf("oauthRaw: notifications/initialized: %d %s", s, b)
	}
}

// parseChallenge reads a Bearer challenge's parameters (a simple parser:
// the mock's default challenges only).
func parseChallenge(h string) map[string]string {
	out := map[string]string{}
	_, rest, _ := strings.Cut(h, " ")
	for rest != "" {
		rest = strings.TrimLeft(rest, " ,")
		k, v, ok := strings.Cut(rest, "=")
		if !ok {
			break
		}
		v = strings.TrimPrefix(v, `"`)
		val, tail, _ := strings.Cut(v, `"`)
		out[strings.ToLower(strings.TrimSpace(k))] = val
		rest = tail
	}
	return out
}

// tokenURL is the token endpoint it uses: the metadata's, unless
// mixServers took another server's.
func (o *oauthRaw) tokenURL() string {
	if o.tokenEndpoint != "" {
		return o.tokenEndpoint
	}
	return o.metaDoc.Get("token_endpoint").String()
}

func (o *oauthRaw) getJSON(u string) (int, gjson.Result) {
	o.t.Helper()
	resp, err := o.c.Get(u)
	if err != nil {
		o.t.Fatalf("oauthRaw: GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, gjson.ParseBytes(b)
}

func (o *oauthRaw) postForm(u string, v url.Values) (int, gjson.Result) {
	o.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if o.authMethod == "client_secret_basic" {
		req.SetBasicAuth(url.QueryEscape(o.clientID), url.QueryEscape(o.secret))
	}
	resp, err := o.c.Do(req)
	if err != nil {
		o.t.Fatalf("oauthRaw: POST %s: %v", u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, gjson.ParseBytes(b)
}

// discoverPRM finds the Protected Resource Metadata: the challenge's URL,
// else the path-inserted one, then the root one.
func (o *oauthRaw) discoverPRM() bool {
	u, _ := url.Parse(o.mcpURL)
	org := u.Scheme + "://" + u.Host
	var urls []string
	if rm := o.challenge["resource_metadata"]; rm != "" && !o.rootPRMFirst && !o.ignoreChallengePRM {
		urls = append(urls, rm)
	}
	inserted, root := org+"/.well-known/oauth-protected-resource"+u.Path, org+"/.well-known/oauth-protected-resource"
	switch {
	case o.rootPRMFirst:
		urls = append(urls, root, inserted)
	case o.noRootPRM:
		urls = append(urls, inserted)
	default:
		urls = append(urls, inserted, root)
	}
	for _, p := range urls {
		if status, doc := o.getJSON(p); status == http.StatusOK {
			want := o.mcpURL // RFC 9728 §3.3: the resource is the one the metadata was fetched for
			if p == root {
				want = org
			}
			if doc.Get("resource").String() != want && !o.ignorePRMResource {
				o.prmRejected = true
				return false
			}
			o.prmDoc = doc
			return true
		}
	}
	return false
}

// discoverMetadata finds the authorization server's metadata, trying the
// forms in the spec's order, and checks it as the spec asks.
func (o *oauthRaw) discoverMetadata(issuer string) bool {
	iu, _ := url.Parse(issuer)
	org, ip := iu.Scheme+"://"+iu.Host, strings.TrimSuffix(iu.Path, "/")
	urls := []string{org + "/.well-known/oauth-authorization-server" + ip, org + "/.well-known/openid-configuration" + ip}
	if ip != "" {
		urls = append(urls, org+ip+"/.well-known/openid-configuration")
	}
	if o.oneMetadataForm {
		urls = urls[:1]
	}
	if o.openIDFirst {
		urls[0], urls[1] = urls[1], urls[0]
	}
	for _, m := range urls {
		status, doc := o.getJSON(m)
		if status != http.StatusOK {
			continue
		}
		if doc.Get("issuer").String() != issuer && !o.ignoreIssuer {
			return false
		}
		if !doc.Get("code_challenge_methods_supported").Exists() && !o.ignoreNoPKCE {
			return false
		}
		o.metaDoc = doc
		return true
	}
	return false
}

// authorize runs the whole flow from the last challenge: discovery,
// registration, authorization, token. It reports whether it got a token.
func (o *oauthRaw) authorize() bool {
	o.t.Helper()
	var issuer string
	if o.discoverPRM() {
		issuer = o.prmDoc.Get("authorization_servers.0").String()
		if o.mixServers {
			if other := o.prmDoc.Get("authorization_servers.1").String(); other != "" && o.discoverMetadata(other) {
				o.tokenEndpoint = o.metaDoc.Get("token_endpoint").String()
			}
		}
		if !o.discoverMetadata(issuer) {
			return false
		}
	} else {
		// No PRM: the 2025-03-26 discovery, the MCP server's origin as
		// authorization server, its metadata or else the default endpoints.
		if o.noLegacyFallback || o.prmRejected || o.version > "2025-03-26" {
			return false // a newer client MUST use PRM: without one it stops
		}
		u, _ := url.Parse(o.mcpURL)
		issuer = u.Scheme + "://" + u.Host
		if !o.discoverMetadata(issuer) {
			o.metaDoc = gjson.Parse(fmt.Sprintf(`{"issuer":%q,"authorization_endpoint":%q,"token_endpoint":%q,"registration_endpoint":%q,"code_challenge_methods_supported":["S256"]}`,
				issuer, issuer+"/authorize", issuer+"/token", issuer+"/register"))
		}
	}
	if o.clientCredentials {
		v := url.Values{"grant_type": {"client_credentials"}, "resource": {o.prmDoc.Get("resource").String()}}
		if sc := o.challenge["scope"]; sc != "" {
			v.Set("scope", sc)
		}
		o.addClientAuth(v)
		status, tok := o.postForm(o.tokenURL(), v)
		if status != http.StatusOK {
			return false
		}
		o.token = tok.Get("access_token").String()
		return true
	}
	if o.clientIssuer != "" && o.clientIssuer != issuer && !o.keepClient {
		o.clientID, o.secret, o.authMethod = "", "", "" // credentials do not carry over to another server
	}
	if o.clientID == "" && o.cimdURL != "" && o.metaDoc.Get("client_id_metadata_document_supported").Bool() {
		o.clientIssuer = issuer
		o.clientID, o.secret, o.authMethod = o.cimdURL, "", "none"
	}
	if o.clientID == "" {
		o.clientIssuer = issuer
		reg := map[string]any{"client_name": "oauthraw", "redirect_uris": []string{"http://127.0.0.1:1/callback"},
			"grant_types": []string{"authorization_code", "refresh_token"}, "response_types": []string{"code"},
			"token_endpoint_auth_method": "none"}
		if methods := o.metaDoc.Get("token_endpoint_auth_methods_supported").Array(); len(methods) > 0 {
			reg["token_endpoint_auth_method"] = methods[0].String() // one the server takes
			for _, m := range methods {
				if m.String() == "none" {
					reg["token_endpoint_auth_method"] = "none"
				}
			}
		}
		if o.clientAuth != "" {
			reg["token_endpoint_auth_method"] = o.clientAuth
		}
		if !o.noAppType {
			reg["application_type"] = "native"
		}
		if o.noRefreshGrant {
			reg["grant_types"] = []string{"authorization_code"}
		}
		b, _ := json.Marshal(reg)
		resp, err := o.c.Post(o.metaDoc.Get("registration_endpoint").String(), "application/json", strings.NewReader(string(b)))
		if err != nil {
			o.t.Fatalf("oauthRaw: register: %v", err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			o.t.Fatalf("oauthRaw: register: %d %s", resp.StatusCode, body)
		}
		r := gjson.ParseBytes(body)
		o.clientID, o.secret, o.authMethod = r.Get("client_id").String(), r.Get("client_secret").String(), r.Get("token_endpoint_auth_method").String()
		if o.forceAuth != "" {
			o.authMethod = o.forceAuth
		}
	}
	// scope: the challenge's, else scopes_supported, else none; a step-up adds what was granted
	var scopes []string
	if sc := o.challenge["scope"]; sc != "" {
		scopes = strings.Fields(sc)
	} else {
		for _, s := range o.prmDoc.Get("scopes_supported").Array() {
			scopes = append(scopes, s.String())
		}
	}
	if !o.noUnion {
		for _, g := range o.granted {
			if !slices.Contains(scopes, g) {
				scopes = append(scopes, g)
			}
		}
	}
	if o.scope != nil {
		scopes = strings.Fields(*o.scope)
	}
	if o.addOffline && !slices.Contains(scopes, "offline_access") {
		scopes = append(scopes, "offline_access")
	}
	verifier := rand.Text() + rand.Text()
	sum := sha256.Sum256([]byte(verifier))
	state := rand.Text()
	resource := o.prmDoc.Get("resource").String()
	if !o.prmDoc.Exists() {
		resource = o.mcpURL // 2025-03-26: no PRM; the canonical URI of the MCP server (RFC 8707)
	}
	if o.resource != "" {
		resource = o.resource
	}
	v := url.Values{"response_type": {"code"}, "client_id": {o.clientID}, "redirect_uri": {"http://127.0.0.1:1/callback"}}
	if !o.noPKCE {
		v.Set("code_challenge", base64.RawURLEncoding.EncodeToString(sum[:]))
		v.Set("code_challenge_method", "S256")
		if o.plainPKCE {
			v.Set("code_challenge", verifier)
			v.Set("code_challenge_method", "plain")
		}
	}
	if !o.noResource {
		v.Set("resource", resource)
	}
	if !o.noState {
		v.Set("state", state)
	}
	if len(scopes) > 0 {
		v.Set("scope", strings.Join(scopes, " "))
	}
	resp, err := o.c.Get(o.metaDoc.Get("authorization_endpoint").String() + "?" + v.Encode())
	if err != nil {
		o.t.Fatalf("oauthRaw: authorize: %v", err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil {
		o.t.Fatalf("oauthRaw: authorize: %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	back := loc.Query()
	if e := back.Get("error"); e != "" {
		o.lastAuthorizeError = e
		return false
	}
	if !o.noState && !o.ignoreState && back.Get("state") != state {
		return false // a response to another request
	}
	if !o.ignoreIss {
		advertised := o.metaDoc.Get("authorization_response_iss_parameter_supported").Bool()
		want := issuer
		if o.issSlash {
			want += "/"
		}
		if iss, ok := back["iss"]; (ok && iss[0] != want) || (!ok && (advertised || o.requireIss)) {
			return false // RFC 9207 §2.4: the response is not from the server the client asked
		}
	}
	tv := url.Values{"grant_type": {"authorization_code"}, "code": {back.Get("code")}, "redirect_uri": {"http://127.0.0.1:1/callback"}, "code_verifier": {verifier}}
	if o.wrongVerifier {
		tv.Set("code_verifier", verifier+"x")
	}
	if !o.noTokenResource {
		tv.Set("resource", resource)
		if o.tokenResource != "" {
			tv.Set("resource", o.tokenResource)
		}
	}
	o.addClientAuth(tv)
	status, tok := o.postForm(o.tokenURL(), tv)
	if status != http.StatusOK {
		return false
	}
	o.token, o.refresh = tok.Get("access_token").String(), tok.Get("refresh_token").String()
	o.granted = strings.Fields(tok.Get("scope").String())
	return true
}

func (o *oauthRaw) addClientAuth(v url.Values) {
	switch o.authMethod {
	case "client_secret_post":
		v.Set("client_id", o.clientID)
		v.Set("client_secret", o.secret)
	case "client_secret_basic":
	default:
		v.Set("client_id", o.clientID)
	}
}

// refreshToken uses the refresh token; it reports whether it got a new access token.
func (o *oauthRaw) refreshToken() bool {
	o.t.Helper()
	v := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {o.refresh}}
	o.addClientAuth(v)
	status, tok := o.postForm(o.tokenURL(), v)
	if status != http.StatusOK {
		return false
	}
	o.token, o.refresh = tok.Get("access_token").String(), tok.Get("refresh_token").String()
	return true
}
