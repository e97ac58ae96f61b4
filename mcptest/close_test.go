package mcptest_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/mcptest"
	"go.uber.org/goleak"
)

// closeBudget bounds the waits of the Close tests: Close must end long
// before it, and a Close that hangs fails the test instead of blocking it
// until go test's timeout.
const closeBudget = 30 * time.Second

// await waits for ch, failing the test naming what did not happen.
func await[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(closeBudget):
		t.Fatalf("want %s within %v, it did not happen", what, closeBudget)
		var zero T
		return zero
	}
}

// TestCloseFromHandler: a Handler that calls Close ends the server — every
// session closed, every other handler cancelled and returned — and Close
// returns to it instead of waiting for itself. It once deadlocked for good.
func TestCloseFromHandler(t *testing.T) {
	var otherEnded atomic.Bool
	started := make(chan struct{})
	closed := make(chan bool, 1)
	var srv *mcptest.Server
	srv = mcptest.NewServer(t).WithTools(
		mcptest.NewTool("wait").HandledBy(func(ctx context.Context, _ *mcptest.Request) mcptest.Reply {
			close(started)
			<-ctx.Done()
			otherEnded.Store(true)
			return mcptest.TextResult("cancelled")
		}),
		mcptest.NewTool("shutdown").HandledBy(func(context.Context, *mcptest.Request) mcptest.Reply {
			srv.Close()
			closed <- otherEnded.Load()
			return mcptest.TextResult("closed")
		}))
	c := dialRaw(t, srv)
	other := dialRaw(t, srv)
	c.handshake(t, "2025-11-25")
	other.handshake(t, "2025-11-25")
	other.send(rawRequest("1", "tools/call", `{"name":"wait"}`))
	await(t, started, "the wait tool's handler to start")
	c.send(rawRequest("2", "tools/call", `{"name":"shutdown"}`))
	if !await(t, closed, "Close called from a Handler to return") {
		t.Errorf("want the other handler cancelled and returned before Close returned to the calling handler")
	}
	for _, sess := range srv.Sessions() {
		if !sessionEnded(sess) {
			t.Errorf("want session %d closed by Close", sess.Number())
		}
	}
	srv.Close() // the test's own Close waits for the calling handler too
	if n := len(srv.Journal().All().Responses("tools/call")); n != 0 {
		t.Errorf("want no tools/call answered after Close, got %d", n)
	}
}

// TestCloseConcurrentCallers: every caller of Close waits for the same
// end; a second caller does not return while a handler is still running.
// It runs in a synctest bubble (the mock's pipes, timers and waits are
// all inside it), so that synctest.Wait tells when the three callers are
// blocked in Close.
func TestCloseConcurrentCallers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var ended atomic.Bool
		cancelled, release := make(chan struct{}), make(chan struct{})
		srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("slow").HandledBy(
			func(ctx context.Context, _ *mcptest.Request) mcptest.Reply {
				<-ctx.Done()
				close(cancelled)
				<-release // it takes a while to wind down, within the grace period
				ended.Store(true)
				return mcptest.TextResult("done")
			}))
		c := dialRaw(t, srv)
		c.handshake(t, "2025-11-25")
		c.send(rawRequest("1", "tools/call", `{"name":"slow"}`))
		srv.WaitFor(t, mcptest.ToolCall("slow", nil))

		returned := make(chan bool, 3)
		closeAndSee := func() { srv.Close(); returned <- ended.Load() }
		go closeAndSee()
		await(t, cancelled, "Close to cancel the handler's context")
		go closeAndSee()
		go closeAndSee()
		synctest.Wait() // every goroutine blocked: the handler on release, the three callers in Close
		if len(returned) != 0 {
			t.Errorf("%d of 3 Close calls returned while the handler was still running", len(returned))
		}
		close(release)
		for i := range 3 {
			if !await(t, returned, "every Close to return") {
				t.Errorf("Close %d returned while the handler was still running", i+1)
			}
		}
	})
}

// TestCloseGrace: a handler that ignores its context past the grace
// period fails the test, named with its tool and method, and Close
// returns without it; what that handler does later reaches the test no
// more.
func TestCloseGrace(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	ft := faketb.New(t)
	release, done := make(chan struct{}), make(chan struct{})
	srv := mcptest.NewServer(ft).WithOptions(mcptest.Options{CloseGrace: 50 * time.Millisecond}).WithTools(
		mcptest.NewTool("stubborn").HandledBy(func(context.Context, *mcptest.Request) mcptest.Reply {
			defer close(done)
			<-release                         // ignores ctx
			return mcptest.Result("not JSON") // a broken reply: it would fail the test, were it still running
		}))
	c := dialRaw(t, srv)
	c.handshake(t, "2025-11-25")
	c.send(rawRequest("7", "tools/call", `{"name":"stubborn"}`))
	srv.WaitFor(t, mcptest.ToolCall("stubborn", nil))

	returned := make(chan struct{})
	go func() { srv.Close(); close(returned) }()
	await(t, returned, "Close to return once the grace period is over")
	errs := ft.Errors()
	if len(errs) != 1 || !strings.Contains(errs[0], `the Handler of tool "stubborn" (tools/call id 7, session 1)`) ||
		!strings.Contains(errs[0], "Options.CloseGrace") {
		t.Fatalf("want one error naming the stuck handler, its method and Options.CloseGrace, got %s", ft.Report())
	}
	srv.Close() // later callers return too
	close(release)
	await(t, done, "the stubborn handler to return once released")
	goleak.VerifyNone(t, ignore) // waits for the handler's goroutine to end
	if got := ft.Errors(); len(got) != 1 {
		t.Errorf("want nothing reported after Close gave up on the handler, got %q", got[1:])
	}
}

