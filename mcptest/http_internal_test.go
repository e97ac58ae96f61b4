package mcptest

import (
	"github.com/mcpmock/mcpmock/internal/spec"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestHTTPDeliveredStreamsNotKept: an SSE reply stream whose reply went
// out on its own response is not kept for Last-Event-ID, so a long test's
// server does not grow with every call; a stream cut before its reply is
// kept until a GET resumes it. The short reply stream goes out in one
// write, with a Content-Length.
func TestHTTPDeliveredStreamsNotKept(t *testing.T) {
	srv := NewServer(t).WithTools(NewTool("t").ReturnsText("x")).WithFaults(builtFault(faultCatalog{}.ReplyAsSSE("tools/call")))
	srv.AddFault(builtFault(faultCatalog{}.DropStream("tools/call", 0, true)).Nth(4))
	url := srv.URL()
	sid := ""
	post := func(body string) (string, int64) {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set(spec.HeaderSessionID, sid)
			req.Header.Set(spec.HeaderProtocolVersion, "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if sid == "" {
			sid = resp.Header.Get(spec.HeaderSessionID)
		}
		return string(b), resp.ContentLength
	}
	post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	kept := func() int {
		srv.http.mu.Lock()
		c := srv.http.conns[sid]
		srv.http.mu.Unlock()
		c.mu.Lock()
		defer c.mu.Unlock()
		return len(c.streams)
	}
	for id := 2; id <= 4; id++ {
		body, length := post(`{"jsonrpc":"2.0","id":` + string(rune('0'+id)) + `,"method":"tools/call","params":{"name":"t","arguments":{}}}`)
		if !strings.Contains(body, "data: {") {
			t.Fatalf("tools/call %d: want an SSE reply, got %q", id, body)
		}
		if length != int64(len(body)) { // nothing flushed on its own: net/http sent it in one write
			t.Errorf("tools/call %d: want the short SSE reply with a Content-Length of %d, got %d", id, len(body), length)
		}
		if n := kept(); n != 0 {
			t.Fatalf("after %d delivered replies, %d streams are kept", id-1, n)
		}
	}
	if body, _ := post(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"t","arguments":{}}}`); strings.Contains(body, `"result"`) {
		t.Fatalf("the 4th tools/call was not cut: %q", body)
	}
	if n := kept(); n != 1 {
		t.Fatalf("the cut stream must be kept for Last-Event-ID, got %d streams", n)
	}
	http.DefaultClient.CloseIdleConnections()
}

// TestHTTPSSEWriteTimeout: a client that opens its standalone stream and
// never reads it holds the session's writer for its SSE write timeout at most:
// then the write fails, the stream is cut, the journal says so, and the
// writer (a Broadcast to every session) goes on. The test waits on the
// write's end, not on the clock; HTTPOptions.SSEWriteTimeout makes it short so
// that it does not wait long.
func TestHTTPSSEWriteTimeout(t *testing.T) {
	srv := NewServer(t).IgnoreViolations().WithHTTP(HTTPOptions{SSEWriteTimeout: 50 * time.Millisecond})
	url := srv.URL()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr}
	do := func(method, body, sid string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(method, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set(spec.HeaderSessionID, sid)
			req.Header.Set(spec.HeaderProtocolVersion, "2025-11-25")
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	open := func() string {
		resp := do(http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, "")
		resp.Body.Close()
		sid := resp.Header.Get(spec.HeaderSessionID)
		do(http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, sid).Body.Close()
		return sid
	}
	stuck := open()
	get := do(http.MethodGet, "", stuck) // never read
	defer get.Body.Close()
	healthy := open()
	// 32 MiB: more than every socket buffer between them
	if n := srv.Broadcast("notifications/message", map[string]any{"level": "info", "data": strings.Repeat("x", 32<<20)}); n != 2 {
		t.Fatalf("Broadcast reached %d sessions, want 2 (the second after the stuck one's write was cut)", n)
	}
	msgs := srv.Journal().All().Notifications("notifications/message")
	if len(msgs) != 2 || !strings.Contains(msgs[0].Problem, "the client did not read") || msgs[1].Problem != "" {
		t.Fatalf("want the stuck session's notification journaled as not delivered whole, the healthy one's as delivered (waiting for its stream), got %v / %v", msgs[0].Problem, msgs[1].Problem)
	}
	_ = healthy
	srv.Close()
}
