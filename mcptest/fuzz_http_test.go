package mcptest_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/mcpmock/mcpmock/internal/spec"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/internal/mcpclient"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/oauth"
	"go.uber.org/goleak"
)

// The mode bits of a FuzzHTTP input: what the server is, and what the
// client did before the fuzzed request.
const (
	fuzzHTTPSession = 1 << iota // a handshake-era session is opened first; "{sid}" in the target and headers is its id
	fuzzHTTPAuth                // the server is OAuth-protected (WithAuthorization)
	fuzzHTTPLegacy              // HTTPOptions.LegacySSEOnly
	fuzzHTTPNoGET               // HTTPOptions.NoStandaloneSSE
	fuzzHTTPSmall               // HTTPOptions.BodyLimit 512
	fuzzHTTPChunked             // the body comes without a Content-Length
	fuzzHTTPStream              // a standalone GET stream of the session is open (and read) during the request
	fuzzHTTPDelete              // a DELETE of the session races the request
)

// fuzzHTTPMaxBody caps a FuzzHTTP body: far past the small limit, well
// under the default one, and quick to journal.
const fuzzHTTPMaxBody = 64 << 10

// fuzzHTTPStatuses are the statuses docs/http.md and docs/authorization.md
// document for the MCP endpoint and its authorization server.
var fuzzHTTPStatuses = map[int]bool{
	200: true, 202: true, 400: true, 401: true, 403: true, 404: true, 405: true,
	406: true, 413: true, 415: true,
}

// fuzzHTTPAuthStatuses adds what the authorization server's endpoints
// answer: 201 (registration) and 302 (the authorization redirect).
var fuzzHTTPAuthStatuses = map[int]bool{201: true, 302: true}

// FuzzHTTP fuzzes the HTTP front (HTTPHandler) one request at a time:
// the method, the request target, the headers (one "Name: value" a line)
// and the body, after what the mode bits set up (fuzzHTTP…): a server
// variant, an open handshake-era session whose id replaces "{sid}", a
// standalone stream being read. What it holds the front to:
//   - no panic (a panic in a handler ends the fuzz process);
//   - the response is one valid HTTP response: one status, documented;
//     header values without CR or LF; a JSON body that is JSON; an SSE
//     body whose events carry JSON; nothing written after the handler
//     returned;
//   - the request is journaled: a POST as the client's message (with
//     its HTTP exchange), a refusal with its reply, a request to the
//     authorization server as an oauth.Exchange; a GET that opened a
//     stream answered text/event-stream; a DELETE that was answered 200
//     ended its session;
//   - a handler that streams returns when its client goes away;
//   - Close returns and leaves no goroutine behind.
//
// The seed corpus is every kind of request the test suite sends
// (fuzzHTTPSeeds) and the golden client's HTTP sessions
// (testdata/fuzz/FuzzHTTP/golden-*, TestHTTPFuzzSeeds).
func FuzzHTTP(f *testing.F) {
	for _, s := range fuzzHTTPSeeds {
		f.Add(s.mode, s.method, s.target, s.headers, []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, mode byte, method, target, headers string, body []byte) {
		if len(body) > fuzzHTTPMaxBody || len(headers) > 8<<10 || len(target) > 4<<10 {
			return
		}
		if fuzzHTTPRequest(mode, method, target, headers, body, "x") == nil {
			return // net/http would have answered 400 itself
		}
		ignore := goleak.IgnoreCurrent()
		srv := fuzzHTTPServer(t, mode)
		h := srv.HTTPHandler()
		sid := ""
		if mode&fuzzHTTPSession != 0 && mode&(fuzzHTTPAuth|fuzzHTTPLegacy) == 0 {
			sid = fuzzHTTPInitialize(t, h)
		}
		var stream *fuzzWriter
		var streamDone chan struct{}
		var cancelStream context.CancelFunc
		if sid != "" && mode&fuzzHTTPStream != 0 && mode&fuzzHTTPNoGET == 0 {
			req := fuzzHTTPPlain(http.MethodGet, "", "")
			req.Header.Set("Accept", "text/event-stream")
			req.Header.Set(spec.HeaderSessionID, sid)
			req.Header.Set(spec.HeaderProtocolVersion, "2025-11-25")
			stream, streamDone, cancelStream = fuzzServe(h, req)
			select {
			case <-stream.flushed:
			case <-streamDone:
				t.Fatalf("the standalone GET ended at once: %d %q", stream.status, stream.body.String())
			case <-time.After(fuzzSessionTimeout):
				t.Fatalf("the standalone GET sent nothing within %v", fuzzSessionTimeout)
			}
		}

		req := fuzzHTTPRequest(mode, method, target, headers, body, sid)
		if req == nil {
			srv.Close()
			return // net/http would have answered 400 itself
		}
		before := srv.Journal().Len()
		authBefore := len(oauth.Of(srv).Exchanges())
		w, done, cancel := fuzzServe(h, req)
		if sid != "" && mode&fuzzHTTPDelete != 0 {
			del := fuzzHTTPPlain(http.MethodDelete, "", "")
			del.Header.Set(spec.HeaderSessionID, sid)
			dw, ddone, dcancel := fuzzServe(h, del)
			<-ddone
			dcancel()
			if dw.status != http.StatusOK && dw.status != http.StatusNotFound {
				t.Fatalf("a DELETE racing %s: %d", fuzzHTTPDescribe(req, body), dw.status)
			}
		}
		select {
		case <-done:
		case <-w.flushed: // a stream: its client goes away
		case <-time.After(fuzzSessionTimeout):
			t.Fatalf("the handler neither answered nor started a stream within %v: %s", fuzzSessionTimeout, fuzzHTTPDescribe(req, body))
		}
		cancel()
		select {
		case <-done:
		case <-time.After(fuzzSessionTimeout):
			t.Fatalf("the handler did not return within %v of its client going away: %s", fuzzSessionTimeout, fuzzHTTPDescribe(req, body))
		}
		fuzzHTTPCheckResponse(t, w, mode, req, body)
		fuzzHTTPCheckJournaled(t, srv, w, mode, req, body, sid, before, authBefore)

		if stream != nil {
			cancelStream()
			<-streamDone
			fuzzHTTPCheckResponse(t, stream, mode, req, body)
		}
		closed := make(chan struct{})
		go func() { srv.Close(); close(closed) }()
		select {
		case <-closed:
		case <-time.After(fuzzSessionTimeout):
			t.Fatalf("Close did not return within %v after %s", fuzzSessionTimeout, fuzzHTTPDescribe(req, body))
		}
		if w.lateWrite || stream != nil && stream.lateWrite {
			t.Fatalf("the mock wrote to a response after its handler returned: %s", fuzzHTTPDescribe(req, body))
		}
		goleak.VerifyNone(t, ignore)
	})
}

