package mcptest

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// pipeWaitTimeout bounds every wait of these tests: a broken pipe fails the
// test instead of hanging it.
const pipeWaitTimeout = 5 * time.Second

type ioResult struct {
	n   int
	err error
	b   []byte
}

// readAsync starts a Read of up to size bytes on c and returns where its
// result arrives.
func readAsync(c net.Conn, size int) <-chan ioResult {
	ch := make(chan ioResult, 1)
	go func() {
		b := make([]byte, size)
		n, err := c.Read(b)
		ch <- ioResult{n, err, b[:n]}
	}()
	return ch
}

func awaitRead(t *testing.T, ch <-chan ioResult, what string) ioResult {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(pipeWaitTimeout):
		t.Fatalf("%s: want the Read to return within %v, it is still blocked", what, pipeWaitTimeout)
		return ioResult{}
	}
}

func mustWrite(t *testing.T, c net.Conn, s string) {
	t.Helper()
	if n, err := c.Write([]byte(s)); n != len(s) || err != nil {
		t.Fatalf("Write(%q): want %d, nil; got %d, %v", s, len(s), n, err)
	}
}

func mustRead(t *testing.T, c net.Conn, size int, want string) {
	t.Helper()
	b := make([]byte, size)
	n, err := c.Read(b)
	if err != nil || string(b[:n]) != want {
		t.Fatalf("Read(%d bytes): want %q, nil; got %q, %v", size, want, b[:n], err)
	}
}

func TestPipeReadWrite(t *testing.T) {
	client, server := newPipe("client-1", "mcptest-1")
	defer client.Close()
	defer server.Close()
	mustWrite(t, client, "hello\n")
	mustWrite(t, client, "world\n")
	mustRead(t, server, 3, "hel")          // a short buffer takes what fits
	mustRead(t, server, 64, "lo\nworld\n") // the rest, both writes
	mustWrite(t, server, "back\n")
	mustRead(t, client, 64, "back\n")
}

func TestPipeZeroLengthReadWithData(t *testing.T) {
	client, server := newPipe("c", "s")
	defer client.Close()
	defer server.Close()
	mustWrite(t, client, "x")
	if n, err := server.Read([]byte{}); n != 0 || err != nil {
		t.Fatalf("Read(empty): want 0, nil while data is buffered; got %d, %v", n, err)
	}
	mustRead(t, server, 1, "x")
}

func TestPipeAddrs(t *testing.T) {
	client, server := newPipe("client-7", "mcptest-7")
	defer client.Close()
	defer server.Close()
	for _, c := range []struct {
		got  net.Addr
		want string
	}{{client.LocalAddr(), "client-7"}, {client.RemoteAddr(), "mcptest-7"}, {server.LocalAddr(), "mcptest-7"}, {server.RemoteAddr(), "client-7"}} {
		if c.got.String() != c.want || c.got.Network() != "mcptest" {
			t.Errorf("want address mcptest/%s, got %s/%s", c.want, c.got.Network(), c.got.String())
		}
	}
}

// TestPipeWriteNeverBlocks: a client may write many requests before it
// reads anything; nothing waits for the other end.
func TestPipeWriteNeverBlocks(t *testing.T) {
	client, server := newPipe("c", "s")
	defer client.Close()
	defer server.Close()
	chunk := bytes.Repeat([]byte("0123456789abcdef"), 64<<10) // 1 MiB
	for range 8 {
		if _, err := client.Write(chunk); err != nil {
			t.Fatalf("Write: want nil with no reader, got %v", err)
		}
	}
	client.Close()
	got, err := io.ReadAll(server)
	if err != nil || len(got) != 8*len(chunk) || !bytes.Equal(got[:len(chunk)], chunk) {
		t.Fatalf("ReadAll: want 8 MiB back then EOF, got %d bytes, %v", len(got), err)
	}
}

