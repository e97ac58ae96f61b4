package mcptest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tidwall/gjson"
)

// The HTTP headers of the Streamable HTTP transport.
const (
	HeaderSessionID       = "Mcp-Session-Id"
	HeaderProtocolVersion = "Mcp-Protocol-Version"
	HeaderMethod          = "Mcp-Method"
	HeaderName            = "Mcp-Name"
	HeaderLastEventID     = "Last-Event-ID"
)

// CodeHeaderMismatch is the stateless-era error (2026-07-28) for a request
// whose Mcp-Method, Mcp-Name or Mcp-Protocol-Version header is missing or
// disagrees with its body.
const CodeHeaderMismatch = -32020

// DefaultHTTPBodyLimit is the largest POST body the mock reads unless
// WithHTTPBodyLimit says otherwise; a longer one gets 413.
const DefaultHTTPBodyLimit = 4 << 20

// HTTPExchange is the HTTP side of a message that crossed Streamable HTTP:
// the request that carried it (client messages) or the response that
// carried it (server messages). Message.HTTP is nil for messages of Dial
// and Serve.
type HTTPExchange struct {
	// Method is the HTTP method of the request: POST, or GET for a
	// message the mock sent on a standalone or resumed SSE stream.
	Method string
	// Status is the status code of the response; 0 on a client message.
	Status int
	// ContentType is the media type of the request body (client messages)
	// or of the response (server messages): application/json or text/event-stream.
	ContentType string
	// Accept is the request's Accept header (client messages).
	Accept string
	// SessionID is the request's Mcp-Session-Id header (client messages) or
	// the one the response carried (server messages).
	SessionID string
	// ProtocolVersion is the request's Mcp-Protocol-Version header.
	ProtocolVersion string
	// MCPMethod and MCPName are the request's Mcp-Method and Mcp-Name headers.
	MCPMethod, MCPName string
	// EventID is the SSE event id the message went out with, "" for a JSON reply.
	EventID string
}

// String is a one-line summary, e.g. "POST 200 text/event-stream id=1-2".
func (x *HTTPExchange) String() string {
	if x == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(x.Method)
	if x.Status != 0 {
		fmt.Fprintf(&b, " %d", x.Status)
	}
	if x.ContentType != "" {
		b.WriteString(" " + x.ContentType)
	}
	if x.EventID != "" {
		b.WriteString(" event=" + x.EventID)
	}
	if x.SessionID != "" {
		b.WriteString(" session=" + shorten(x.SessionID, 8))
	}
	if x.ProtocolVersion != "" {
		b.WriteString(" version=" + x.ProtocolVersion)
	}
	if x.MCPMethod != "" {
		b.WriteString(" mcp-method=" + x.MCPMethod)
	}
	if x.MCPName != "" {
		b.WriteString(" mcp-name=" + x.MCPName)
	}
	return b.String()
}

// httpConfig is the HTTP configuration of a Server, fixed when it starts.
type httpConfig struct {
	noGET      bool
	sseMethods map[string]bool // methods answered with SSE; "" for all
	bodyLimit  int64
	origins    []string
	retry      time.Duration
	legacyOnly bool // only the HTTP+SSE transport of 2024-11-05
}

// WithLegacySSEOnly makes the HTTP endpoint a server of the HTTP+SSE
// transport of protocol 2024-11-05 only: a GET opens the SSE stream whose
// first event, endpoint, names the URL to POST to, and every reply goes
// on that stream; a Streamable HTTP POST to the endpoint itself gets 405,
// which the spec's backwards-compatibility section says makes a client
// fall back to GET. (Without it the endpoint serves both: a GET without
// Mcp-Session-Id is the old transport.)
func (s *Server) WithLegacySSEOnly() *Server {
	s.t.Helper()
	return s.configure("WithLegacySSEOnly", func() error { s.httpCfg.legacyOnly = true; return nil })
}

// legacyParam is the query parameter of the POST URL of an HTTP+SSE session.
const legacyParam = "sessionId"

// WithoutStandaloneSSE makes the HTTP endpoint answer GET with 405 Method
// Not Allowed, as a server that offers no standalone SSE stream does: the
// client then gets server messages only on the streams of its POSTs.
func (s *Server) WithoutStandaloneSSE() *Server {
	s.t.Helper()
	return s.configure("WithoutStandaloneSSE", func() error { s.httpCfg.noGET = true; return nil })
}

// WithSSEReplies makes the HTTP endpoint answer requests of the given
// methods (every method when none is given) with an SSE stream even when
// nothing comes before the result. By default a request is answered with a
// JSON body, and with SSE when the mock sends a notification or a request
// before the result (a handler's progress, log or server request).
func (s *Server) WithSSEReplies(methods ...string) *Server {
	s.t.Helper()
	return s.configure("WithSSEReplies", func() error {
		if s.httpCfg.sseMethods == nil {
			s.httpCfg.sseMethods = map[string]bool{}
		}
		if len(methods) == 0 {
			s.httpCfg.sseMethods[""] = true
		}
		for _, m := range methods {
			s.httpCfg.sseMethods[m] = true
		}
		return nil
	})
}

// WithHTTPBodyLimit sets the largest POST body the HTTP endpoint reads (by
// default DefaultHTTPBodyLimit); a longer one is answered 413 with a
// JSON-RPC error.
func (s *Server) WithHTTPBodyLimit(n int64) *Server {
	s.t.Helper()
	return s.configure("WithHTTPBodyLimit", func() error {
		if n <= 0 {
			return fmt.Errorf("limit %d is not positive", n)
		}
		s.httpCfg.bodyLimit = n
		return nil
	})
}

// WithAllowedOrigins adds origins (e.g. "https://app.example") the HTTP
// endpoint accepts in an Origin header besides loopback ones; a request
// from any other origin is refused with 403, the DNS-rebinding defence the
// spec asks servers for.
func (s *Server) WithAllowedOrigins(origins ...string) *Server {
	s.t.Helper()
	return s.configure("WithAllowedOrigins", func() error {
		s.httpCfg.origins = append(s.httpCfg.origins, origins...)
		return nil
	})
}

// WithSSERetry makes every SSE stream of the HTTP endpoint start with a
// retry field of d: how long the client waits before it reconnects a
// stream that broke off.
func (s *Server) WithSSERetry(d time.Duration) *Server {
	s.t.Helper()
	return s.configure("WithSSERetry", func() error {
		if d <= 0 {
			return fmt.Errorf("retry %v is not positive", d)
		}
		s.httpCfg.retry = d
		return nil
	})
}

// httpFront is a Server's Streamable HTTP endpoint.
type httpFront struct {
	srv *Server

	mu        sync.Mutex
	conns     map[string]*httpConn // handshake-era sessions by Mcp-Session-Id, ended ones too
	stateless map[string]*httpConn // stateless-era sessions by client
	stray     *Session             // journals what belongs to no session (number 0)
	closed    bool
	handlers  sync.WaitGroup
	connsWG   sync.WaitGroup // the real server's connections, until closed
	ln        net.Listener
	hs        *http.Server
	served    chan struct{}
	url       string
	streamSeq atomic.Int64
}