// fuzzHTTPServer is fuzzServer (a tool, one that asks the client, a
// resource, a prompt, completions, logging) in the variant mode asks for.
func fuzzHTTPServer(t *testing.T, mode byte) *mcptest.Server {
	srv := fuzzServer(t)
	if mode&fuzzHTTPAuth != 0 {
		srv.WithAuthorization(oauth.New(oauth.Options{Clients: []oauth.Client{{ID: "app", RedirectURIs: []string{"http://127.0.0.1:1/callback"}}}}))
	}
	if mode&fuzzHTTPLegacy != 0 {
		srv.WithHTTP(mcptest.HTTPOptions{LegacySSEOnly: true})
	}
	if mode&fuzzHTTPNoGET != 0 {
		srv.WithHTTP(mcptest.HTTPOptions{NoStandaloneSSE: true})
	}
	if mode&fuzzHTTPSmall != 0 {
		srv.WithHTTP(mcptest.HTTPOptions{BodyLimit: 512})
	}
	return srv
}

// fuzzHTTPInitialize opens a handshake-era session as a correct client
// does (initialize, notifications/initialized) and returns its id.
func fuzzHTTPInitialize(t *testing.T, h http.Handler) string {
	t.Helper()
	post := func(body, sid string) *fuzzWriter {
		req := fuzzHTTPPlain(http.MethodPost, "", body)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set(spec.HeaderSessionID, sid)
			req.Header.Set(spec.HeaderProtocolVersion, "2025-11-25")
		}
		w, done, cancel := fuzzServe(h, req)
		<-done
		cancel()
		return w
	}
	w := post(fuzzInit, "")
	sid := w.header.Get(spec.HeaderSessionID)
	if w.status != http.StatusOK || sid == "" {
		t.Fatalf("initialize: %d, session %q: %s", w.status, sid, w.body.String())
	}
	if w := post(fuzzInited, sid); w.status != http.StatusAccepted {
		t.Fatalf("notifications/initialized: %d %s", w.status, w.body.String())
	}
	return sid
}

// fuzzHTTPPlain is a request to the MCP endpoint, as net/http's server
// hands it to a handler.
func fuzzHTTPPlain(method, target, body string) *http.Request {
	if target == "" {
		target = "/mcp"
	}
	u, _ := url.ParseRequestURI(target)
	return &http.Request{Method: method, URL: u, RequestURI: target, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{}, Host: "127.0.0.1:8080", RemoteAddr: "127.0.0.1:40000",
		Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body))}
}