// TestCloseGraceIsAnOption: a negative grace fails the test, naming the field.
func TestCloseGraceIsAnOption(t *testing.T) {
	ft := faketb.New(t)
	if ft.Run(func() { mcptest.NewServer(ft).WithOptions(mcptest.Options{CloseGrace: -time.Second}) }) {
		t.Fatalf("want a negative CloseGrace to fail the test")
	}
	if got := ft.FatalOutput(); !strings.Contains(got, "WithOptions") || !strings.Contains(got, "CloseGrace -1s is negative") {
		t.Errorf("want the failure to name WithOptions, the field and the reason, got %q", got)
	}
}

// TestCancelWithSharedID: two in-flight requests share an id (a
// violation); the first to finish must not take the second's in-flight
// entry with it, so a later notifications/cancelled still reaches the
// second, which is then never answered.
func TestCancelWithSharedID(t *testing.T) {
	started := make(chan string, 2)
	cancelled := make(chan string, 2)
	release := make(chan struct{})
	srv := ruleServer(t).ExpectViolation("jsonrpc/id-unique").Handle("x/work",
		func(ctx context.Context, req *mcptest.Request) mcptest.Reply {
			n := req.Message.Get("params.n").String()
			started <- n
			if n == "1" {
				<-release
				return mcptest.Result(`{"n":1}`)
			}
			<-ctx.Done()
			cancelled <- n
			return mcptest.Result(`{"n":2}`)
		})
	c := dialRaw(t, srv)
	c.handshake(t, "2025-11-25")
	c.send(rawRequest("5", "x/work", `{"n":1}`))
	await(t, started, "the first request to reach its handler")
	c.send(rawRequest("5", "x/work", `{"n":2}`))
	await(t, started, "the second request to reach its handler")
	close(release)
	if got := c.recvJSON(t); got.Get("id").Raw != "5" || got.Get("result.n").Int() != 1 {
		t.Fatalf("want the first request answered, got %s", got.Raw)
	}
	c.notify("notifications/cancelled", `{"requestId":5,"reason":"no longer needed"}`)
	if got := await(t, cancelled, "the cancel to reach the second request's handler"); got != "2" {
		t.Fatalf("want the second request cancelled, got %q", got)
	}
	c.ping(t, "6")
	srv.Close()
	if n := len(srv.Journal().All().Responses("x/work")); n != 1 {
		t.Errorf("want only the first request answered, got %d answers:\n%s", n, srv.Transcript())
	}
}

// cutWriter is a connection whose writes fail: after the first n bytes
// of each write, or at once when n is 0. Reads come from a pipe the test
// writes to.
type cutWriter struct {
	*io.PipeReader
	n int
}

func (c cutWriter) Write(b []byte) (int, error) {
	return min(c.n, len(b)), errors.New("connection reset by peer")
}

// TestJournalTellsFailedWrites: a reply whose write fails is journaled as
// what went on the wire: the bytes written before the failure ("cut after
// n of m bytes"), or nothing ("never delivered"); it no longer says the
// reply was sent.
func TestJournalTellsFailedWrites(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{10, "cut after 10 of "}, {0, "never delivered"}} {
		srv := mcptest.NewServer(t).IgnoreViolations()
		r, w := io.Pipe()
		served := make(chan error, 1)
		go func() { served <- srv.Serve(context.Background(), cutWriter{r, tc.n}) }()
		if _, err := io.WriteString(w, rawRequest("1", "ping", "")+"\n"); err != nil {
			t.Fatal(err)
		}
		srv.WaitFor(t, mcptest.Matcher{Description: "the reply to ping", Match: func(m mcptest.Message) bool {
			return m.Direction == mcptest.FromServer && m.ID == "1"
		}})
		_ = w.Close()
		if err := await(t, served, "Serve to return at EOF"); err != nil {
			t.Fatalf("want Serve to return nil at EOF, got %v", err)
		}
		reply := srv.Journal().All().From(mcptest.FromServer)
		if len(reply) != 1 {
			t.Fatalf("want one message from the mock, got %v", reply)
		}
		m := reply[0]
		if m.Kind != mcptest.KindInvalid || !strings.HasPrefix(m.Problem, tc.want) {
			t.Errorf("n=%d: want the reply journaled as %q, got %s", tc.n, tc.want, m)
		}
		if tc.n > 0 && m.Raw() != `{"jsonrpc"` {
			t.Errorf("want the 10 bytes that went out, got %q", m.Raw())
		}
	}
}