func TestPipeCloseDrainsThenEOF(t *testing.T) {
	client, server := newPipe("c", "s")
	defer server.Close()
	mustWrite(t, client, "last words\n")
	if err := client.Close(); err != nil {
		t.Fatalf("Close: want nil, got %v", err)
	}
	mustRead(t, server, 64, "last words\n")
	for i := range 2 {
		if n, err := server.Read(make([]byte, 8)); n != 0 || err != io.EOF {
			t.Fatalf("Read %d after the peer closed and the buffer drained: want 0, io.EOF; got %d, %v", i, n, err)
		}
	}
	if _, err := server.Write([]byte("anyone?")); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("Write to a closed peer: want io.ErrClosedPipe, got %v", err)
	}
	if _, err := client.Read(make([]byte, 8)); !errors.Is(err, net.ErrClosed) || !errors.Is(err, fs.ErrClosed) {
		t.Errorf("Read on a closed end: want net.ErrClosed and fs.ErrClosed, got %v", err)
	}
	if _, err := client.Write([]byte("x")); !errors.Is(err, net.ErrClosed) {
		t.Errorf("Write on a closed end: want net.ErrClosed, got %v", err)
	}
	if err := client.Close(); err != nil {
		t.Errorf("second Close: want nil (idempotent), got %v", err)
	}
}

func TestPipeCloseKeepsWhatThisEndDidNotRead(t *testing.T) {
	client, server := newPipe("c", "s")
	defer server.Close()
	mustWrite(t, server, "unread")
	client.Close()
	buf := make([]byte, 8)
	if n, err := client.Read(buf); err != nil || string(buf[:n]) != "unread" {
		t.Fatalf("Read after Close: want what had arrived (\"unread\"), got %q, %v", buf[:n], err)
	}
	if n, err := client.Read(buf); n != 0 || !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Read after Close, drained: want 0, net.ErrClosed; got %d, %v", n, err)
	}
	if _, err := server.Write([]byte("more")); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("Write towards a closed reader: want io.ErrClosedPipe, got %v", err)
	}
}

func TestPipeBlockedReadUnblockedByPeerClose(t *testing.T) {
	client, server := newPipe("c", "s")
	defer server.Close()
	res := readAsync(server, 8)
	client.Close()
	if r := awaitRead(t, res, "peer Close"); r.n != 0 || r.err != io.EOF {
		t.Fatalf("blocked Read when the peer closes: want 0, io.EOF; got %d, %v", r.n, r.err)
	}
}

func TestPipeBlockedReadUnblockedByOwnClose(t *testing.T) {
	client, server := newPipe("c", "s")
	defer client.Close()
	res := readAsync(server, 8)
	server.Close()
	if r := awaitRead(t, res, "own Close"); r.n != 0 || !errors.Is(r.err, net.ErrClosed) {
		t.Fatalf("blocked Read when its own end closes: want 0, net.ErrClosed; got %d, %v", r.n, r.err)
	}
}

func TestPipeBlockedReadGetsData(t *testing.T) {
	client, server := newPipe("c", "s")
	defer client.Close()
	defer server.Close()
	res := readAsync(server, 8)
	mustWrite(t, client, "ping")
	if r := awaitRead(t, res, "Write"); string(r.b) != "ping" || r.err != nil {
		t.Fatalf("blocked Read when data arrives: want %q, nil; got %q, %v", "ping", r.b, r.err)
	}
}

func isTimeoutErr(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) && errors.As(err, &ne) && ne.Timeout()
}

func TestPipeReadDeadlineInThePast(t *testing.T) {
	client, server := newPipe("c", "s")
	defer client.Close()
	defer server.Close()
	client.SetReadDeadline(time.Now().Add(-time.Second))
	if n, err := client.Read(make([]byte, 8)); n != 0 || !isTimeoutErr(err) {
		t.Fatalf("Read past its deadline: want 0, os.ErrDeadlineExceeded (a net.Error timeout); got %d, %v", n, err)
	}
	// Clearing the deadline makes Read work again.
	client.SetReadDeadline(time.Time{})
	mustWrite(t, server, "ok")
	mustRead(t, client, 8, "ok")
}

func TestPipeReadDeadlineUnblocksBlockedRead(t *testing.T) {
	client, server := newPipe("c", "s")
	defer client.Close()
	defer server.Close()
	res := readAsync(client, 8)
	client.SetReadDeadline(time.Now()) // while the Read is (or is about to be) blocked
	if r := awaitRead(t, res, "SetReadDeadline(now)"); !isTimeoutErr(r.err) {
		t.Fatalf("blocked Read when its deadline is set to now: want os.ErrDeadlineExceeded, got %d, %v", r.n, r.err)
	}
}