// Handler returns the server's Streamable HTTP endpoint as an
// http.Handler, for a test that mounts it on a server of its own (any
// path). Each MCP session it serves is a Session of the Server, journaled
// and checked like one of Dial. The first call freezes the configuration.
func (s *Server) Handler() http.Handler {
	s.t.Helper()
	f, err := s.front()
	if err != nil {
		s.t.Fatalf("mcptest: Handler: %v", err)
		return nil
	}
	return f
}

// URL starts, on its first call, a real HTTP server on a random port of
// 127.0.0.1 serving Handler, and returns the MCP endpoint's URL, e.g.
// "http://127.0.0.1:38241/mcp": give it to a Streamable HTTP client, e.g.
// &mcp.StreamableClientTransport{Endpoint: srv.URL()} (official Go SDK) or
// transport.NewStreamableHTTP(srv.URL()) (mark3labs/mcp-go). Close stops it.
func (s *Server) URL() string {
	s.t.Helper()
	f, err := s.front()
	if err == nil {
		err = f.listen()
	}
	if err != nil {
		s.t.Fatalf("mcptest: URL: %v", err)
		return ""
	}
	return f.url
}

// front returns the server's HTTP endpoint, making it on the first call.
func (s *Server) front() (*httpFront, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errors.New("called after Close")
	}
	s.startLocked()
	if s.http == nil {
		s.http = &httpFront{srv: s, conns: map[string]*httpConn{}, stateless: map[string]*httpConn{}}
		if s.httpCfg.bodyLimit == 0 {
			s.httpCfg.bodyLimit = DefaultHTTPBodyLimit
		}
	}
	return s.http, nil
}

func (f *httpFront) listen() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.url != "" {
		return nil
	}
	if f.closed {
		return errors.New("called after Close")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("listening on 127.0.0.1: %w", err)
	}
	f.ln = ln
	f.hs = &http.Server{Handler: f, ReadHeaderTimeout: 10 * time.Second, ConnState: func(_ net.Conn, st http.ConnState) {
		switch st {
		case http.StateNew:
			f.connsWG.Add(1)
		case http.StateClosed, http.StateHijacked:
			f.connsWG.Done()
		}
	}}
	f.served = make(chan struct{})
	f.url = "http://" + ln.Addr().String() + "/mcp"
	go func() {
		defer close(f.served)
		_ = f.hs.Serve(ln)
	}()
	return nil
}

// close stops the real server, if any, and waits for every handler.
// The server's context is cancelled already, so waiting handlers return.
func (f *httpFront) close() {
	f.mu.Lock()
	f.closed = true
	hs, served := f.hs, f.served
	conns := make([]*httpConn, 0, len(f.conns)+len(f.stateless))
	for _, c := range f.conns {
		conns = append(conns, c)
	}
	for _, c := range f.stateless {
		conns = append(conns, c)
	}
	f.mu.Unlock()
	for _, c := range conns {
		c.noteNoDelete()
		_ = c.Close()
	}
	if hs != nil {
		_ = hs.Close()
		<-served
		f.connsWG.Wait() // net/http's connection goroutines too (one lingers after a 413)
	}
	f.handlers.Wait()
}

// strayLocked returns the session that journals HTTP requests belonging to
// no session: number 0, never in Sessions.
func (f *httpFront) strayLocked() *Session {
	if f.stray == nil {
		f.stray = newSession(f.srv, 0, nopConn{})
	}
	return f.stray
}

func (f *httpFront) strays() *Session {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.strayLocked()
}

// ServeHTTP serves the MCP endpoint: POST, GET and DELETE.
func (f *httpFront) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		http.Error(w, "mcptest: the server is closed", http.StatusServiceUnavailable)
		return
	}
	f.handlers.Add(1)
	f.mu.Unlock()
	defer f.handlers.Done()
	x := exchangeOf(r)
	if !f.checkOrigin(w, r, x) {
		return
	}
	if f.srv.auth != nil && f.srv.auth.intercept(f, w, r) {
		return
	}
	switch r.Method {
	case http.MethodPost:
		f.post(w, r, x)
	case http.MethodGet:
		f.get(w, r, x)
	case http.MethodDelete:
		f.delete(w, r, x)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		f.refuse(w, f.strays(), nil, http.StatusMethodNotAllowed, CodeInvalidRequest, "Method Not Allowed: the MCP endpoint takes POST, GET and DELETE")
	}
}

// exchangeOf reads the headers of an HTTP request that matter to MCP.
func exchangeOf(r *http.Request) *HTTPExchange {
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return &HTTPExchange{
		Method:          r.Method,
		ContentType:     ct,
		Accept:          strings.Join(r.Header.Values("Accept"), ", "),
		SessionID:       r.Header.Get(HeaderSessionID),
		ProtocolVersion: r.Header.Get(HeaderProtocolVersion),
		MCPMethod:       r.Header.Get(HeaderMethod),
		MCPName:         r.Header.Get(HeaderName),
	}
}

