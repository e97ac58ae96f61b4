package mcpclient

import (
	"bytes"
	"context"
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
	"sync"

	"github.com/tidwall/gjson"
)

// RedirectURI is the redirect_uri the kit's OAuth client registers and
// sends: a loopback address nothing listens on, since the client reads the
// authorization response from the 302's Location and never follows it.
const RedirectURI = "http://127.0.0.1:1/callback"

// PKCE is one authorization's proof key (RFC 7636): a code_verifier and its
// S256 code_challenge.
type PKCE struct{ Verifier, Challenge string }

// NewPKCE makes a fresh random code_verifier (52 characters of the
// unreserved set, 260 bits) and its S256 challenge.
func NewPKCE() PKCE { return PKCEFor(rand.Text() + rand.Text()) }

// PKCEFor returns verifier with its S256 challenge:
// BASE64URL(SHA256(verifier)), without padding.
func PKCEFor(verifier string) PKCE {
	sum := sha256.Sum256([]byte(verifier))
	return PKCE{Verifier: verifier, Challenge: base64.RawURLEncoding.EncodeToString(sum[:])}
}

// Challenge is one challenge of a WWW-Authenticate header (RFC 9110
// §11.6.1): its auth-scheme and its auth-params, names lower-cased.
type Challenge struct {
	Scheme string
	Params map[string]string
}

// Param returns the auth-param name ("" when absent).
func (c Challenge) Param(name string) string { return c.Params[strings.ToLower(name)] }

// ParseChallenges reads every challenge of a WWW-Authenticate header
// value (RFC 9110 §11.6.1): challenges and auth-params separated by
// commas, each auth-param token=token or token=quoted-string (with \
// escapes, commas inside quotes kept). A token68 is kept as a param with
// an empty value.
func ParseChallenges(header string) []Challenge {
	s := header
	blank := func(commas bool) {
		for len(s) > 0 && (s[0] == ' ' || s[0] == '\t' || commas && s[0] == ',') {
			s = s[1:]
		}
	}
	token := func() string {
		i := strings.IndexAny(s, " \t,=\"")
		if i < 0 {
			i = len(s)
		}
		t := s[:i]
		s = s[i:]
		return t
	}
	var out []Challenge
	for {
		blank(true)
		if s == "" {
			return out
		}
		c := Challenge{Scheme: token(), Params: map[string]string{}}
		if c.Scheme == "" { // stray punctuation: step over it
			s = s[1:]
			continue
		}
		for {
			rest := s
			blank(true)
			name := token()
			blank(false)
			if name == "" || s == "" || s[0] != '=' {
				s = rest // not an auth-param: the next challenge begins here
				break
			}
			s = strings.TrimLeft(s, "=")
			blank(false)
			val := ""
			if strings.HasPrefix(s, `"`) {
				var b strings.Builder
				i := 1
				for ; i < len(s) && s[i] != '"'; i++ {
					if s[i] == '\\' && i+1 < len(s) {
						i++
					}
					b.WriteByte(s[i])
				}
				val, s = b.String(), s[min(i+1, len(s)):]
			} else {
				val = token()
			}
			c.Params[strings.ToLower(name)] = val
		}
		out = append(out, c)
	}
}

// ParseChallenge returns the Bearer challenge of a WWW-Authenticate header
// value (the first challenge when none is Bearer; an empty one for "").
func ParseChallenge(header string) Challenge {
	cs := ParseChallenges(header)
	for _, c := range cs {
		if strings.EqualFold(c.Scheme, "Bearer") {
			return c
		}
	}
	if len(cs) > 0 {
		return cs[0]
	}
	return Challenge{Params: map[string]string{}}
}