func TestPipeReadDeadlineInTheNearFuture(t *testing.T) {
	client, server := newPipe("c", "s")
	defer client.Close()
	defer server.Close()
	dl := time.Now().Add(20 * time.Millisecond)
	client.SetReadDeadline(dl)
	r := awaitRead(t, readAsync(client, 8), "a deadline 20ms away")
	if !isTimeoutErr(r.err) {
		t.Fatalf("Read with nothing to read: want os.ErrDeadlineExceeded at the deadline, got %d, %v", r.n, r.err)
	}
	if now := time.Now(); now.Before(dl) {
		t.Errorf("Read: want it to give up at the deadline, not %v before", dl.Sub(now))
	}
}

func TestPipeReadDeadlineExtended(t *testing.T) {
	client, server := newPipe("c", "s")
	defer client.Close()
	defer server.Close()
	client.SetReadDeadline(time.Now().Add(-time.Second))
	client.SetReadDeadline(time.Now().Add(time.Hour))
	res := readAsync(client, 8)
	mustWrite(t, server, "late")
	if r := awaitRead(t, res, "extended deadline"); string(r.b) != "late" || r.err != nil {
		t.Fatalf("Read after the deadline was moved to the future: want %q, nil; got %q, %v", "late", r.b, r.err)
	}
}

func TestPipeReadDeadlinePassedWithDataBuffered(t *testing.T) {
	client, server := newPipe("c", "s")
	defer client.Close()
	defer server.Close()
	mustWrite(t, server, "data")
	client.SetReadDeadline(time.Now().Add(-time.Second))
	if _, err := client.Read(make([]byte, 8)); !isTimeoutErr(err) {
		t.Fatalf("Read past its deadline with data buffered: want os.ErrDeadlineExceeded, got %v", err)
	}
}

func TestPipeWriteDeadline(t *testing.T) {
	client, server := newPipe("c", "s")
	defer client.Close()
	defer server.Close()
	client.SetWriteDeadline(time.Now().Add(-time.Second))
	if n, err := client.Write([]byte("x")); n != 0 || !isTimeoutErr(err) {
		t.Fatalf("Write past its deadline: want 0, os.ErrDeadlineExceeded; got %d, %v", n, err)
	}
	client.SetDeadline(time.Time{}) // clears both
	mustWrite(t, client, "x")
	mustRead(t, server, 8, "x")
	client.SetDeadline(time.Now().Add(-time.Second)) // sets both
	if _, err := client.Write([]byte("x")); !isTimeoutErr(err) {
		t.Errorf("SetDeadline: want Write to time out too, got %v", err)
	}
	if _, err := client.Read(make([]byte, 1)); !isTimeoutErr(err) {
		t.Errorf("SetDeadline: want Read to time out too, got %v", err)
	}
}

// TestPipeConcurrentWriters: each Write arrives whole and in order, however
// many goroutines write at once.
func TestPipeConcurrentWriters(t *testing.T) {
	client, server := newPipe("c", "s")
	defer server.Close()
	const writers, lines = 8, 300
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range lines {
				if _, err := fmt.Fprintf(client, "{\"writer\":%d,\"line\":%d}\n", w, i); err != nil {
					t.Errorf("writer %d: %v", w, err)
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); client.Close() }()
	next := make([]int, writers)
	sc := bufio.NewScanner(server)
	total := 0
	for sc.Scan() {
		line := sc.Text()
		w, i := gjson.Get(line, "writer"), gjson.Get(line, "line")
		if !gjson.Valid(line) || !w.Exists() || !i.Exists() {
			t.Fatalf("want whole lines, got %q", line)
		}
		if int(i.Int()) != next[w.Int()] {
			t.Fatalf("writer %d: want line %d next, got %d", w.Int(), next[w.Int()], i.Int())
		}
		next[w.Int()]++
		total++
	}
	if sc.Err() != nil || total != writers*lines {
		t.Fatalf("want %d lines then EOF, got %d, %v", writers*lines, total, sc.Err())
	}
}

