package mcpclient

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/tidwall/gjson"
)

// RedirectURI is the redirect_uri the kit's OAuth client registers and
// sends: a loopback address nothing listens on, since the client reads the
// authorization response from the 302's Location and never follows it.
const RedirectURI = "http://127.0.0.1:1/callback"

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
