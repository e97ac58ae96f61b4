package mcptest

import (
	"fmt"
	"github.com/mcpmock/mcpmock/internal/spec"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

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
		sess.violate(ruleHTTPAccept, in, fmt.Sprintf("GET with Accept %q, want text/event-stream", x.Accept))
		f.refuse(w, r, sess, &in, http.StatusNotAcceptable, spec.CodeInvalidRequest, "Not Acceptable: a GET must accept text/event-stream")
		return
	}
	if x.SessionID == "" && r.Header.Get(spec.HeaderLastEventID) == "" && !srv.httpCfg.noGET && (srv.httpCfg.legacyOnly || f.sessionlessConn() == nil) && !isStateless(x.ProtocolVersion) {
		f.legacyStream(w, r)
		return
	}
	if isStateless(x.ProtocolVersion) && x.SessionID == "" {
		w.Header().Set("Allow", "POST")
		f.refuse(w, r, f.strays(), nil, http.StatusMethodNotAllowed, spec.CodeInvalidRequest, "Method Not Allowed: protocol "+x.ProtocolVersion+" has no GET stream; use subscriptions/listen")
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
			f.refuse(w, r, f.strays(), nil, http.StatusMethodNotAllowed, spec.CodeInvalidRequest, "Method Not Allowed: this server offers no standalone SSE stream")
			return
		}
		f.refuseStray(w, r, x, http.StatusBadRequest, ruleHTTPSessionID, "GET without Mcp-Session-Id", "Bad Request: Mcp-Session-Id header required")
		return
	}
	c := f.lookup(x.SessionID)
	if c == nil {
		f.refuseStray(w, r, x, http.StatusNotFound, ruleHTTPSessionID, "Mcp-Session-Id "+strconv.Quote(x.SessionID)+" was never issued by this server", "Not Found: no session "+x.SessionID)
		return
	}
	if c.gone() {
		c.mu.Lock()
		c.told404 = true
		c.mu.Unlock()
		f.refuse(w, r, c.sess, nil, http.StatusNotFound, spec.CodeInvalidRequest, "Not Found: session "+x.SessionID+" has ended; initialize a new one")
		return
	}
	f.getStream(w, r, c)
}

// getStream serves a GET of session c: a resumption with Last-Event-ID,
// or the standalone stream.
func (f *httpFront) getStream(w http.ResponseWriter, r *http.Request, c *httpConn) {
	srv := f.srv
	if last := r.Header.Get(spec.HeaderLastEventID); last != "" {
		st, why := c.resume(w, last)
		if st == nil {
			if why == "" {
				why = "Bad Request: Last-Event-ID " + strconv.Quote(last) + " names no stream of this session"
			}
			f.refuse(w, r, c.sess, nil, http.StatusBadRequest, spec.CodeInvalidRequest, why)
			return
		}
		c.wait(st, w, r)
		return
	}
	if srv.httpCfg.noGET {
		w.Header().Set("Allow", "POST, DELETE")
		f.refuse(w, r, c.sess, nil, http.StatusMethodNotAllowed, spec.CodeInvalidRequest, "Method Not Allowed: this server offers no standalone SSE stream")
		return
	}
	st := c.openStandalone(w)
	if st == nil { // a DELETE won the race: as for a GET that came after it
		c.mu.Lock()
		c.told404 = true
		c.mu.Unlock()
		f.refuse(w, r, c.sess, nil, http.StatusNotFound, spec.CodeInvalidRequest, "Not Found: session "+c.sess.id+" has ended; initialize a new one")
		return
	}
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
	// An absolute path, escaped: a request target without one (an
	// absolute-form URI such as "pmc:") gets "/", whose POSTs reach this
	// handler too.
	path := r.URL.EscapedPath()
	if !strings.HasPrefix(path, "/") {
		path = "/"
	}
	endpoint := path + "?" + legacyParam + "=" + url.QueryEscape(c.sess.id)
	st := c.openStandalone(w, "event: endpoint\ndata: "+endpoint+"\n\n")
	if st == nil { // the server closed before the stream opened
		http.Error(w, "mcptest: the server is closed", http.StatusServiceUnavailable)
		return
	}
	c.wait(st, w, r)
	c.sess.close() // the stream was the session
}

// delete serves a DELETE: the client ends its session.
func (f *httpFront) delete(w http.ResponseWriter, r *http.Request, x *HTTPExchange) {
	if x.SessionID == "" {
		f.refuseStray(w, r, x, http.StatusBadRequest, ruleHTTPSessionID, "DELETE without Mcp-Session-Id", "Bad Request: Mcp-Session-Id header required")
		return
	}
	c := f.lookup(x.SessionID)
	if c == nil || c.gone() {
		status := http.StatusNotFound
		f.refuse(w, r, f.strays(), nil, status, spec.CodeInvalidRequest, "Not Found: no session "+x.SessionID)
		return
	}
	c.mu.Lock()
	c.deleted = true
	c.mu.Unlock()
	// The session's end may make its server Close (serve --http exits
	// after the DELETE) before this handler answers: its 200, a few bytes
	// that cannot block, is not cut by Close's past deadlines.
	f.settled(w)
	c.sess.close()
	w.WriteHeader(http.StatusOK)
}
