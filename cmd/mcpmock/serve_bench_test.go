package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/scenarios"
)

// benchClient is a raw handshake-era client of one session over HTTP.
type benchClient struct {
	url, sid string
	hc       *http.Client
	id       int
}

func (c *benchClient) post(tb testing.TB, body string) string {
	req, err := http.NewRequest(http.MethodPost, c.url, strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.sid != "" {
		req.Header.Set("Mcp-Session-Id", c.sid)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	}
	res, err := c.hc.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	b, err := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if err != nil || res.StatusCode >= 300 {
		tb.Fatalf("POST %s: %d %s %v", body, res.StatusCode, b, err)
	}
	if c.sid == "" {
		c.sid = res.Header.Get("Mcp-Session-Id")
	}
	return string(b)
}

func (c *benchClient) handshake(tb testing.TB) {
	c.post(tb, initialize)
	c.post(tb, initialized)
}

func (c *benchClient) call(tb testing.TB) {
	c.id++
	out := c.post(tb, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"suggest_gifts","arguments":{"age":8}}}`, c.id+1))
	if !strings.Contains(out, "a kite") {
		tb.Fatalf("tools/call answered %s", out)
	}
}

func (c *benchClient) end(tb testing.TB) {
	req, _ := http.NewRequest(http.MethodDelete, c.url, nil)
	req.Header.Set("Mcp-Session-Id", c.sid)
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	res, err := c.hc.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	_ = res.Body.Close()
}

// BenchmarkServeHTTPCall: one session of serve --http (the command's own
// code path, in process: serveCmd) answering b.N tools/call requests of a
// raw handshake-era client, one after the other; the cost of a call is
// logged every 2,000 calls, so that a cost growing with the journal shows
// (issue 32: it did, 0.3 ms a call at first, 1.5 ms by 10,000). Compare
// BenchmarkInProcessCall, the same server behind srv.URL():
//
//	go test -run '^$' -bench 'ServeHTTPCall|InProcessCall' -benchtime 30000x ./cmd/mcpmock
func BenchmarkServeHTTPCall(b *testing.B) {
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- serveCmd([]string{"--http"}, strings.NewReader(""), pw, io.Discard); _ = pw.Close() }()
	url, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		b.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	c := &benchClient{url: strings.TrimSpace(url), hc: &http.Client{}}
	c.handshake(b)
	b.ResetTimer()
	t0 := time.Now()
	for i := range b.N {
		c.call(b)
		if (i+1)%2000 == 0 {
			b.Logf("%d calls: %v a call", i+1, time.Since(t0)/2000)
			t0 = time.Now()
		}
	}
	b.StopTimer()
	c.end(b)
	<-done
}

// BenchmarkInProcessCall is BenchmarkServeHTTPCall against GiftGen
// in-process, behind srv.URL(): what serve --http should cost.
func BenchmarkInProcessCall(b *testing.B) {
	srv := scenarios.GiftGen(b)
	c := &benchClient{url: srv.URL(), hc: &http.Client{}}
	c.handshake(b)
	b.ResetTimer()
	for range b.N {
		c.call(b)
	}
}