// fuzzHTTPRequest builds the fuzzed request, or nil for one net/http's
// server would not hand to a handler (a method that is no token, a
// target that is no request URI, a header that is not a header).
func fuzzHTTPRequest(mode byte, method, target, headers string, body []byte, sid string) *http.Request {
	target = strings.ReplaceAll(target, "{sid}", sid)
	if !fuzzToken(method) || target == "" || strings.ContainsAny(target, " \r\n\x00") {
		return nil
	}
	u, err := url.ParseRequestURI(target)
	if err != nil {
		return nil
	}
	req := fuzzHTTPPlain(method, "/", "")
	req.URL, req.RequestURI = u, target
	if u.Host != "" {
		req.Host = u.Host
	}
	for line := range strings.SplitSeq(headers, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" {
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok || !fuzzToken(name) {
			return nil
		}
		value = strings.TrimSpace(strings.ReplaceAll(value, "{sid}", sid))
		if strings.ContainsAny(value, "\r\n\x00") {
			return nil
		}
		name = http.CanonicalHeaderKey(name)
		switch name {
		case "Host":
			req.Host = value
		case "Content-Length", "Transfer-Encoding":
			// net/http frames the body itself
		default:
			req.Header.Add(name, value)
		}
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.ContentLength = int64(len(body))
	if mode&fuzzHTTPChunked != 0 {
		req.ContentLength = -1
		req.TransferEncoding = []string{"chunked"}
	}
	if method == http.MethodGet || method == http.MethodHead || method == http.MethodDelete {
		if len(body) == 0 {
			req.Body = http.NoBody
		}
	}
	return req
}

// fuzzToken reports whether s is an HTTP token (RFC 9110), what a method
// or a header name must be.
func fuzzToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// fuzzServe runs h on req in a goroutine, as net/http's server does; the
// request's context ends with cancel (the client goes away).
func fuzzServe(h http.Handler, req *http.Request) (*fuzzWriter, chan struct{}, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	req = req.WithContext(ctx)
	w := &fuzzWriter{hdr: http.Header{}, flushed: make(chan struct{})}
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.ServeHTTP(w, req)
		w.mu.Lock()
		w.returned = true
		if w.status == 0 { // net/http answers 200 for a handler that wrote nothing
			w.status = http.StatusOK
			w.header = w.hdr.Clone()
		}
		w.mu.Unlock()
	}()
	return w, done, cancel
}

// fuzzWriter is the http.ResponseWriter (and Flusher) of a fuzzed
// request: it keeps the status, the headers as sent, the body, and
// notes what net/http would refuse or lose.
type fuzzWriter struct {
	hdr http.Header

	mu          sync.Mutex
	status      int
	header      http.Header // as WriteHeader sent it
	body        bytes.Buffer
	statuses    []int // every WriteHeader call
	returned    bool
	lateWrite   bool
	flushed     chan struct{}
	flushedOnce sync.Once
}

func (w *fuzzWriter) Header() http.Header { return w.hdr }

func (w *fuzzWriter) WriteHeader(code int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.returned {
		w.lateWrite = true
		return
	}
	w.statuses = append(w.statuses, code)
	if w.status == 0 {
		w.status = code
		w.header = w.hdr.Clone()
	}
}

func (w *fuzzWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	if w.returned {
		w.lateWrite = true
		w.mu.Unlock()
		return 0, http.ErrHandlerTimeout
	}
	w.mu.Unlock()
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.body.Write(p)
}

func (w *fuzzWriter) Flush() {
	w.mu.Lock()
	if w.returned {
		w.lateWrite = true
	}
	if w.status == 0 {
		w.statuses = append(w.statuses, http.StatusOK)
		w.status = http.StatusOK
		w.header = w.hdr.Clone()
	}
	w.mu.Unlock()
	w.flushedOnce.Do(func() { close(w.flushed) })
}

func fuzzHTTPDescribe(req *http.Request, body []byte) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", req.Method, req.RequestURI)
	for k, vs := range req.Header {
		for _, v := range vs {
			fmt.Fprintf(&b, "\n%s: %s", k, v)
		}
	}
	fmt.Fprintf(&b, "\nHost: %s\n\n%s", req.Host, fuzzClip(body))
	return b.String()
}

