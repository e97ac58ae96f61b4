package integration_test

// Benchmarks of the mcptest mock, side by side with the official Go SDK's
// server (what users build today) and a raw net.Pipe echo of the same bytes
// (the floor). One minimal raw client drives all three with the same bytes.
//
//	go test -run '^$' -bench 'Handshake|ToolCall|IdleSessions' -benchmem -count 5 ./integration
//
// TestBenchmarkClientsAgree runs the same client once against each target and
// checks the answers, so the harness itself is tested by a plain go test.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

// The frames every target is sent, byte for byte.
var (
	benchInitializeFrame  = []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}` + "\n")
	benchInitializedFrame = []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	benchToolCallHead     = []byte(`{"jsonrpc":"2.0","id":`)
	benchToolCallTail     = []byte(`,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}` + "\n")
	benchPingHead         = []byte(`{"jsonrpc":"2.0","id":`)
	benchPingTail         = []byte(`,"method":"ping"}` + "\n")
)

const benchInitializeID = 1

// benchClient is the minimal client every target is driven by: it writes one
// request line and reads one response line. It keeps no state but the next
// id, a reusable frame buffer and the last response line.
type benchClient struct {
	conn   net.Conn
	r      *bufio.Reader
	nextID int64
	frame  []byte
	last   []byte // the last response line, valid until the next read
}

func newBenchClient(conn net.Conn) *benchClient {
	return &benchClient{conn: conn, r: bufio.NewReader(conn), nextID: benchInitializeID + 1, frame: make([]byte, 0, 256)}
}

// roundTrip writes frame (one line, newline included) and reads one response
// line, which must carry id.
func (c *benchClient) roundTrip(frame []byte, id int64) error {
	if _, err := c.conn.Write(frame); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	line, err := c.r.ReadSlice('\n')
	if err != nil {
		return fmt.Errorf("read: %w", err)
	}
	c.last = line
	if got, ok := benchResponseID(line); !ok || got != id {
		return fmt.Errorf("benchResponse %q does not carry id %d", line, id)
	}
	return nil
}

// handshake sends initialize, reads its response, and sends
// notifications/initialized.
func (c *benchClient) handshake() error {
	if err := c.roundTrip(benchInitializeFrame, benchInitializeID); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if _, err := c.conn.Write(benchInitializedFrame); err != nil {
		return fmt.Errorf("notifications/initialized: %w", err)
	}
	return nil
}

// call sends a request made of head, the next id and tail, and reads its response.
func (c *benchClient) call(head, tail []byte) error {
	id := c.nextID
	c.nextID++
	c.frame = append(strconv.AppendInt(append(c.frame[:0], head...), id, 10), tail...)
	return c.roundTrip(c.frame, id)
}

func (c *benchClient) callTool() error { return c.call(benchToolCallHead, benchToolCallTail) }
func (c *benchClient) ping() error     { return c.call(benchPingHead, benchPingTail) }

// responseID reads the integer after the first "id": of a line, cheaply
// (the same cost for every target). The test checks the frames fully.
func benchResponseID(line []byte) (int64, bool) {
	i := bytes.Index(line, []byte(`"id":`))
	if i < 0 {
		return 0, false
	}
	var n int64
	digits := 0
	for _, b := range line[i+5:] {
		if b < '0' || b > '9' {
			break
		}
		n = n*10 + int64(b-'0')
		digits++
	}
	return n, digits > 0
}

// A target is a server implementation the raw client can be connected to.
// dial returns the client's end of a new connection with one session behind
// it, and a function that waits until the server side of that session has
// ended (after the client closed the connection).
type benchTarget interface {
	dial(tb testing.TB) (conn net.Conn, wait func())
}

// benchMcptest is the mock: one Server, one Dial per connection.
type benchMcptest struct {
	srv *mcptest.Server
	n   int // Dials so far: the session of the next one is n+1
}

func newBenchMcptest(tb testing.TB) *benchMcptest {
	return &benchMcptest{srv: mcptest.NewServer(tb).WithTools(mcptest.NewTool("echo").ReturnsText("hi"))}
}

func (t *benchMcptest) dial(tb testing.TB) (net.Conn, func()) {
	conn := t.srv.Dial()
	t.n++
	sess := t.srv.Session(t.n)
	return conn, func() { <-sess.Done() }
}

// benchGosdk is the official Go SDK's server with the same tool, each
// connection a Server.Connect over an IOTransport on one end of a net.Pipe.
type benchGosdk struct {
	srv *mcp.Server
}

type benchEchoArgs struct {
	Text string `json:"text"`
}

func newBenchGosdk(testing.TB) *benchGosdk {
	srv := mcp.NewServer(&mcp.Implementation{Name: "gosdk-bench", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"}, func(ctx context.Context, req *mcp.CallToolRequest, in benchEchoArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hi"}}}, nil, nil
	})
	return &benchGosdk{srv: srv}
}

func (t *benchGosdk) dial(tb testing.TB) (net.Conn, func()) {
	client, server := net.Pipe()
	ss, err := t.srv.Connect(context.Background(), &mcp.IOTransport{Reader: server, Writer: server}, nil)
	if err != nil {
		tb.Fatalf("gosdk: Connect: %v", err)
	}
	return client, func() { _ = ss.Wait() }
}

// benchEcho is the floor: a goroutine on one end of a net.Pipe that writes
// back every line carrying an id, byte for byte (notifications, which no
// server answers, are read and dropped).
type benchEcho struct{}

func (benchEcho) dial(tb testing.TB) (net.Conn, func()) {
	client, server := net.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer server.Close()
		r := bufio.NewReader(server)
		for {
			line, err := r.ReadSlice('\n')
			if err != nil {
				return
			}
			if bytes.Contains(line, []byte(`"id":`)) {
				if _, err := server.Write(line); err != nil {
					return
				}
			}
		}
	}()
	return client, func() { <-done }
}

var benchTargetNames = []string{"mcptest", "gosdk", "echo"}

func newBenchTarget(tb testing.TB, name string) benchTarget {
	switch name {
	case "mcptest":
		return newBenchMcptest(tb)
	case "gosdk":
		return newBenchGosdk(tb)
	case "echo":
		return benchEcho{}
	}
	tb.Fatalf("unknown target %q", name)
	return nil
}

// benchNoLeaks fails tb if a goroutine started after this call still runs
// once tb's cleanups (which close the servers) have run. Call it first, so
// that its cleanup runs last.
func benchNoLeaks(tb testing.TB) {
	opt := goleak.IgnoreCurrent()
	tb.Cleanup(func() { goleak.VerifyNone(tb, opt) })
}

// BenchmarkHandshake: Dial, initialize, notifications/initialized, close,
// and wait for the server side of the session to end. The mock keeps every
// session and its journal for the test's assertions, so its B/op includes
// what it retains; the SDK server forgets a session once it ends.
func BenchmarkHandshake(b *testing.B) {
	for _, name := range benchTargetNames {
		b.Run(name, func(b *testing.B) {
			benchNoLeaks(b)
			t := newBenchTarget(b, name)
			b.ReportAllocs()
			for b.Loop() {
				conn, wait := t.dial(b)
				err := newBenchClient(conn).handshake()
				conn.Close()
				wait()
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkToolCall: one tools/call round trip on a session that completed
// the handshake.
func BenchmarkToolCall(b *testing.B) {
	for _, name := range benchTargetNames {
		b.Run(name, func(b *testing.B) {
			benchNoLeaks(b)
			t := newBenchTarget(b, name)
			conn, wait := t.dial(b)
			defer wait()
			defer conn.Close()
			c := newBenchClient(conn)
			if err := c.handshake(); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := c.callTool(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchStatelessToolCallTail is the tools/call of the 2026-07-28 era: no
// handshake before it, its _meta in every request.
var benchStatelessToolCallTail = []byte(`,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},` +
	`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},` +
	`"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}}}}` + "\n")

