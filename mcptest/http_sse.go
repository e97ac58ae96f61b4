package mcptest

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

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
	refusal  bool // the stream of a refusal of the HTTP front (openRefusal)
	status   int  // the status of a JSON error reply, when set
	badMeta  bool // a stateless-era request without its _meta: its -32602 goes with 400
	w        http.ResponseWriter
	fl       http.Flusher
	events   []sseEvent // the last sseReplayEvents events sent, for Last-Event-ID
	trimmed  int        // how many older events no longer are in events
	complete bool       // the response went out
	wrote    bool       // something was written on the HTTP response (its status, at least)
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

func (c *httpConn) newStream(w http.ResponseWriter, reqID, method, httpMethod string) *sseStream {
	st := &sseStream{id: strconv.FormatInt(c.front.streamSeq.Add(1), 10), reqID: reqID, method: method, w: w, done: make(chan struct{}), httpMeth: httpMethod, dropAfter: -1}
	st.fl, _ = w.(http.Flusher)
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

// openRefusal registers the stream that carries the front's refusal of an
// HTTP request, whose reply, an error with id key, is answered status.
// It goes before the streams of requests with the same id, and takes no
// message but that reply. nil when the session has ended.
func (c *httpConn) openRefusal(w http.ResponseWriter, key, method, httpMethod string, status int) *sseStream {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended { // the session ended meanwhile: no write path left
		return nil
	}
	st := c.newStream(w, key, method, httpMethod)
	st.refusal, st.status, st.forceSSE = true, status, false
	c.posts[key] = append([]*sseStream{st}, c.posts[key]...)
	return st
}

// openStandalone opens the session's standalone SSE stream (a new GET
// replaces an older one) and sends it what waited for it.
// It returns nil, writing nothing, when the session has ended meanwhile.
func (c *httpConn) openStandalone(w http.ResponseWriter, first ...string) *sseStream {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.standalone; old != nil {
		old.w, old.fl = nil, nil
		old.finish()
	}
	if c.ended { // a DELETE (or Close) won the race with this GET
		return nil
	}
	st := c.newStream(w, "", "", http.MethodGet)
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
// after that event (and, on the standalone stream, what waited for it
// while the client was away) and goes on with it until it is complete.
// nil: the id names no event of the session's streams, or (with why) one
// older than the replay buffer.
func (c *httpConn) resume(w http.ResponseWriter, last string) (*sseStream, string) {
	sid, nstr, ok := strings.Cut(last, "-")
	n, err := strconv.Atoi(nstr)
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.streams[sid]
	if !ok || err != nil || st == nil || n < 0 || n > st.trimmed+len(st.events) {
		return nil, ""
	}
	if n < st.trimmed {
		return nil, fmt.Sprintf("Bad Request: Last-Event-ID %q is older than the last %d events of its stream, which are all mcptest keeps for replay", last, sseReplayEvents)
	}
	n -= st.trimmed
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
		id := st.id + "-" + strconv.Itoa(st.trimmed+i+1)
		if ev := st.events[i]; ev.seq > 0 {
			c.front.srv.journal.amend(ev.seq, func(j *Message) {
				if strings.Contains(j.Problem, notYet) {
					j.Time = time.Now() // written now: the first time it reaches the client
				}
				j.Problem = strings.TrimPrefix(strings.Replace(j.Problem, notYet, "", 1), "; ")
				x := &HTTPExchange{Method: http.MethodGet, Status: http.StatusOK, ContentType: "text/event-stream", EventID: id}
				if j.HTTP != nil {
					x.SessionID = j.HTTP.SessionID
				}
				j.HTTP = x
			})
		}
		_ = c.writeEvent(st, id, st.events[i].frame, true)
	}
	if st.reqID == "" && !c.ended {
		// the standalone stream again: what waited for it goes on it
		c.standalone = st
		backlog := c.backlog
		c.backlog = nil
		for _, p := range backlog {
			c.event(st, p.m, p.seq, p.frame)
		}
	}
	if st.complete || c.ended {
		st.finish()
	}
	return st, ""
}

// sseReplayEvents is how many of its latest events a stream keeps for a
// GET with Last-Event-ID, and how many messages wait for a standalone
// stream while none is open: a client that never comes back costs a
// bounded buffer.
const sseReplayEvents = 1024

// keep appends an event to st's replay buffer, dropping the oldest past
// sseReplayEvents.
func (st *sseStream) keep(ev sseEvent) {
	if len(st.events) >= sseReplayEvents {
		copy(st.events, st.events[1:])
		st.events = st.events[:len(st.events)-1]
		st.trimmed++
	}
	st.events = append(st.events, ev)
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
	st.wrote = true
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
	st.keep(sseEvent{seq: seq, frame: slices.Clone(frame)})
	id := st.id + "-" + strconv.Itoa(st.trimmed+len(st.events))
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
	if err := c.writeEvent(st, x.EventID, frame, !last); err != nil {
		// The client does not read (Close cut the write), or went away:
		// the stream is cut, and keeps the event for Last-Event-ID.
		c.front.srv.journal.amend(seq, func(j *Message) {
			j.Problem = strings.TrimPrefix(j.Problem+"; "+notWhole+" ("+err.Error()+")", "; ")
		})
		c.cut(st)
		return
	}
	if st.dropAfter > 0 && len(st.events) >= st.dropAfter {
		c.cut(st)
	}
}

// notWhole is the problem of a message whose SSE event could not be written.
const notWhole = "not delivered whole: the client did not read the stream, or went away; the stream was cut (a GET with Last-Event-ID replays it)"

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
func (c *httpConn) writeEvent(st *sseStream, id string, frame []byte, flush bool) error {
	if st.w == nil {
		return nil
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
	// A client that stops reading fills the socket's buffers and blocks
	// the write, and with it the session's writer (and a Broadcast to
	// every session): past the SSE write timeout the write fails and the
	// stream is cut. Close cuts it at once (httpFront.close).
	rc := http.NewResponseController(st.w)
	timeout := c.front.srv.httpCfg.sseWrite
	if timeout == 0 {
		timeout = defaultSSEWriteTimeout
	}
	armed := !c.front.closing.Load() && rc.SetWriteDeadline(time.Now().Add(timeout)) == nil
	if armed && c.front.closing.Load() { // close began meanwhile: its past deadline stands
		_ = rc.SetWriteDeadline(time.Unix(1, 0))
	}
	_, err := st.w.Write(b)
	if err == nil && flush && st.fl != nil {
		err = rc.Flush()
	}
	if armed && !c.front.closing.Load() {
		_ = rc.SetWriteDeadline(time.Time{})
	}
	return err
}
