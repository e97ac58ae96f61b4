package oauth

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mcpmock/mcpmock/internal/authplug"
	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/tidwall/gjson"
)

// The endpoints of the authorization flow: the Endpoint of an Exchange,
// and the Method of the journal's messages of Kind mcptest.KindAuth.
const (
	// EndpointResource is an MCP request the protected resource refused (401, 403).
	EndpointResource = authplug.Resource
	// EndpointPRM is a request for Protected Resource Metadata (RFC 9728).
	EndpointPRM = authplug.PRM
	// EndpointMetadata is a request for authorization server metadata (RFC 8414, OpenID Connect Discovery).
	EndpointMetadata = authplug.Metadata
	// EndpointRegister is a Dynamic Client Registration request (RFC 7591).
	EndpointRegister = authplug.Register
	// EndpointAuthorize is an authorization request (OAuth 2.1 §4.1.1).
	EndpointAuthorize = authplug.Authorize
	// EndpointToken is a token request: authorization_code, refresh_token
	// or client_credentials.
	EndpointToken = authplug.Token
)

// Exchange is one HTTP exchange of the authorization flow, as
// Authorization.Exchanges lists them.
type Exchange struct {
	// Seq is the journal Seq of the request; the answer follows it.
	Seq int
	// Endpoint is EndpointResource, EndpointPRM, EndpointMetadata,
	// EndpointRegister, EndpointAuthorize or EndpointToken.
	Endpoint string
	// Issuer is the authorization server the request went to ("" for the
	// protected resource).
	Issuer string
	// Form is, for a metadata request, the well-known form it asked for (0 otherwise).
	Form MetadataForm
	// Method and URL are the request's HTTP method and full URL.
	Method, URL string
	// Params are the request's parameters: the query of a GET, the form of
	// a POST to /authorize or /token, the top-level members of /register's
	// JSON body (as JSON text).
	Params url.Values
	// Authorization is the request's Authorization header.
	Authorization string
	// ClientAuth is the client authentication a token request used: "none",
	// "client_secret_basic" or "client_secret_post".
	ClientAuth string
	// Status is the answer's status code; Location its Location header
	// (a 302 of /authorize); Challenge its WWW-Authenticate header.
	Status              int
	Location, Challenge string
	// Error is the OAuth error the answer carried ("" for none).
	Error string
	// Body is the answer's body.
	Body string
	// Time is when the mock answered.
	Time time.Time
}

// Exchanges returns every exchange of the authorization flow so far, in
// order: nil before the authorization is installed.
func (authz *Authorization) Exchanges() []Exchange {
	a := authz.state()
	if a == nil {
		return nil
	}
	a.settle(false)
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.exchanges)
}

// journalMCP journals an MCP request the protected resource refuses, and
// returns its Seq.
func (a *authState) journalMCP(sess authplug.Session, r *http.Request, q mcpRequest, why string) int {
	line := r.Method + " " + r.URL.RequestURI()
	if len(q.Body) > 0 {
		line += " " + string(q.Body)
	}
	line += " (" + why + ")"
	now := time.Now()
	seq := a.host.Record(authplug.Exchange{Session: sess, FromClient: true, Endpoint: authplug.Resource, Raw: line, Time: now,
		Method: r.Method, ContentType: mediaType(r.Header.Get("Content-Type")), SessionID: r.Header.Get(spec.HeaderSessionID),
		ProtocolVersion: r.Header.Get(spec.HeaderProtocolVersion), MCPMethod: r.Header.Get(spec.HeaderMethod), MCPName: r.Header.Get(spec.HeaderName)})
	a.mu.Lock()
	a.exchanges = append(a.exchanges, Exchange{Seq: seq, Endpoint: authplug.Resource, Method: r.Method, URL: origin(r) + r.URL.RequestURI(),
		Params: r.URL.Query(), Authorization: r.Header.Get("Authorization"), Time: now})
	a.mu.Unlock()
	return seq
}

// journalReply journals the mock's answer to the newest exchange,
// completes it, and returns its Seq.
func (a *authState) journalReply(sess authplug.Session, r *http.Request, endpoint string, status int, ct, summary string) int {
	now := time.Now()
	seq := a.host.Record(authplug.Exchange{Session: sess, Endpoint: endpoint, Raw: fmt.Sprintf("%d %s", status, summary), Time: now,
		Method: r.Method, Status: status, ContentType: ct})
	a.mu.Lock()
	if n := len(a.exchanges); n > 0 && a.exchanges[n-1].Endpoint == endpoint {
		x := &a.exchanges[n-1]
		x.Status, x.Time = status, now
		if h, ok := strings.CutPrefix(summary, "WWW-Authenticate: "); ok {
			x.Challenge = h
			x.Error = authplug.ChallengeParam(h, "error")
		}
	}
	a.mu.Unlock()
	return seq
}