// isLoopbackHost reports whether host (without port) is a loopback name.
func isLoopbackHost(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// checkOrigin refuses, with 403, a request whose Origin is neither
// loopback nor allowed, or whose Host is not loopback: what a local MCP
// server must do against DNS rebinding.
func (f *httpFront) checkOrigin(w http.ResponseWriter, r *http.Request, x *HTTPExchange) bool {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if host != "" && !isLoopbackHost(host) {
		f.refuseStray(w, r, x, http.StatusForbidden, RuleHTTPHost, "Host "+r.Host+" is not a loopback name", "Forbidden: Host "+r.Host+" is not this server")
		return false
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	if slices.Contains(f.srv.httpCfg.origins, origin) {
		return true
	}
	if u, err := url.Parse(origin); err == nil && u.Host != "" && isLoopbackHost(u.Hostname()) {
		return true
	}
	f.refuseStray(w, r, x, http.StatusForbidden, RuleHTTPOrigin, "Origin "+origin+" is not allowed", "Forbidden: Origin "+origin+" is not allowed")
	return false
}

// refuseStray journals a request refused before it reached a session
// (its body, if any, as the client's message), records the violation, and
// answers status with a JSON-RPC error.
func (f *httpFront) refuseStray(w http.ResponseWriter, r *http.Request, x *HTTPExchange, status int, rule RuleID, detail, message string) {
	sess := f.strays()
	var body []byte
	if r.Body != nil && r.Method == http.MethodPost {
		body, _ = io.ReadAll(io.LimitReader(r.Body, f.srv.httpCfg.bodyLimit))
	}
	in := journalHTTP(sess, body, x)
	sess.violate(rule, in, detail)
	f.refuse(w, sess, &in, status, CodeInvalidRequest, message)
}

// describeBody names what a journaled client message is, for a violation's detail.
func describeBody(m Message) string {
	if m.Method != "" {
		return m.Method
	}
	return m.Kind.String()
}

// journalHTTP journals what the client sent in one HTTP request that the
// mock answers itself: the body as a message, or, without one, a note.
func journalHTTP(sess *Session, body []byte, x *HTTPExchange) Message {
	var m Message
	if len(bytes.TrimSpace(body)) > 0 {
		m = decode(body).msg
	} else {
		m = Message{Kind: KindInvalid, Problem: x.Method + " request without a JSON-RPC body"}
	}
	m.Session, m.Direction, m.Time, m.HTTP = sess.n, FromClient, time.Now(), x
	return sess.srv.journal.record(m)
}

// refuse answers an HTTP request with status and a JSON-RPC error, and
// journals that error as a message of sess.
func (f *httpFront) refuse(w http.ResponseWriter, sess *Session, in *Message, status, code int, message string) {
	id := "null"
	method := ""
	if in != nil && in.Kind == KindRequest && validIDText(in.ID) {
		id, method = in.ID, in.Method
	}
	idArg := id
	if id == "null" {
		idArg = ""
	}
	frame := appendError(nil, idArg, &rpcError{Code: code, Message: message})
	x := &HTTPExchange{Method: "", Status: status, ContentType: "application/json"}
	if in != nil && in.HTTP != nil {
		x.Method = in.HTTP.Method
	}
	sess.srv.journal.record(Message{Session: sess.n, Direction: FromServer, Time: time.Now(), Kind: KindError,
		Method: method, ID: id, ErrorCode: code, raw: string(frame), HTTP: x})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(frame)
}

// validIDText reports whether a journaled id (JSON text) is a string or an integer.
func validIDText(id string) bool {
	return id != "" && validID(gjson.Parse(id))
}

// acceptsBoth reports which of the two media types an Accept header lists.
func accepts(values []string) (jsonOK, sseOK bool) {
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			mt, _, _ := mime.ParseMediaType(strings.TrimSpace(part))
			switch mt {
			case "application/json":
				jsonOK = true
			case "text/event-stream":
				sseOK = true
			case "*/*":
				// a wildcard is not a listing of the two types the spec asks for
			}
		}
	}
	return
}

// peeked is what the HTTP layer reads of a POST body before the session does.
type peeked struct {
	method, id, pv, name gjson.Result
	result, err          gjson.Result
	info, progress       gjson.Result
}

func peek(body []byte) peeked {
	var p peeked
	if !gjson.ValidBytes(body) {
		return p // a parse error, answered with id null
	}
	var params gjson.Result
	gjson.ParseBytes(body).ForEach(func(k, v gjson.Result) bool { // one pass over the top level
		switch k.Str {
		case "method":
			p.method = v
		case "id":
			p.id = v
		case "result":
			p.result = v
		case "error":
			p.err = v
		case "params":
			params = v
		}
		return true
	})
	if !params.IsObject() {
		return p
	}
	var meta gjson.Result
	params.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "name":
			p.name = v
		case "uri":
			if !p.name.Exists() {
				p.name = v
			}
		case "_meta":
			meta = v
		}
		return true
	})
	if meta.IsObject() {
		meta.ForEach(func(k, v gjson.Result) bool {
			switch k.Str {
			case MetaProtocolVersion:
				p.pv = v
			case MetaClientInfo:
				p.info = v
			case "progressToken":
				p.progress = v
			}
			return true
		})
	}
	return p
}

func (p peeked) isRequest() bool { return p.method.Type == gjson.String && p.id.Exists() }
func (p peeked) isNotification() bool {
	return p.method.Type == gjson.String && !p.id.Exists()
}
func (p peeked) isResponse() bool {
	return !p.method.Exists() && p.id.Exists() && (p.result.Exists() || p.err.Exists())
}

var pathSubscriptionID = metaPath(MetaSubscriptionID)

// isBatchWithoutRequests reports whether body is a JSON-RPC batch of
// notifications and responses only, which gets 202 like one of them.
func isBatchWithoutRequests(body []byte) bool {
	r := gjson.ParseBytes(body)
	if !r.IsArray() {
		return false
	}
	items := r.Array()
	if len(items) == 0 {
		return false
	}
	for _, it := range items {
		if !it.IsObject() || it.Get("id").Exists() && it.Get("method").Exists() {
			return false
		}
	}
	return true
}

// namedMethods are the methods whose Mcp-Name header names what they act on.
var namedMethods = map[string]bool{"tools/call": true, "prompts/get": true, "resources/read": true}

// post serves a POST: one JSON-RPC message from the client.
func (f *httpFront) post(w http.ResponseWriter, r *http.Request, x *HTTPExchange) {
	srv := f.srv
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, srv.httpCfg.bodyLimit))
	if err != nil {
		sess := f.strays()
		if c := f.lookup(x.SessionID); c != nil {
			sess = c.sess
		}
		m := srv.journal.record(Message{Session: sess.n, Direction: FromClient, Time: time.Now(), Kind: KindInvalid, HTTP: x,
			Problem: fmt.Sprintf("body longer than the %d bytes mcptest reads (WithHTTPBodyLimit); its bytes were discarded", srv.httpCfg.bodyLimit)})
		var tooLarge *http.MaxBytesError
		if !errors.As(err, &tooLarge) {
			srv.journal.amend(m.Seq, func(m *Message) { m.Problem = "body cut short: " + err.Error() })
			return
		}
		sess.violate(RuleInvalidRequest, m, m.Problem)
		f.refuse(w, sess, nil, http.StatusRequestEntityTooLarge, CodeInvalidRequest, "Invalid Request: body too large")
		return
	}
	p := peek(body)
	c, ok := f.sessionFor(w, r, x, body, p)
	if !ok {
		return
	}
	sess := c.sess
	if x.ContentType != "application/json" {
		in := journalHTTP(sess, body, x)
		sess.violate(RuleHTTPContentType, in, fmt.Sprintf("POST with Content-Type %q, want application/json", r.Header.Get("Content-Type")))
		f.refuse(w, sess, &in, http.StatusUnsupportedMediaType, CodeInvalidRequest, "Unsupported Media Type: POST a JSON-RPC message as application/json")
		return
	}
	if jsonOK, sseOK := accepts(r.Header.Values("Accept")); !c.legacy && (!jsonOK || !sseOK) {
		in := journalHTTP(sess, body, x)
		sess.violate(RuleHTTPAccept, in, fmt.Sprintf("POST with Accept %q, want both application/json and text/event-stream", x.Accept))
		f.refuse(w, sess, &in, http.StatusNotAcceptable, CodeInvalidRequest, "Not Acceptable: Accept must list both application/json and text/event-stream")
		return
	}
	if c.stateless {
		if !f.checkStatelessHeaders(w, r, c, body, p, x) {
			return
		}
	} else if !c.legacy && !f.checkVersionHeader(w, c, body, p, x) {
		return
	}
	if c.faultRequest(w, r, p, body) {
		return
	}
	if c.legacy || p.isNotification() || p.isResponse() || isBatchWithoutRequests(body) {
		c.setSessionHeader(w.Header())
		c.receive(body, x)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	key := "null"
	if p.id.Exists() && validID(p.id) {
		key = p.id.Raw
	}
	method := p.method.String()
	st := c.openPost(w, key, method, p.progress.Raw)
	c.receive(body, x)
	c.wait(st, w, r)
}