// BenchmarkStatelessToolCall: one tools/call round trip of the stateless
// era (2026-07-28, the current one): each request carries its _meta, each
// result the server's; beside the SDK server (which speaks it too) and the
// echo floor of the same bytes.
func BenchmarkStatelessToolCall(b *testing.B) {
	for _, name := range []string{"mcptest", "gosdk", "echo"} {
		b.Run(name, func(b *testing.B) {
			benchNoLeaks(b)
			conn, wait := newBenchTarget(b, name).dial(b)
			defer wait()
			defer conn.Close()
			c := newBenchClient(conn)
			b.ReportAllocs()
			for b.Loop() {
				if err := c.call(benchToolCallHead, benchStatelessToolCallTail); err != nil {
					b.Fatal(err)
				}
			}
			if name != "echo" && !bytes.Contains(c.last, []byte(`"resultType":"complete"`)) {
				b.Fatalf("want a complete stateless result, got %.300s", c.last)
			}
		})
	}
}

const benchIdleSessions = 1000

// BenchmarkIdleSessions opens 1,000 sessions on one server (each Dial or
// Connect, initialize, notifications/initialized, and a ping to be sure the
// notification was handled) and keeps them open. ns/op, B/op and allocs/op
// are for opening all 1,000; the custom metrics are what each idle open
// session holds: live heap (HeapAlloc after GC, client end included),
// goroutine stacks (StackInuse) and goroutines. The row mcptest-http is the
// mock over Streamable HTTP, each session with its standalone GET stream
// open (benchOpenHTTPSession: a raw HTTP/1.1 client on two loopback
// connections, the POSTs' closed after the ping, so what is measured is
// the server's, not a client library's); floor-http is the same client
// against a raw net/http handler that answers each POST with a fixed body
// and holds each GET stream open: what net/http itself keeps for a
// session's open stream.
func BenchmarkIdleSessions(b *testing.B) {
	for _, name := range []string{"mcptest", "gosdk", "mcptest-http", "floor-http"} {
		b.Run(name, func(b *testing.B) {
			benchNoLeaks(b)
			b.ReportAllocs()
			var heap, stack, gor float64
			iters := 0
			for b.Loop() {
				b.StopTimer()
				// A scope per iteration, so that nothing of a closed
				// server is kept by the benchmark's cleanups.
				scope := &benchIterationTB{TB: b}
				open := benchIdleOpener(scope, name)
				runtime.GC()
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				g0 := runtime.NumGoroutine()
				b.StartTimer()

				closers := make([]func(), 0, benchIdleSessions)
				closeAll := func() {
					for _, c := range closers {
						c()
					}
					closers = closers[:0]
					scope.runCleanups()
				}
				for range benchIdleSessions {
					c, err := open()
					if c != nil {
						closers = append(closers, c)
					}
					if err != nil {
						closeAll()
						b.Fatal(err)
					}
				}

				b.StopTimer()
				runtime.GC()
				runtime.GC()
				runtime.ReadMemStats(&after)
				g1 := runtime.NumGoroutine()
				heap += float64(int64(after.HeapAlloc) - int64(before.HeapAlloc))
				stack += float64(int64(after.StackInuse) - int64(before.StackInuse))
				gor += float64(g1 - g0)
				iters++
				runtime.KeepAlive(open)
				closeAll()
				b.StartTimer()
			}
			n := float64(iters * benchIdleSessions)
			b.ReportMetric(heap/n, "heapB/session")
			b.ReportMetric(stack/n, "stackB/session")
			b.ReportMetric(gor/n, "goroutines/session")
		})
	}
}