// OAuthBugs are the deliberate mistakes of the kit's OAuth client, one knob
// each; the zero value makes none, and each knob names the rule or the
// scenario that catches it.
type OAuthBugs struct {
	// PKCE (RFC 7636; the spec makes S256 mandatory: auth/pkce-s256).

	NoPKCE        bool // sends no code_challenge
	PlainPKCE     bool // sends code_challenge_method=plain, the verifier as the challenge
	WrongVerifier bool // sends a code_verifier that is not the challenge's
	IgnoreNoPKCE  bool // goes on when the metadata lists no code_challenge_methods_supported (auth/pkce-metadata)

	// The resource parameter (RFC 8707: auth/resource-parameter).

	NoResource        bool   // no resource in the authorization request
	NoTokenResource   bool   // no resource in the token request
	Resource          string // this resource in both requests instead of the PRM's
	TokenResource     string // this resource in the token request only
	IgnorePRMResource bool   // uses a PRM that names another resource (auth/resource-mismatch)

	// state and iss (RFC 9207).

	NoState      bool // sends no state (auth/state)
	IgnoreState  bool // goes on whatever state comes back (auth/state-mismatch)
	IgnoreIss    bool // goes on whatever iss the authorization response carries, or without one (auth/iss)
	IssSlash     bool // compares iss with the issuer plus a trailing slash (auth/iss-supported)
	RequireIss   bool // refuses a response without iss, advertised or not (auth/iss-not-advertised)
	IgnoreIssuer bool // uses metadata whose issuer is not the one it asked (auth/metadata-issuer)

	// Discovery.

	RootPRMFirst       bool // fetches the root PRM before the challenge's and the path-inserted one (auth/discovery-order)
	NoRootPRM          bool // never tries the root PRM URL (auth/metadata-var2)
	IgnoreChallengePRM bool // ignores the challenge's resource_metadata (auth/metadata-var3, auth/hard-www-authenticate)
	OpenIDFirst        bool // asks the OpenID form of the metadata before RFC 8414's (auth/discovery-order)
	OneMetadataForm    bool // asks RFC 8414's path-inserted metadata only (auth/metadata-var1)
	NoLegacyFallback   bool // without PRM gives up instead of 2025-03-26's discovery (auth/2025-03-26-…)

	// Scopes.

	Scope      *string // asks for exactly these scopes (auth/scope-selection)
	NoUnion    bool    // a step-up asks for the challenged scopes only, not with those granted (auth/step-up-union)
	AddOffline bool    // asks for offline_access whatever the metadata lists (auth/offline-access-not-supported)

	// Step-up and re-authorization.

	NoStepUp  bool // gives up on a 403 insufficient_scope (auth/scope-step-up)
	StepUps   int  // step-ups it allows a request instead of the bound of 3 (auth/step-up-bounded)
	NoReauth  bool // a 401 once it holds a token ends its work (auth/token-expired, auth/token-revoked)
	LoopOn401 bool // sends a refused request again although it could not authorize (auth/no-prm)

	// The token and the client.

	TokenInQuery   bool   // sends the token as ?access_token= instead of the Authorization header (auth/token-header)
	NoAppType      bool   // registers without application_type (auth/application-type)
	NoRefreshGrant bool   // registers for authorization_code only (auth/offline-access-scope)
	ForceAuth      string // authenticates at the token endpoint this way, whatever registration said (auth/token-endpoint-auth-…)
	KeepClient     bool   // keeps its client_id when the authorization server changes (auth/credentials-per-server)
	MixServers     bool   // with several authorization servers, takes the second one's token endpoint (auth/several-authorization-servers)
}