// sessionFor finds or makes the session of a POST, or answers it (400, 404).
func (f *httpFront) sessionFor(w http.ResponseWriter, r *http.Request, x *HTTPExchange, body []byte, p peeked) (*httpConn, bool) {
	srv := f.srv
	if id := r.URL.Query().Get(legacyParam); id != "" && x.SessionID == "" {
		if c := f.lookup(id); c != nil && c.legacy {
			if c.gone() {
				in := journalHTTP(c.sess, body, x)
				f.refuse(w, c.sess, &in, http.StatusNotFound, CodeInvalidRequest, "Not Found: session "+id+" has ended")
				return nil, false
			}
			return c, true
		}
	}
	if srv.httpCfg.legacyOnly {
		sess := f.strays()
		in := journalHTTP(sess, body, x)
		w.Header().Set("Allow", "GET")
		f.refuse(w, sess, &in, http.StatusMethodNotAllowed, CodeInvalidRequest, "Method Not Allowed: this server speaks the HTTP+SSE transport of 2024-11-05; GET the endpoint for the SSE stream")
		return nil, false
	}
	if x.SessionID != "" {
		c := f.lookup(x.SessionID)
		if c == nil {
			sess := f.strays()
			in := journalHTTP(sess, body, x)
			sess.violate(RuleHTTPSessionID, in, "Mcp-Session-Id "+strconv.Quote(x.SessionID)+" was never issued by this server")
			f.refuse(w, sess, &in, http.StatusNotFound, CodeInvalidRequest, "Not Found: no session "+x.SessionID)
			return nil, false
		}
		if c.gone() {
			in := journalHTTP(c.sess, body, x)
			c.mu.Lock()
			again := c.told404
			c.told404 = true
			c.mu.Unlock()
			if again && c.once(RuleHTTPReinitialize) {
				c.sess.violate(RuleHTTPReinitialize, in, "the session ended and the server answered 404, but the client sent "+describeBody(in)+" with its id again instead of a new initialize")
			}
			f.refuse(w, c.sess, &in, http.StatusNotFound, CodeInvalidRequest, "Not Found: session "+x.SessionID+" has ended; initialize a new one")
			return nil, false
		}
		return c, true
	}
	stateless := isStateless(x.ProtocolVersion) || p.pv.Exists() || p.method.String() == "server/discover" || len(srv.legacy) == 0
	if c := f.sessionlessConn(); c != nil && !stateless && p.method.String() != "initialize" {
		return c, true // OmitSessionID: the session's requests come without an id
	}
	if p.isRequest() && p.method.String() == "initialize" && len(srv.legacy) > 0 && !isStateless(x.ProtocolVersion) {
		stateless = false
		c, err := f.newConn(false, "")
		if err != nil {
			http.Error(w, "mcptest: "+err.Error(), http.StatusServiceUnavailable)
			return nil, false
		}
		return c, true
	}
	if stateless && len(srv.modern) > 0 {
		c, err := f.statelessConn(p, body)
		if err != nil {
			http.Error(w, "mcptest: "+err.Error(), http.StatusServiceUnavailable)
			return nil, false
		}
		return c, true
	}
	sess := f.strays()
	in := journalHTTP(sess, body, x)
	if stateless { // a probe of a client that speaks both eras: a handshake-era server knows no such method
		f.refuse(w, sess, &in, http.StatusBadRequest, CodeMethodNotFound, "Method not found: this server speaks only "+strings.Join(srv.legacy, ", ")+"; initialize first")
		return nil, false
	}
	sess.violate(RuleHTTPSessionID, in, "POST without Mcp-Session-Id; the server assigned one on the initialize result")
	f.refuse(w, sess, &in, http.StatusBadRequest, CodeInvalidRequest, "Bad Request: Mcp-Session-Id header required (initialize first)")
	return nil, false
}

// sessionlessConn returns the newest open session that OmitSessionID left
// without an id, or nil.
func (f *httpFront) sessionlessConn() *httpConn {
	f.mu.Lock()
	defer f.mu.Unlock()
	var newest *httpConn
	for _, c := range f.conns {
		c.mu.Lock()
		ok := c.noSID && !c.ended
		c.mu.Unlock()
		if ok && (newest == nil || c.sess.n > newest.sess.n) {
			newest = c
		}
	}
	return newest
}

func (f *httpFront) lookup(id string) *httpConn {
	if id == "" {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.conns[id]
}

// newConn makes a new session served over HTTP.
func (f *httpFront) newConn(stateless bool, key string) (*httpConn, error) {
	s := f.srv
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, errors.New("the server is closed")
	}
	n := len(s.sessions) + 1
	c := &httpConn{front: f, stateless: stateless, posts: map[string][]*sseStream{}, streams: map[string]*sseStream{}}
	sess := newSession(s, n, c)
	c.sess = sess
	s.sessions = append(s.sessions, sess)
	s.mu.Unlock()
	f.mu.Lock()
	if stateless {
		f.stateless[key] = c
	} else {
		f.conns[sess.id] = c
	}
	f.mu.Unlock()
	return c, nil
}

// statelessConn returns the session a stateless-era message is journaled
// in. The stateless era has no session of its own: requests are grouped by
// their _meta clientInfo (requests without one share a session); a
// notification or response, which carries no _meta, joins the session of
// the request it names (notifications/cancelled) or else the newest one.
func (f *httpFront) statelessConn(p peeked, body []byte) (*httpConn, error) {
	if !p.isRequest() {
		id := gjson.GetBytes(body, "params.requestId").Raw
		f.mu.Lock()
		var newest *httpConn
		for _, c := range f.stateless {
			if c.gone() {
				continue
			}
			if id != "" && c.sess.isInflight(id) {
				f.mu.Unlock()
				return c, nil
			}
			if newest == nil || c.sess.n > newest.sess.n {
				newest = c
			}
		}
		f.mu.Unlock()
		if newest != nil {
			return newest, nil
		}
	}
	key := p.info.Raw
	if v, err := parseJSONValue([]byte(key)); err == nil {
		if b, err := json.Marshal(v); err == nil {
			key = string(b)
		}
	}
	f.mu.Lock()
	c := f.stateless[key]
	f.mu.Unlock()
	if c != nil && !c.gone() {
		return c, nil
	}
	return f.newConn(true, key)
}

// isInflight reports whether the client's request with id (JSON text) is being served.
func (s *Session) isInflight(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.inflight[id]
	return ok
}