// benchIdleOpener returns the function that opens one idle session of the
// row name on a new server, and returns what closes it (and waits until the
// server side has ended, where it can tell).
func benchIdleOpener(tb testing.TB, name string) func() (func(), error) {
	switch name {
	case "mcptest-http":
		srv := mcptest.NewServer(tb).WithTools(mcptest.NewTool("echo").ReturnsText("hi"))
		return func() (func(), error) { return benchOpenHTTPSession(srv.URL()) }
	case "floor-http":
		url := benchFloorHTTP(tb)
		return func() (func(), error) { return benchOpenHTTPSession(url) }
	}
	t := newBenchTarget(tb, name)
	return func() (func(), error) {
		conn, wait := t.dial(tb)
		closer := func() { conn.Close(); wait() }
		c := newBenchClient(conn) // dropped after the handshake
		err := c.handshake()
		if err == nil {
			err = c.ping()
		}
		return closer, err
	}
}

// benchIterationTB is a testing.TB whose cleanups run at runCleanups,
// not at the end of the benchmark; everything else goes to the embedded TB.
type benchIterationTB struct {
	testing.TB
	mu       sync.Mutex
	cleanups []func()
}

func (t *benchIterationTB) Cleanup(f func()) {
	t.mu.Lock()
	t.cleanups = append(t.cleanups, f)
	t.mu.Unlock()
}