// TestPipeConcurrentCloseReadWrite: closing while both ends read and write
// ends every call with an error or data, never a panic or a hang.
func TestPipeConcurrentCloseReadWrite(t *testing.T) {
	for range 20 {
		client, server := newPipe("c", "s")
		var wg sync.WaitGroup
		for _, c := range []*pipeConn{client, server} {
			wg.Add(2)
			go func() {
				defer wg.Done()
				b := make([]byte, 16)
				for {
					if _, err := c.Read(b); err != nil {
						return
					}
				}
			}()
			go func() {
				defer wg.Done()
				for {
					if _, err := c.Write([]byte("x\n")); err != nil {
						return
					}
				}
			}()
		}
		go client.SetReadDeadline(time.Now().Add(time.Millisecond))
		client.Close()
		server.Close()
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(pipeWaitTimeout):
			t.Fatalf("want every Read and Write to return after both ends closed")
		}
	}
}

func TestDeadline(t *testing.T) {
	var d deadline
	d.init()
	if d.expired() {
		t.Fatal("a new deadline: want not expired")
	}
	d.set(time.Now().Add(-time.Second))
	if !d.expired() {
		t.Fatal("set(past): want expired")
	}
	d.set(time.Time{})
	if d.expired() || d.timer != nil {
		t.Fatal("set(zero) after expiry: want a fresh, open deadline without a timer")
	}
	d.set(time.Now().Add(time.Hour))
	if d.expired() || d.timer == nil {
		t.Fatal("set(an hour away): want open, with a timer")
	}
	d.set(time.Time{})
	if d.expired() || d.timer != nil {
		t.Fatal("set(zero) with a timer pending: want the timer stopped and the deadline open")
	}
	d.set(time.Now().Add(time.Hour))
	d.set(time.Now().Add(-time.Second))
	if !d.expired() || d.timer != nil {
		t.Fatal("set(past) with a timer pending: want expired at once, no timer")
	}
	d.set(time.Now().Add(10 * time.Millisecond))
	select {
	case <-d.wait():
	case <-time.After(pipeWaitTimeout):
		t.Fatal("set(10ms away): want wait() closed when it passes")
	}
	if !d.expired() {
		t.Fatal("after the deadline passed: want expired")
	}
	d.set(time.Now().Add(time.Hour))
	if d.expired() {
		t.Fatal("set(future) after expiry: want open again")
	}
	d.set(time.Time{})
}