// fuzzHTTPIsAuth reports whether req went to the authorization front
// (metadata, authorize, token, register) rather than the MCP endpoint.
func fuzzHTTPIsAuth(mode byte, req *http.Request) bool {
	if mode&fuzzHTTPAuth == 0 {
		return false
	}
	p := req.URL.Path
	return strings.Contains(p, "/.well-known/") || strings.HasSuffix(p, "/authorize") || strings.HasSuffix(p, "/token") || strings.HasSuffix(p, "/register")
}

// fuzzHTTPCheckResponse checks that w holds one valid, documented HTTP response.
func fuzzHTTPCheckResponse(t *testing.T, w *fuzzWriter, mode byte, req *http.Request, body []byte) {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	what := func() string { return fuzzHTTPDescribe(req, body) }
	if len(w.statuses) > 1 {
		t.Fatalf("WriteHeader called %d times (%v): %s", len(w.statuses), w.statuses, what())
	}
	if !fuzzHTTPStatuses[w.status] && !(fuzzHTTPIsAuth(mode, req) && fuzzHTTPAuthStatuses[w.status]) {
		t.Fatalf("status %d is not one docs/http.md or docs/authorization.md documents: %s\n%s", w.status, what(), w.body.String())
	}
	for k, vs := range w.header {
		for _, v := range vs {
			if !fuzzToken(k) || strings.ContainsAny(v, "\r\n\x00") {
				t.Fatalf("response header %q: %q is not a valid header: %s", k, v, what())
			}
		}
	}
	ct := w.header.Get("Content-Type")
	if w.status == http.StatusOK && req.Method != http.MethodDelete && !fuzzHTTPIsAuth(mode, req) &&
		!strings.HasPrefix(ct, "application/json") && !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("200 with Content-Type %q and body %q: %s", ct, w.body.String(), what())
	}
	switch {
	case w.status == http.StatusAccepted:
		if w.body.Len() != 0 {
			t.Fatalf("202 with a body %q: %s", w.body.String(), what())
		}
	case strings.HasPrefix(ct, "application/json"):
		if !json.Valid(w.body.Bytes()) {
			t.Fatalf("an application/json body that is not JSON: %q: %s", w.body.String(), what())
		}
	case strings.HasPrefix(ct, "text/event-stream"):
		sc := bufio.NewScanner(bytes.NewReader(w.body.Bytes()))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok && data != "" && !json.Valid([]byte(data)) && !strings.HasPrefix(data, "/") {
				t.Fatalf("an SSE event whose data is not JSON: %q: %s", data, what())
			}
		}
	}
}

// fuzzHTTPCheckJournaled checks that the request left its trace: in the
// journal (a POST's body; a refusal's reply), in the authorization's Exchanges, or as the
// stream or the end of session it asked for.
func fuzzHTTPCheckJournaled(t *testing.T, srv *mcptest.Server, w *fuzzWriter, mode byte, req *http.Request, body []byte, sid string, before, authBefore int) {
	t.Helper()
	w.mu.Lock()
	status, ct := w.status, w.header.Get("Content-Type")
	w.mu.Unlock()
	what := func() string { return fuzzHTTPDescribe(req, body) + "\n" + srv.Transcript() }
	if fuzzHTTPIsAuth(mode, req) {
		if len(oauth.Of(srv).Exchanges()) == authBefore {
			t.Fatalf("a request to the authorization front (%d) is not among the authorization's Exchanges: %s", status, what())
		}
		return
	}
	after := srv.Journal().All().After(before)
	var fromClient, fromServer int
	for _, m := range after {
		if m.HTTP == nil {
			continue
		}
		if m.Direction == mcptest.FromClient {
			fromClient++
		} else {
			fromServer++
		}
	}
	authRefused := mode&fuzzHTTPAuth != 0 && (status == http.StatusUnauthorized || status == http.StatusForbidden) && len(oauth.Of(srv).Exchanges()) > authBefore
	switch {
	case authRefused:
		// the token check refused it: an oauth.Exchange says so
	case req.Method == http.MethodPost:
		if fromClient == 0 {
			t.Fatalf("a POST answered %d left no client message in the journal: %s", status, what())
		}
	case status >= 400:
		if fromClient+fromServer == 0 {
			t.Fatalf("a %s refused with %d left nothing in the journal: %s", req.Method, status, what())
		}
	case req.Method == http.MethodGet:
		if status != http.StatusOK || !strings.HasPrefix(ct, "text/event-stream") {
			t.Fatalf("a GET answered %d %q, want a refusal or an SSE stream: %s", status, ct, what())
		}
	case req.Method == http.MethodDelete:
		ended := false
		for _, s := range srv.Sessions() {
			if sessionEnded(s) {
				ended = true
			}
		}
		if status != http.StatusOK || !ended {
			t.Fatalf("a DELETE answered %d, and no session ended: %s", status, what())
		}
	default:
		t.Fatalf("a %s answered %d: %s", req.Method, status, what())
	}
}