func (t *benchIterationTB) runCleanups() {
	t.mu.Lock()
	fs := t.cleanups
	t.cleanups = nil
	t.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}

// TestBenchmarkClientsAgree runs the raw client of the benchmarks once
// against each target: handshake, then two tools/calls, each answered on its
// own line with the right id; the mock and the SDK must answer with the
// negotiated version and the text "hi", the echo with the bytes it was sent.
func TestBenchmarkClientsAgree(t *testing.T) {
	for _, name := range benchTargetNames {
		t.Run(name, func(t *testing.T) {
			benchNoLeaks(t)
			tg := newBenchTarget(t, name)
			conn, wait := tg.dial(t)
			defer wait()
			defer conn.Close()
			if err := conn.SetDeadline(time.Now().Add(10 * time.Second)); err != nil {
				t.Fatal(err)
			}
			c := newBenchClient(conn)
			if err := c.handshake(); err != nil {
				t.Fatal(err)
			}
			init := benchDecodeResponse(t, c.last)
			if name == "echo" {
				if string(c.last) != string(benchInitializeFrame) {
					t.Errorf("echo answered initialize with %q, want the request's bytes", c.last)
				}
			} else if v := init.Result["protocolVersion"]; v != "2025-11-25" {
				t.Errorf("initialize result %s: protocolVersion %v, want 2025-11-25", c.last, v)
			}
			for want := int64(2); want <= 3; want++ {
				if err := c.callTool(); err != nil {
					t.Fatal(err)
				}
				resp := benchDecodeResponse(t, c.last)
				if resp.ID == nil || *resp.ID != want {
					t.Fatalf("tools/call answered %s, want id %d", c.last, want)
				}
				if name == "echo" {
					if !bytes.Equal(c.last, c.frame) {
						t.Errorf("echo answered %q, want %q", c.last, c.frame)
					}
					continue
				}
				if resp.Error != nil {
					t.Fatalf("tools/call answered an error: %s", c.last)
				}
				var res struct {
					Content []struct{ Type, Text string }
					IsError bool
				}
				raw, _ := json.Marshal(resp.Result)
				if err := json.Unmarshal(raw, &res); err != nil || res.IsError || len(res.Content) != 1 || res.Content[0].Type != "text" || res.Content[0].Text != "hi" {
					t.Errorf("tools/call result %s, want one text content \"hi\"", c.last)
				}
			}
		})
	}
}

type benchResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      *int64          `json:"id"`
	Method  string          `json:"method"`
	Result  map[string]any  `json:"result"`
	Error   json.RawMessage `json:"error"`
}

func benchDecodeResponse(t *testing.T, line []byte) benchResponse {
	t.Helper()
	var r benchResponse
	if err := json.Unmarshal(line, &r); err != nil {
		t.Fatalf("benchResponse %q is not JSON: %v", line, err)
	}
	if r.JSONRPC != "2.0" {
		t.Errorf("benchResponse %q: jsonrpc %q, want 2.0", line, r.JSONRPC)
	}
	return r
}

