package mcptest

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/mcpmock/mcpmock/internal/spec"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tidwall/gjson"
)

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

// httpConn is the transport of one session served over HTTP: the mock's
// messages go to the SSE streams and JSON replies of its HTTP requests.
type httpConn struct {
	front     *httpFront
	sess      *Session
	stateless bool
	legacy    bool // the HTTP+SSE transport of 2024-11-05: everything on the GET stream
	noSID     bool // OmitSessionID: the client was never told the session's id
	stray     bool // the transport of session 0, which answers the front's refusals
	refuseMu  sync.Mutex
	closed    atomic.Bool
	omitted   atomic.Bool // noSID, read without c.mu
	recvMu    sync.Mutex  // one message at a time into the session, in the order they arrive, as on a connection

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

// queue keeps a frame for the standalone stream while none is open: the
// last sseReplayEvents of them; an older one is dropped, and the journal
// says so.
func (c *httpConn) queue(p pendingFrame) {
	if len(c.backlog) >= sseReplayEvents {
		old := c.backlog[0]
		copy(c.backlog, c.backlog[1:])
		c.backlog = c.backlog[:len(c.backlog)-1]
		c.front.srv.journal.amend(old.seq, func(j *Message) {
			j.Problem = strings.TrimPrefix(j.Problem+fmt.Sprintf("; never delivered: no standalone stream was open, and the %d messages after it filled the backlog that waits for one", sseReplayEvents), "; ")
		})
	}
	c.backlog = append(c.backlog, p)
}

type pendingFrame struct {
	m     Message
	seq   int
	frame []byte
}

// undelivered reports whether the message journaled as seq still waits
// in the backlog for a standalone stream: no client has seen it.
func (c *httpConn) undelivered(seq int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.backlog {
		if p.seq == seq {
			return true
		}
	}
	return false
}

// gone reports whether the session's HTTP side has ended. It takes no
// lock: a writer blocked on a client that does not read holds c.mu, and
// the front asks every session this to route others' requests.
func (c *httpConn) gone() bool { return c.closed.Load() }

// sentID is the Mcp-Session-Id the session's responses carry, "" for none.
func (c *httpConn) sentID() string {
	if c.stateless || c.noSID || c.legacy || c.stray {
		return ""
	}
	return c.sess.id
}

func (c *httpConn) setSessionHeader(h http.Header) {
	if !c.stateless && !c.noSID && !c.legacy && !c.stray {
		h.Set(spec.HeaderSessionID, c.sess.id)
	}
}

// receive hands one POSTed message, decoded by the front, to the
// session's one entry (stage1_receive.go); d.msg.HTTP is its exchange.
func (c *httpConn) receive(d *decoded) {
	c.recvMu.Lock()
	defer c.recvMu.Unlock()
	c.sess.receive(incoming{decoded: d})
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
			st.wrote = true
			_, _ = io.WriteString(st.w, "data: ")
			_, _ = st.w.Write(c.partial)
			if st.fl != nil {
				st.fl.Flush()
			}
		} else if st != nil && st.mode == modeUndecided && st.w != nil {
			st.wrote = true
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
			c.queue(pendingFrame{m, seq, frame})
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
		return c.firstPost("null", false)
	}
	if m.via != "" && m.IsResponse() {
		// a frame an outbound fault wrote for a reply goes where the reply goes
		if st := c.firstPost(m.via, true); st != nil && st.refusal {
			return st
		}
	}
	if m.IsResponse() {
		if st := c.firstPost(m.ID, m.Kind == KindError); st != nil {
			return st
		}
		return nil
	}
	if m.via != "" {
		if st := c.firstPost(m.via, false); st != nil {
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

// firstPost returns the oldest open stream that waits for the reply to
// the request with id; a refusal's (an error) only with refusals.
func (c *httpConn) firstPost(id string, refusals bool) *sseStream {
	for _, st := range c.posts[id] {
		if !st.complete && (refusals || !st.refusal) {
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
			c.queue(pendingFrame{m, seq, frame})
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
			st.wrote = true
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
// and, in the stateless era, for -32020, -32021, -32022 and the -32602 of
// a request without its _meta; 404 for -32601 there.
func (c *httpConn) statusFor(st *sseStream, m Message) int {
	if st.status != 0 {
		return st.status
	}
	if m.Kind != KindError {
		return http.StatusOK
	}
	switch m.ErrorCode {
	case spec.CodeParseError, spec.CodeInvalidRequest:
		return http.StatusBadRequest
	}
	if c.stateless {
		switch m.ErrorCode {
		case spec.CodeHeaderMismatch, spec.CodeMissingClientCapability, spec.CodeUnsupportedProtocolVersion:
			return http.StatusBadRequest
		case spec.CodeInvalidParams:
			if st.badMeta {
				return http.StatusBadRequest
			}
		case spec.CodeMethodNotFound:
			return http.StatusNotFound
		}
	}
	return http.StatusOK
}