// fuzzHTTPSeed is one FuzzHTTP input.
type fuzzHTTPSeed struct {
	mode                    byte
	method, target, headers string
	body                    string
}

const (
	fuzzHdrPost    = "Content-Type: application/json\nAccept: application/json, text/event-stream\n"
	fuzzHdrSession = fuzzHdrPost + "Mcp-Session-Id: {sid}\nMcp-Protocol-Version: 2025-11-25\n"
	fuzzHdrGet     = "Accept: text/event-stream\nMcp-Session-Id: {sid}\nMcp-Protocol-Version: 2025-11-25\n"
	fuzzHdrModern  = fuzzHdrPost + "Mcp-Protocol-Version: 2026-07-28\n"
)

// fuzzHTTPSeeds are the kinds of HTTP request the test suite sends
// (http_*_test.go, auth_*_test.go, the golden client, the SDK suites),
// written out: right ones of every era, and each way a header, a body or
// a session can be wrong.
var fuzzHTTPSeeds = []fuzzHTTPSeed{
	// a new session, and what a correct client sends in it
	{0, "POST", "/mcp", fuzzHdrPost, fuzzInit},
	{fuzzHTTPSession, "POST", "/mcp", fuzzHdrSession, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`},
	{fuzzHTTPSession, "POST", "/mcp", fuzzHdrSession, fuzzCallEcho},
	{fuzzHTTPSession | fuzzHTTPStream, "POST", "/mcp", fuzzHdrSession, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"confirm","arguments":{}}}`},
	{fuzzHTTPSession | fuzzHTTPStream, "POST", "/mcp", fuzzHdrSession + "Mcp-Method: tools/call\nMcp-Name: echo\n", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{},"_meta":{"progressToken":7}}}`},
	{fuzzHTTPSession, "POST", "/mcp", fuzzHdrSession, `{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"fuzz://doc"}}`},
	{fuzzHTTPSession, "POST", "/mcp", fuzzHdrSession, `{"jsonrpc":"2.0","id":6,"method":"prompts/get","params":{"name":"greet","arguments":{"who":"x"}}}`},
	{fuzzHTTPSession, "POST", "/mcp", fuzzHdrSession, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`},
	{fuzzHTTPSession, "POST", "/mcp", fuzzHdrSession, `{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"ok":true}}}`},
	{fuzzHTTPSession, "POST", "/mcp", fuzzHdrSession, `[{"jsonrpc":"2.0","id":7,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}]`},
	{fuzzHTTPSession, "POST", "/mcp", fuzzHdrSession, `[{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}]`},
	{fuzzHTTPSession, "GET", "/mcp", fuzzHdrGet, ""},
	{fuzzHTTPSession, "GET", "/mcp", fuzzHdrGet + "Last-Event-ID: 1-0\n", ""},
	{fuzzHTTPSession | fuzzHTTPStream, "GET", "/mcp", fuzzHdrGet + "Last-Event-ID: 3-1\n", ""},
	{fuzzHTTPSession, "GET", "/mcp", fuzzHdrGet + "Last-Event-ID: x-99999999999999999999\n", ""},
	{fuzzHTTPSession, "DELETE", "/mcp", "Mcp-Session-Id: {sid}\n", ""},
	{fuzzHTTPSession | fuzzHTTPStream, "DELETE", "/mcp", "Mcp-Session-Id: {sid}\n", ""},
	{fuzzHTTPSession | fuzzHTTPNoGET, "GET", "/mcp", fuzzHdrGet, ""},
	{fuzzHTTPSession | fuzzHTTPDelete, "POST", "/mcp", fuzzHdrSession, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"confirm","arguments":{}}}`},
	{fuzzHTTPSession | fuzzHTTPDelete, "POST", "/mcp", fuzzHdrSession, fuzzCallEcho},
	{fuzzHTTPSession | fuzzHTTPDelete | fuzzHTTPStream, "GET", "/mcp", fuzzHdrGet, ""},
	// headers gone wrong
	{fuzzHTTPSession, "POST", "/mcp", "Content-Type: text/plain\nAccept: application/json, text/event-stream\nMcp-Session-Id: {sid}\n", `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
	{fuzzHTTPSession, "POST", "/mcp", "Content-Type: application/json; charset=utf-8\nAccept: application/json\nMcp-Session-Id: {sid}\n", `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
	{fuzzHTTPSession, "POST", "/mcp", "Content-Type: application/json\nAccept: */*\nMcp-Session-Id: {sid}\n", `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
	{fuzzHTTPSession, "POST", "/mcp", fuzzHdrPost + "Mcp-Session-Id: {sid}\nMcp-Protocol-Version: 1999-01-01\n", `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
	{fuzzHTTPSession, "POST", "/mcp", fuzzHdrPost + "Mcp-Session-Id: {sid}\nMcp-Protocol-Version: 2025-03-26\n", `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
	{fuzzHTTPSession, "POST", "/mcp", fuzzHdrPost + "Mcp-Session-Id: {sid}\n", `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
	{fuzzHTTPSession, "POST", "/mcp", fuzzHdrPost + "Mcp-Session-Id: not-a-session\n", `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
	{fuzzHTTPSession, "POST", "/mcp", fuzzHdrPost, `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
	{fuzzHTTPSession, "GET", "/mcp", "Accept: application/json\nMcp-Session-Id: {sid}\n", ""},
	{fuzzHTTPSession, "GET", "/mcp", "Accept: text/event-stream\nMcp-Session-Id: nope\n", ""},
	{0, "GET", "/mcp", "Accept: text/event-stream\n", ""},
	{0, "GET", "/mcp", "Accept: text/event-stream\nMcp-Protocol-Version: 2026-07-28\n", ""},
	{0, "DELETE", "/mcp", "", ""},
	{0, "PUT", "/mcp", fuzzHdrPost, fuzzInit},
	{0, "OPTIONS", "/mcp", "Origin: http://127.0.0.1:3000\n", ""},
	{0, "POST", "/mcp", fuzzHdrPost + "Origin: https://evil.example\n", fuzzInit},
	{0, "POST", "/mcp", fuzzHdrPost + "Origin: http://localhost:5173\n", fuzzInit},
	{0, "POST", "/mcp", fuzzHdrPost + "Host: evil.example:8080\n", fuzzInit},
	{0, "POST", "/mcp", fuzzHdrPost + "Host: [::1]:8080\n", fuzzInit},
	{0, "POST", "http://localhost:8080/mcp?x=1", fuzzHdrPost, fuzzInit},
	// bodies gone wrong
	{0, "POST", "/mcp", fuzzHdrPost, ""},
	{0, "POST", "/mcp", fuzzHdrPost, "not json"},
	{0, "POST", "/mcp", fuzzHdrPost, "[]"},
	{0, "POST", "/mcp", fuzzHdrPost, `{"jsonrpc":"2.0"}`},
	{0, "POST", "/mcp", fuzzHdrPost, `{"jsonrpc":"2.0","id":{"a":1},"method":"initialize"}`},
	{0, "POST", "/mcp", fuzzHdrPost, `[` + fuzzInit + `]`},
	{fuzzHTTPSmall, "POST", "/mcp", fuzzHdrPost, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"pad":"` + strings.Repeat("x", 600) + `"}}`},
	{fuzzHTTPSmall | fuzzHTTPChunked, "POST", "/mcp", fuzzHdrPost, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"pad":"` + strings.Repeat("x", 600) + `"}}`},
	{fuzzHTTPChunked, "POST", "/mcp", fuzzHdrPost, fuzzInit},
	{fuzzHTTPSession, "POST", "/mcp", fuzzHdrSession, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"deep":` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `}}}`},
	// the stateless era
	{0, "POST", "/mcp", fuzzHdrModern + "Mcp-Method: server/discover\n", `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + fuzzMeta + `}}`},
	{0, "POST", "/mcp", fuzzHdrModern + "Mcp-Method: tools/call\nMcp-Name: echo\n", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{},` + fuzzMeta + `}}`},
	{0, "POST", "/mcp", fuzzHdrModern + "Mcp-Method: tools/call\nMcp-Name: other\n", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{},` + fuzzMeta + `}}`},
	{0, "POST", "/mcp", fuzzHdrModern, `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{` + fuzzMeta + `}}`},
	{0, "POST", "/mcp", fuzzHdrModern + "Mcp-Method: resources/read\nMcp-Name: fuzz://doc\n", `{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"fuzz://doc",` + fuzzMeta + `}}`},
	{0, "POST", "/mcp", fuzzHdrModern + "Mcp-Method: subscriptions/listen\n", `{"jsonrpc":"2.0","id":5,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` + fuzzMeta + `}}`},
	{0, "POST", "/mcp", fuzzHdrModern + "Mcp-Method: tools/call\nMcp-Name: confirm\n", `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"confirm","arguments":{},` + fuzzMeta + `}}`},
	{0, "POST", "/mcp", fuzzHdrPost + "Mcp-Protocol-Version: 2099-01-01\nMcp-Method: tools/list\n", `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01"}}}`},
	// the HTTP+SSE transport of 2024-11-05
	{fuzzHTTPLegacy, "GET", "/mcp", "Accept: text/event-stream\n", ""},
	{fuzzHTTPLegacy, "POST", "/mcp", fuzzHdrPost, fuzzInit},
	{0, "POST", "/mcp?sessionId=nope", "Content-Type: application/json\n", fuzzInit},
	// the authorization front
	{fuzzHTTPAuth, "POST", "/mcp", fuzzHdrPost, fuzzInit},
	{fuzzHTTPAuth, "POST", "/mcp", fuzzHdrPost + "Authorization: Bearer made-up\n", fuzzInit},
	{fuzzHTTPAuth, "POST", "/mcp", fuzzHdrPost + "Authorization: Basic dTpw\n", fuzzInit},
	{fuzzHTTPAuth, "POST", "/mcp?access_token=made-up", fuzzHdrPost, fuzzInit},
	{fuzzHTTPAuth, "GET", "/.well-known/oauth-protected-resource/mcp", "", ""},
	{fuzzHTTPAuth, "GET", "/.well-known/oauth-protected-resource", "", ""},
	{fuzzHTTPAuth, "GET", "/.well-known/oauth-authorization-server/as", "", ""},
	{fuzzHTTPAuth, "GET", "/.well-known/openid-configuration/as", "", ""},
	{fuzzHTTPAuth, "GET", "/.well-known/oauth-authorization-server", "", ""},
	{fuzzHTTPAuth, "GET", "/as/authorize?response_type=code&client_id=app&redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2Fcallback&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&resource=http%3A%2F%2F127.0.0.1%3A8080%2Fmcp&state=s&scope=mcp", "", ""},
	{fuzzHTTPAuth, "GET", "/as/authorize?response_type=code&client_id=nobody&redirect_uri=http://127.0.0.1:1/cb", "", ""},
	{fuzzHTTPAuth, "POST", "/as/token", "Content-Type: application/x-www-form-urlencoded\n", "grant_type=authorization_code&code=x&client_id=app&code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk&resource=http%3A%2F%2F127.0.0.1%3A8080%2Fmcp"},
	{fuzzHTTPAuth, "POST", "/as/token", "Content-Type: application/x-www-form-urlencoded\n", "grant_type=refresh_token&refresh_token=x&client_id=app"},
	{fuzzHTTPAuth, "POST", "/as/token", "Content-Type: application/x-www-form-urlencoded\nAuthorization: Basic YXBwOg==\n", "grant_type=password"},
	{fuzzHTTPAuth, "POST", "/as/token", "Content-Type: application/json\n", `{"grant_type":"authorization_code"}`},
	{fuzzHTTPAuth, "GET", "/as/token", "", ""},
	{fuzzHTTPAuth, "POST", "/as/register", "Content-Type: application/json\n", `{"client_name":"x","redirect_uris":["http://127.0.0.1:1/callback"],"grant_types":["authorization_code","refresh_token"],"token_endpoint_auth_method":"none"}`},
	{fuzzHTTPAuth, "POST", "/as/register", "Content-Type: application/json\n", `{`},
	{fuzzHTTPAuth, "POST", "/register", "Content-Type: application/json\n", `{"client_name":"x"}`},
	{fuzzHTTPAuth, "GET", "/authorize", "", ""},
}