// ---- Performance at scale (issue 11) ----
//
// Each benchmark below runs the case beside its floor in the same run:
// the 1-tool catalog, the empty journal, the session without a waiter,
// the raw server answering the same bytes. docs/benchmarks.md gives the ratios.
//
//	go test -run '^$' -bench 'Scale' -benchmem -count 6 ./integration

// benchServerWith is the mock target with a given server, for the
// benchmarks that shape the server.
func benchServerWith(srv *mcptest.Server) *benchMcptest { return &benchMcptest{srv: srv} }

// benchOpen dials the target and completes the handshake.
func benchOpen(b *testing.B, t benchTarget) *benchClient {
	conn, wait := t.dial(b)
	b.Cleanup(func() { conn.Close(); wait() })
	c := newBenchClient(conn)
	if err := c.handshake(); err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkScaleCatalog: tools/call of one tool among 10,000 registered,
// beside the same call with only that tool registered.
func BenchmarkScaleCatalog(b *testing.B) {
	for _, n := range []int{1, 10000} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			benchNoLeaks(b)
			tools := []*mcptest.Tool{mcptest.NewTool("echo").ReturnsText("hi")}
			for i := 1; i < n; i++ {
				tools = append(tools, mcptest.NewTool(fmt.Sprintf("tool_%05d", i)).ReturnsText("x"))
			}
			c := benchOpen(b, benchServerWith(mcptest.NewServer(b).WithTools(tools...)))
			b.ReportAllocs()
			for b.Loop() {
				if err := c.callTool(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchJournalServer returns a mock whose journal holds about n messages
// (tools/call round trips of "echo"), then one call of "target" with
// {"k":1}; n = 0 is the floor: the handshake and that call.
func benchJournalServer(b *testing.B, n int) *mcptest.Server {
	srv := mcptest.NewServer(b).WithTools(mcptest.NewTool("echo").ReturnsText("hi"), mcptest.NewTool("target").ReturnsText("t"))
	c := benchOpen(b, benchServerWith(srv))
	for srv.Journal().Len() < n {
		if err := c.callTool(); err != nil {
			b.Fatal(err)
		}
	}
	if err := c.call(benchToolCallHead, []byte(`,"method":"tools/call","params":{"name":"target","arguments":{"k":1}}}`+"\n")); err != nil {
		b.Fatal(err)
	}
	return srv
}

const benchJournalLen = 100000

// BenchmarkScaleJournal: the assertions over a journal of 100,000 messages
// whose match is the last call, beside the same over the near-empty
// journal (handshake and that call).
func BenchmarkScaleJournal(b *testing.B) {
	for _, n := range []int{0, benchJournalLen} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			benchNoLeaks(b)
			srv := benchJournalServer(b, n)
			b.Run("AssertToolCalled", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if !srv.AssertToolCalled(b, "target", `{"k":1}`) {
						b.Fatal("AssertToolCalled failed")
					}
				}
			})
			b.Run("WaitFor", func(b *testing.B) {
				m := mcptest.ToolCall("target", nil)
				b.ReportAllocs()
				for b.Loop() {
					if srv.WaitFor(b, m).Seq == 0 {
						b.Fatal("WaitFor failed")
					}
				}
			})
			b.Run("AssertNotCalled", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					// "echo" is a name the journal knows (a tool's), so this
					// reads the whole index; a name it never saw costs nothing.
					if !srv.AssertNotCalled(b, "echo") {
						b.Fatal("AssertNotCalled failed")
					}
				}
			})
			b.Run("AssertNegotiatedVersion", func(b *testing.B) {
				// reads each session's era and version from the journal
				b.ReportAllocs()
				for b.Loop() {
					if !srv.AssertNegotiatedVersion(b, "2025-11-25") {
						b.Fatal("AssertNegotiatedVersion failed")
					}
				}
			})
		})
	}
}

