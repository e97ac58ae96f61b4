package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcpmock/mcpmock/config"
	"github.com/tidwall/gjson"
)

// exchangeKey is the context key of an exchange (*exchange).
type exchangeKey struct{}

// exchange is one HTTP request through the proxy: its number (its
// session in the recorder) and the body the client posted.
type exchange struct {
	n    int
	body []byte
}

// upstreamFailures counts the requests that never reached the server.
type upstreamFailures struct {
	mu    sync.Mutex
	n     int
	first error
}

func (u *upstreamFailures) add(err error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.n == 0 {
		u.first = err
	}
	u.n++
}

func (u *upstreamFailures) get() (int, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.n, u.first
}

// recordHTTP is mcpmock record --url: a reverse proxy on a loopback
// address to the real Streamable HTTP server. Every request and response
// goes through unchanged, headers included (Authorization, cookies,
// Mcp-Session-Id pass; the recording never holds a header); the bodies'
// JSON-RPC messages (JSON bodies and SSE events) are recorded, each HTTP
// exchange as its own stretch of the recording. The proxy runs until
// SIGTERM or SIGINT, then writes the recording if the server answered
// anything. A request that cannot reach the server gets a JSON-RPC error
// naming it, and the command fails at the end.
func recordHTTP(target, listen string, out recordOut, rec *config.Recorder, stdout, stderr io.Writer) error {
	ctx, stop := signalContext()
	defer stop()
	return recordHTTPUntil(ctx, target, listen, out, rec, stdout, stderr)
}

func recordHTTPUntil(ctx context.Context, target, listen string, out recordOut, rec *config.Recorder, stdout, stderr io.Writer) error {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usagef("--url %q: want the server's http:// or https:// endpoint, e.g. http://localhost:3001/mcp", target)
	}
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return usagef("--listen %q: want host:port, e.g. 127.0.0.1:0", listen)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return usagef("--listen %q: the recording proxy listens on loopback only (127.0.0.1 or ::1)", listen)
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return fmt.Errorf("--listen: %v", err)
	}
	localPath := u.Path
	if localPath == "" {
		localPath = "/"
	}
	var exchanges atomic.Int64
	var failures upstreamFailures
	var open sync.WaitGroup
	proxy := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			n := int(exchanges.Add(1))
			pr.Out.URL.Scheme, pr.Out.URL.Host = u.Scheme, u.Host
			if pr.In.URL.Path == localPath {
				// The endpoint: the real one. Other paths go as they are.
				pr.Out.URL.Path, pr.Out.URL.RawPath = u.Path, u.RawPath
				if pr.In.URL.RawQuery == "" {
					pr.Out.URL.RawQuery = u.RawQuery
				}
			}
			pr.Out.Host = u.Host
			pr.Out.Header["X-Forwarded-For"] = nil // pass the request as the client sent it
			ex := &exchange{n: n}
			if pr.In.Body != nil && pr.In.Method == http.MethodPost {
				ex.body, _ = io.ReadAll(pr.In.Body)
				pr.Out.Body = io.NopCloser(bytes.NewReader(ex.body))
				pr.Out.ContentLength = int64(len(ex.body))
				rec.Message(n, true, ex.body)
			}
			pr.Out = pr.Out.WithContext(context.WithValue(pr.Out.Context(), exchangeKey{}, ex))
		},
		ModifyResponse: func(resp *http.Response) error {
			ex, _ := resp.Request.Context().Value(exchangeKey{}).(*exchange)
			open.Add(1)
			resp.Body = &recordedBody{rc: resp.Body, n: ex.n, rec: rec, status: resp.StatusCode, sse: strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream"), done: open.Done}
			return nil
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if r.Context().Err() != nil {
				return // the client went away (or the recording ended): nobody to tell
			}
			failures.add(err)
			fmt.Fprintf(stderr, "mcpmock record: %s %s: the server did not answer: %v\n", r.Method, target, err)
			var body []byte
			if ex, ok := r.Context().Value(exchangeKey{}).(*exchange); ok {
				body = ex.body
			}
			unreachable(w, body, fmt.Sprintf("mcpmock record: cannot reach the server at %s: %v (is it running? the recording proxy relays every request there)", target, err))
		},
		FlushInterval: -1,
	}
	srv := &http.Server{Handler: proxy}
	local := "http://" + ln.Addr().String() + (&url.URL{Path: localPath}).EscapedPath()
	fmt.Fprintln(stdout, local)
	fmt.Fprintf(stderr, "mcpmock record: relaying %s to %s; SIGTERM or SIGINT ends the recording\n", local, target)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
	case err := <-served:
		return err
	}
	// Streams still open (a GET stream) end with the proxy.
	shut, cancel := context.WithCancel(context.Background())
	cancel()
	_ = srv.Shutdown(shut)
	_ = srv.Close()
	<-served
	open.Wait()
	failed, firstErr := failures.get()
	if rec.Answered() == 0 {
		n := int(exchanges.Load())
		why := fmt.Sprintf("no client sent a request to %s before the recording ended", local)
		switch {
		case failed > 0 && failed == n:
			why = fmt.Sprintf("the server at %s was never reached (%s failed: %v)", target, httpRequests(failed), firstErr)
		case failed > 0:
			why = fmt.Sprintf("the server at %s answered none of %s with a JSON-RPC reply (%d did not reach it: %v)", target, httpRequests(n), failed, firstErr)
		case n > 0:
			why = fmt.Sprintf("the server at %s answered none of %s with a JSON-RPC reply", target, httpRequests(n))
		}
		return nothingRecorded(out, why, exitVerdict)
	}
	if err := writeRecording(rec, out, stderr); err != nil {
		return err
	}
	if failed > 0 {
		return &recordFailure{code: exitVerdict, msg: fmt.Sprintf("%s did not reach the server at %s (the first: %v): the client got a JSON-RPC error for each, and the recording has only the others", httpRequests(failed), target, firstErr)}
	}
	return nil
}

