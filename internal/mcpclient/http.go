package mcpclient

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/tidwall/gjson"
)

// The headers of the Streamable HTTP transport.
const (
	headerSessionID       = spec.HeaderSessionID
	headerProtocolVersion = spec.HeaderProtocolVersion
	headerMethod          = spec.HeaderMethod
	headerName            = spec.HeaderName
	headerLastEventID     = "Last-Event-ID"
)

// ErrSessionExpired is the error of a call the server answered 404 for
// the session: it ended, and the client must initialize a new one.
var ErrSessionExpired = errors.New("mcpclient: session expired (404 Not Found): the server ended the session; initialize a new one")

// HTTP returns a client of the Streamable HTTP transport at url (such as
// mcptest's Server.URL). Call Connect, then use it; Close ends the
// session with DELETE.
func HTTP(url string, opt Options) *Client {
	return newHTTP(url, opt, false)
}

// LegacySSE returns a client of the HTTP+SSE transport of 2024-11-05: it
// GETs the SSE stream, POSTs to the endpoint the stream's first event
// names, and reads every reply on the stream. Options.Version must be
// "2024-11-05" (or "", which then initializes with it).
func LegacySSE(url string, opt Options) *Client {
	if opt.Version == "" {
		opt.Version = "2024-11-05"
	}
	return newHTTP(url, opt, true)
}

func newHTTP(u string, opt Options, legacy bool) *Client {
	ctx, cancel := context.WithCancel(context.Background())
	tr := &http.Transport{}
	var rt http.RoundTripper = tr
	if opt.Auth != nil {
		if opt.Auth.HTTP == nil {
			opt.Auth.HTTP = &http.Client{Transport: tr, CheckRedirect: noRedirect}
		}
		rt = opt.Auth.Transport(tr)
	}
	h := &httpTransport{url: u, legacy: legacy, bugs: opt.Bugs, hc: &http.Client{Transport: rt}, tr: tr, in: make(chan []byte), done: make(chan struct{}), ctx: ctx, cancel: cancel}
	c := newClient(h, opt)
	h.c = c
	return c
}

type httpTransport struct {
	url    string
	legacy bool
	bugs   Bugs
	hc     *http.Client
	tr     *http.Transport
	c      *Client
	in     chan []byte
	done   chan struct{}
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu        sync.Mutex
	sid       string
	version   string // negotiated, sent in Mcp-Protocol-Version
	endpoint  string // legacy: where to POST
	expired   bool
	closeOnce sync.Once
	// params are the x-mcp-header annotations of the tools listed, by
	// tool name (stateless era: mirrored into Mcp-Param-* headers).
	params map[string][]paramHeader
	// retry is the last SSE retry field: how long to wait before resuming.
	retry time.Duration
}

func (h *httpTransport) frames() <-chan []byte   { return h.in }
func (h *httpTransport) closed() <-chan struct{} { return h.done }
func (h *httpTransport) err() error              { return nil }

// negotiated records the version the handshake settled on, for the
// Mcp-Protocol-Version header of every later request.
func (h *httpTransport) negotiated(version string) {
	h.mu.Lock()
	h.version = version
	h.mu.Unlock()
}

// openGET opens the standalone SSE stream of the session, where the
// server's requests and notifications not tied to a request arrive.
func (h *httpTransport) openGET() {
	h.mu.Lock()
	legacy := h.legacy
	h.mu.Unlock()
	if legacy {
		return
	}
	req, err := h.newRequest(http.MethodGet, nil)
	if err != nil {
		return
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := h.hc.Do(req)
	if err != nil {
		return
	}
	if resp.StatusCode != http.StatusOK || !isSSE(resp) {
		drain(resp) // 405: the server offers no GET stream, which it may
		return
	}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		h.readSSE(resp.Body, nil, "")
	}()
}

// newRequest makes a request to the endpoint with the session's headers.
func (h *httpTransport) newRequest(method string, body []byte) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	h.mu.Lock()
	target, sid, version := h.url, h.sid, h.version
	if h.legacy && h.endpoint != "" {
		target = h.endpoint
	}
	h.mu.Unlock()
	req, err := http.NewRequestWithContext(h.ctx, method, target, rd)
	if err != nil {
		return nil, err
	}
	if h.legacy {
		return req, nil
	}
	if sid != "" {
		req.Header.Set(headerSessionID, sid)
	}
	if version != "" && !h.bugs.NoVersionHeader {
		req.Header.Set(headerProtocolVersion, version)
	}
	return req, nil
}