// httpSeedsEnv, set to 1, makes TestHTTPFuzzSeeds write FuzzHTTP's seeds
// from the golden client's HTTP sessions.
const httpSeedsEnv = goldenSeedsEnv

// TestHTTPFuzzSeeds keeps the golden client's HTTP requests (every
// version of both eras, and the HTTP+SSE transport) in FuzzHTTP's seed
// corpus (testdata/fuzz/FuzzHTTP/golden-*): each file must be a corpus
// entry of FuzzHTTP's five values. With MCPMOCK_UPDATE_GOLDEN_SEEDS=1 it
// runs the sessions through a recording handler and writes them, one
// seed per distinct (HTTP method, MCP method) request:
//
//	MCPMOCK_UPDATE_GOLDEN_SEEDS=1 go test -run TestHTTPFuzzSeeds ./mcptest
func TestHTTPFuzzSeeds(t *testing.T) {
	if testing.Short() {
		t.Skip("reads seed files")
	}
	if os.Getenv(httpSeedsEnv) == "1" {
		writeHTTPSeeds(t)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzHTTP", "golden-*"))
	if len(files) == 0 {
		t.Fatalf("no golden seeds for FuzzHTTP: run %s=1 go test -run TestHTTPFuzzSeeds ./mcptest", httpSeedsEnv)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(lines) != 6 || lines[0] != "go test fuzz v1" || !strings.HasPrefix(lines[1], "byte(") || !strings.HasPrefix(lines[5], "[]byte(") {
			t.Errorf("%s: want a FuzzHTTP corpus entry (byte, string, string, string, []byte), got %.120q", name, b)
		}
	}
}

// httpRecorder records the requests a client sends through it.
type httpRecorder struct {
	h    http.Handler
	mu   sync.Mutex
	seen map[string]bool
	sid  string
	out  []fuzzHTTPSeed
}

func (rec *httpRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	var hdr strings.Builder
	mode := byte(0)
	rec.mu.Lock()
	for _, k := range []string{"Content-Type", "Accept", spec.HeaderSessionID, spec.HeaderProtocolVersion, spec.HeaderMethod, spec.HeaderName, spec.HeaderLastEventID, "Origin", "Authorization"} {
		for _, v := range r.Header.Values(k) {
			if k == spec.HeaderSessionID && v == rec.sid && v != "" {
				v, mode = "{sid}", fuzzHTTPSession
			}
			hdr.WriteString(k + ": " + v + "\n")
		}
	}
	method := ""
	if m := struct {
		Method string `json:"method"`
	}{}; json.Unmarshal(body, &m) == nil {
		method = m.Method
	}
	key := r.Method + " " + method + " " + strconv.FormatBool(mode != 0) + " " + r.Header.Get(spec.HeaderProtocolVersion)
	if !rec.seen[key] && !strings.Contains(r.URL.RawQuery, "sessionId=") {
		rec.seen[key] = true
		rec.out = append(rec.out, fuzzHTTPSeed{mode, r.Method, r.URL.RequestURI(), hdr.String(), string(body)})
	}
	rec.mu.Unlock()
	rec.h.ServeHTTP(&sidWriter{ResponseWriter: w, rec: rec}, r)
}

// sidWriter notes the session id the mock assigns.
type sidWriter struct {
	http.ResponseWriter
	rec *httpRecorder
}

func (w *sidWriter) WriteHeader(code int) {
	if sid := w.Header().Get(spec.HeaderSessionID); sid != "" {
		w.rec.mu.Lock()
		w.rec.sid = sid
		w.rec.mu.Unlock()
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *sidWriter) Flush() {
	if fl, ok := w.ResponseWriter.(http.Flusher); ok {
		fl.Flush()
	}
}

// writeHTTPSeeds runs the golden client's HTTP sessions through an
// httpRecorder and writes each distinct request as a FuzzHTTP seed.
func writeHTTPSeeds(t *testing.T) {
	seen := map[string]bool{}
	var seeds []fuzzHTTPSeed
	for _, tr := range goldenTransports {
		if tr.name == "pipe" {
			continue
		}
		for _, v := range tr.versions {
			srv := goldenServer(t)
			rec := &httpRecorder{h: srv.HTTPHandler(), seen: seen}
			ts := httptest.NewServer(rec)
			dial := func(_ *mcptest.Server, opt mcpclient.Options) *mcpclient.Client {
				if tr.name == "legacy-sse" {
					return mcpclient.LegacySSE(ts.URL+"/mcp", opt)
				}
				return mcpclient.HTTP(ts.URL+"/mcp", opt)
			}
			goldenSession(t, srv, goldenTransport{name: tr.name, dial: dial, versions: tr.versions}, v, true)
			srv.Close()
			ts.Close()
			seeds = append(seeds, rec.out...)
		}
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzHTTP")
	old, _ := filepath.Glob(filepath.Join(dir, "golden-*"))
	for _, f := range old {
		_ = os.Remove(f)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	slices.SortStableFunc(seeds, func(a, b fuzzHTTPSeed) int { return strings.Compare(a.method, b.method) })
	for i, s := range seeds {
		body := fmt.Sprintf("go test fuzz v1\nbyte(%q)\nstring(%q)\nstring(%q)\nstring(%q)\n[]byte(%q)\n", s.mode, s.method, s.target, s.headers, s.body)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("golden-%02d", i+1)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("wrote %d FuzzHTTP seeds", len(seeds))
}