// OAuth is the kit's OAuth 2.1 client of an MCP server's authorization, as
// the spec's Authorization section asks: on a 401 it finds the Protected
// Resource Metadata (the challenge's resource_metadata, then the well-known
// URLs, checking its resource), the authorization server's metadata
// (RFC 8414 and OpenID forms in order, checking issuer and PKCE support),
// registers (Client ID Metadata Document, Dynamic Client Registration, or
// a pre-registered client), authorizes with PKCE S256, state and the
// resource parameter (reading the 302, checking state and iss), and takes
// the token; on a 403 insufficient_scope it authorizes again for the union
// of its scopes and the challenge's, at most 3 times a request. Without
// PRM, a 2025-03-26 client falls back to that version's discovery. Its
// Bugs each break one of these. Give it to Options.Auth or NewHTTPWire;
// one OAuth serves one client at a time.
type OAuth struct {
	// MCPURL is the MCP endpoint (the resource).
	MCPURL string
	// Version is the protocol version the client speaks: 2025-03-26 and
	// older fall back to the origin's metadata without PRM.
	Version string
	// ClientName is the client_name it registers ("" mcpmock-client).
	ClientName string
	// ClientAuth is the token_endpoint_auth_method it registers for
	// ("" one the server lists, none when it can).
	ClientAuth string
	// ClientCredentials takes tokens with the client_credentials grant (a
	// machine client, which must be pre-registered).
	ClientCredentials bool
	// CIMDURL is its Client ID Metadata Document URL, used where the
	// server supports them ("" registers).
	CIMDURL string
	// HTTP makes the requests of discovery, registration and the token
	// (nil: one of its own that never follows redirects).
	HTTP *http.Client
	// Say, when set, is told each step in plain words.
	Say func(format string, args ...any)
	// Bugs are the mistakes it makes on purpose.
	Bugs OAuthBugs

	mu sync.Mutex
	// What it holds: credentials (set ClientID, ClientSecret and
	// AuthMethod before the first request for a pre-registered client),
	// the token, the documents it found. Read them after a request.
	ClientID, ClientSecret, AuthMethod string
	Token, RefreshToken                string
	Granted                            []string
	Challenge                          Challenge
	PRM, Metadata                      gjson.Result
	// AuthorizeError is the error of the last refused authorization.
	AuthorizeError string

	prmRejected   bool   // a PRM document was found and not used
	clientIssuer  string // the authorization server ClientID was registered with
	tokenEndpoint string // MixServers: another server's token endpoint
	ownTransport  *http.Transport
}

func (o *OAuth) say(format string, args ...any) {
	if o.Say != nil {
		o.Say(format, args...)
	}
}

func noRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

func (o *OAuth) client() *http.Client {
	if o.HTTP == nil {
		o.ownTransport = &http.Transport{}
		o.HTTP = &http.Client{Transport: o.ownTransport, CheckRedirect: noRedirect}
	}
	return o.HTTP
}

// CloseIdleConnections closes the idle connections of the client it made
// for itself (none when HTTP was given).
func (o *OAuth) CloseIdleConnections() {
	if o.ownTransport != nil {
		o.ownTransport.CloseIdleConnections()
	}
}

// attach adds the token to an MCP request.
func (o *OAuth) attach(req *http.Request) {
	o.mu.Lock()
	tok := o.Token
	o.mu.Unlock()
	if tok == "" {
		return
	}
	if o.Bugs.TokenInQuery {
		q := req.URL.Query()
		q.Set("access_token", tok)
		req.URL.RawQuery = q.Encode()
		return
	}
	req.Header.Set("Authorization", "Bearer "+tok)
}

// Transport returns a RoundTripper over base that carries the token on
// every request and, on a 401 or a 403 insufficient_scope, authorizes and
// sends the request again (its body must be replayable: GetBody).
func (o *OAuth) Transport(base http.RoundTripper) http.RoundTripper {
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		return o.Do(req.Context(), mcpMethod(req), func() (*http.Response, error) {
			r := req.Clone(req.Context())
			if req.GetBody != nil {
				body, err := req.GetBody()
				if err != nil {
					return nil, err
				}
				r.Body = body
			}
			o.attach(r)
			return base.RoundTrip(r)
		})
	})
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// mcpMethod names an MCP request for the narration: its JSON-RPC method.
func mcpMethod(req *http.Request) string {
	if req.GetBody != nil {
		if b, err := req.GetBody(); err == nil {
			defer b.Close()
			data, _ := io.ReadAll(io.LimitReader(b, 1<<16))
			if m := gjson.GetBytes(data, "method"); m.Exists() {
				return m.String()
			}
		}
	}
	return req.Method
}