// openLegacy GETs the HTTP+SSE stream and reads its endpoint event.
func (h *httpTransport) openLegacy() error {
	req, err := http.NewRequestWithContext(h.ctx, http.MethodGet, h.url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := h.hc.Do(req)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK || !isSSE(resp) {
		drain(resp)
		return fmt.Errorf("mcpclient: GET %s for the HTTP+SSE stream: status %d", h.url, resp.StatusCode)
	}
	got := make(chan string, 1)
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		h.readSSE(resp.Body, func(data string) { got <- data }, "")
	}()
	select {
	case ep := <-got:
		base, err := url.Parse(h.url)
		if err != nil {
			return err
		}
		ref, err := url.Parse(ep)
		if err != nil {
			return fmt.Errorf("mcpclient: endpoint event %q: %w", ep, err)
		}
		h.mu.Lock()
		h.endpoint = base.ResolveReference(ref).String()
		h.mu.Unlock()
		return nil
	case <-h.ctx.Done():
		return h.ctx.Err()
	}
}

// send POSTs a frame. A request's POST runs on its own: its response
// (JSON, or an SSE stream) may take as long as the server likes, and the
// client must stay free to cancel it with another POST meanwhile; what
// goes wrong with it fails the request.
func (h *httpTransport) send(ctx context.Context, frame []byte, hn hint) error {
	if !hn.request {
		return h.post(frame, hn)
	}
	h.mu.Lock()
	needEndpoint := h.legacy && h.endpoint == ""
	h.mu.Unlock()
	if needEndpoint { // before the first request: its POST needs the endpoint
		if err := h.openLegacy(); err != nil {
			return err
		}
	}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		if err := h.post(frame, hn); err != nil && h.ctx.Err() == nil {
			h.fail(hn, 0, err)
		}
	}()
	return nil
}

func (h *httpTransport) post(frame []byte, hn hint) error {
	h.mu.Lock()
	needEndpoint := h.legacy && h.endpoint == ""
	h.mu.Unlock()
	if needEndpoint {
		if err := h.openLegacy(); err != nil {
			return err
		}
	}
	req, err := h.newRequest(http.MethodPost, frame)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if !h.legacy && (h.c.Stateless() || hn.method == "server/discover") {
		req.Header.Set(headerProtocolVersion, StatelessVersion)
		req.Header.Set(headerMethod, hn.method)
		if hn.name != "" && !h.bugs.NoNameHeader {
			req.Header.Set(headerName, hn.name)
		}
		if hn.method == "tools/call" && h.c.Stateless() && !h.bugs.NoParamHeaders {
			h.mu.Lock()
			hs := h.params[hn.name]
			h.mu.Unlock()
			for k, v := range paramHeaderValues(hs, gjson.GetBytes(frame, "params.arguments")) {
				req.Header.Set(k, v)
			}
		}
	}
	resp, err := h.hc.Do(req)
	if err != nil {
		return err
	}
	if sid := resp.Header.Get(headerSessionID); sid != "" && hn.method == "initialize" {
		h.mu.Lock()
		h.sid = sid
		h.mu.Unlock()
	}
	switch {
	case resp.StatusCode == http.StatusAccepted:
		drain(resp)
		return nil
	case resp.StatusCode == http.StatusNotFound && h.sessionID() != "":
		drain(resp)
		h.mu.Lock()
		h.expired = true
		h.mu.Unlock()
		if hn.request {
			h.fail(hn, http.StatusNotFound, ErrSessionExpired)
		}
		return ErrSessionExpired
	case isSSE(resp) && resp.StatusCode == http.StatusOK:
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			last, answered := h.readSSE(resp.Body, nil, hn.id)
			if !answered && !h.bugs.HangOnCut { // a client that hangs waits for its deadline
				h.resume(hn, last)
			}
		}()
		return nil
	}
	defer drain(resp)
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	// An old HTTP+SSE server answers the initialize POST 400, 404 or 405:
	// the status, not the body, tells the client to fall back.
	oldServer := hn.method == "initialize" && (resp.StatusCode == 400 || resp.StatusCode == 404 || resp.StatusCode == 405)
	if ct == "application/json" && jsonRPC(body) && hn.request && !oldServer {
		h.push(body)
		if resp.StatusCode < 300 || answers(body, hn.id) {
			return nil
		}
	}
	if hn.request {
		if !h.bugs.HangOnStatus { // a client that hangs waits for its deadline
			h.fail(hn, resp.StatusCode, fmt.Errorf("%s", shorten(string(body))))
		}
		return nil
	}
	if resp.StatusCode >= 300 {
		return fmt.Errorf("mcpclient: POST: HTTP %d: %s", resp.StatusCode, shorten(string(body)))
	}
	return nil
}

