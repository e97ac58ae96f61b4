package mcptest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/tidwall/gjson"
)

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

// peeked is what the HTTP layer reads of a POST body before the session
// does. It is read from the one scan that decodes the body (scanFrame),
// and the session takes that decoding as it is: a body is scanned once,
// and kept without a copy.
type peeked struct {
	d              decoded
	method, id, pv gjson.Result
	result, err    gjson.Result
	info, progress gjson.Result
	caps           gjson.Result
}

// peek decodes body, which nothing changes afterwards: the message's text
// is body's bytes.
func (p *peeked) peek(body []byte) {
	p.d = decodeText(frameString(bytes.TrimSpace(body)))
	d := &p.d
	p.method, p.id, p.result, p.err = d.method, d.id, d.result, d.err
	if meta := d.getParam(paramMeta); meta.IsObject() {
		meta.ForEach(func(k, v gjson.Result) bool {
			switch k.Str {
			case spec.MetaProtocolVersion:
				p.pv = v
			case spec.MetaClientInfo:
				p.info = v
			case spec.MetaClientCapabilities:
				p.caps = v
			case "progressToken":
				p.progress = v
			}
			return true
		})
	}
}

// name is what a tools/call or prompts/get names (params.name), or a
// resources/read (params.uri): what the Mcp-Name header must say.
func (p *peeked) name() gjson.Result {
	if n := p.d.getParam(paramName); n.Exists() || !p.d.params.IsObject() {
		return n
	}
	return p.d.params.Get("uri")
}

func (p *peeked) isRequest() bool { return p.method.Type == gjson.String && p.id.Exists() }
func (p *peeked) isNotification() bool {
	return p.method.Type == gjson.String && !p.id.Exists()
}
func (p *peeked) isResponse() bool {
	return !p.method.Exists() && p.id.Exists() && (p.result.Exists() || p.err.Exists())
}

