package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/scenarios"
)

// benchClient is a raw handshake-era client of one session over HTTP, or
// a stateless-era (2026-07-28) one: no handshake, the request's _meta in
// every request.
type benchClient struct {
	url, sid  string
	hc        *http.Client
	id        int
	stateless bool
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
	if c.stateless {
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "suggest_gifts")
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
	meta := ""
	if c.stateless {
		meta = `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}}`
	}
	out := c.post(tb, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"suggest_gifts","arguments":{"age":8}%s}}`, c.id+1, meta))
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
// (issue 32: it did, 0.3 ms a call at first, 1.5 ms by 10,000). It runs
// with the default --journal-keep, so past 10,000 messages the oldest go
// to the journal file as the calls come (MCPMOCK_SERVE_FLAGS adds serve
// flags: "--journal-keep 0" keeps every message in memory). Compare
// BenchmarkInProcessCall, the same server behind srv.URL():
//
//	go test -run '^$' -bench 'ServeHTTPCall|InProcessCall' -benchtime 30000x ./cmd/mcpmock
func BenchmarkServeHTTPCall(b *testing.B) {
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	args := append([]string{"--http"}, strings.Fields(os.Getenv("MCPMOCK_SERVE_FLAGS"))...) // e.g. --journal-keep 0
	if !strings.Contains(strings.Join(args, " "), "--journal-") {
		args = append(args, "--journal-spill", filepath.Join(b.TempDir(), "journal.jsonl")) // the default --journal-keep
	}
	go func() { done <- serveCmd(args, strings.NewReader(""), pw, io.Discard); _ = pw.Close() }()
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

// BenchmarkServeHTTPRSS: the resident memory of the built mcpmock serve
// --http process (VmRSS, /proc/PID/status) after 10k, 100k and 1M
// messages of one session of a raw client calling suggest_gifts over
// loopback, with the default journal limit (issue 32: it stays within 2×
// its RSS at 10k). MCPMOCK_RSS_MESSAGES sets the most messages (default
// 1,000,000; about a minute of calls on 2 cores) and MCPMOCK_RSS_FLAGS
// adds serve flags (e.g. "--journal-keep 0", memory without the limit);
// MCPMOCK_RSS_ERA=stateless makes the client one of 2026-07-28 (no
// handshake; SIGTERM ends serve, as a stateless client has no session to
// end).
// At the end it checks that the report and the journal file hold every
// message, each once, in order. Linux only (it reads /proc):
//
//	go test -run '^$' -bench ServeHTTPRSS -benchtime 1x ./cmd/mcpmock
func BenchmarkServeHTTPRSS(b *testing.B) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		b.Skip("reads VmRSS from /proc: Linux only")
	}
	most := 1_000_000
	if v := os.Getenv("MCPMOCK_RSS_MESSAGES"); v != "" {
		var err error
		if most, err = strconv.Atoi(v); err != nil {
			b.Fatalf("MCPMOCK_RSS_MESSAGES=%q: %v", v, err)
		}
	}
	dir := b.TempDir()
	bin := filepath.Join(dir, "mcpmock")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	report := filepath.Join(dir, "report.json")
	args := append([]string{"serve", "--http", "--listen", "127.0.0.1:0", "--report", report}, strings.Fields(os.Getenv("MCPMOCK_RSS_FLAGS"))...)
	cmd := exec.Command(bin, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	var logs strings.Builder
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	url, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatalf("no URL on stdout: %v; logs:\n%s", err, logs.String())
	}
	rss := func() int64 {
		st, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
		if err != nil {
			b.Fatal(err)
		}
		for _, l := range strings.Split(string(st), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				return kb
			}
		}
		b.Fatal("no VmRSS in /proc/PID/status")
		return 0
	}
	c := &benchClient{url: strings.TrimSpace(url), hc: &http.Client{}, stateless: os.Getenv("MCPMOCK_RSS_ERA") == "stateless"}
	msgs := 0
	if !c.stateless {
		c.handshake(b) // 3 messages: initialize, its result, notifications/initialized
		msgs = 3
	}
	var first int64
	t0 := time.Now()
	for _, at := range []int{10_000, 100_000, 1_000_000, 10_000_000} {
		if at > most {
			break
		}
		calls := 0
		for ; msgs+2 <= at; msgs += 2 {
			c.call(b)
			calls++
		}
		kb := rss()
		if first == 0 {
			first = kb
		}
		perCall := time.Since(t0) / time.Duration(max(calls, 1))
		b.Logf("%d messages: VmRSS %.1f MiB (%.2f× its RSS at 10k), %v a call over the last %d calls", msgs, float64(kb)/1024, float64(kb)/float64(first), perCall, calls)
		b.ReportMetric(float64(kb)/1024, fmt.Sprintf("MiB@%dk", at/1000))
		t0 = time.Now()
	}
	if c.stateless {
		_ = cmd.Process.Signal(syscall.SIGTERM)
	} else {
		c.end(b)
	}
	if err := cmd.Wait(); err != nil {
		b.Fatalf("serve: %v; logs:\n%s", err, logs.String())
	}
	var rep Report
	raw, err := os.ReadFile(report)
	if err == nil {
		err = json.Unmarshal(raw, &rep)
	}
	if err != nil {
		b.Fatal(err)
	}
	if rep.Messages != msgs {
		b.Fatalf("the report counts %d messages, the client exchanged %d", rep.Messages, msgs)
	}
	if rep.JournalFile == "" {
		b.Logf("every message stayed in memory (%d)", rep.Messages)
		return
	}
	f, err := os.Open(rep.JournalFile)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var l struct {
			Seq int `json:"seq"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil || l.Seq != n+1 {
			b.Fatalf("%s line %d: %v, seq %d", rep.JournalFile, n+1, err, l.Seq)
		}
		n++
	}
	if n != rep.Messages {
		b.Fatalf("%s holds %d messages, the report counts %d: the journal lost some", rep.JournalFile, n, rep.Messages)
	}
	b.Logf("%s holds all %d messages, in order; verdict %s", rep.JournalFile, n, rep.Verdict)
}