// checkVersionHeader checks the Mcp-Protocol-Version header of a
// handshake-era request: an unknown or unsupported version is answered
// 400; a missing or different one is a violation, and the request goes on.
func (f *httpFront) checkVersionHeader(w http.ResponseWriter, c *httpConn, body []byte, p peeked, x *HTTPExchange) bool {
	sess := c.sess
	if p.isRequest() && p.method.String() == "initialize" {
		return true
	}
	pv := x.ProtocolVersion
	negotiated := sess.ProtocolVersion()
	switch {
	case pv == "":
		if negotiated >= "2025-06-18" {
			c.noteHeaderless(body, x)
		}
	case !slices.Contains(f.srv.legacy, pv):
		in := journalHTTP(sess, body, x)
		sess.violate(RuleHTTPProtocolVersion, in, "Mcp-Protocol-Version "+strconv.Quote(pv)+" is not a version this server supports ("+strings.Join(f.srv.legacy, ", ")+")")
		f.refuse(w, sess, &in, http.StatusBadRequest, CodeInvalidRequest, "Bad Request: unsupported Mcp-Protocol-Version "+strconv.Quote(pv))
		return false
	case negotiated != "" && pv != negotiated:
		c.noteMismatch(body, x, negotiated)
	}
	return true
}

// checkStatelessHeaders checks the headers every stateless-era request
// carries against its body: Mcp-Protocol-Version, Mcp-Method and, for
// tools/call, prompts/get and resources/read, Mcp-Name. A missing or
// disagreeing one is answered 400 with -32020.
func (f *httpFront) checkStatelessHeaders(w http.ResponseWriter, r *http.Request, c *httpConn, body []byte, p peeked, x *HTTPExchange) bool {
	if !p.isRequest() {
		return true
	}
	method := p.method.String()
	var problem string
	switch {
	case x.ProtocolVersion == "":
		problem = "no Mcp-Protocol-Version header"
	case p.pv.Type == gjson.String && x.ProtocolVersion != p.pv.Str:
		problem = fmt.Sprintf("Mcp-Protocol-Version header %q, but _meta says %q", x.ProtocolVersion, p.pv.Str)
	case x.MCPMethod == "":
		problem = "no Mcp-Method header"
	case x.MCPMethod != method:
		problem = fmt.Sprintf("Mcp-Method header %q, but the body's method is %q", x.MCPMethod, method)
	case namedMethods[method] && x.MCPName == "":
		problem = "no Mcp-Name header for " + method
	case namedMethods[method] && x.MCPName != p.name.String():
		problem = fmt.Sprintf("Mcp-Name header %q, but the body names %q", x.MCPName, p.name.String())
	}
	if problem == "" {
		return true
	}
	sess := c.sess
	in := journalHTTP(sess, body, x)
	sess.violate(RuleHTTPStatelessHeaders, in, problem)
	key := "null"
	if validID(p.id) {
		key = p.id.Raw
	}
	st := c.openPost(w, key, method, "")
	st.status = http.StatusBadRequest
	id := ""
	if key != "null" {
		id = key
	}
	sess.replyError(id, method, CodeHeaderMismatch, "Header mismatch: "+problem, nil)
	c.wait(st, w, r)
	return false
}

// get serves a GET: the standalone SSE stream of a session, or the
// resumption of a stream with Last-Event-ID.
func (f *httpFront) get(w http.ResponseWriter, r *http.Request, x *HTTPExchange) {
	srv := f.srv
	if _, sseOK := accepts(r.Header.Values("Accept")); !sseOK {
		sess := f.strays()
		if c := f.lookup(x.SessionID); c != nil {
			sess = c.sess
		}
		in := journalHTTP(sess, nil, x)
		sess.violate(RuleHTTPAccept, in, fmt.Sprintf("GET with Accept %q, want text/event-stream", x.Accept))
		f.refuse(w, sess, &in, http.StatusNotAcceptable, CodeInvalidRequest, "Not Acceptable: a GET must accept text/event-stream")
		return
	}
	if x.SessionID == "" && r.Header.Get(HeaderLastEventID) == "" && !srv.httpCfg.noGET && (srv.httpCfg.legacyOnly || f.sessionlessConn() == nil) && !isStateless(x.ProtocolVersion) {
		f.legacyStream(w, r)
		return
	}
	if isStateless(x.ProtocolVersion) && x.SessionID == "" {
		w.Header().Set("Allow", "POST")
		f.refuse(w, f.strays(), nil, http.StatusMethodNotAllowed, CodeInvalidRequest, "Method Not Allowed: protocol "+x.ProtocolVersion+" has no GET stream; use subscriptions/listen")
		return
	}
	if x.SessionID == "" && !srv.httpCfg.noGET {
		if c := f.sessionlessConn(); c != nil { // OmitSessionID: the session's GET comes without an id
			f.getStream(w, r, c)
			return
		}
	}
	if x.SessionID == "" {
		if srv.httpCfg.noGET {
			w.Header().Set("Allow", "POST, DELETE")
			f.refuse(w, f.strays(), nil, http.StatusMethodNotAllowed, CodeInvalidRequest, "Method Not Allowed: this server offers no standalone SSE stream")
			return
		}
		f.refuseStray(w, r, x, http.StatusBadRequest, RuleHTTPSessionID, "GET without Mcp-Session-Id", "Bad Request: Mcp-Session-Id header required")
		return
	}
	c := f.lookup(x.SessionID)
	if c == nil {
		f.refuseStray(w, r, x, http.StatusNotFound, RuleHTTPSessionID, "Mcp-Session-Id "+strconv.Quote(x.SessionID)+" was never issued by this server", "Not Found: no session "+x.SessionID)
		return
	}
	if c.gone() {
		c.mu.Lock()
		c.told404 = true
		c.mu.Unlock()
		f.refuse(w, c.sess, nil, http.StatusNotFound, CodeInvalidRequest, "Not Found: session "+x.SessionID+" has ended; initialize a new one")
		return
	}
	f.getStream(w, r, c)
}

// getStream serves a GET of session c: a resumption with Last-Event-ID,
// or the standalone stream.
func (f *httpFront) getStream(w http.ResponseWriter, r *http.Request, c *httpConn) {
	srv := f.srv
	if last := r.Header.Get(HeaderLastEventID); last != "" {
		st := c.resume(w, last)
		if st == nil {
			f.refuse(w, c.sess, nil, http.StatusBadRequest, CodeInvalidRequest, "Bad Request: Last-Event-ID "+strconv.Quote(last)+" names no stream of this session")
			return
		}
		c.wait(st, w, r)
		return
	}
	if srv.httpCfg.noGET {
		w.Header().Set("Allow", "POST, DELETE")
		f.refuse(w, c.sess, nil, http.StatusMethodNotAllowed, CodeInvalidRequest, "Method Not Allowed: this server offers no standalone SSE stream")
		return
	}
	st := c.openStandalone(w)
	c.wait(st, w, r)
}

