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
	"sync"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/mcptest"
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
	return &benchMcptest{srv: mcptest.NewServer(tb).WithTool(mcptest.NewTool("echo").ReturnsText("hi"))}
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

const benchIdleSessions = 1000

// BenchmarkIdleSessions opens 1,000 sessions on one server (each Dial or
// Connect, initialize, notifications/initialized, and a ping to be sure the
// notification was handled) and keeps them open. ns/op, B/op and allocs/op
// are for opening all 1,000; the custom metrics are what each idle open
// session holds: live heap (HeapAlloc after GC, client end included),
// goroutine stacks (StackInuse) and goroutines.
func BenchmarkIdleSessions(b *testing.B) {
	for _, name := range []string{"mcptest", "gosdk"} {
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
				t := newBenchTarget(scope, name)
				runtime.GC()
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				g0 := runtime.NumGoroutine()
				b.StartTimer()

				conns := make([]net.Conn, 0, benchIdleSessions)
				waits := make([]func(), 0, benchIdleSessions)
				closeAll := func() {
					for i, conn := range conns {
						conn.Close()
						waits[i]()
					}
					conns, waits = conns[:0], waits[:0]
					scope.runCleanups()
				}
				for range benchIdleSessions {
					conn, wait := t.dial(scope)
					conns, waits = append(conns, conn), append(waits, wait)
					c := newBenchClient(conn) // dropped after the handshake
					err := c.handshake()
					if err == nil {
						err = c.ping()
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
				runtime.KeepAlive(t)
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