func TestDeadlineConcurrent(t *testing.T) {
	var d deadline
	d.init()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				switch (g + i) % 4 {
				case 0:
					d.set(time.Now().Add(time.Duration(i%3) * time.Microsecond))
				case 1:
					d.set(time.Time{})
				case 2:
					_ = d.expired()
				case 3:
					select {
					case <-d.wait():
					default:
					}
				}
			}
		}()
	}
	wg.Wait()
	d.set(time.Time{})
	if d.expired() {
		t.Fatal("set(zero) last: want open")
	}
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name, frame   string
		kind          Kind
		method, id    string
		code          int
		problem       string // a part of it; "" for none
		parseError    bool
		jsonrpc       string // the raw "jsonrpc" member, "" when absent
		wantParamsRaw string
	}{
		{name: "request", frame: `{"jsonrpc":"2.0","id":1,"method":"ping"}`, kind: KindRequest, method: "ping", id: "1", jsonrpc: `"2.0"`},
		{name: "request with string id and params", frame: `{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"name":"x"}}`,
			kind: KindRequest, method: "tools/call", id: `"a-1"`, jsonrpc: `"2.0"`, wantParamsRaw: `{"name":"x"}`},
		{name: "request with null id", frame: `{"jsonrpc":"2.0","id":null,"method":"ping"}`, kind: KindRequest, method: "ping", id: "null", jsonrpc: `"2.0"`},
		{name: "request with a result member", frame: `{"jsonrpc":"2.0","id":2,"method":"ping","result":{}}`, kind: KindRequest, method: "ping", id: "2", jsonrpc: `"2.0"`},
		{name: "notification", frame: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, kind: KindNotification, method: "notifications/initialized", jsonrpc: `"2.0"`},
		{name: "notification without jsonrpc", frame: `{"method":"x"}`, kind: KindNotification, method: "x"},
		{name: "result", frame: `{"jsonrpc":"2.0","id":3,"result":{"ok":true}}`, kind: KindResult, id: "3", jsonrpc: `"2.0"`},
		{name: "null result", frame: `{"jsonrpc":"2.0","id":3,"result":null}`, kind: KindResult, id: "3", jsonrpc: `"2.0"`},
		{name: "error", frame: `{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"Method not found"}}`, kind: KindError, id: `"x"`, code: -32601, jsonrpc: `"2.0"`},
		{name: "error without code", frame: `{"jsonrpc":"2.0","id":4,"error":{}}`, kind: KindError, id: "4", jsonrpc: `"2.0"`},
		{name: "surrounding whitespace", frame: "  {\"jsonrpc\":\"2.0\",\"method\":\"m\"}\t", kind: KindNotification, method: "m", jsonrpc: `"2.0"`},
		{name: "jsonrpc of another version", frame: `{"jsonrpc":"1.0","id":1,"method":"m"}`, kind: KindRequest, method: "m", id: "1", jsonrpc: `"1.0"`},
		{name: "not JSON", frame: `hello`, kind: KindInvalid, problem: "not valid JSON", parseError: true},
		{name: "empty", frame: ``, kind: KindInvalid, problem: "not valid JSON", parseError: true},
		{name: "truncated", frame: `{"jsonrpc":"2.0","id":1`, kind: KindInvalid, problem: "not valid JSON", parseError: true},
		{name: "two objects", frame: `{"a":1}{"b":2}`, kind: KindInvalid, problem: "not valid JSON", parseError: true},
		{name: "trailing comma", frame: `{"jsonrpc":"2.0","method":"m",}`, kind: KindInvalid, problem: "not valid JSON", parseError: true},
		{name: "batch", frame: `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, kind: KindInvalid, problem: "batch"},
		{name: "empty batch", frame: `[]`, kind: KindInvalid, problem: "batch"},
		{name: "number", frame: `42`, kind: KindInvalid, problem: "not a JSON object"},
		{name: "string", frame: `"ping"`, kind: KindInvalid, problem: "not a JSON object"},
		{name: "null", frame: `null`, kind: KindInvalid, problem: "not a JSON object"},
		{name: "true", frame: `true`, kind: KindInvalid, problem: "not a JSON object"},
		{name: "method not a string", frame: `{"jsonrpc":"2.0","id":5,"method":5}`, kind: KindInvalid, id: "5", problem: "method is not a string", jsonrpc: `"2.0"`},
		{name: "method null", frame: `{"jsonrpc":"2.0","method":null}`, kind: KindInvalid, problem: "method is not a string", jsonrpc: `"2.0"`},
		{name: "result and error", frame: `{"jsonrpc":"2.0","id":6,"result":{},"error":{"code":1,"message":"m"}}`, kind: KindInvalid, id: "6", problem: "both result and error", jsonrpc: `"2.0"`},
		{name: "empty object", frame: `{}`, kind: KindInvalid, problem: "neither"},
		{name: "only an id", frame: `{"jsonrpc":"2.0","id":7}`, kind: KindInvalid, id: "7", problem: "neither", jsonrpc: `"2.0"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := decode([]byte(tc.frame))
			m := d.msg
			if m.Raw() != tc.frame {
				t.Errorf("Raw: want the frame unchanged %q, got %q", tc.frame, m.Raw())
			}
			if m.Kind != tc.kind || m.Method != tc.method || m.ID != tc.id {
				t.Errorf("want kind %v, method %q, id %q; got %v, %q, %q", tc.kind, tc.method, tc.id, m.Kind, m.Method, m.ID)
			}
			if tc.kind == KindError && m.ErrorCode != tc.code {
				t.Errorf("ErrorCode: want %d, got %d", tc.code, m.ErrorCode)
			}
			if d.parseError != tc.parseError {
				t.Errorf("parseError: want %v, got %v", tc.parseError, d.parseError)
			}
			if tc.problem == "" && m.Problem != "" || !strings.Contains(m.Problem, tc.problem) {
				t.Errorf("Problem: want %q, got %q", tc.problem, m.Problem)
			}
			if d.jsonrpc.Raw != tc.jsonrpc {
				t.Errorf("jsonrpc: want %s, got %s", tc.jsonrpc, d.jsonrpc.Raw)
			}
			if d.params.Raw != tc.wantParamsRaw {
				t.Errorf("params: want %s, got %s", tc.wantParamsRaw, d.params.Raw)
			}
		})
	}
}

func TestDecodeErrorCodeOfInvalidResponse(t *testing.T) {
	d := decode([]byte(`{"jsonrpc":"2.0","id":6,"result":{},"error":{"code":-32601,"message":"m"}}`))
	if d.msg.ErrorCode != 0 {
		t.Fatalf("want ErrorCode 0 for an invalid message, got %d", d.msg.ErrorCode)
	}
}

