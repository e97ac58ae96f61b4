package mcptest

import (
	"context"
	"errors"
	"fmt"
	"github.com/mcpmock/mcpmock/internal/spec"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tidwall/gjson"
)

// defaultHTTPBodyLimit is the largest POST body the mock reads unless
// HTTPOptions.BodyLimit says otherwise; a longer one gets 413.
const defaultHTTPBodyLimit = 4 << 20

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
	inflight  map[http.ResponseWriter]struct{} // the responses of running handlers, which close cuts
	closing   atomic.Bool                      // close has begun: writers leave the past write deadlines alone
	open      int                              // stateless-era requests waiting for their reply (post)
	idle      chan struct{}                    // closed when open drops to 0; nil while it is 0
}

// AwaitStatelessRequests waits until no request of the stateless era
// (2026-07-28) is open on the server's Streamable HTTP endpoint: each has
// its reply out, or its client closed it, which there is the request's
// cancellation (HTTPExchange.Cancelled). Call it when the client is done,
// before judging the journal or closing the server: a client that gives
// up by closing its connection, or exits, is seen a moment later, and a
// request still open at Close is only cut by the server, never counted as
// cancelled. It returns nil at once when nothing is open (or the server
// has no HTTP endpoint), and ctx's error if ctx ends first: the client
// still holds a request open.
func (s *Server) AwaitStatelessRequests(ctx context.Context) error {
	s.mu.Lock()
	f := s.http
	s.mu.Unlock()
	if f == nil {
		return nil
	}
	f.mu.Lock()
	idle := f.idle
	f.mu.Unlock()
	if idle == nil {
		return nil
	}
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("mcptest: AwaitStatelessRequests: %w", ctx.Err())
	}
}

// opened and ended count a stateless-era request that waits for its
// reply, for AwaitStatelessRequests.
func (f *httpFront) opened() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.open++; f.idle == nil {
		f.idle = make(chan struct{})
	}
}

func (f *httpFront) ended() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.open--; f.open == 0 {
		close(f.idle)
		f.idle = nil
	}
}

// HTTPHandler returns the server's Streamable HTTP endpoint as an
// http.Handler, for a test that mounts it on a server of its own (any
// path). Each MCP session it serves is a Session of the Server, journaled
// and checked like one of Dial. The first call freezes the configuration.
func (s *Server) HTTPHandler() http.Handler {
	s.t.Helper()
	f, err := s.front()
	if err != nil {
		s.t.Fatalf("mcptest: Handler: %v", err)
		return nil
	}
	return f
}

// URL starts, on its first call, a real HTTP server on a random port of
// 127.0.0.1 serving HTTPHandler, and returns the MCP endpoint's URL, e.g.
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
			s.httpCfg.bodyLimit = defaultHTTPBodyLimit
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
	f.closing.Store(true)
	// A handler may be blocked reading a body its client dribbles, or a
	// session's writer blocked writing to a client that does not read:
	// past deadlines end both at once, also on a server that mounts
	// HTTPHandler and is not closed yet (a ResponseWriter that cannot
	// set deadlines is left to its server).
	for w := range f.inflight {
		rc := http.NewResponseController(w)
		_ = rc.SetReadDeadline(time.Unix(1, 0))
		_ = rc.SetWriteDeadline(time.Unix(1, 0))
	}
	hs, served := f.hs, f.served
	conns := make([]*httpConn, 0, len(f.conns)+len(f.stateless))
	for _, c := range f.conns {
		conns = append(conns, c)
	}
	for _, c := range f.stateless {
		conns = append(conns, c)
	}
	if f.stray != nil {
		conns = append(conns, f.stray.conn.(*httpConn))
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
		c := &httpConn{front: f, stray: true, posts: map[string][]*sseStream{}, streams: map[string]*sseStream{}}
		f.stray = newSession(f.srv, 0, c)
		c.sess = f.stray
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
	if f.inflight == nil {
		f.inflight = map[http.ResponseWriter]struct{}{}
	}
	f.inflight[w] = struct{}{}
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		delete(f.inflight, w)
		f.mu.Unlock()
		f.handlers.Done()
	}()
	x := exchangeOf(r)
	if !f.checkOrigin(w, r, x) {
		return
	}
	q := gateRequest{f: f, r: r} // q.body: a POST's body, decoded once: by the authorization gate or by post
	if g := f.srv.auth; g != nil && (g.Serve(w, r) || g.Gate(w, r, &q)) {
		return
	}
	switch r.Method {
	case http.MethodPost:
		f.post(w, r, x, &q.body)
	case http.MethodGet:
		f.get(w, r, x)
	case http.MethodDelete:
		f.delete(w, r, x)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		f.refuse(w, r, f.strays(), nil, http.StatusMethodNotAllowed, spec.CodeInvalidRequest, "Method Not Allowed: the MCP endpoint takes POST, GET and DELETE")
	}
}