// Do sends an MCP request with send (which must attach the token: see
// Transport) and, on a 401 or a 403 insufficient_scope, authorizes and
// sends it again, step-ups bounded; it returns the last response. label
// names the request in what it says. An error is one the flow did not
// expect (the network, a registration refused): the test should fail.
func (o *OAuth) Do(ctx context.Context, label string, send func() (*http.Response, error)) (*http.Response, error) {
	limit := o.Bugs.StepUps
	if limit == 0 {
		limit = 3
	}
	stepUps := 0
	for range limit + 2 {
		resp, err := send()
		if err != nil {
			return nil, err
		}
		ch := ParseChallenge(resp.Header.Get("WWW-Authenticate"))
		switch {
		case resp.StatusCode == http.StatusUnauthorized:
			o.mu.Lock()
			holds := o.Token != ""
			o.mu.Unlock()
			if o.Bugs.NoReauth && holds {
				return resp, nil
			}
			resp = buffer(resp)
			o.say("%s: 401, authorizing (the challenge names the metadata at %s)", label, ch.Param("resource_metadata"))
			ok, err := o.authorize(ctx, ch)
			if err != nil {
				return nil, err
			}
			if !ok && !o.Bugs.LoopOn401 {
				return resp, nil
			}
		case resp.StatusCode == http.StatusForbidden && ch.Param("error") == "insufficient_scope":
			resp = buffer(resp)
			if o.Bugs.NoStepUp {
				o.say("%s: 403 insufficient_scope (scope %q): gave up", label, ch.Param("scope"))
				return resp, nil
			}
			if stepUps == limit {
				return resp, nil
			}
			stepUps++
			o.say("%s: 403 insufficient_scope: stepping up for %q and what it had", label, ch.Param("scope"))
			ok, err := o.authorize(ctx, ch)
			if err != nil {
				return nil, err
			}
			if !ok {
				return resp, nil
			}
		default:
			return resp, nil
		}
	}
	return send() // a few step-ups at most, then it gives up
}

// buffer reads a refused response's body, so it can be returned after the
// flow ran.
func buffer(resp *http.Response) *http.Response {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(b))
	return resp
}

