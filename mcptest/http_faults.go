package mcptest

import (
	"fmt"
	"github.com/mcpmock/mcpmock/internal/spec"
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

func httpRequestFault(name, method string, act func(h *FaultHandle, c *httpConn, w http.ResponseWriter, r *http.Request, m Message, body []byte) bool) built {
	return built{&fault{name: name, method: method, http: &httpFault{request: act}}}
}

func httpReplyFault(name, method string, act func(h *FaultHandle, c *httpConn, st *sseStream) bool) built {
	return built{&fault{name: name, method: method, http: &httpFault{reply: act}}}
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

// ExpireSession: see fault.ExpireSession.
func (faultCatalog) ExpireSession() built {
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
		c.front.refuse(w, r, c.sess, &in, http.StatusNotFound, spec.CodeInvalidRequest, "Not Found: session "+c.sess.id+" has expired; initialize a new one")
		return true
	})
}

// HTTPStatus: see fault.HTTPStatus.
func (faultCatalog) HTTPStatus(method string, code int, body string) built {
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
			raw: out, Problem: fmt.Sprintf("HTTP %d instead of a JSON-RPC reply (fault %s)", code, h.Fault()),
			HTTP: &HTTPExchange{Method: r.Method, Status: code, ContentType: strings.Split(ct, ";")[0]}})
		w.Header().Set("Content-Type", ct)
		w.WriteHeader(code)
		_, _ = w.Write([]byte(out))
		return true
	})
}

// SlowHeaders: see fault.SlowHeaders.
func (faultCatalog) SlowHeaders(method string, d time.Duration) built {
	return httpRequestFault(fmt.Sprintf("SlowHeaders(%q, %v)", method, d), method, func(h *FaultHandle, c *httpConn, w http.ResponseWriter, r *http.Request, m Message, body []byte) bool {
		h.hit()
		sleep(r.Context(), d)
		return false
	})
}

// DropStream: see fault.DropStream.
func (faultCatalog) DropStream(method string, n int, resumable bool) built {
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

// ReplyAsJSON: see fault.ReplyAsJSON.
func (faultCatalog) ReplyAsJSON(method string) built {
	return httpReplyFault(fmt.Sprintf("ReplyAsJSON(%q)", method), method, func(h *FaultHandle, c *httpConn, st *sseStream) bool {
		st.forceJSON, st.forceSSE = true, false
		return true
	})
}

// ReplyAsSSE: see fault.ReplyAsSSE.
func (faultCatalog) ReplyAsSSE(method string) built {
	return httpReplyFault(fmt.Sprintf("ReplyAsSSE(%q)", method), method, func(h *FaultHandle, c *httpConn, st *sseStream) bool {
		st.forceSSE, st.forceJSON = true, false
		return true
	})
}

// OmitSessionID: see fault.OmitSessionID.
func (faultCatalog) OmitSessionID() built {
	return httpReplyFault("OmitSessionID()", "initialize", func(h *FaultHandle, c *httpConn, st *sseStream) bool {
		if c.stateless {
			return false
		}
		c.noSID = true
		c.omitted.Store(true)
		return true
	})
}

// WrongContentType: see fault.WrongContentType.
func (faultCatalog) WrongContentType(method, contentType string) built {
	return httpReplyFault(fmt.Sprintf("WrongContentType(%q, %q)", method, contentType), method, func(h *FaultHandle, c *httpConn, st *sseStream) bool {
		st.contentType = contentType
		return true
	})
}

// SSEComment: see fault.SSEComment.
func (faultCatalog) SSEComment(method, text string) built {
	return httpReplyFault(fmt.Sprintf("SSEComment(%q, %q)", method, text), method, func(h *FaultHandle, c *httpConn, st *sseStream) bool {
		st.forceSSE, st.forceJSON = true, false
		st.comment = text
		return true
	})
}