// FuzzDecode: decode never panics, keeps the frame, and its verdict is
// consistent: Invalid exactly when there is a Problem.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","method":"m","params":[]}`,
		`{"jsonrpc":"2.0","id":"x","result":{}}`, `{"jsonrpc":"2.0","id":1,"error":{"code":-1}}`,
		`[1]`, `{`, `"`, `{"id":{"id":{}}}`, "\xff", `{"method":1e400}`, strings.Repeat("[", 1000),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		d := decode(frame)
		m := d.msg
		if m.Raw() != string(frame) {
			t.Fatalf("Raw changed the frame")
		}
		if (m.Kind == KindInvalid) != (m.Problem != "") {
			t.Fatalf("want Kind invalid exactly when there is a Problem, got %v with %q", m.Kind, m.Problem)
		}
		if d.parseError && m.Kind != KindInvalid {
			t.Fatalf("a parse error must be invalid, got %v", m.Kind)
		}
		switch m.Kind {
		case KindRequest:
			if m.ID == "" || m.Method != d.method.Str {
				t.Fatalf("a request needs an id and its method, got %s", m)
			}
		case KindNotification:
			if m.ID != "" {
				t.Fatalf("a notification has no id, got %s", m)
			}
		}
		_ = m.String()
		_ = validID(d.id)
	})
}

func TestValidID(t *testing.T) {
	for raw, want := range map[string]bool{
		`1`: true, `0`: true, `-5`: true, `123456789012345678901234567890`: true,
		`"x"`: true, `""`: true, `"1"`: true,
		`1.5`: false, `1.0`: false, `1e3`: false, `2E2`: false, `null`: false, `true`: false, `false`: false,
		`{}`: false, `[1]`: false,
	} {
		if got := validID(gjson.Parse(raw)); got != want {
			t.Errorf("validID(%s): want %v, got %v", raw, want, got)
		}
	}
	if validID(gjson.Result{}) {
		t.Errorf("validID(missing): want false")
	}
}

