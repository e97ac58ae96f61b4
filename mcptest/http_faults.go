package mcptest

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// This file is the catalog of HTTP faults: ways a Streamable HTTP server
// breaks clients that no stdio server can. They act only on sessions
// served over URL or HTTPHandler, and are installed like every Fault
// (WithFaults, AddFault), refined with Nth, InSession and Optional.

// httpFault is what an HTTP fault does at the HTTP transport.
type httpFault struct {
	// request acts on an HTTP request carrying a client request m before
	// the session sees it; it reports whether it answered the request
	// itself (the session then never sees m).
	request func(h *FaultHandle, c *httpConn, w http.ResponseWriter, r *http.Request, m Message, body []byte) bool
	// reply shapes the stream that answers the request m; it reports
	// whether it acted.
	reply func(h *FaultHandle, c *httpConn, st *sseStream) bool
}

func httpRequestFault(name, method string, act func(h *FaultHandle, c *httpConn, w http.ResponseWriter, r *http.Request, m Message, body []byte) bool) Fault {
	return Fault{&fault{name: name, method: method, http: &httpFault{request: act}}}
}

func httpReplyFault(name, method string, act func(h *FaultHandle, c *httpConn, st *sseStream) bool) Fault {
	return Fault{&fault{name: name, method: method, http: &httpFault{reply: act}}}
}

// httpFaults returns the HTTP faults that are on.
func (fs *faultSet) httpFaults() []*FaultHandle {
	snap := fs.on.Load()
	if snap == nil {
		return nil
	}
	return snap.http
}

// faultRequest applies the request faults to a POSTed request; it
// reports whether one answered it.
func (c *httpConn) faultRequest(w http.ResponseWriter, r *http.Request, p *peeked, body []byte) bool {
	faults := c.front.srv.faults.httpFaults()
	if len(faults) == 0 || !p.isRequest() {
		return false
	}
	m := Message{Direction: FromClient, Kind: KindRequest, Method: p.method.String(), ID: p.id.Raw}
	for _, h := range faults {
		if h.f.http.request != nil && h.matches(c.sess, m) && h.f.http.request(h, c, w, r, m, body) {
			return true
		}
	}
	return false
}

// faultReply applies the reply faults to the stream that answers the
// request st waits for; c.mu is held.
func (c *httpConn) faultReply(st *sseStream) {
	faults := c.front.srv.faults.httpFaults()
	if len(faults) == 0 {
		return
	}
	m := Message{Direction: FromClient, Kind: KindRequest, Method: st.method, ID: st.reqID}
	for _, h := range faults {
		if h.f.http.reply != nil && h.matches(c.sess, m) && h.f.http.reply(h, c, st) {
			h.hit()
		}
	}
}

// ExpireSession ends the session when the client sends the request the
// fault matches (any request; choose which with Nth or InSession): that
// request and every later one with the session's id get 404 Not Found, as
// from a server that restarted or timed the session out. Reproduces: a
// client that does not start a new session (initialize without the old
// Mcp-Session-Id) after 404, as the spec says it MUST.
func ExpireSession() Fault {
	return httpRequestFault("ExpireSession()", "", func(h *FaultHandle, c *httpConn, w http.ResponseWriter, r *http.Request, m Message, body []byte) bool {
		if c.stateless {
			return false
		}
		h.hit()
		x := exchangeOf(r)
		in := journalHTTP(c.sess, body, x)
		c.sess.close()
		c.mu.Lock()
		c.told404 = true
		c.mu.Unlock()
		c.front.refuse(w, r, c.sess, &in, http.StatusNotFound, CodeInvalidRequest, "Not Found: session "+c.sess.id+" has expired; initialize a new one")
		return true
	})
}

// HTTPStatus answers requests of method with an HTTP error instead of a
// JSON-RPC reply: code with body, which, when empty, is an HTML error
// page as proxies and frameworks write (500, 502, 503), or for 401 a
// WWW-Authenticate challenge, for 429 a Retry-After. The session goes on.
// Reproduces: a gateway error or rate limit in front of the server — the
// client must surface the error to the app and keep the session.
func HTTPStatus(method string, code int, body string) Fault {
	name := fmt.Sprintf("HTTPStatus(%q, %d, %q)", method, code, body)
	if code < 400 || code > 599 {
		return brokenArg(name, "code", fmt.Errorf("status %d is not an HTTP error (400-599)", code))
	}
	return httpRequestFault(name, method, func(h *FaultHandle, c *httpConn, w http.ResponseWriter, r *http.Request, m Message, reqBody []byte) bool {
		h.hit()
		x := exchangeOf(r)
		journalHTTP(c.sess, reqBody, x)
		out, ct := body, "text/plain; charset=utf-8"
		if out == "" {
			text := http.StatusText(code)
			out, ct = "<html><head><title>"+strconv.Itoa(code)+" "+text+"</title></head><body><h1>"+text+"</h1></body></html>", "text/html; charset=utf-8"
		} else if strings.HasPrefix(strings.TrimSpace(out), "<") {
			ct = "text/html; charset=utf-8"
		}
		switch code {
		case http.StatusUnauthorized:
			w.Header().Set("WWW-Authenticate", `Bearer realm="mcptest", error="invalid_token"`)
		case http.StatusTooManyRequests, http.StatusServiceUnavailable:
			w.Header().Set("Retry-After", "1")
		}
		c.front.srv.journal.record(Message{SessionNumber: c.sess.n, Direction: FromServer, Time: time.Now(), Kind: KindInvalid, Method: m.Method,
			raw: out, Problem: fmt.Sprintf("HTTP %d instead of a JSON-RPC reply (fault %s)", code, h),
			HTTP: &HTTPExchange{Method: r.Method, Status: code, ContentType: strings.Split(ct, ";")[0]}})
		w.Header().Set("Content-Type", ct)
		w.WriteHeader(code)
		_, _ = w.Write([]byte(out))
		return true
	})
}