// resume reconnects a POST's SSE stream that ended before the response
// to request hn, with Last-Event-ID, as long as the stream had event ids.
func (h *httpTransport) resume(hn hint, last string) {
	for range 3 {
		if !hn.request || hn.id == "" || !h.c.isPending(hn.id) || h.ctx.Err() != nil {
			return
		}
		switch {
		case h.bugs.NoResume:
			h.fail(hn, 0, errors.New("the reply stream ended before the reply, and the client does not resume it"))
			return
		case last == "" || h.c.Stateless():
			h.fail(hn, 0, errors.New("the reply stream ended before the reply, without an event id to resume from"))
			return
		}
		h.mu.Lock()
		wait := h.retry
		h.mu.Unlock()
		if wait > 0 && !h.bugs.IgnoreRetry { // the server's retry field: MUST wait that long
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-h.ctx.Done():
				t.Stop()
				return
			}
		}
		req, err := h.newRequest(http.MethodGet, nil)
		if err != nil {
			return
		}
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set(headerLastEventID, last)
		resp, err := h.hc.Do(req)
		if err != nil {
			return
		}
		if resp.StatusCode != http.StatusOK || !isSSE(resp) {
			drain(resp)
			h.fail(hn, resp.StatusCode, errors.New("resuming the SSE stream failed"))
			return
		}
		l, answered := h.readSSE(resp.Body, nil, hn.id)
		if answered {
			return
		}
		if l != "" {
			last = l
		}
	}
}

// fail ends the pending request with an error of the transport.
func (h *httpTransport) fail(hn hint, status int, err error) {
	if hn.id == "" {
		return
	}
	h.c.failPending(hn.id, &TransportError{Method: hn.method, Status: status, Err: err})
}

func (h *httpTransport) sessionID() string { h.mu.Lock(); defer h.mu.Unlock(); return h.sid }

func (h *httpTransport) push(b []byte) {
	if tools := gjson.GetBytes(b, "result.tools"); tools.IsArray() {
		h.mu.Lock()
		if h.params == nil {
			h.params = map[string][]paramHeader{}
		}
		tools.ForEach(func(_, t gjson.Result) bool {
			if hs, ok := paramHeadersOf(t.Get("inputSchema")); ok {
				h.params[t.Get("name").String()] = hs
			}
			return true
		})
		h.mu.Unlock()
	}
	select {
	case h.in <- b:
	case <-h.ctx.Done():
	}
}

// readSSE reads an SSE stream, pushing each message event; endpoint
// events go to onEndpoint. It returns the last event id seen, and whether
// the response to the request id (JSON text; "" for none) came.
func (h *httpTransport) readSSE(body io.ReadCloser, onEndpoint func(string), id string) (last string, answered bool) {
	defer body.Close()
	r := bufio.NewReaderSize(body, 64<<10)
	var event string
	var data []string
	for {
		line, err := r.ReadString('\n')
		line = strings.TrimRight(line, "\r\n")
		switch {
		case line == "" && err == nil:
			if len(data) > 0 {
				d := strings.Join(data, "\n")
				if event == "endpoint" && onEndpoint != nil {
					onEndpoint(d)
				} else if event == "" || event == "message" {
					answered = answered || (id != "" && answers([]byte(d), id))
					h.push([]byte(d))
				}
			}
			event, data = "", nil
		case strings.HasPrefix(line, ":"):
		default:
			field, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch field {
			case "data":
				data = append(data, value)
			case "event":
				event = value
			case "id":
				last = value
			case "retry":
				if ms, err := strconv.Atoi(value); err == nil && ms >= 0 {
					h.mu.Lock()
					h.retry = time.Duration(ms) * time.Millisecond
					h.mu.Unlock()
				}
			}
		}
		if err != nil {
			return last, answered
		}
	}
}

func (h *httpTransport) close() error {
	var err error
	h.closeOnce.Do(func() {
		h.mu.Lock()
		sid, expired, legacy := h.sid, h.expired, h.legacy
		h.mu.Unlock()
		if sid != "" && !expired && !legacy {
			var req *http.Request
			if req, err = h.newRequest(http.MethodDelete, nil); err == nil {
				var resp *http.Response
				if resp, err = h.hc.Do(req); err == nil {
					drain(resp)
					h.c.say("ended its session (DELETE)")
				}
			}
		}
		h.cancel()
		close(h.done)
	})
	h.wg.Wait()
	h.tr.CloseIdleConnections()
	return err
}

func isSSE(resp *http.Response) bool {
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	return ct == "text/event-stream"
}

func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
}

func jsonRPC(b []byte) bool {
	b = bytes.TrimSpace(b)
	return len(b) > 0 && (b[0] == '{' || b[0] == '[')
}

// answers reports whether a JSON-RPC body (a message or a batch) is or
// holds the response to the request id.
func answers(body []byte, id string) bool {
	m := gjson.ParseBytes(body)
	ms := []gjson.Result{m}
	if m.IsArray() {
		ms = m.Array()
	}
	for _, x := range ms {
		if !x.Get("method").Exists() && x.Get("id").Raw == id {
			return true
		}
	}
	return false
}

func shorten(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