// GetJSON GETs u and returns its status and JSON body.
func (o *OAuth) GetJSON(ctx context.Context, u string) (int, gjson.Result, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, gjson.Result{}, err
	}
	resp, err := o.client().Do(req)
	if err != nil {
		return 0, gjson.Result{}, fmt.Errorf("mcpclient: GET %s: %w", u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, gjson.ParseBytes(b), nil
}

// PostForm POSTs the form v to u, with HTTP Basic authentication when the
// client's AuthMethod is client_secret_basic, and returns the status and
// JSON body.
func (o *OAuth) PostForm(ctx context.Context, u string, v url.Values) (int, gjson.Result, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(v.Encode()))
	if err != nil {
		return 0, gjson.Result{}, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if o.AuthMethod == "client_secret_basic" {
		req.SetBasicAuth(url.QueryEscape(o.ClientID), url.QueryEscape(o.ClientSecret))
	}
	resp, err := o.client().Do(req)
	if err != nil {
		return 0, gjson.Result{}, fmt.Errorf("mcpclient: POST %s: %w", u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, gjson.ParseBytes(b), nil
}

func (o *OAuth) addClientAuth(v url.Values) {
	switch o.AuthMethod {
	case "client_secret_post":
		v.Set("client_id", o.ClientID)
		v.Set("client_secret", o.ClientSecret)
	case "client_secret_basic":
	default:
		v.Set("client_id", o.ClientID)
	}
}

// tokenRequest POSTs v to the token endpoint with the client's
// authentication.
func (o *OAuth) tokenRequest(ctx context.Context, v url.Values) (int, gjson.Result, error) {
	o.addClientAuth(v)
	return o.PostForm(ctx, o.tokenURL(), v)
}

// tokenURL is the token endpoint it uses: the metadata's, unless
// MixServers took another server's.
func (o *OAuth) tokenURL() string {
	if o.tokenEndpoint != "" {
		return o.tokenEndpoint
	}
	return o.Metadata.Get("token_endpoint").String()
}

// discoverPRM finds the Protected Resource Metadata: the challenge's URL,
// else the path-inserted one, then the root one (RFC 9728).
func (o *OAuth) discoverPRM(ctx context.Context) (bool, error) {
	u, err := url.Parse(o.MCPURL)
	if err != nil {
		return false, err
	}
	org := u.Scheme + "://" + u.Host
	var urls []string
	if rm := o.Challenge.Param("resource_metadata"); rm != "" && !o.Bugs.RootPRMFirst && !o.Bugs.IgnoreChallengePRM {
		urls = append(urls, rm)
	}
	inserted, root := org+"/.well-known/oauth-protected-resource"+u.Path, org+"/.well-known/oauth-protected-resource"
	switch {
	case o.Bugs.RootPRMFirst:
		urls = append(urls, root, inserted)
	case o.Bugs.NoRootPRM:
		urls = append(urls, inserted)
	default:
		urls = append(urls, inserted, root)
	}
	for _, p := range urls {
		status, doc, err := o.GetJSON(ctx, p)
		if err != nil {
			return false, err
		}
		if status != http.StatusOK {
			continue
		}
		want := o.MCPURL // RFC 9728 §3.3: the resource is the one the metadata was fetched for
		if p == root {
			want = org
		}
		if doc.Get("resource").String() != want && !o.Bugs.IgnorePRMResource {
			o.prmRejected = true
			return false, nil
		}
		o.PRM = doc
		return true, nil
	}
	return false, nil
}

// discoverMetadata finds the authorization server's metadata, trying the
// forms in the spec's order, and checks it as the spec asks.
func (o *OAuth) discoverMetadata(ctx context.Context, issuer string) (bool, error) {
	iu, err := url.Parse(issuer)
	if err != nil {
		return false, err
	}
	org, ip := iu.Scheme+"://"+iu.Host, strings.TrimSuffix(iu.Path, "/")
	urls := []string{org + "/.well-known/oauth-authorization-server" + ip, org + "/.well-known/openid-configuration" + ip}
	if ip != "" {
		urls = append(urls, org+ip+"/.well-known/openid-configuration")
	}
	if o.Bugs.OneMetadataForm {
		urls = urls[:1]
	}
	if o.Bugs.OpenIDFirst {
		urls[0], urls[1] = urls[1], urls[0]
	}
	for _, m := range urls {
		status, doc, err := o.GetJSON(ctx, m)
		if err != nil {
			return false, err
		}
		if status != http.StatusOK {
			continue
		}
		if doc.Get("issuer").String() != issuer && !o.Bugs.IgnoreIssuer {
			return false, nil
		}
		if !doc.Get("code_challenge_methods_supported").Exists() && !o.Bugs.IgnoreNoPKCE {
			return false, nil
		}
		o.Metadata = doc
		return true, nil
	}
	return false, nil
}

// Authorize runs the whole flow for challenge (discovery, registration,
// authorization, token) and reports whether it got a token; see Do for
// the error.
func (o *OAuth) Authorize(ctx context.Context, challenge Challenge) (bool, error) {
	return o.authorize(ctx, challenge)
}

func (o *OAuth) authorize(ctx context.Context, challenge Challenge) (bool, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.Challenge = challenge
	var issuer string
	found, err := o.discoverPRM(ctx)
	if err != nil {
		return false, err
	}
	if found {
		issuer = o.PRM.Get("authorization_servers.0").String()
		if o.Bugs.MixServers {
			if other := o.PRM.Get("authorization_servers.1").String(); other != "" {
				if ok, err := o.discoverMetadata(ctx, other); err != nil {
					return false, err
				} else if ok {
					o.tokenEndpoint = o.Metadata.Get("token_endpoint").String()
				}
			}
		}
		if ok, err := o.discoverMetadata(ctx, issuer); !ok || err != nil {
			return false, err
		}
	} else {
		// No PRM: the 2025-03-26 discovery, the MCP server's origin as
		// authorization server, its metadata or else the default endpoints.
		if o.Bugs.NoLegacyFallback || o.prmRejected || o.Version > "2025-03-26" {
			o.say("found no Protected Resource Metadata it can use: it stops")
			return false, nil // a newer client MUST use PRM: without one it stops
		}
		u, err := url.Parse(o.MCPURL)
		if err != nil {
			return false, err
		}
		issuer = u.Scheme + "://" + u.Host
		ok, err := o.discoverMetadata(ctx, issuer)
		if err != nil {
			return false, err
		}
		if !ok {
			o.Metadata = gjson.Parse(fmt.Sprintf(`{"issuer":%q,"authorization_endpoint":%q,"token_endpoint":%q,"registration_endpoint":%q,"code_challenge_methods_supported":["S256"]}`,
				issuer, issuer+"/authorize", issuer+"/token", issuer+"/register"))
		}
	}
	if o.ClientCredentials {
		v := url.Values{"grant_type": {"client_credentials"}, "resource": {o.PRM.Get("resource").String()}}
		if sc := o.Challenge.Param("scope"); sc != "" {
			v.Set("scope", sc)
		}
		status, tok, err := o.tokenRequest(ctx, v)
		if err != nil || status != http.StatusOK {
			return false, err
		}
		o.Token = tok.Get("access_token").String()
		o.say("got a token with its client credentials")
		return true, nil
	}
	if err := o.register(ctx, issuer); err != nil {
		return false, err
	}
	return o.authorizationCode(ctx, issuer)
}

// register makes sure it has a client_id for the authorization server
// issuer: its own (pre-registered, or earlier), its CIMD URL, or a new one
// from Dynamic Client Registration.
func (o *OAuth) register(ctx context.Context, issuer string) error {
	if o.clientIssuer != "" && o.clientIssuer != issuer && !o.Bugs.KeepClient {
		o.ClientID, o.ClientSecret, o.AuthMethod = "", "", "" // credentials do not carry over to another server
	}
	if o.ClientID == "" && o.CIMDURL != "" && o.Metadata.Get("client_id_metadata_document_supported").Bool() {
		o.clientIssuer = issuer
		o.ClientID, o.ClientSecret, o.AuthMethod = o.CIMDURL, "", "none"
	}
	if o.ClientID != "" {
		return nil
	}
	o.clientIssuer = issuer
	name := o.ClientName
	if name == "" {
		name = "mcpmock-client"
	}
	reg := map[string]any{"client_name": name, "redirect_uris": []string{RedirectURI},
		"grant_types": []string{"authorization_code", "refresh_token"}, "response_types": []string{"code"},
		"token_endpoint_auth_method": "none"}
	if methods := o.Metadata.Get("token_endpoint_auth_methods_supported").Array(); len(methods) > 0 {
		reg["token_endpoint_auth_method"] = methods[0].String() // one the server takes
		for _, m := range methods {
			if m.String() == "none" {
				reg["token_endpoint_auth_method"] = "none"
			}
		}
	}
	if o.ClientAuth != "" {
		reg["token_endpoint_auth_method"] = o.ClientAuth
	}
	if !o.Bugs.NoAppType {
		reg["application_type"] = "native"
	}
	if o.Bugs.NoRefreshGrant {
		reg["grant_types"] = []string{"authorization_code"}
	}
	b, _ := json.Marshal(reg)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.Metadata.Get("registration_endpoint").String(), bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("mcpclient: register: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := o.client().Do(req)
	if err != nil {
		return fmt.Errorf("mcpclient: register: %w", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		return fmt.Errorf("mcpclient: register: %d %s", resp.StatusCode, body)
	}
	r := gjson.ParseBytes(body)
	o.ClientID, o.ClientSecret, o.AuthMethod = r.Get("client_id").String(), r.Get("client_secret").String(), r.Get("token_endpoint_auth_method").String()
	if o.Bugs.ForceAuth != "" {
		o.AuthMethod = o.Bugs.ForceAuth
	}
	o.say("registered (Dynamic Client Registration)")
	return nil
}

// scopes are the scopes it asks for: the challenge's, else the PRM's
// scopes_supported, else none; a step-up adds what was granted.
func (o *OAuth) scopes() []string {
	var scopes []string
	if sc := o.Challenge.Param("scope"); sc != "" {
		scopes = strings.Fields(sc)
	} else {
		for _, s := range o.PRM.Get("scopes_supported").Array() {
			scopes = append(scopes, s.String())
		}
	}
	if !o.Bugs.NoUnion {
		for _, g := range o.Granted {
			if !slices.Contains(scopes, g) {
				scopes = append(scopes, g)
			}
		}
	}
	if o.Bugs.Scope != nil {
		scopes = strings.Fields(*o.Bugs.Scope)
	}
	if o.Bugs.AddOffline && !slices.Contains(scopes, "offline_access") {
		scopes = append(scopes, "offline_access")
	}
	return scopes
}

// authorizationCode authorizes (reading the 302, not following it) and
// redeems the code.
func (o *OAuth) authorizationCode(ctx context.Context, issuer string) (bool, error) {
	pkce := NewPKCE()
	state := rand.Text()
	resource := o.PRM.Get("resource").String()
	if !o.PRM.Exists() {
		resource = o.MCPURL // 2025-03-26: no PRM; the canonical URI of the MCP server (RFC 8707)
	}
	if o.Bugs.Resource != "" {
		resource = o.Bugs.Resource
	}
	v := url.Values{"response_type": {"code"}, "client_id": {o.ClientID}, "redirect_uri": {RedirectURI}}
	switch {
	case o.Bugs.NoPKCE:
	case o.Bugs.PlainPKCE:
		v.Set("code_challenge", pkce.Verifier)
		v.Set("code_challenge_method", "plain")
	default:
		v.Set("code_challenge", pkce.Challenge)
		v.Set("code_challenge_method", "S256")
	}
	if !o.Bugs.NoResource {
		v.Set("resource", resource)
	}
	if !o.Bugs.NoState {
		v.Set("state", state)
	}
	if scopes := o.scopes(); len(scopes) > 0 {
		v.Set("scope", strings.Join(scopes, " "))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, o.Metadata.Get("authorization_endpoint").String()+"?"+v.Encode(), nil)
	if err != nil {
		return false, fmt.Errorf("mcpclient: authorize: %w", err)
	}
	resp, err := o.client().Do(req)
	if err != nil {
		return false, fmt.Errorf("mcpclient: authorize: %w", err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil {
		return false, fmt.Errorf("mcpclient: authorize: %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	back := loc.Query()
	if e := back.Get("error"); e != "" {
		o.AuthorizeError = e
		o.say("the authorization server refused: %s (%s)", e, back.Get("error_description"))
		return false, nil
	}
	if !o.Bugs.NoState && !o.Bugs.IgnoreState && back.Get("state") != state {
		o.say("the authorization response's state is not the one it sent: it stops")
		return false, nil // a response to another request
	}
	if !o.Bugs.IgnoreIss {
		advertised := o.Metadata.Get("authorization_response_iss_parameter_supported").Bool()
		want := issuer
		if o.Bugs.IssSlash {
			want += "/"
		}
		if iss, ok := back["iss"]; (ok && iss[0] != want) || (!ok && (advertised || o.Bugs.RequireIss)) {
			o.say("the authorization response's iss is not the issuer it asked: it stops")
			return false, nil // RFC 9207 §2.4: the response is not from the server the client asked
		}
	}
	tv := url.Values{"grant_type": {"authorization_code"}, "code": {back.Get("code")}, "redirect_uri": {RedirectURI}, "code_verifier": {pkce.Verifier}}
	if o.Bugs.WrongVerifier {
		tv.Set("code_verifier", pkce.Verifier+"x")
	}
	if !o.Bugs.NoTokenResource {
		tv.Set("resource", resource)
		if o.Bugs.TokenResource != "" {
			tv.Set("resource", o.Bugs.TokenResource)
		}
	}
	status, tok, err := o.tokenRequest(ctx, tv)
	if err != nil {
		return false, err
	}
	if status != http.StatusOK {
		o.say("the token request was refused: %s", tok.Get("error").String())
		return false, nil
	}
	o.Token, o.RefreshToken = tok.Get("access_token").String(), tok.Get("refresh_token").String()
	o.Granted = strings.Fields(tok.Get("scope").String())
	o.say("got a token (scope %q)", tok.Get("scope").String())
	return true, nil
}

// Refresh uses the refresh token and reports whether it got a new access
// token.
func (o *OAuth) Refresh(ctx context.Context) (bool, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	status, tok, err := o.tokenRequest(ctx, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {o.RefreshToken}})
	if err != nil || status != http.StatusOK {
		return false, err
	}
	o.Token, o.RefreshToken = tok.Get("access_token").String(), tok.Get("refresh_token").String()
	return true, nil
}
