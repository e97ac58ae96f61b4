package main

import (
	"bytes"
	"context"
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
)

// exchangeKey is the context key of an exchange's number.
type exchangeKey struct{}

// recordHTTP is mcpmock record --url: a reverse proxy on a loopback
// address to the real Streamable HTTP server. Every request and response
// goes through unchanged, headers included (Authorization, cookies,
// Mcp-Session-Id pass; the recording never holds a header); the bodies'
// JSON-RPC messages (JSON bodies and SSE events) are recorded, each HTTP
// exchange as its own stretch of the recording. The proxy runs until
// SIGTERM or SIGINT, then writes the recording.
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
			if pr.In.Body != nil && pr.In.Method == http.MethodPost {
				body, _ := io.ReadAll(pr.In.Body)
				pr.Out.Body = io.NopCloser(bytes.NewReader(body))
				pr.Out.ContentLength = int64(len(body))
				rec.Message(n, true, body)
			}
			pr.Out = pr.Out.WithContext(context.WithValue(pr.Out.Context(), exchangeKey{}, n))
		},
		ModifyResponse: func(resp *http.Response) error {
			n, _ := resp.Request.Context().Value(exchangeKey{}).(int)
			open.Add(1)
			resp.Body = &recordedBody{rc: resp.Body, n: n, rec: rec, status: resp.StatusCode, sse: strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream"), done: open.Done}
			return nil
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			fmt.Fprintf(stderr, "mcpmock record: %s %s: the server did not answer: %v\n", r.Method, target, err)
			w.WriteHeader(http.StatusBadGateway)
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
	return writeRecording(rec, out, stderr)
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