// legacyStream serves the GET of the HTTP+SSE transport (2024-11-05): a
// new session whose every message goes on this stream, which opens with
// the endpoint event naming the URL to POST to. The session ends with the
// stream.
func (f *httpFront) legacyStream(w http.ResponseWriter, r *http.Request) {
	c, err := f.newConn(false, "")
	if err != nil {
		http.Error(w, "mcptest: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	c.mu.Lock()
	c.legacy = true
	c.mu.Unlock()
	endpoint := r.URL.Path + "?" + legacyParam + "=" + url.QueryEscape(c.sess.id)
	st := c.openStandalone(w, "event: endpoint\ndata: "+endpoint+"\n\n")
	c.wait(st, w, r)
	c.sess.close() // the stream was the session
}

// delete serves a DELETE: the client ends its session.
func (f *httpFront) delete(w http.ResponseWriter, r *http.Request, x *HTTPExchange) {
	if x.SessionID == "" {
		f.refuseStray(w, r, x, http.StatusBadRequest, RuleHTTPSessionID, "DELETE without Mcp-Session-Id", "Bad Request: Mcp-Session-Id header required")
		return
	}
	c := f.lookup(x.SessionID)
	if c == nil || c.gone() {
		status := http.StatusNotFound
		f.refuse(w, f.strays(), nil, status, CodeInvalidRequest, "Not Found: no session "+x.SessionID)
		return
	}
	c.mu.Lock()
	c.deleted = true
	c.mu.Unlock()
	c.sess.close()
	w.WriteHeader(http.StatusOK)
}

// httpConn is the transport of one session served over HTTP: the mock's
// messages go to the SSE streams and JSON replies of its HTTP requests.
type httpConn struct {
	front     *httpFront
	sess      *Session
	stateless bool
	legacy    bool // the HTTP+SSE transport of 2024-11-05: everything on the GET stream
	noSID     bool // OmitSessionID: the client was never told the session's id
	closed    atomic.Bool
	recvMu    sync.Mutex // one message at a time into the session, in the order they arrive, as on a connection

	mu         sync.Mutex
	ended      bool
	deleted    bool // the client sent DELETE
	told404    bool // the mock answered 404 to a request of this ended session
	posts      map[string][]*sseStream
	order      []*sseStream // open POST streams, oldest first
	streams    map[string]*sseStream
	standalone *sseStream
	backlog    []pendingFrame // for the standalone stream, while none is open
	partial    []byte
	partialMsg Message
	warned     map[RuleID]bool
}

type pendingFrame struct {
	m     Message
	seq   int
	frame []byte
}

type streamMode int

const (
	modeUndecided streamMode = iota
	modeJSON
	modeSSE
)

// sseStream is one response stream of a session: a POST's (JSON or SSE)
// or the standalone GET stream.
type sseStream struct {
	id       string // event ids are id + "-" + n
	reqID    string // the request it answers (JSON text); "" for the standalone stream
	method   string
	mode     streamMode
	forceSSE bool
	status   int // the status of a JSON error reply, when set
	w        http.ResponseWriter
	fl       http.Flusher
	events   []sseEvent // every event sent, for Last-Event-ID
	complete bool       // the response went out
	done     chan struct{}
	doneOnce sync.Once
	httpMeth string
	progress string // the progressToken of the request, JSON text

	// set by HTTP faults
	forceJSON   bool          // a JSON reply even when something goes before it
	dropAfter   int           // cut the stream after this many events; -1: never
	noIDs       bool          // events carry no ids
	retry       time.Duration // a retry field at the stream's start
	comment     string        // a comment line before each event
	contentType string        // the Content-Type instead of the right one
}

func (st *sseStream) finish() { st.doneOnce.Do(func() { close(st.done) }) }

func (c *httpConn) gone() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ended
}

// sentID is the Mcp-Session-Id the session's responses carry, "" for none.
func (c *httpConn) sentID() string {
	if c.stateless || c.noSID || c.legacy {
		return ""
	}
	return c.sess.id
}

func (c *httpConn) setSessionHeader(h http.Header) {
	if !c.stateless && !c.noSID && !c.legacy {
		h.Set(HeaderSessionID, c.sess.id)
	}
}

func (c *httpConn) newStream(w http.ResponseWriter, reqID, method, httpMethod string) *sseStream {
	st := &sseStream{id: strconv.FormatInt(c.front.streamSeq.Add(1), 10), reqID: reqID, method: method, w: w, done: make(chan struct{}), httpMeth: httpMethod, dropAfter: -1}
	st.fl, _ = w.(http.Flusher)
	cfg := c.front.srv.httpCfg.sseMethods
	st.forceSSE = cfg[""] || cfg[method]
	return st
}

// openPost registers the stream that answers the POSTed request with id key.
func (c *httpConn) openPost(w http.ResponseWriter, key, method, progress string) *sseStream {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.newStream(w, key, method, http.MethodPost)
	st.progress = progress
	if c.ended {
		st.finish()
		return st
	}
	c.faultReply(st)
	c.posts[key] = append(c.posts[key], st)
	c.order = append(c.order, st)
	return st
}

// openStandalone opens the session's standalone SSE stream (a new GET
// replaces an older one) and sends it what waited for it.
func (c *httpConn) openStandalone(w http.ResponseWriter, first ...string) *sseStream {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.standalone; old != nil {
		old.w, old.fl = nil, nil
		old.finish()
	}
	st := c.newStream(w, "", "", http.MethodGet)
	if c.ended {
		st.finish()
		return st
	}
	c.standalone = st
	c.startSSE(st)
	for _, ev := range first {
		_, _ = io.WriteString(w, ev)
	}
	if st.fl != nil {
		st.fl.Flush()
	}
	backlog := c.backlog
	c.backlog = nil
	for _, p := range backlog {
		c.event(st, p.m, p.seq, p.frame)
	}
	return st
}

// resume serves a GET with Last-Event-ID: it replays what the stream sent
// after that event and goes on with it until it is complete.
func (c *httpConn) resume(w http.ResponseWriter, last string) *sseStream {
	sid, nstr, ok := strings.Cut(last, "-")
	n, err := strconv.Atoi(nstr)
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.streams[sid]
	if !ok || err != nil || st == nil || n < 0 || n > len(st.events) {
		return nil
	}
	if st.w != nil { // a stream has one reader: the new one takes over
		st.w, st.fl = nil, nil
	}
	st.w, st.fl = w, nil
	st.fl, _ = w.(http.Flusher)
	st.done = make(chan struct{})
	st.doneOnce = sync.Once{}
	if st.reqID == "" {
		c.standalone = st
	}
	c.sseHeaders(st, true)
	for i := n; i < len(st.events); i++ {
		id := st.id + "-" + strconv.Itoa(i+1)
		if ev := st.events[i]; ev.seq > 0 {
			c.front.srv.journal.amend(ev.seq, func(j *Message) {
				j.Problem = strings.TrimPrefix(strings.Replace(j.Problem, notYet, "", 1), "; ")
				x := &HTTPExchange{Method: http.MethodGet, Status: http.StatusOK, ContentType: "text/event-stream", EventID: id}
				if j.HTTP != nil {
					x.SessionID = j.HTTP.SessionID
				}
				j.HTTP = x
			})
		}
		c.writeEvent(st, id, st.events[i].frame, true)
	}
	if st.complete || c.ended {
		st.finish()
	}
	return st
}

// wait blocks the handler of st until its response is complete, the
// client goes away, or the session or server ends; then st no longer
// writes to the handler's ResponseWriter.
func (c *httpConn) wait(st *sseStream, w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	done := st.done
	c.mu.Unlock()
	delivered := false
	select {
	case <-done:
		delivered = true
	case <-r.Context().Done():
	case <-c.sess.done:
	case <-c.front.srv.ctx.Done():
	}
	c.mu.Lock()
	if st.w == w {
		st.w, st.fl = nil, nil
	} else {
		delivered = false // cut, or taken over by a resuming GET
	}
	if delivered && st.complete && st.reqID != "" {
		// The reply went out on this response: nothing is left to resume,
		// so the stream and its events are not kept.
		delete(c.streams, st.id)
	}
	if st.complete || (st.reqID == "" && c.standalone == st && st.w == nil) {
		c.forget(st)
	}
	c.mu.Unlock()
}

// forget removes a stream from the open POST streams.
func (c *httpConn) forget(st *sseStream) {
	if list := c.posts[st.reqID]; len(list) > 0 {
		c.posts[st.reqID] = slices.DeleteFunc(list, func(o *sseStream) bool { return o == st })
		if len(c.posts[st.reqID]) == 0 {
			delete(c.posts, st.reqID)
		}
	}
	c.order = slices.DeleteFunc(c.order, func(o *sseStream) bool { return o == st })
	if c.standalone == st {
		c.standalone = nil
	}
}

// receive hands one POSTed message to the session.
func (c *httpConn) receive(body []byte, x *HTTPExchange) {
	c.recvMu.Lock()
	defer c.recvMu.Unlock()
	c.sess.receiveHTTP(body, x)
}

// Read is never called: the HTTP handlers feed the session.
func (c *httpConn) Read([]byte) (int, error) { return 0, io.EOF }

// Write sends bytes that belong to no particular message.
func (c *httpConn) Write(p []byte) (int, error) { return c.sendMessage(Message{}, p) }

// Close ends the session's HTTP side: every stream is cut, later requests
// with its id get 404.
func (c *httpConn) Close() error {
	if !c.closed.CompareAndSwap(false, true) {
		return nil
	}
	c.mu.Lock()
	c.ended = true
	if len(c.partial) > 0 { // a frame cut short: it goes out as it is, then the stream ends
		st := c.route(c.partialMsg)
		if st != nil && st.mode == modeSSE && st.w != nil {
			_, _ = io.WriteString(st.w, "data: ")
			_, _ = st.w.Write(c.partial)
			if st.fl != nil {
				st.fl.Flush()
			}
		} else if st != nil && st.mode == modeUndecided && st.w != nil {
			st.w.Header().Set("Content-Type", "application/json")
			st.w.WriteHeader(http.StatusOK)
			_, _ = st.w.Write(c.partial)
		}
		c.partial = nil
	}
	for _, st := range c.streams {
		st.finish()
	}
	for _, st := range c.order {
		st.finish()
	}
	c.mu.Unlock()
	c.sess.end()
	return nil
}

// sendMessage sends the bytes of m, the message they belong to, as
// journaled: one frame and its newline, or a piece of one.
func (c *httpConn) sendMessage(m Message, data []byte) (int, error) {
	seq := m.Seq
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		return 0, ErrSessionClosed
	}
	c.partial = append(c.partial, data...)
	c.partialMsg = m
	if !bytes.HasSuffix(c.partial, []byte("\n")) {
		return len(data), nil
	}
	frame := bytes.TrimSuffix(c.partial, []byte("\n"))
	c.partial = nil
	if m.via == "" && !m.IsResponse() {
		m.via = c.viaOfFrame(frame)
	}
	st := c.route(m)
	if st == nil {
		if c.standalone == nil && !c.stateless {
			c.backlog = append(c.backlog, pendingFrame{m, seq, frame})
			return len(data), nil
		}
		st = c.standalone
	}
	if st == nil {
		c.front.srv.journal.amend(seq, func(j *Message) {
			j.Problem = strings.TrimPrefix(j.Problem+"; never delivered: no HTTP stream of the session was open for it", "; ")
		})
		return len(data), nil
	}
	c.deliver(st, m, seq, frame)
	return len(data), nil
}

