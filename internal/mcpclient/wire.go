package mcpclient

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// Request renders a JSON-RPC request; id and params are JSON texts, params
// "" sends none.
func Request(id, method, params string) string {
	f := `{"jsonrpc":"2.0","id":` + id + `,"method":` + strconv.Quote(method)
	if params != "" {
		f += `,"params":` + params
	}
	return f + "}"
}

// Notification renders a JSON-RPC notification; params is a JSON text or
// "" (none).
func Notification(method, params string) string {
	f := `{"jsonrpc":"2.0","method":` + strconv.Quote(method)
	if params != "" {
		f += `,"params":` + params
	}
	return f + "}"
}

// Wire is a stdio-framed connection at its rawest, for tests and lessons
// that send exactly the bytes they mean: Send writes one line, Recv reads
// the next one, Await the response to one id; nothing is answered,
// matched or retried behind the caller's back.
type Wire struct {
	conn net.Conn
	r    *bufio.Reader
}

// NewWire returns a Wire on conn (such as mcptest's Server.Dial).
func NewWire(conn net.Conn) *Wire { return &Wire{conn: conn, r: bufio.NewReader(conn)} }

// Send writes frame and the newline that frames it.
func (w *Wire) Send(frame string) error {
	_, err := io.WriteString(w.conn, frame+"\n")
	return err
}

// Write writes b as it is, framed or not: a cut frame, two frames at once.
func (w *Wire) Write(b string) error {
	_, err := io.WriteString(w.conn, b)
	return err
}

// Recv reads the next line, without its newline, waiting until deadline
// (zero: no limit). On an error it returns what it read of the line.
func (w *Wire) Recv(deadline time.Time) (string, error) {
	if err := w.conn.SetReadDeadline(deadline); err != nil {
		return "", err
	}
	line, err := w.r.ReadString('\n')
	return strings.TrimSuffix(line, "\n"), err
}

// Await reads lines until the response to the request id (JSON text),
// skipping every other line, and returns it.
func (w *Wire) Await(deadline time.Time, id string) (gjson.Result, error) {
	for {
		line, err := w.Recv(deadline)
		if err != nil {
			return gjson.Result{}, err
		}
		if m := gjson.Parse(line); m.Get("id").Raw == id && !m.Get("method").Exists() {
			return m, nil
		}
	}
}

// Close closes the connection.
func (w *Wire) Close() error { return w.conn.Close() }

// HTTPWire is Streamable HTTP one POST at a time, for tests that look at
// each HTTP answer: Send POSTs one message with the headers of the
// transport and of its era (the session the server assigned, the protocol
// version, Mcp-Method and Mcp-Name and the per-request _meta in the
// stateless era) and the token of Auth; Call does the same and, with Auth,
// authorizes on a 401 or a 403 insufficient_scope and sends again.
type HTTPWire struct {
	// URL is the MCP endpoint.
	URL string
	// Version is the protocol version it speaks.
	Version string
	// Auth, when set, is the OAuth client that holds its token.
	Auth *OAuth
	// SessionID is the Mcp-Session-Id the server assigned ("" none yet).
	SessionID string

	hc *http.Client
	tr *http.Transport
}

// NewHTTPWire returns an HTTPWire for the MCP endpoint url, speaking
// version, authorized by auth (nil: none); Close releases its connections.
func NewHTTPWire(url, version string, auth *OAuth) *HTTPWire {
	tr := &http.Transport{}
	w := &HTTPWire{URL: url, Version: version, Auth: auth, tr: tr, hc: &http.Client{Transport: tr, CheckRedirect: noRedirect}}
	if auth != nil && auth.HTTP == nil {
		auth.HTTP = w.hc
	}
	return w
}

// HTTPReply is what the server answered a POST: its status, headers and
// body (JSON, or the text of an SSE stream).
type HTTPReply struct {
	Status int
	Header http.Header
	Body   string
}

// Stateless reports whether the wire speaks the stateless era.
func (w *HTTPWire) Stateless() bool { return w.Version >= StatelessVersion }

func (w *HTTPWire) post(ctx context.Context, id, method, params string) (*http.Response, error) {
	if w.Stateless() && id != "" {
		params = withMeta(params, statelessMeta(clientCaps(StatelessVersion), clientInfoOf(Name)))
	}
	body := Notification(method, params)
	if id != "" {
		body = Request(id, method, params)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if w.Auth != nil {
		w.Auth.attach(req)
	}
	if w.SessionID != "" {
		req.Header.Set(headerSessionID, w.SessionID)
	}
	if method != "initialize" {
		req.Header.Set(headerProtocolVersion, w.Version)
	}
	if w.Stateless() {
		req.Header.Set(headerMethod, method)
		if name := nameOf(method, gjson.Parse(params)); name != "" {
			req.Header.Set(headerName, name)
		}
	}
	return w.hc.Do(req)
}

func readReply(resp *http.Response, err error) (HTTPReply, error) {
	if err != nil {
		return HTTPReply{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return HTTPReply{Status: resp.StatusCode, Header: resp.Header, Body: string(b)}, err
}

// Send POSTs one request (id a JSON text) or notification (id "") with
// the token it holds, and returns the answer.
func (w *HTTPWire) Send(ctx context.Context, id, method, params string) (HTTPReply, error) {
	return readReply(w.post(ctx, id, method, params))
}

// Call is Send that authorizes when refused (see OAuth.Do) and keeps the
// session the server assigned.
func (w *HTTPWire) Call(ctx context.Context, id, method, params string) (HTTPReply, error) {
	send := func() (*http.Response, error) { return w.post(ctx, id, method, params) }
	var r HTTPReply
	var err error
	if w.Auth == nil {
		r, err = readReply(send())
	} else {
		r, err = readReply(w.Auth.Do(ctx, method, send))
	}
	if err == nil && r.Status != http.StatusUnauthorized && r.Status != http.StatusForbidden {
		if sid := r.Header.Get(headerSessionID); sid != "" {
			w.SessionID = sid
		}
	}
	return r, err
}

// Delete ends the session with DELETE, carrying the token.
func (w *HTTPWire) Delete(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, w.URL, nil)
	if err != nil {
		return err
	}
	if w.Auth != nil {
		w.Auth.attach(req)
	}
	req.Header.Set(headerSessionID, w.SessionID)
	req.Header.Set(headerProtocolVersion, w.Version)
	_, err = readReply(w.hc.Do(req))
	return err
}

// Close closes the wire's idle connections.
func (w *HTTPWire) Close() { w.tr.CloseIdleConnections() }