func TestSubsetDiff(t *testing.T) {
	tests := []struct {
		name, want, got string
		exact           bool
		ok              bool
		why             string
	}{
		{name: "equal objects", want: `{"age":25}`, got: `{"age":25}`, ok: true},
		{name: "extra keys in got", want: `{"age":25}`, got: `{"age":25,"name":"x"}`, ok: true},
		{name: "extra keys with exact", want: `{"age":25}`, got: `{"age":25,"name":"x"}`, exact: true, why: `at top level: unexpected key "name"`},
		{name: "nested extra key with exact", want: `{"a":{"b":1}}`, got: `{"a":{"b":1,"c":2}}`, exact: true, why: `at "a": unexpected key "c"`},
		{name: "different value", want: `{"age":25}`, got: `{"age":30}`, why: `at "age": want 25, got 30`},
		{name: "missing key", want: `{"name":"x"}`, got: `{}`, why: `at "name": missing (want "x")`},
		{name: "nested path", want: `{"a":{"b":{"c":true}}}`, got: `{"a":{"b":{"c":false}}}`, why: `at "a.b.c": want true, got false`},
		{name: "object wanted", want: `{"a":1}`, got: `[1]`, why: `at top level: want an object, got [1]`},
		{name: "nested object wanted", want: `{"a":{"b":1}}`, got: `{"a":"b"}`, why: `at "a": want an object, got "b"`},
		{name: "array length", want: `{"tags":["a"]}`, got: `{"tags":["a","b"]}`, why: `at "tags": want ["a"], got ["a","b"]`},
		{name: "array element", want: `{"tags":["a","b"]}`, got: `{"tags":["a","c"]}`, why: `at "tags[1]": want "b", got "c"`},
		{name: "top-level array element", want: `[1,2]`, got: `[1,3]`, why: `at "[1]": want 2, got 3`},
		{name: "array elements are subsets", want: `[{"a":1}]`, got: `[{"a":1,"b":2}]`, ok: true},
		{name: "array elements with exact", want: `[{"a":1}]`, got: `[{"a":1,"b":2}]`, exact: true, why: `at "[0]": unexpected key "b"`},
		{name: "float tolerance", want: `0.3`, got: `0.30000000000000004`, ok: true},
		{name: "integer and float", want: `25`, got: `25.0`, ok: true},
		{name: "number and string", want: `25`, got: `"25"`, why: `at top level: want 25, got "25"`},
		{name: "null equals null", want: `null`, got: `null`, ok: true},
		{name: "null wanted", want: `{"a":null}`, got: `{"a":0}`, why: `at "a": want null, got 0`},
		{name: "key present as null is not missing", want: `{"a":null}`, got: `{"a":null}`, ok: true},
		{name: "booleans", want: `true`, got: `false`, why: `at top level: want true, got false`},
		{name: "long values are shortened", want: `"` + strings.Repeat("a", 100) + `"`, got: `"b"`,
			why: `at top level: want "` + strings.Repeat("a", 59) + `…, got "b"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want, err1 := parseJSONValue([]byte(tc.want))
			got, err2 := parseJSONValue([]byte(tc.got))
			if err1 != nil || err2 != nil {
				t.Fatalf("bad test JSON: %v %v", err1, err2)
			}
			ok, why := subsetDiff(want, got, "", tc.exact)
			if ok != tc.ok || why != tc.why {
				t.Errorf("subsetDiff(%s, %s, exact=%v): want %v %q, got %v %q", tc.want, tc.got, tc.exact, tc.ok, tc.why, ok, why)
			}
		})
	}
}

func TestClosest(t *testing.T) {
	tests := []struct {
		name       string
		candidates []string
		want       string
		near       bool
	}{
		{"suggest_gift", []string{"weather", "suggest_gifts"}, "suggest_gifts", true},
		{"SUGGEST_GIFTS", []string{"suggest_gifts"}, "suggest_gifts", true},
		{"get_weather", []string{"weather_get", "get_wether"}, "get_wether", true},
		{"zzzzzz", []string{"abc"}, "abc", false},
		{"x", nil, "", false},
		{"résumé", []string{"resume"}, "resume", true},
	}
	for _, tc := range tests {
		got, near := closest(tc.name, tc.candidates)
		if got != tc.want || near != tc.near {
			t.Errorf("closest(%q, %q): want %q, %v; got %q, %v", tc.name, tc.candidates, tc.want, tc.near, got, near)
		}
	}
}

func TestCursors(t *testing.T) {
	for _, off := range []int{0, 1, 50, 1 << 20} {
		c := encodeCursor("tools", off)
		if strings.Contains(c, "tools") {
			t.Errorf("encodeCursor: want an opaque cursor, got %q", c)
		}
		got, ok := decodeCursor("tools", gjson.Parse(`"`+c+`"`))
		if !ok || got != off {
			t.Errorf("decodeCursor(encodeCursor(tools, %d)): want %d, true; got %d, %v", off, off, got, ok)
		}
		if _, ok := decodeCursor("prompts", gjson.Parse(`"`+c+`"`)); ok {
			t.Errorf("decodeCursor: want a tools cursor refused for prompts")
		}
	}
	for _, raw := range []string{`""`, `"page-2"`, `"!!!"`, `2`, `null`, `{"offset":1}`,
		`"` + encodeCursor("tools", 0)[:4] + `"`,
		`"` + base64.RawURLEncoding.EncodeToString([]byte("mcptest/tools/-1")) + `"`,
		`"` + base64.RawURLEncoding.EncodeToString([]byte("mcptest/tools/x")) + `"`,
		`"` + base64.StdEncoding.EncodeToString([]byte("mcptest/tools/10")) + `"`, // padded: not the mock's encoding
	} {
		if off, ok := decodeCursor("tools", gjson.Parse(raw)); ok {
			t.Errorf("decodeCursor(%s): want refused, got offset %d", raw, off)
		}
	}
}

func TestIDSet(t *testing.T) {
	var s idSet
	for _, c := range []struct {
		id  string
		new bool
	}{
		{"1", true}, {"1", false}, {`"1"`, true}, {`"1"`, false},
		{"0", true}, {"-0", true}, {"-1", true}, {"-1", false},
		{"16777216", true}, {"16777216", false}, {"99999999999999999999", true}, {"99999999999999999999", false},
		{"1000", true}, {"1000", false}, {"999", true},
	} {
		if got := s.add(c.id); got != c.new {
			t.Errorf("add(%s): want new=%v, got %v", c.id, c.new, got)
		}
	}
}