// route picks the stream a message of the mock goes on: a response on the
// stream of its request; a message sent on behalf of a request (progress,
// log, a server request of its handler, a subscriptions/listen
// notification) on that request's stream; anything else on the standalone
// stream, or, while none is open, the newest open POST stream. nil: none.
func (c *httpConn) route(m Message) *sseStream {
	if c.legacy {
		return c.standalone
	}
	if m.Kind == KindBatch { // the answer to a batch POST, whose stream waits under "null"
		return c.firstPost("null")
	}
	if m.IsResponse() {
		if st := c.firstPost(m.ID); st != nil {
			return st
		}
		return nil
	}
	if m.via != "" {
		if st := c.firstPost(m.via); st != nil {
			return st
		}
	}
	if c.standalone != nil {
		return c.standalone
	}
	for i := len(c.order) - 1; i >= 0; i-- {
		if st := c.order[i]; !st.complete && st.w != nil && st.reqID != "null" && st.method != "subscriptions/listen" {
			return st
		}
	}
	return nil
}

// viaOfFrame finds the request a notification of the mock belongs to: a
// subscriptions/listen stream's by its subscriptionId, a request's by its
// progressToken.
func (c *httpConn) viaOfFrame(frame []byte) string {
	r := gjson.GetManyBytes(frame, "params."+pathSubscriptionID, "params.progressToken")
	if r[0].Exists() {
		return r[0].Raw
	}
	if r[1].Exists() {
		for _, st := range c.order {
			if st.progress != "" && st.progress == r[1].Raw && !st.complete {
				return st.reqID
			}
		}
	}
	return ""
}

func (c *httpConn) firstPost(id string) *sseStream {
	for _, st := range c.posts[id] {
		if !st.complete {
			return st
		}
	}
	return nil
}