// httpRequests is "1 HTTP request" or "n HTTP requests".
func httpRequests(n int) string {
	if n == 1 {
		return "1 HTTP request"
	}
	return fmt.Sprintf("%d HTTP requests", n)
}

// unreachable answers a request the server could not be reached for: a
// JSON-RPC error (code -32000, the message msg) to each request of the
// body the client posted, with HTTP 200 so that an SDK reads it and hands
// it to the caller; 502 with msg as text when the body holds no request
// (a notification, a GET, a DELETE).
func unreachable(w http.ResponseWriter, body []byte, msg string) {
	type rpcError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	type reply struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}
	var replies []reply
	v := gjson.ParseBytes(body)
	add := func(m gjson.Result) {
		if m.Get("method").Exists() && m.Get("id").Exists() {
			replies = append(replies, reply{"2.0", json.RawMessage(m.Get("id").Raw), rpcError{-32000, msg}})
		}
	}
	if gjson.ValidBytes(body) {
		if v.IsArray() {
			v.ForEach(func(_, m gjson.Result) bool { add(m); return true })
		} else {
			add(v)
		}
	}
	if len(replies) == 0 {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusBadGateway)
		fmt.Fprintln(w, msg)
		return
	}
	var b []byte
	if v.IsArray() {
		b, _ = json.Marshal(replies)
	} else {
		b, _ = json.Marshal(replies[0])
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// recordedBody is a response body on its way to the client: what it
// holds is recorded as it passes (a JSON body whole, an SSE stream event
// by event).
type recordedBody struct {
	rc     io.ReadCloser
	n      int
	rec    *config.Recorder
	status int
	sse    bool
	buf    []byte
	data   []string
	once   sync.Once
	done   func()
}

func (b *recordedBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 {
		b.buf = append(b.buf, p[:n]...)
		if b.sse {
			b.events()
		}
	}
	if err != nil {
		b.end()
	}
	return n, err
}

// events records the complete SSE events in buf.
func (b *recordedBody) events() {
	for {
		i := bytes.IndexByte(b.buf, '\n')
		if i < 0 {
			return
		}
		line := strings.TrimRight(string(b.buf[:i]), "\r")
		b.buf = b.buf[i+1:]
		switch {
		case line == "":
			if len(b.data) > 0 {
				b.rec.Message(b.n, false, []byte(strings.Join(b.data, "\n")))
				b.data = nil
			}
		case strings.HasPrefix(line, "data:"):
			b.data = append(b.data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		}
	}
}

func (b *recordedBody) end() {
	b.once.Do(func() {
		if b.status >= 400 {
			b.rec.HTTPStatus(b.n, b.status, b.buf)
			b.done()
			return
		}
		if b.sse {
			if len(b.data) > 0 {
				b.rec.Message(b.n, false, []byte(strings.Join(b.data, "\n")))
			}
			b.rec.RepliedOverSSE(b.n)
		} else if len(bytes.TrimSpace(b.buf)) > 0 {
			b.rec.Message(b.n, false, b.buf)
		}
		b.rec.Forget(b.n)
		b.done()
	})
}

func (b *recordedBody) Close() error {
	err := b.rc.Close()
	b.end()
	return err
}