// SlowHeaders waits d before the mock starts answering a request of
// method over HTTP: the client sees no status line for that long.
// Reproduces: a slow backend behind the endpoint — a client with a short
// response-header timeout fails the call.
func SlowHeaders(method string, d time.Duration) Fault {
	return httpRequestFault(fmt.Sprintf("SlowHeaders(%q, %v)", method, d), method, func(h *FaultHandle, c *httpConn, w http.ResponseWriter, r *http.Request, m Message, body []byte) bool {
		h.hit()
		sleep(r.Context(), d)
		return false
	})
}

// DropStream answers a request of method with an SSE stream and cuts it
// after the first n events (n = 0: right after the stream opens), before
// the reply. With resumable, the events carry ids (and a priming event
// opens the stream), so the client can reconnect with GET and
// Last-Event-ID, and the mock replays what it missed, the reply included;
// without, they carry none and the reply is lost. Reproduces: a proxy
// that cuts long responses — a client that does not resume loses the call.
func DropStream(method string, n int, resumable bool) Fault {
	name := fmt.Sprintf("DropStream(%q, %d, %v)", method, n, resumable)
	if n < 0 {
		return brokenArg(name, "n", fmt.Errorf("n = %d events: want 0 or more", n))
	}
	return httpReplyFault(name, method, func(h *FaultHandle, c *httpConn, st *sseStream) bool {
		if c.stateless && resumable {
			return false // the stateless era has no GET to resume with
		}
		st.forceSSE, st.forceJSON = true, false
		st.dropAfter, st.noIDs = n, !resumable
		if resumable && c.front.srv.httpCfg.retry == 0 {
			st.retry = 10 * time.Millisecond // reconnect at once, not after the client's default backoff
		}
		return true
	})
}

// ReplyAsJSON answers requests of method with a JSON body even when the
// mock sends notifications or requests before the result: those go on the
// standalone GET stream instead (or wait for one). Reproduces: a server
// that never streams — progress arrives late, or never.
func ReplyAsJSON(method string) Fault {
	return httpReplyFault(fmt.Sprintf("ReplyAsJSON(%q)", method), method, func(h *FaultHandle, c *httpConn, st *sseStream) bool {
		st.forceJSON, st.forceSSE = true, false
		return true
	})
}

// ReplyAsSSE answers requests of method (every request when method is "")
// with an SSE stream even when only the result goes on it. By default a
// request is answered with a JSON body, and with SSE when the mock sends a
// notification or a request before the result. Reproduces: a server that always streams — a
// client that handles only JSON bodies fails.
func ReplyAsSSE(method string) Fault {
	return httpReplyFault(fmt.Sprintf("ReplyAsSSE(%q)", method), method, func(h *FaultHandle, c *httpConn, st *sseStream) bool {
		st.forceSSE, st.forceJSON = true, false
		return true
	})
}

// OmitSessionID answers initialize without an Mcp-Session-Id header, as a
// server that keeps no sessions does (the spec makes the header a MAY):
// the mock then takes the session's later requests without one. Reproduces:
// a client that insists on a session id, or sends an empty one.
func OmitSessionID() Fault {
	return httpReplyFault("OmitSessionID()", "initialize", func(h *FaultHandle, c *httpConn, st *sseStream) bool {
		if c.stateless {
			return false
		}
		c.noSID = true
		c.omitted.Store(true)
		return true
	})
}

// WrongContentType labels the reply to method with contentType (e.g.
// "text/plain" or "text/html") instead of application/json or
// text/event-stream; the body is unchanged. Reproduces: a framework that
// sets its default content type — a strict client rejects the reply.
func WrongContentType(method, contentType string) Fault {
	return httpReplyFault(fmt.Sprintf("WrongContentType(%q, %q)", method, contentType), method, func(h *FaultHandle, c *httpConn, st *sseStream) bool {
		st.contentType = contentType
		return true
	})
}

// SSEComment answers requests of method with an SSE stream and writes the
// comment line ": text" before each of its events, as servers and proxies
// send keep-alives. Reproduces: a client whose SSE parser chokes on
// comments, which the SSE format says to ignore.
func SSEComment(method, text string) Fault {
	return httpReplyFault(fmt.Sprintf("SSEComment(%q, %q)", method, text), method, func(h *FaultHandle, c *httpConn, st *sseStream) bool {
		st.forceSSE, st.forceJSON = true, false
		st.comment = text
		return true
	})
}
