package mcptest

import (
	"encoding/json"
	"fmt"
	"github.com/mcpmock/mcpmock/internal/spec"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// The endpoints of the authorization flow: the Method of KindAuth messages
// and the Endpoint of an AuthExchange.
const (
	// AuthResource is an MCP request the protected resource refused (401, 403).
	AuthResource = "auth/resource"
	// AuthPRM is a request for Protected Resource Metadata (RFC 9728).
	AuthPRM = "auth/protected-resource-metadata"
	// AuthMetadata is a request for authorization server metadata (RFC 8414, OpenID Connect Discovery).
	AuthMetadata = "auth/authorization-server-metadata"
	// AuthRegister is a Dynamic Client Registration request (RFC 7591).
	AuthRegister = "auth/register"
	// AuthAuthorize is an authorization request (OAuth 2.1 §4.1.1).
	AuthAuthorize = "auth/authorize"
	// AuthToken is a token request: authorization_code or refresh_token.
	AuthToken = "auth/token"
)

const authResource = AuthResource

// AuthExchange is one HTTP exchange of the authorization flow, as
// Server.AuthExchanges lists them.
type AuthExchange struct {
	// Seq is the journal Seq of the request; the answer follows it.
	Seq int
	// Endpoint is AuthResource, AuthPRM, AuthMetadata, AuthRegister,
	// AuthAuthorize or AuthToken.
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

// AuthExchanges returns every exchange of the authorization flow so far,
// in order: nil when WithAuthorization is off.
func (s *Server) AuthExchanges() []AuthExchange {
	if s.auth == nil {
		return nil
	}
	s.auth.settle(false)
	s.auth.mu.Lock()
	defer s.auth.mu.Unlock()
	return slices.Clone(s.auth.exchanges)
}

// journalMCP journals an MCP request the protected resource refuses.
func (a *authState) journalMCP(sess *Session, r *http.Request, q mcpRequest, why string) Message {
	line := r.Method + " " + r.URL.RequestURI()
	if len(q.body) > 0 {
		line += " " + string(q.body)
	}
	line += " (" + why + ")"
	x := &HTTPExchange{Method: r.Method, ContentType: mediaType(r.Header.Get("Content-Type")), SessionID: r.Header.Get(spec.HeaderSessionID),
		ProtocolVersion: r.Header.Get(spec.HeaderProtocolVersion), MCPMethod: r.Header.Get(spec.HeaderMethod), MCPName: r.Header.Get(spec.HeaderName)}
	m := a.srv.journal.record(Message{SessionNumber: sess.n, Direction: FromClient, Time: time.Now(), Kind: KindAuth, Method: AuthResource, raw: line, HTTP: x})
	a.mu.Lock()
	a.exchanges = append(a.exchanges, AuthExchange{Seq: m.Seq, Endpoint: AuthResource, Method: r.Method, URL: origin(r) + r.URL.RequestURI(),
		Params: r.URL.Query(), Authorization: r.Header.Get("Authorization"), Time: m.Time})
	a.mu.Unlock()
	return m
}

// journalReply journals the mock's answer to the newest exchange, and
// completes it.
func (a *authState) journalReply(sess *Session, r *http.Request, endpoint string, status int, ct, summary string) Message {
	line := fmt.Sprintf("%d %s", status, summary)
	m := a.srv.journal.record(Message{SessionNumber: sess.n, Direction: FromServer, Time: time.Now(), Kind: KindAuth, Method: endpoint, raw: line,
		HTTP: &HTTPExchange{Method: r.Method, Status: status, ContentType: ct}})
	a.mu.Lock()
	if n := len(a.exchanges); n > 0 && a.exchanges[n-1].Endpoint == endpoint {
		x := &a.exchanges[n-1]
		x.Status, x.Time = status, m.Time
		if h, ok := strings.CutPrefix(summary, "WWW-Authenticate: "); ok {
			x.Challenge = h
			x.Error = challengeParam(h, "error")
		}
	}
	a.mu.Unlock()
	return m
}

// challengeParam reads a parameter of a Bearer challenge the mock wrote.
func challengeParam(h, name string) string {
	_, rest, ok := strings.Cut(h, name+`="`)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

// authReq is one request to the authorization server or to a metadata
// URL, being served: what it asked, and what the answer will be.
type authReq struct {
	a        *authState
	sess     *Session
	w        http.ResponseWriter
	r        *http.Request
	x        AuthExchange
	body     []byte
	header   http.Header // extra headers of the answer
	answered bool
}

// newAuthReq reads a request to an authorization endpoint and journals it.
func (a *authState) newAuthReq(f *httpFront, w http.ResponseWriter, r *http.Request, endpoint, issuer string, form MetadataForm) *authReq {
	q := &authReq{a: a, sess: f.strays(), w: w, r: r, header: http.Header{}}
	if r.Body != nil && (r.Method == http.MethodPost || r.Method == http.MethodPut) {
		q.body, _ = readLimited(r, f.srv.httpCfg.bodyLimit)
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
	q.x = AuthExchange{Endpoint: endpoint, Issuer: issuer, Form: form, Method: r.Method, URL: origin(r) + r.URL.RequestURI(),
		Params: params, Authorization: r.Header.Get("Authorization")}
	line := r.Method + " " + r.URL.RequestURI()
	if len(q.body) > 0 {
		line += " " + string(q.body)
	}
	x := &HTTPExchange{Method: r.Method, ContentType: ct}
	m := a.srv.journal.record(Message{SessionNumber: q.sess.n, Direction: FromClient, Time: time.Now(), Kind: KindAuth, Method: endpoint, raw: line, HTTP: x})
	q.x.Seq = m.Seq
	return q
}

// message is the journal entry of the request, for a violation.
func (q *authReq) message() Message {
	m := Message{Seq: q.x.Seq, SessionNumber: q.sess.n, Direction: FromClient, Kind: KindAuth, Method: q.x.Endpoint, HTTP: &HTTPExchange{Method: q.r.Method}}
	if msgs := q.a.srv.journal.view(); q.x.Seq >= 1 && q.x.Seq <= len(msgs) {
		m = msgs[q.x.Seq-1]
	}
	return m
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
	m := a.srv.journal.record(Message{SessionNumber: q.sess.n, Direction: FromServer, Time: q.x.Time, Kind: KindAuth, Method: q.x.Endpoint,
		raw: fmt.Sprintf("%d %s", status, summary), HTTP: &HTTPExchange{Method: q.r.Method, Status: status, ContentType: ct}})
	_ = m
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

// authDiagramLine draws a KindAuth message in the sequence diagram: between
// the client's lane and the server (the protected resource and its
// metadata) or the authorization server.
func authDiagramLine(b *strings.Builder, lane string, m Message) {
	peer := "S"
	if m.Method != AuthResource && m.Method != AuthPRM {
		peer = "AS"
	}
	from, to, arrow := lane, peer, "->>"
	if m.Direction == FromServer {
		from, to, arrow = peer, lane, "-->>"
	}
	text := m.raw
	if m.Direction == FromClient && m.Method == AuthResource {
		// the request line, the JSON-RPC method, and why it was refused
		line, rest, _ := strings.Cut(text, " {")
		line, _, _ = strings.Cut(line, " (")
		why := ""
		if i := strings.LastIndex(text, " ("); i >= 0 {
			why = strings.TrimSuffix(text[i+2:], ")")
		}
		if method := gjson.Get("{"+rest, "method"); method.Type == gjson.String {
			line += " " + method.Str
		}
		text = line
		if why != "" {
			text += ": " + why
		}
		fmt.Fprintf(b, "    %s->>S: %s\n", lane, mermaidText(shorten(text, 80)))
		return
	}
	if m.Direction == FromClient {
		// the request line, without the body
		if i := strings.IndexByte(text, ' '); i >= 0 {
			if j := strings.IndexByte(text[i+1:], ' '); j >= 0 {
				text = text[:i+1+j]
			}
		}
		if u, err := url.Parse(strings.TrimPrefix(text, m.HTTP.methodOr()+" ")); err == nil && u.RawQuery != "" {
			text = m.HTTP.methodOr() + " " + u.Path + "?…"
		}
	} else {
		status, rest, _ := strings.Cut(text, " ")
		text = status
		switch {
		case strings.HasPrefix(rest, "Location: "):
			text += " redirect"
			if u, err := url.Parse(strings.TrimPrefix(rest, "Location: ")); err == nil {
				for _, k := range []string{"code", "error", "iss"} {
					if u.Query().Has(k) {
						text += " " + k
					}
				}
			}
		case strings.HasPrefix(rest, "WWW-Authenticate: "):
			if e := challengeParam(rest, "error"); e != "" {
				text += " " + e
			} else {
				text += " challenge"
			}
		default:
			if e := gjson.Get(rest, "error"); e.Type == gjson.String {
				text += " " + e.Str
			} else if gjson.Get(rest, "access_token").Exists() {
				text += " token"
			} else if gjson.Get(rest, "client_id").Exists() {
				text += " client_id"
			} else if gjson.Valid(rest) {
				text += " metadata"
			}
		}
	}
	fmt.Fprintf(b, "    %s%s%s: %s\n", from, arrow, to, mermaidText(shorten(text, 80)))
}

// hasAuthLane reports whether the diagram needs the authorization server's lane.
func hasAuthLane(msgs []Message) bool {
	for i := range msgs {
		if msgs[i].Kind == KindAuth && msgs[i].Method != AuthResource && msgs[i].Method != AuthPRM {
			return true
		}
	}
	return false
}

func (x *HTTPExchange) methodOr() string {
	if x == nil {
		return ""
	}
	return x.Method
}