// isBatchWithoutRequests reports whether the body is a JSON-RPC batch of
// notifications and responses only, which gets 202 like one of them.
func (p *peeked) isBatchWithoutRequests() bool {
	if !p.d.batch.Exists() {
		return false
	}
	items := p.d.batch.Array()
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

var pathSubscriptionID = metaPath(spec.MetaSubscriptionID)

// namedMethod reports whether method's Mcp-Name header names what it acts
// on (spec: Method.NameParam).
func namedMethod(method string) bool {
	m, _ := spec.Lookup(method)
	return m.NameParam != ""
}

// postBody is a POST's body decoded once, by whoever reads it first: the
// authorization gate (readMCPRequest, on its slow path) or post. The gate
// hands r.Body on holding the same bytes, so post reads them again but
// does not decode them again.
type postBody struct {
	done bool
	p    peeked
}

// decode decodes body, the POST's body, on the first call only, and
// returns the decoding.
func (b *postBody) decode(body []byte) *peeked {
	if !b.done {
		b.p.peek(body)
		b.done = true
	}
	return &b.p
}

// post serves a POST: one JSON-RPC message from the client. in holds its
// body's decoding if the authorization gate made it.
func (f *httpFront) post(w http.ResponseWriter, r *http.Request, x *HTTPExchange, in *postBody) {
	srv := f.srv
	body, err := readBody(w, r, srv.httpCfg.bodyLimit)
	if err != nil {
		sess := f.strays()
		if c := f.lookup(x.SessionID); c != nil {
			sess = c.sess
		}
		m := srv.journal.record(Message{SessionNumber: sess.n, Direction: FromClient, Time: time.Now(), Kind: KindInvalid, HTTP: x,
			Problem: fmt.Sprintf("body longer than the %d bytes mcptest reads (HTTPOptions.BodyLimit); its bytes were discarded", srv.httpCfg.bodyLimit)})
		var tooLarge *http.MaxBytesError
		if !errors.As(err, &tooLarge) {
			srv.journal.amend(m.Seq, func(m *Message) { m.Problem = "body cut short: " + err.Error() })
			return
		}
		sess.violate(ruleInvalidRequest, m, m.Problem)
		f.refuse(w, r, sess, nil, http.StatusRequestEntityTooLarge, spec.CodeInvalidRequest, "Invalid Request: body too large")
		return
	}
	p := in.decode(body)
	c, done := f.existingConn(w, r, x, body, p)
	if done {
		return
	}
	// The media checks come before a new session is made: a request that
	// is refused opens none (it is journaled in session 0).
	sess := f.strays()
	if c != nil {
		sess = c.sess
	}
	if !f.checkMedia(w, r, x, body, sess, c != nil && c.legacy) {
		return
	}
	if c == nil {
		if c, done = f.newConnFor(w, r, x, body, p); done {
			return
		}
	}
	if c.stateless {
		if !f.checkStatelessHeaders(w, r, c, body, p, x) {
			return
		}
	} else if !c.legacy && !f.checkVersionHeader(w, r, c, body, p, x) {
		return
	}
	if c.faultRequest(w, r, p, body) {
		return
	}
	p.d.msg.HTTP = x // the exchange that carried the message, journaled with it
	if c.legacy || p.isNotification() || p.isResponse() || p.isBatchWithoutRequests() {
		c.setSessionHeader(w.Header())
		c.receive(&p.d)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	key := "null"
	if p.id.Exists() && validID(p.id) {
		key = p.id.Raw
	}
	method := p.method.String()
	st := c.openPost(w, key, method, p.progress.Raw)
	// a stateless-era request without the _meta the era requires is
	// refused with -32602 and, on HTTP, 400 (basic/index#meta)
	badMeta := c.stateless && statelessRequest(p, x) && (p.pv.Type != gjson.String || !p.caps.IsObject())
	c.mu.Lock()
	st.badMeta = badMeta
	c.mu.Unlock()
	if c.stateless {
		f.opened() // before the message is journaled: a waiter that sees it sees it open
	}
	c.receive(&p.d)
	c.wait(st, w, r)
	if c.stateless {
		// A response cut by the server's own Close is no cancellation: only
		// a client that went away on its own cancels.
		if r.Context().Err() != nil && !f.closing.Load() {
			c.clientClosed(st, x, key)
		}
		f.ended()
	}
	if r.Context().Err() == nil && c.unanswered(st) {
		// The session ended by a DELETE, or the server closed, before
		// anything went out on this POST: an answer, rather than an empty
		// 200. A session cut by a fault (CloseBefore) or Session.Close
		// keeps the empty 200: the connection closed mid-call, which is
		// what such a fault plays.
		id := ""
		if key != "null" {
			id = key
		}
		status, msg := http.StatusNotFound, "Not Found: session "+c.sess.id+" ended before this request was answered"
		f.mu.Lock()
		if f.closed {
			status, msg = http.StatusServiceUnavailable, "mcptest: the server closed before this request was answered"
		}
		f.mu.Unlock()
		f.refuseID(w, r, c.sess, nil, id, status, spec.CodeInvalidRequest, msg)
	}
}

// clientClosed handles a client that closed the response of a stateless-era
// request before its reply went out: on Streamable HTTP that is how the
// 2026-07-28 spec cancels a request ("Closing the SSE response stream is the
// cancellation signal. The server MUST treat a client disconnect as
// cancellation of that request. No notifications/cancelled message is
// required or expected", basic/patterns/cancellation). The request's
// handler, or the fault holding it, is cancelled as notifications/cancelled
// would, so no reply is made; the journal marks the request's exchange
// (x, the one its message carries) Cancelled, for AssertCancelled and the
// scenarios. In the handshake era a disconnect is no cancellation (the
// transport page: the client SHOULD send notifications/cancelled), and
// nothing is marked.
func (c *httpConn) clientClosed(st *sseStream, x *HTTPExchange, key string) {
	c.mu.Lock()
	complete := st.complete
	c.mu.Unlock()
	if complete || key == "null" {
		return // the reply went out: there was nothing left to cancel
	}
	j := c.front.srv.journal
	msgs := j.view()
	for i := len(msgs) - 1; i >= 0; i-- {
		if m := msgs[i]; m.HTTP == x && m.IsRequest() {
			j.amend(m.Seq, func(m *Message) {
				marked := *m.HTTP
				marked.Cancelled = true
				m.HTTP = &marked
			})
			j.wake()
			break
		}
	}
	s := c.sess
	s.mu.Lock()
	running := slices.Clone(s.inflight[key])
	s.mu.Unlock()
	for _, inf := range running {
		inf.cancel(errCancelledByClient)
	}
}

// unanswered reports whether nothing was written on st's response and its
// session was ended by a DELETE or by the server's Close. The reply may
// have been made meanwhile (the session's writer races the DELETE), but
// if it did not reach this response, the response is unanswered.
func (c *httpConn) unanswered(st *sseStream) bool {
	c.mu.Lock()
	deleted := c.deleted
	unwritten := !st.wrote
	c.mu.Unlock()
	c.front.mu.Lock()
	closed := c.front.closed
	c.front.mu.Unlock()
	return unwritten && (deleted || closed)
}

// readBody reads a POST body of at most limit bytes: into a buffer of
// its Content-Length when the client gave one, which the message then
// keeps as its text, so a body is copied once.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	rd := http.MaxBytesReader(w, r.Body, limit)
	if n := r.ContentLength; n >= 0 && n <= limit {
		buf := make([]byte, n)
		if _, err := io.ReadFull(rd, buf); err != nil {
			return nil, err
		}
		return buf, nil
	}
	return io.ReadAll(rd)
}

// checkMedia checks a POST's Content-Type and Accept headers (415, 406);
// sess journals a refusal.
func (f *httpFront) checkMedia(w http.ResponseWriter, r *http.Request, x *HTTPExchange, body []byte, sess *Session, legacy bool) bool {
	if x.ContentType != "application/json" {
		in := journalHTTP(sess, body, x)
		sess.violate(ruleHTTPContentType, in, fmt.Sprintf("POST with Content-Type %q, want application/json", r.Header.Get("Content-Type")))
		f.refuse(w, r, sess, &in, http.StatusUnsupportedMediaType, spec.CodeInvalidRequest, "Unsupported Media Type: POST a JSON-RPC message as application/json")
		return false
	}
	if jsonOK, sseOK := accepts(r.Header.Values("Accept")); !legacy && (!jsonOK || !sseOK) {
		in := journalHTTP(sess, body, x)
		sess.violate(ruleHTTPAccept, in, fmt.Sprintf("POST with Accept %q, want both application/json and text/event-stream", x.Accept))
		f.refuse(w, r, sess, &in, http.StatusNotAcceptable, spec.CodeInvalidRequest, "Not Acceptable: Accept must list both application/json and text/event-stream")
		return false
	}
	return true
}

// statelessMarks reports whether a POST without a session id says it is
// of the stateless era: a 2026-07-28 (or later) Mcp-Protocol-Version
// header, or the per-request _meta protocolVersion.
func statelessMarks(p *peeked, x *HTTPExchange) bool {
	return isStateless(x.ProtocolVersion) || p.pv.Exists()
}

// statelessRequest reports whether a POSTed message is a request of the
// stateless era, which the era's headers bind: a request other than
// initialize (which selects the handshake era) with the stateless marks,
// or an initialize sent as a request of that era (its Mcp-Protocol-Version
// header says so), which names a method the era does not have. A request
// without them (an initialize, a server/discover probe, any request of a
// client of the handshake era) is not bound by them: the session answers
// it as over stdio.
func statelessRequest(p *peeked, x *HTTPExchange) bool {
	return p.isRequest() && (p.method.String() != "initialize" || isStateless(x.ProtocolVersion)) && statelessMarks(p, x)
}

// existingConn finds the session a POST names (its Mcp-Session-Id, the
// sessionId of an HTTP+SSE session, or the session OmitSessionID left
// without one), or answers it (404 for an unknown or ended session, 405
// on a server with HTTPOptions.LegacySSEOnly); nil and false: the POST names none.
func (f *httpFront) existingConn(w http.ResponseWriter, r *http.Request, x *HTTPExchange, body []byte, p *peeked) (*httpConn, bool) {
	srv := f.srv
	if id := r.URL.Query().Get(legacyParam); id != "" && x.SessionID == "" {
		if c := f.lookup(id); c != nil && c.legacy {
			if c.gone() {
				in := journalHTTP(c.sess, body, x)
				f.refuse(w, r, c.sess, &in, http.StatusNotFound, spec.CodeInvalidRequest, "Not Found: session "+id+" has ended")
				return nil, true
			}
			return c, false
		}
	}
	if srv.httpCfg.legacyOnly {
		sess := f.strays()
		in := journalHTTP(sess, body, x)
		w.Header().Set("Allow", "GET")
		f.refuse(w, r, sess, &in, http.StatusMethodNotAllowed, spec.CodeInvalidRequest, "Method Not Allowed: this server speaks the HTTP+SSE transport of 2024-11-05; GET the endpoint for the SSE stream")
		return nil, true
	}
	if x.SessionID != "" {
		c := f.lookup(x.SessionID)
		if c == nil {
			sess := f.strays()
			in := journalHTTP(sess, body, x)
			sess.violate(ruleHTTPSessionID, in, "Mcp-Session-Id "+strconv.Quote(x.SessionID)+" was never issued by this server")
			f.refuse(w, r, sess, &in, http.StatusNotFound, spec.CodeInvalidRequest, "Not Found: no session "+x.SessionID)
			return nil, true
		}
		if c.gone() {
			in := journalHTTP(c.sess, body, x)
			c.mu.Lock()
			again := c.told404
			c.told404 = true
			c.mu.Unlock()
			if again && c.once(ruleHTTPReinitialize) {
				c.sess.violate(ruleHTTPReinitialize, in, "the session ended and the server answered 404, but the client sent "+describeBody(in)+" with its id again instead of a new initialize")
			}
			f.refuse(w, r, c.sess, &in, http.StatusNotFound, spec.CodeInvalidRequest, "Not Found: session "+x.SessionID+" has ended; initialize a new one")
			return nil, true
		}
		return c, false
	}
	stateless := statelessMarks(p, x) || p.method.String() == "server/discover" || len(srv.legacy) == 0
	if c := f.sessionlessConn(); c != nil && !stateless && p.method.String() != "initialize" {
		return c, false // OmitSessionID: the session's requests come without an id
	}
	return nil, false
}

// newConnFor makes the session of a POST that names none: a handshake-era
// session for initialize, the stateless era's session of its client for
// a request of that era. Anything else is answered (true): a body that is
// not a JSON-RPC message as a session answers it, whatever its headers;
// a server/discover probe of a handshake-only server with -32601; any
// other message with 400, for want of Mcp-Session-Id.
func (f *httpFront) newConnFor(w http.ResponseWriter, r *http.Request, x *HTTPExchange, body []byte, p *peeked) (*httpConn, bool) {
	srv := f.srv
	if p.isRequest() && p.method.String() == "initialize" && len(srv.legacy) > 0 && !isStateless(x.ProtocolVersion) {
		c, err := f.newConn(false, "")
		if err != nil {
			http.Error(w, "mcptest: "+err.Error(), http.StatusServiceUnavailable)
			return nil, true
		}
		return c, false
	}
	stateless := statelessMarks(p, x) || p.method.String() == "server/discover" || len(srv.legacy) == 0
	if stateless && len(srv.modern) > 0 {
		c, err := f.statelessConn(p, body)
		if err != nil {
			http.Error(w, "mcptest: "+err.Error(), http.StatusServiceUnavailable)
			return nil, true
		}
		return c, false
	}
	sess := f.strays()
	in := journalHTTP(sess, body, x)
	if f.answerMalformed(w, r, sess, body, &p.d, in) {
		return nil, true
	}
	if stateless { // a probe of a client that speaks both eras: a handshake-era server knows no such method
		f.refuse(w, r, sess, &in, http.StatusBadRequest, spec.CodeMethodNotFound, "Method not found: this server speaks only "+strings.Join(srv.legacy, ", ")+"; initialize first")
		return nil, true
	}
	sess.violate(ruleHTTPSessionID, in, "POST without Mcp-Session-Id; the server assigned one on the initialize result")
	f.refuse(w, r, sess, &in, http.StatusBadRequest, spec.CodeInvalidRequest, "Bad Request: Mcp-Session-Id header required (initialize first)")
	return nil, true
}

// answerMalformed answers, as a session answers it, a body that belongs to
// no session and is no JSON-RPC message: not JSON, or empty (-32700, id
// null), or JSON that is no message, an empty batch included (-32600). A
// batch of messages is not answered here: it needs a session like any
// message.
func (f *httpFront) answerMalformed(w http.ResponseWriter, r *http.Request, sess *Session, body []byte, d *decoded, in Message) bool {
	switch {
	case d.parseError || len(bytes.TrimSpace(body)) == 0:
		sess.violate(ruleParseError, in, "the frame is not valid JSON")
		f.refuseID(w, r, sess, &in, "", http.StatusBadRequest, spec.CodeParseError, "Parse error")
		return true
	case d.batch.Exists() && len(d.batch.Array()) > 0, d.msg.Kind != KindInvalid:
		return false
	}
	problem := d.msg.Problem
	if d.batch.Exists() {
		problem = sess.noBatch(true)
	}
	id := ""
	if validID(d.id) {
		id = d.id.Raw
	}
	sess.violate(ruleInvalidRequest, in, problem)
	f.refuseID(w, r, sess, &in, id, http.StatusBadRequest, spec.CodeInvalidRequest, "Invalid Request: "+problem)
	return true
}

// statelessConn returns the session a stateless-era message is journaled
// in. The stateless era has no session of its own: requests are grouped by
// their _meta clientInfo (requests without one share a session); a
// notification or response, which carries no _meta, joins the session of
// the request it names (notifications/cancelled) or else the newest one.
func (f *httpFront) statelessConn(p *peeked, body []byte) (*httpConn, error) {
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
func (f *httpFront) checkVersionHeader(w http.ResponseWriter, r *http.Request, c *httpConn, body []byte, p *peeked, x *HTTPExchange) bool {
	sess := c.sess
	if p.isRequest() && p.method.String() == "initialize" {
		return true
	}
	pv := x.ProtocolVersion
	negotiated := sess.ProtocolVersion()
	switch {
	case pv == "":
		if spec.ProtocolVersionHeader.Has(negotiated) {
			c.noteHeaderless(body, x)
		}
	case !slices.Contains(f.srv.legacy, pv):
		in := journalHTTP(sess, body, x)
		sess.violate(ruleHTTPProtocolVersionNegotiated, in, "Mcp-Protocol-Version "+strconv.Quote(pv)+" is not a version this server supports ("+strings.Join(f.srv.legacy, ", ")+")")
		f.refuse(w, r, sess, &in, http.StatusBadRequest, spec.CodeInvalidRequest, "Bad Request: unsupported Mcp-Protocol-Version "+strconv.Quote(pv))
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
func (f *httpFront) checkStatelessHeaders(w http.ResponseWriter, r *http.Request, c *httpConn, body []byte, p *peeked, x *HTTPExchange) bool {
	if !statelessRequest(p, x) {
		return true // answered as over stdio, by the session
	}
	method := p.method.String()
	rule, problem := ruleHTTPStatelessHeaders, ""
	switch {
	case x.ProtocolVersion == "":
		problem = "no Mcp-Protocol-Version header"
	case p.pv.Type == gjson.String && x.ProtocolVersion != p.pv.Str:
		problem = fmt.Sprintf("Mcp-Protocol-Version header %q, but _meta says %q", x.ProtocolVersion, p.pv.Str)
	case x.MCPMethod == "":
		problem = "no Mcp-Method header"
	case x.MCPMethod != method:
		problem = fmt.Sprintf("Mcp-Method header %q, but the body's method is %q", x.MCPMethod, method)
	case namedMethod(method) && x.MCPName == "":
		problem = "no Mcp-Name header for " + method
	case namedMethod(method):
		rule, problem = f.namedHeaders(r, p, x)
	}
	if problem == "" {
		return true
	}
	sess := c.sess
	in := journalHTTP(sess, body, x)
	sess.violate(rule, in, problem)
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
	sess.replyError(id, method, spec.CodeHeaderMismatch, "Header mismatch: "+problem, nil)
	c.wait(st, w, r)
	return false
}