// settled takes w off the responses Close cuts with past deadlines: its
// handler writes nothing that can block, and its answer must go out.
func (f *httpFront) settled(w http.ResponseWriter) {
	f.mu.Lock()
	delete(f.inflight, w)
	f.mu.Unlock()
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
// loopback nor allowed, or whose Host is neither loopback nor allowed: what a local MCP
// server must do against DNS rebinding.
func (f *httpFront) checkOrigin(w http.ResponseWriter, r *http.Request, x *HTTPExchange) bool {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if host != "" && !isLoopbackHost(host) && !slices.Contains(f.srv.httpCfg.hosts, strings.ToLower(strings.Trim(host, "[]"))) {
		f.refuseStray(w, r, x, http.StatusForbidden, ruleHTTPHost, "Host "+r.Host+" is not a loopback name", "Forbidden: Host "+r.Host+" is not this server")
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
	f.refuseStray(w, r, x, http.StatusForbidden, ruleHTTPOrigin, "Origin "+origin+" is not allowed", "Forbidden: Origin "+origin+" is not allowed")
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
	f.refuse(w, r, sess, &in, status, spec.CodeInvalidRequest, message)
}

// refuse answers an HTTP request with status and a JSON-RPC error, a
// message of sess (the id is the request's, when in is one).
func (f *httpFront) refuse(w http.ResponseWriter, r *http.Request, sess *Session, in *Message, status, code int, message string) {
	id := ""
	if in != nil && in.Kind == KindRequest && validIDText(in.ID) {
		id = in.ID
	}
	f.refuseID(w, r, sess, in, id, status, code, message)
}

// refuseOnStream sends a refusal through the write path of c's session;
// false, having written nothing, when the session ended before the
// refusal went out (a DELETE racing the request), for the caller to
// write it itself.
func (f *httpFront) refuseOnStream(c *httpConn, w http.ResponseWriter, r *http.Request, sess *Session, id, method string, code, status int, message string) bool {
	key := id
	if key == "" {
		key = "null"
	}
	// One refusal of a session at a time: its reply finds its stream
	// by id, which two refusals may share (null).
	c.refuseMu.Lock()
	st := c.openRefusal(w, key, method, r.Method, status)
	if st == nil {
		c.refuseMu.Unlock()
		return false
	}
	sess.replyError(id, method, code, message, nil)
	c.mu.Lock()
	c.forget(st) // routed (or dropped by a fault): no later reply goes on it
	c.mu.Unlock()
	c.refuseMu.Unlock()
	c.wait(st, w, r)
	// A DELETE (or Close) that ended the session before its writer wrote
	// the refusal left this response unwritten: the caller writes it.
	return r.Context().Err() != nil || !c.unanswered(st)
}

// refuseID is refuse with the id of the reply given: "" for null.
//
// The reply goes out as every reply of the mock does, through sess's
// write path: outbound faults act on it (its method is the refused
// request's), and the journal records it, with its HTTP exchange, as it
// went on the wire. Only a session that has ended (a request with its
// id gets 404) has no write path left: its refusals are written here.
func (f *httpFront) refuseID(w http.ResponseWriter, r *http.Request, sess *Session, in *Message, id string, status, code int, message string) {
	method := ""
	if in != nil && in.Kind == KindRequest {
		method = in.Method
	}
	if c, ok := sess.conn.(*httpConn); ok && !c.gone() && f.refuseOnStream(c, w, r, sess, id, method, code, status, message) {
		return
	}
	frame := appendError(nil, id, &rpcError{Code: code, Message: message})
	jid := id
	if jid == "" {
		jid = "null"
	}
	x := &HTTPExchange{Method: r.Method, Status: status, ContentType: "application/json"}
	sess.srv.journal.record(Message{SessionNumber: sess.n, Direction: FromServer, Time: time.Now(), Kind: KindError,
		Method: method, ID: jid, ErrorCode: code, raw: string(frame), HTTP: x})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(frame)
}

// validIDText reports whether a journaled id (JSON text) is a string or an integer.
func validIDText(id string) bool {
	return id != "" && validID(gjson.Parse(id))
}

// sessionlessConn returns the newest open session that OmitSessionID left
// without an id, or nil.
func (f *httpFront) sessionlessConn() *httpConn {
	f.mu.Lock()
	defer f.mu.Unlock()
	var newest *httpConn
	for _, c := range f.conns {
		// no c.mu: a session's writer may hold it, blocked on its client
		ok := c.omitted.Load() && !c.closed.Load()
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