// authReq is one request to the authorization server or to a metadata
// URL, being served: what it asked, and what the answer will be.
type authReq struct {
	a        *authState
	sess     authplug.Session
	w        http.ResponseWriter
	r        *http.Request
	x        Exchange
	body     []byte
	header   http.Header // extra headers of the answer
	answered bool
}

// newAuthReq reads a request to an authorization endpoint and journals it.
func (a *authState) newAuthReq(w http.ResponseWriter, r *http.Request, endpoint, issuer string, form MetadataForm) *authReq {
	q := &authReq{a: a, sess: a.host.Strays(), w: w, r: r, header: http.Header{}}
	if r.Body != nil && (r.Method == http.MethodPost || r.Method == http.MethodPut) {
		q.body, _ = io.ReadAll(io.LimitReader(r.Body, a.host.BodyLimit()))
	}
	params := r.URL.Query()
	ct := mediaType(r.Header.Get("Content-Type"))
	switch {
	case r.Method == http.MethodPost && ct == "application/x-www-form-urlencoded":
		if v, err := url.ParseQuery(string(q.body)); err == nil {
			for k, vs := range v {
				params[k] = append(params[k], vs...)
			}
		}
	case r.Method == http.MethodPost && gjson.ValidBytes(q.body):
		gjson.ParseBytes(q.body).ForEach(func(k, v gjson.Result) bool {
			if v.Type == gjson.String {
				params.Add(k.String(), v.String())
			} else {
				params.Add(k.String(), v.Raw)
			}
			return true
		})
	}
	q.x = Exchange{Endpoint: endpoint, Issuer: issuer, Form: form, Method: r.Method, URL: origin(r) + r.URL.RequestURI(),
		Params: params, Authorization: r.Header.Get("Authorization")}
	line := r.Method + " " + r.URL.RequestURI()
	if len(q.body) > 0 {
		line += " " + string(q.body)
	}
	q.x.Seq = a.host.Record(authplug.Exchange{Session: q.sess, FromClient: true, Endpoint: endpoint, Raw: line, Time: time.Now(), Method: r.Method, ContentType: ct})
	return q
}

// reply answers the request with status and a JSON body, journaling the
// answer (before the client can see it).
func (q *authReq) reply(status int, body any) {
	var b []byte
	switch v := body.(type) {
	case []byte:
		b = v
	case string:
		b = []byte(v)
	default:
		b, _ = json.Marshal(v)
	}
	q.finish(status, "application/json", string(b), "")
}

// oauthError answers with an OAuth error (RFC 6749 §5.2).
func (q *authReq) oauthError(status int, code, desc string) {
	q.x.Error = code
	b, _ := json.Marshal(map[string]string{"error": code, "error_description": desc})
	q.finish(status, "application/json", string(b), "")
}

// redirect answers 302 to location.
func (q *authReq) redirect(location string) {
	q.finish(http.StatusFound, "", "", location)
}

// notFound answers 404.
func (q *authReq) notFound(why string) {
	q.finish(http.StatusNotFound, "text/plain", "404 page not found: "+why, "")
}

func (q *authReq) finish(status int, ct, body, location string) {
	if q.answered {
		return
	}
	q.answered = true
	a := q.a
	q.x.Status, q.x.Body, q.x.Location, q.x.Time = status, body, location, time.Now()
	if e := gjson.Get(body, "error"); q.x.Error == "" && e.Type == gjson.String && ct == "application/json" {
		q.x.Error = e.Str
	}
	summary := body
	if location != "" {
		summary = "Location: " + location
	}
	a.host.Record(authplug.Exchange{Session: q.sess, Endpoint: q.x.Endpoint, Raw: fmt.Sprintf("%d %s", status, summary), Time: q.x.Time,
		Method: q.r.Method, Status: status, ContentType: ct})
	a.mu.Lock()
	a.exchanges = append(a.exchanges, q.x)
	a.mu.Unlock()
	h := q.w.Header()
	for k, vs := range q.header {
		h[k] = vs
	}
	if ct != "" {
		h.Set("Content-Type", ct)
	}
	if location != "" {
		h.Set("Location", location)
	}
	if status == http.StatusOK || status == http.StatusCreated {
		h.Set("Cache-Control", "no-store")
	}
	q.w.WriteHeader(status)
	_, _ = q.w.Write([]byte(body))
}