// deliver writes one frame of m on st: as a JSON body if it is the
// response st waits for and nothing went before it, else as an SSE event.
func (c *httpConn) deliver(st *sseStream, m Message, seq int, frame []byte) {
	final := st.reqID != "" && m.IsResponse() && m.ID == st.reqID || m.Kind == KindBatch && st.reqID == "null"
	if st.mode == modeUndecided && !final && st.forceJSON && st.reqID != "" { // ReplyAsJSON: what goes before the reply goes elsewhere
		if c.standalone != nil {
			c.event(c.standalone, m, seq, frame)
		} else if !c.stateless {
			c.backlog = append(c.backlog, pendingFrame{m, seq, frame})
		}
		return
	}
	if st.mode == modeUndecided && final && !st.forceSSE {
		st.mode = modeJSON
		st.complete = true
		x := &HTTPExchange{Method: st.httpMeth, Status: c.statusFor(st, m), ContentType: "application/json"}
		x.SessionID = c.sentID()
		c.note(seq, x) // before the client can see it
		if st.contentType != "" {
			x.ContentType = st.contentType
		}
		if st.w != nil {
			h := st.w.Header()
			h.Set("Content-Type", x.ContentType)
			c.setSessionHeader(h)
			st.w.WriteHeader(x.Status)
			_, _ = st.w.Write(frame)
		} else {
			c.front.srv.journal.amend(seq, func(j *Message) {
				j.Problem = strings.TrimPrefix(j.Problem+"; never delivered: the client's HTTP request was gone", "; ")
			})
		}
		st.finish()
		return
	}
	if st.mode == modeUndecided {
		c.startSSE(st)
	}
	c.event(st, m, seq, frame)
	if final {
		st.complete = true
		st.finish()
	}
}

// statusFor is the status of a JSON reply: 400 for a malformed message
// and, in the stateless era, for -32020 and -32022; 404 for -32601 there.
func (c *httpConn) statusFor(st *sseStream, m Message) int {
	if st.status != 0 {
		return st.status
	}
	if m.Kind != KindError {
		return http.StatusOK
	}
	switch m.ErrorCode {
	case CodeParseError, CodeInvalidRequest:
		return http.StatusBadRequest
	}
	if c.stateless {
		switch m.ErrorCode {
		case CodeHeaderMismatch, CodeUnsupportedProtocolVersion:
			return http.StatusBadRequest
		case CodeMethodNotFound:
			return http.StatusNotFound
		}
	}
	return http.StatusOK
}

// startSSE answers st's HTTP request with an SSE stream. Its headers are
// not flushed on their own: both callers write at once (the first event of
// a POST's stream, or what a GET's stream starts with, then flush).
func (c *httpConn) startSSE(st *sseStream) {
	st.mode = modeSSE
	c.streams[st.id] = st // resumable with Last-Event-ID
	c.sseHeaders(st, false)
}

// sseHeaders writes the headers of an SSE response (and its retry field);
// with flush they go out at once, else with the first event.
func (c *httpConn) sseHeaders(st *sseStream, flush bool) {
	if st.w == nil {
		return
	}
	h := st.w.Header()
	ct := "text/event-stream"
	if st.contentType != "" {
		ct = st.contentType
	}
	h.Set("Content-Type", ct)
	h.Set("Cache-Control", "no-cache")
	c.setSessionHeader(h)
	st.w.WriteHeader(http.StatusOK)
	if d := c.front.srv.httpCfg.retry; d > 0 {
		fmt.Fprintf(st.w, "retry: %d\n\n", d.Milliseconds())
	} else if st.retry > 0 {
		fmt.Fprintf(st.w, "retry: %d\n\n", st.retry.Milliseconds())
	}
	if st.dropAfter == 0 {
		if !st.noIDs { // a priming event: an id to resume from before anything was sent
			_, _ = io.WriteString(st.w, "id: "+st.id+"-0\ndata: \n\n")
		}
		if st.fl != nil {
			st.fl.Flush()
		}
		c.cut(st)
		return
	}
	if flush && st.fl != nil {
		st.fl.Flush()
	}
}

// event sends one frame as an SSE event of st and remembers it for resumption.
func (c *httpConn) event(st *sseStream, m Message, seq int, frame []byte) {
	st.events = append(st.events, sseEvent{seq: seq, frame: slices.Clone(frame)})
	id := st.id + "-" + strconv.Itoa(len(st.events))
	x := &HTTPExchange{Method: st.httpMeth, Status: http.StatusOK, ContentType: "text/event-stream", EventID: id, SessionID: c.sentID()}
	if st.w == nil {
		c.front.srv.journal.amend(seq, func(j *Message) {
			j.HTTP = x
			j.Problem = strings.TrimPrefix(j.Problem+"; "+notYet, "; ")
		})
		return
	}
	if st.noIDs {
		x.EventID = ""
	}
	c.note(seq, x) // before the client can see it
	// The response that completes a POST's stream is not flushed: the
	// handler returns at once, and net/http sends what it buffered (the
	// whole response, for a short stream) in one write.
	last := st.reqID != "" && m.IsResponse() && m.ID == st.reqID && st.dropAfter < 0
	c.writeEvent(st, x.EventID, frame, !last)
	if st.dropAfter > 0 && len(st.events) >= st.dropAfter {
		c.cut(st)
	}
}

// notYet is the problem of a message on a stream the client is not reading.
const notYet = "not delivered yet: the stream is disconnected (a GET with Last-Event-ID replays it)"

// sseEvent is one event of a stream: its frame and journal entry.
type sseEvent struct {
	seq   int
	frame []byte
}

// cut ends st's HTTP response before its reply (DropStream): the handler
// returns, the stream stays, and what it sends later waits for a GET with
// Last-Event-ID.
func (c *httpConn) cut(st *sseStream) {
	st.w, st.fl = nil, nil
	st.dropAfter = -1 // a resumed stream is not cut again
	st.finish()
}

// writeEvent writes one SSE event on st, and flushes it with flush.
func (c *httpConn) writeEvent(st *sseStream, id string, frame []byte, flush bool) {
	if st.w == nil {
		return
	}
	b := make([]byte, 0, len(frame)+32)
	if st.comment != "" {
		b = append(b, ": "...)
		b = append(b, st.comment...)
		b = append(b, "\n\n"...)
	}
	if id != "" {
		b = append(b, "id: "...)
		b = append(b, id...)
		b = append(b, '\n')
	}
	b = append(b, "event: message\n"...)
	for line := range bytes.SplitSeq(frame, []byte("\n")) {
		b = append(b, "data: "...)
		b = append(b, bytes.TrimSuffix(line, []byte("\r"))...)
		b = append(b, '\n')
	}
	b = append(b, '\n')
	_, _ = st.w.Write(b)
	if flush && st.fl != nil {
		st.fl.Flush()
	}
}

// note records the HTTP exchange of a message the mock sent.
func (c *httpConn) note(seq int, x *HTTPExchange) {
	if seq > 0 {
		c.front.srv.journal.amend(seq, func(j *Message) { j.HTTP = x })
	}
}

// nopConn is the transport of the session that journals what belongs to none.
type nopConn struct{}

func (nopConn) Read([]byte) (int, error)    { return 0, io.EOF }
func (nopConn) Write(p []byte) (int, error) { return len(p), nil }
func (nopConn) Close() error                { return nil }