// BenchmarkScaleWaiting: a tools/call round trip while a WaitFor (Await)
// for something that never comes is blocked, beside the same without it.
func BenchmarkScaleWaiting(b *testing.B) {
	for _, waiting := range []bool{false, true} {
		b.Run(fmt.Sprintf("waiter=%v", waiting), func(b *testing.B) {
			benchNoLeaks(b)
			t := newBenchMcptest(b)
			c := benchOpen(b, t)
			if waiting {
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan struct{})
				go func() {
					defer close(done)
					_, _ = t.srv.Await(ctx, mcptest.ToolCall("never", nil))
				}()
				b.Cleanup(func() { cancel(); <-done })
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := c.callTool(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkScaleIdleServer: what one Server holds before any traffic (live
// heap after GC, per server, over 1,000 of them), and the time to make one.
func BenchmarkScaleIdleServer(b *testing.B) {
	benchNoLeaks(b)
	const servers = 1000
	b.ReportAllocs()
	var heap float64
	iters := 0
	for b.Loop() {
		b.StopTimer()
		scope := &benchIterationTB{TB: b}
		keep := make([]*mcptest.Server, 0, servers)
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		b.StartTimer()
		for range servers {
			keep = append(keep, mcptest.NewServer(scope).WithTools(mcptest.NewTool("echo").ReturnsText("hi")))
		}
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap += float64(int64(after.HeapAlloc) - int64(before.HeapAlloc))
		iters++
		runtime.KeepAlive(keep)
		scope.runCleanups()
		b.StartTimer()
	}
	b.ReportMetric(heap/float64(iters*servers), "heapB/server")
}

// benchLargeText is the text of the large results: 1 MiB of JSON-safe bytes.
var benchLargeText = strings.Repeat("abcdefghijklmnopqrstuvwxyz012345", 1<<15)

// benchReplier is the floor of the large-message benchmarks: a raw server
// on a net.Pipe that reads each request line and answers a frame made of
// head, the request's id and tail, built in one append like any server's.
// With keep set it also keeps a copy of every line it reads and writes, in
// memory of its own, as the mock's journal does: the floor of a server
// that must remember what crossed the wire (the "floor-keeping" rows).
type benchReplier struct {
	head, tail []byte
	keep       bool
}

func (r benchReplier) dial(tb testing.TB) (net.Conn, func()) {
	client, server := net.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer server.Close()
		rd := bufio.NewReaderSize(server, 2<<20)
		var out []byte
		var kept [][]byte
		for {
			line, err := rd.ReadSlice('\n')
			if err != nil {
				runtime.KeepAlive(kept)
				return
			}
			id, ok := benchResponseID(line)
			if r.keep {
				kept = append(kept, bytes.Clone(line))
			}
			if !ok {
				continue // a notification
			}
			if r.keep {
				out = nil // a new frame each time, kept
			}
			out = append(strconv.AppendInt(append(out[:0], r.head...), id, 10), r.tail...)
			if r.keep {
				kept = append(kept, out)
			}
			if _, err := server.Write(out); err != nil {
				return
			}
		}
	}()
	return client, func() { <-done }
}

// benchLargeClient is a raw client whose reader holds a large line; it
// completes the handshake when handshake is set.
func benchLargeClient(b *testing.B, t benchTarget, handshake bool) *benchClient {
	conn, wait := t.dial(b)
	b.Cleanup(func() { conn.Close(); wait() })
	c := newBenchClient(conn)
	c.r = bufio.NewReaderSize(conn, 2<<20)
	if handshake {
		if err := c.handshake(); err != nil {
			b.Fatal(err)
		}
	}
	return c
}

// BenchmarkScaleLargeResult: a tools/call answered with 1 MiB of text,
// beside a raw server answering the same bytes; "stateless" is the same
// call in the 2026-07-28 era, whose result the mock decorates (resultType,
// its serverInfo in _meta).
func BenchmarkScaleLargeResult(b *testing.B) {
	tail, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": benchLargeText}}})
	for _, name := range []string{"mcptest", "stateless", "floor", "floor-keeping"} {
		b.Run(name, func(b *testing.B) {
			benchNoLeaks(b)
			var t benchTarget = benchReplier{head: []byte(`{"jsonrpc":"2.0","id":`), tail: append(append([]byte(`,"result":`), tail...), "}\n"...), keep: name == "floor-keeping"}
			if !strings.HasPrefix(name, "floor") {
				t = benchServerWith(mcptest.NewServer(b).WithTools(mcptest.NewTool("echo").ReturnsText(benchLargeText)))
			}
			c := benchLargeClient(b, t, name != "stateless")
			call := benchToolCallTail
			if name == "stateless" {
				call = benchStatelessToolCallTail
			}
			b.SetBytes(int64(len(benchLargeText)))
			b.ReportAllocs()
			for b.Loop() {
				if err := c.call(benchToolCallHead, call); err != nil {
					b.Fatal(err)
				}
				if len(c.last) < len(benchLargeText) {
					b.Fatalf("a response of %d bytes, want the 1 MiB text", len(c.last))
				}
			}
		})
	}
}

// BenchmarkScaleLargeArguments: a tools/call whose arguments hold 1 MiB of
// text, beside a raw server that reads the same line and answers.
// "journal-limit" is the mock with Options{JournalLimit: 4096}: the journal
// keeps 4 KiB of each frame, so what a call's frame occupied is garbage
// by the next call (in the mock row, the journal keeps every frame).
// "schema" is the mock with a tool whose inputSchema the arguments are
// validated against (tools/arguments-schema), as most real tools have.
// "stateless" is the mock in the 2026-07-28 era: no handshake, and the
// request's _meta after the arguments, where a lookup that walks params
// from its start would read the megabyte again for each _meta key.
func BenchmarkScaleLargeArguments(b *testing.B) {
	tail := []byte(`,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` + benchLargeText + `"}}}` + "\n")
	for _, name := range []string{"mcptest", "schema", "journal-limit", "stateless", "floor", "floor-keeping"} {
		b.Run(name, func(b *testing.B) {
			benchNoLeaks(b)
			var t benchTarget = benchReplier{head: []byte(`{"jsonrpc":"2.0","id":`), tail: []byte(`,"result":{"content":[{"type":"text","text":"hi"}]}}` + "\n"), keep: name == "floor-keeping"}
			tail := tail
			switch name {
			case "mcptest":
				t = newBenchMcptest(b)
			case "journal-limit":
				m := newBenchMcptest(b)
				m.srv.WithOptions(mcptest.Options{JournalLimit: 4096})
				t = m
			case "stateless":
				t = newBenchMcptest(b)
				tail = benchStatelessLargeTail
			case "schema":
				srv := mcptest.NewServer(b).WithTools(mcptest.NewTool("echo").ReturnsText("hi").
					WithInputSchema(map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}, "required": []string{"text"}}))
				b.Cleanup(func() {
					if vs := srv.Violations(); len(vs) > 0 {
						b.Errorf("want the arguments to satisfy the schema, got %v", vs[0])
					}
				})
				t = benchServerWith(srv)
			}
			c := benchLargeClient(b, t, name != "stateless")
			b.SetBytes(int64(len(benchLargeText)))
			b.ReportAllocs()
			for b.Loop() {
				if err := c.call(benchToolCallHead, tail); err != nil {
					b.Fatal(err)
				}
			}
			if !bytes.Contains(c.last, []byte(`"result":`)) {
				b.Fatalf("the call was not answered with a result: %.300s", c.last)
			}
		})
	}
}

// benchStatelessLargeTail is the large tools/call of the 2026-07-28 era,
// its _meta last.
var benchStatelessLargeTail = []byte(`,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` + benchLargeText +
	`"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},` +
	`"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"},"io.modelcontextprotocol/logLevel":"info"}}}` + "\n")

// BenchmarkScaleTranscript: Transcript of a journal of 1,000 and of 4,000
// sessions (each a handshake and a ping), reported per session: linear
// when the two agree.
func BenchmarkScaleTranscript(b *testing.B) {
	for _, sessions := range []int{1000, 4000} {
		b.Run(fmt.Sprintf("sessions=%d", sessions), func(b *testing.B) {
			benchNoLeaks(b)
			t := newBenchMcptest(b)
			for range sessions {
				conn, wait := t.dial(b)
				c := newBenchClient(conn)
				err := c.handshake()
				if err == nil {
					err = c.ping()
				}
				conn.Close()
				wait()
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				if tr := t.srv.Transcript(); len(tr) == 0 {
					b.Fatal("empty transcript")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*sessions), "ns/session")
		})
	}
}

// BenchmarkScaleRequestID: a session (dial, handshake, one ping, close)
// whose ping has the id 2 or 16,777,215: the memory the session keeps for
// its ids must not depend on how large they are.
func BenchmarkScaleRequestID(b *testing.B) {
	for _, id := range []int64{2, 16777215} {
		b.Run(fmt.Sprintf("id=%d", id), func(b *testing.B) {
			benchNoLeaks(b)
			t := newBenchMcptest(b)
			b.ReportAllocs()
			for b.Loop() {
				conn, wait := t.dial(b)
				c := newBenchClient(conn)
				c.nextID = id
				err := c.handshake()
				if err == nil {
					err = c.ping()
				}
				conn.Close()
				wait()
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkScaleFaults: a tools/call round trip with faults installed that
// cannot act on it (other methods), beside the same without faults: one
// on the client's requests (Delay), one on the mock's messages (SetField),
// and five of both kinds.
func BenchmarkScaleFaults(b *testing.B) {
	sets := []struct {
		name   string
		faults []mcptest.Fault
	}{
		{"none", nil},
		{"inbound", []mcptest.Fault{fault.Delay("prompts/get", time.Hour)}},
		{"outbound", []mcptest.Fault{fault.SetField("prompts/get", "result.x", 1)}},
		{"five", []mcptest.Fault{
			fault.Delay("prompts/get", time.Hour),
			fault.ReplaceWithJSONRPCError("resources/read", -32000, "down", nil),
			fault.SetField("prompts/get", "result.x", 1),
			fault.WrongID("resources/read"),
			fault.Drop("prompts/list"),
		}},
	}
	for _, set := range sets {
		b.Run("faults="+set.name, func(b *testing.B) {
			benchNoLeaks(b)
			srv := mcptest.NewServer(b).WithTools(mcptest.NewTool("echo").ReturnsText("hi"))
			for _, f := range set.faults {
				srv.WithFaults(f.Optional())
			}
			c := benchOpen(b, benchServerWith(srv))
			b.ReportAllocs()
			for b.Loop() {
				if err := c.callTool(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkScaleJournalMemory: what the journal keeps per message (live
// heap after GC divided by the messages journaled) over sessions of 10,000
// messages: tools/call round trips of about 90 and 80 bytes a message.
func BenchmarkScaleJournalMemory(b *testing.B) {
	benchNoLeaks(b)
	const messages = 10000
	var heap, frames float64
	iters := 0
	for b.Loop() {
		b.StopTimer()
		scope := &benchIterationTB{TB: b}
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		b.StartTimer()
		srv := mcptest.NewServer(scope).WithTools(mcptest.NewTool("echo").ReturnsText("hi"))
		conn, wait := benchServerWith(srv).dial(scope)
		c := newBenchClient(conn)
		err := c.handshake()
		for err == nil && srv.Journal().Len() < messages {
			err = c.callTool()
		}
		conn.Close()
		wait()
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		n := srv.Journal().Len()
		heap += float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(n)
		for _, m := range srv.Journal().All() {
			frames += float64(len(m.Raw())) / float64(n)
		}
		iters++
		runtime.KeepAlive(srv)
		scope.runCleanups()
		b.StartTimer()
	}
	b.ReportMetric(heap/float64(iters), "heapB/message")
	b.ReportMetric(frames/float64(iters), "frameB/message")
}
