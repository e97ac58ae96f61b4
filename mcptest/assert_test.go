package mcptest_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/mcptest"
)

// Assertions whose answer can no longer change fail at once. Each case
// runs with a one-minute wait timeout and must come back far below it:
// proof that it did not wait for the timeout. The figures of a real run
// are in the log (go test -v -run TestAssertionsFailFast) and in
// BenchmarkAssertionFailFast; the bound here is generous on purpose, so
// that a busy machine cannot make the test flaky.

const (
	failFastTimeout = time.Minute
	failFastBound   = 10 * time.Second
)

// giftFake is a server with one tool and the one-minute timeout, reporting
// to a fake TB.
func giftFake(t *testing.T) (*faketb.TB, *mcptest.Server) {
	fake := faketb.New(t)
	srv := mcptest.NewServer(fake).
		WithOptions(mcptest.Options{WaitTimeout: failFastTimeout}).
		WithTools(mcptest.NewTool("suggest_gifts").ReturnsText("a board game"))
	return fake, srv
}

// statelessToolCall is a stateless-era tools/call of suggest_gifts.
func statelessToolCall(c *rawClient, t *testing.T, id, args string) {
	t.Helper()
	c.result(t, id, "tools/call", modernParams(`"name":"suggest_gifts","arguments":`+args))
}

func TestAssertionsFailFast(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(t *testing.T, srv *mcptest.Server) // the client, before the assertion
		assert func(srv *mcptest.Server, tb mcptest.TB) bool
		want   []string // what the failure must say
	}{
		{name: "AssertCalled, the session closed",
			setup: func(t *testing.T, srv *mcptest.Server) {
				c := dialRaw(t, srv)
				c.handshake(t, "2025-11-25")
				c.close()
			},
			assert: func(srv *mcptest.Server, tb mcptest.TB) bool { return srv.AssertCalled(tb, "tools/list") },
			want:   []string{`AssertCalled("tools/list") failed`, "it never did", "session 1 has ended"}},
		{name: "AssertToolCalled, the session closed",
			setup: func(t *testing.T, srv *mcptest.Server) {
				c := dialRaw(t, srv)
				c.handshake(t, "2025-11-25")
				c.close()
			},
			assert: func(srv *mcptest.Server, tb mcptest.TB) bool {
				return srv.AssertToolCalled(tb, "suggest_gifts", `{"age":25}`)
			},
			want: []string{`tool "suggest_gifts" was never called`, "session 1 has ended"}},
		{name: "AssertCalledTimes, two sessions closed",
			setup: func(t *testing.T, srv *mcptest.Server) {
				for range 2 {
					c := dialRaw(t, srv)
					c.discover(t, "1")
					statelessToolCall(c, t, "2", `{"age":25}`)
					c.close()
				}
			},
			assert: func(srv *mcptest.Server, tb mcptest.TB) bool { return srv.AssertCalledTimes(tb, "tools/call", 3) },
			want:   []string{"want: 3 times", "got:  2 times", "every session (1, 2) has ended"}},
		{name: "AssertOrder, the session closed",
			setup: func(t *testing.T, srv *mcptest.Server) {
				c := dialRaw(t, srv)
				c.handshake(t, "2025-11-25")
				c.close()
			},
			assert: func(srv *mcptest.Server, tb mcptest.TB) bool {
				return srv.AssertOrder(tb, "initialize", "tools/list")
			},
			want: []string{"initialize → notifications/initialized", "session 1 has ended"}},
		{name: "AssertCancelled, the session closed",
			setup: func(t *testing.T, srv *mcptest.Server) {
				c := dialRaw(t, srv)
				c.handshake(t, "2025-11-25")
				c.close()
			},
			assert: func(srv *mcptest.Server, tb mcptest.TB) bool { return srv.AssertCancelled(tb, "tools/call") },
			want:   []string{"0 notifications/cancelled", "session 1 has ended"}},
		{name: "AssertConnected, the session closed before connecting",
			setup: func(t *testing.T, srv *mcptest.Server) {
				c := dialRaw(t, srv)
				c.initialize(t, "2025-11-25")
				c.close()
			},
			assert: func(srv *mcptest.Server, tb mcptest.TB) bool { return srv.AssertConnected(tb) },
			want:   []string{"initialize answered (2025-11-25), no notifications/initialized", "session 1 has ended"}},
		{name: "AssertHandshakeCompleted, the session is stateless",
			setup: func(t *testing.T, srv *mcptest.Server) {
				c := dialRaw(t, srv)
				c.discover(t, "1")
			},
			assert: func(srv *mcptest.Server, tb mcptest.TB) bool { return srv.AssertHandshakeCompleted(tb) },
			want:   []string{"session 1 is in the stateless era", "AssertConnected", "no session can complete it any more"}},
		{name: "AssertHandshakeCompleted, a stateless-only server",
			setup: func(t *testing.T, srv *mcptest.Server) {
				srv.WithProtocolVersions("2026-07-28")
				dialRaw(t, srv)
			},
			assert: func(srv *mcptest.Server, tb mcptest.TB) bool { return srv.AssertHandshakeCompleted(tb) },
			want:   []string{"the server speaks only stateless-era versions (2026-07-28)", "WithProtocolVersions"}},
		{name: "AssertNegotiatedVersion, the version is settled",
			setup: func(t *testing.T, srv *mcptest.Server) {
				c := dialRaw(t, srv)
				c.handshake(t, "2025-06-18")
			},
			assert: func(srv *mcptest.Server, tb mcptest.TB) bool {
				return srv.AssertNegotiatedVersion(tb, "2025-11-25")
			},
			want: []string{"session 1: handshake era, protocol 2025-06-18", "settled its era and version"}},
		{name: "AssertEra, the era is settled",
			setup: func(t *testing.T, srv *mcptest.Server) {
				c := dialRaw(t, srv)
				c.discover(t, "1")
			},
			assert: func(srv *mcptest.Server, tb mcptest.TB) bool { return srv.AssertEra(tb, mcptest.EraHandshake) },
			want:   []string{"session 1: stateless era, protocol 2026-07-28", "settled its era and version"}},
		{name: "AssertEra, a misspelled era",
			setup:  func(t *testing.T, srv *mcptest.Server) { dialRaw(t, srv) },
			assert: func(srv *mcptest.Server, tb mcptest.TB) bool { return srv.AssertEra(tb, "handshek") },
			want:   []string{`AssertEra("handshek") failed`, `"handshek" is no era; did you mean "handshake"?`, "mcptest.EraHandshake"}},
		{name: "AssertEra, an era the server does not speak",
			setup: func(t *testing.T, srv *mcptest.Server) {
				srv.WithProtocolVersions(mcptest.HandshakeVersions()...)
				dialRaw(t, srv)
			},
			assert: func(srv *mcptest.Server, tb mcptest.TB) bool { return srv.AssertEra(tb, mcptest.EraStateless) },
			want:   []string{"the server speaks no version of the stateless era"}},
		{name: "AssertNegotiatedVersion, a version mcptest does not speak",
			setup: func(t *testing.T, srv *mcptest.Server) {
				c := dialRaw(t, srv)
				c.handshake(t, "2025-11-25")
			},
			assert: func(srv *mcptest.Server, tb mcptest.TB) bool {
				return srv.AssertNegotiatedVersion(tb, "2025-11-52")
			},
			want: []string{`"2025-11-52" is no version mcptest speaks; did you mean "2025-11-25"?`, "settled its era and version"}},
		{name: "AssertToolCalled, a tool nobody scripted",
			setup: func(t *testing.T, srv *mcptest.Server) {
				c := dialRaw(t, srv)
				c.handshake(t, "2025-11-25")
			},
			assert: func(srv *mcptest.Server, tb mcptest.TB) bool { return srv.AssertToolCalled(tb, "suggest_gift", nil) },
			want:   []string{`tool "suggest_gift" is not scripted (did you forget WithTools?)`, `did you mean "suggest_gifts"?`}},
		{name: "AssertToolCalled, an argument subset that is not JSON",
			setup: func(t *testing.T, srv *mcptest.Server) {
				c := dialRaw(t, srv)
				c.handshake(t, "2025-11-25")
			},
			assert: func(srv *mcptest.Server, tb mcptest.TB) bool {
				return srv.AssertToolCalled(tb, "suggest_gifts", `{"age":`)
			},
			want: []string{"the argument subset is not a JSON object", "invalid JSON"}},
		{name: "AssertToolCalled, an argument subset that is not an object",
			setup: func(t *testing.T, srv *mcptest.Server) {
				c := dialRaw(t, srv)
				c.discover(t, "1")
				statelessToolCall(c, t, "2", `{"age":25}`)
			},
			assert: func(srv *mcptest.Server, tb mcptest.TB) bool {
				return srv.AssertToolCalled(tb, "suggest_gifts", `25`)
			},
			want: []string{`got:  call #3 with {"age":25}; the argument subset is not a JSON object: want a JSON object, got 25`}},
		{name: "AssertCalled, a method MCP does not have",
			setup: func(t *testing.T, srv *mcptest.Server) {
				c := dialRaw(t, srv)
				c.handshake(t, "2025-11-25")
			},
			assert: func(srv *mcptest.Server, tb mcptest.TB) bool { return srv.AssertCalled(tb, "tools/cal") },
			want:   []string{`"tools/cal" is not a method a client sends`, `did you mean "tools/call"?`}},
		{name: "AssertCalledTimes, already past the count",
			setup: func(t *testing.T, srv *mcptest.Server) {
				c := dialRaw(t, srv)
				c.discover(t, "1")
				statelessToolCall(c, t, "2", `{"age":25}`)
				statelessToolCall(c, t, "3", `{"age":26}`)
			},
			assert: func(srv *mcptest.Server, tb mcptest.TB) bool { return srv.AssertCalledTimes(tb, "tools/call", 1) },
			want:   []string{"want: 1 time", "got:  2 times; the extra one: #5 s1 client→server request tools/call id=3", `{"name":"suggest_gifts","arguments":{"age":26}`}},
		{name: "AssertCalledTimes, a negative count",
			setup: func(t *testing.T, srv *mcptest.Server) {
				c := dialRaw(t, srv)
				c.handshake(t, "2025-11-25")
			},
			assert: func(srv *mcptest.Server, tb mcptest.TB) bool { return srv.AssertCalledTimes(tb, "tools/call", -1) },
			want:   []string{`AssertCalledTimes("tools/call", -1) failed`, "fewer than 0 times"}},
		{name: "AssertCancelled, a typo",
			setup: func(t *testing.T, srv *mcptest.Server) {
				c := dialRaw(t, srv)
				c.handshake(t, "2025-11-25")
			},
			assert: func(srv *mcptest.Server, tb mcptest.TB) bool { return srv.AssertCancelled(tb, "tools/cal") },
			want:   []string{`AssertCancelled("tools/cal") failed`, `did you mean "tools/call"?`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fake, srv := giftFake(t)
			tc.setup(t, srv)
			start := time.Now()
			var ok bool
			fake.Run(func() { ok = tc.assert(srv, fake) })
			elapsed := time.Since(start)
			t.Logf("failed after %v", elapsed)
			if ok {
				t.Fatalf("want the assertion to fail, it passed; got %s", fake.Report())
			}
			if elapsed > failFastBound {
				t.Errorf("want a failure at once (far below the %v wait timeout), it took %v", failFastTimeout, elapsed)
			}
			errs := fake.Errors()
			if len(errs) != 1 {
				t.Fatalf("want one failure, got %s", fake.Report())
			}
			for _, w := range tc.want {
				if !strings.Contains(errs[0], w) {
					t.Errorf("want the failure to say %q, got:\n%s", w, errs[0])
				}
			}
			if strings.Contains(errs[0], "Options.WaitTimeout") {
				t.Errorf("want a failure that does not blame the wait timeout, got:\n%s", errs[0])
			}
		})
	}
}

// TestAssertionsWaitForWhatCanStillHappen: with a session open, an
// assertion waits for the client, and the wait timeout ends it.
func TestAssertionsWaitForWhatCanStillHappen(t *testing.T) {
	t.Run("the message comes", func(t *testing.T) {
		fake, srv := giftFake(t)
		c := dialRaw(t, srv)
		c.handshake(t, "2025-11-25")
		done := make(chan bool)
		go func() {
			var ok bool
			fake.Run(func() { ok = srv.AssertToolCalled(fake, "suggest_gifts", `{"age":25}`) })
			done <- ok
		}()
		c.result(t, "1", "tools/call", `{"name":"suggest_gifts","arguments":{"age":25,"budget":10}}`)
		if !<-done {
			t.Fatalf("want AssertToolCalled to pass once the call came, got %s", fake.Report())
		}
	})
	t.Run("the session ends while it waits", func(t *testing.T) {
		fake, srv := giftFake(t)
		c := dialRaw(t, srv)
		c.handshake(t, "2025-11-25")
		done := make(chan bool)
		go func() {
			var ok bool
			fake.Run(func() { ok = srv.AssertCalled(fake, "tools/list") })
			done <- ok
		}()
		c.close()
		if <-done {
			t.Fatalf("want AssertCalled to fail once the session ended, got %s", fake.Report())
		}
		if errs := fake.Errors(); len(errs) != 1 || !strings.Contains(errs[0], "session 1 has ended") {
			t.Errorf("want a failure saying the session ended, got %s", fake.Report())
		}
	})
	t.Run("the timeout passes", func(t *testing.T) {
		fake := faketb.New(t)
		srv := mcptest.NewServer(fake).WithOptions(mcptest.Options{WaitTimeout: 20 * time.Millisecond})
		c := dialRaw(t, srv)
		c.handshake(t, "2025-11-25")
		if srv.AssertCalled(fake, "tools/list") {
			t.Fatalf("want AssertCalled to fail, nothing was sent")
		}
		if errs := fake.Errors(); len(errs) != 1 || !strings.Contains(errs[0], "it never did, within 20ms (Options.WaitTimeout)") {
			t.Errorf("want a failure naming the wait timeout, got %s", fake.Report())
		}
	})
}

// TestWaitForStopsTheTest: WaitFor is require-style, Await is not.
func TestWaitForStopsTheTest(t *testing.T) {
	fake, srv := giftFake(t)
	c := dialRaw(t, srv)
	c.handshake(t, "2025-11-25")
	c.ping(t, "1")
	var got mcptest.Message
	if !fake.Run(func() { got = srv.WaitFor(fake, mcptest.ClientSent("ping")) }) {
		t.Fatalf("WaitFor: want a match to return, got %s", fake.Report())
	}
	if got.Method != "ping" || got.ID != "1" {
		t.Errorf("WaitFor: want the ping id 1, got %v", got)
	}
	reached := false
	if fake.Run(func() { srv.WaitFor(fake, mcptest.ToolCall("suggest_gift", nil)); reached = true }) || reached {
		t.Fatalf("WaitFor: want a failure to stop the test, the code after it ran; got %s", fake.Report())
	}
	if msg := fake.FatalOutput(); !strings.Contains(msg, "mcptest: WaitFor failed") || !strings.Contains(msg, `did you mean "suggest_gifts"?`) {
		t.Errorf("WaitFor: want the failure to name the call and the closest tool, got %q", msg)
	}
	c.close()
	fake2, srv2 := giftFake(t)
	c2 := dialRaw(t, srv2)
	c2.handshake(t, "2025-11-25")
	c2.close()
	if fake2.Run(func() { srv2.WaitFor(fake2, mcptest.ClientSent("tools/list")) }) {
		t.Fatalf("WaitFor: want a failure once the session ended")
	}
	if msg := fake2.FatalOutput(); !strings.Contains(msg, "session 1 has ended") {
		t.Errorf("WaitFor: want the failure to say the session ended, got %q", msg)
	}
}

// TestFailureShowsArgumentsBeforeMeta: the one-line journal entries of a
// failure show a stateless request's arguments, not only its _meta.
func TestFailureShowsArgumentsBeforeMeta(t *testing.T) {
	fake, srv := giftFake(t)
	c := dialRaw(t, srv)
	c.discover(t, "1")
	statelessToolCall(c, t, "2", `{"age":8}`)
	c.close()
	if srv.AssertToolCalled(fake, "suggest_gifts", `{"age":25}`) {
		t.Fatalf("want AssertToolCalled to fail")
	}
	errs := fake.Errors()
	if len(errs) != 1 {
		t.Fatalf("want one failure, got %s", fake.Report())
	}
	want := `tools/call id=2  {"name":"suggest_gifts","arguments":{"age":8},"_meta":{`
	if !strings.Contains(errs[0], want) {
		t.Errorf("want the journal line %q, got:\n%s", want, errs[0])
	}
	if !strings.Contains(errs[0], `call #3 with {"age":8}: at "age": want 25, got 8`) {
		t.Errorf("want the failure to say how the arguments differed, got:\n%s", errs[0])
	}
}

// TestTranscriptOnceOnFailure: a test with two failing assertions logs its
// transcript once, at the end; the failures show one-line entries only.
func TestTranscriptOnceOnFailure(t *testing.T) {
	t.Setenv("MCPTEST_TRANSCRIPT", "")
	fake, srv := giftFake(t)
	c := dialRaw(t, srv)
	c.handshake(t, "2025-11-25")
	c.close()
	srv.AssertCalled(fake, "tools/list")
	srv.AssertToolCalled(fake, "suggest_gifts", nil)
	fake.Finish()
	frame := `{"jsonrpc":"2.0","id":"init","method":"initialize"`
	all := strings.Join(fake.Errors(), "\n") + "\n" + fake.LogOutput()
	if n := strings.Count(all, frame); n != 1 {
		t.Errorf("want the initialize frame in full once (in the transcript), got %d times:\n%s", n, all)
	}
	if n := strings.Count(fake.LogOutput(), "mcptest transcript:"); n != 1 {
		t.Errorf("want one transcript logged, got %d:\n%s", n, fake.LogOutput())
	}
}

// BenchmarkAssertionFailFast measures a failing assertion whose answer is
// settled (the session ended), with a one-minute wait timeout.
func BenchmarkAssertionFailFast(b *testing.B) {
	fake := &faketb.TB{}
	defer fake.Finish()
	srv := mcptest.NewServer(fake).WithOptions(mcptest.Options{WaitTimeout: time.Minute}).
		WithTools(mcptest.NewTool("suggest_gifts").ReturnsText("a board game"))
	c := dialRaw(b, srv)
	c.handshake(b, "2025-11-25")
	c.close()
	<-srv.Session(1).Done()
	for b.Loop() {
		srv.AssertToolCalled(fake, "suggest_gifts", `{"age":25}`)
	}
}

// TestBroadcastStatelessReports: Broadcast says in the log when a stateless
// session cannot get what it sends.
func TestBroadcastStatelessReports(t *testing.T) {
	fake, srv := giftFake(t)
	c := dialRaw(t, srv)
	c.discover(t, "1")
	if n := srv.Broadcast("notifications/tools/list_changed", nil); n != 0 {
		t.Errorf("Broadcast: want 0 sent to a stateless session with no listen stream, got %d", n)
	}
	if n := srv.Broadcast("notifications/message", `{"level":"info","data":"hi"}`); n != 0 {
		t.Errorf("Broadcast: want 0 sent to a stateless session, got %d", n)
	}
	logs := fake.LogOutput()
	for _, want := range []string{
		`Broadcast("notifications/tools/list_changed") reached 0 sessions; stateless session 1 got nothing: a stateless session gets it only on a subscriptions/listen stream that asked for toolsListChanged`,
		`Broadcast("notifications/message") reached 0 sessions; stateless session 1 got nothing: only a list_changed notification reaches a stateless session`,
	} {
		if !strings.Contains(logs, want) {
			t.Errorf("want the log to say %q, got:\n%s", want, logs)
		}
	}
}

// TestUnscriptedCallReports: a call of a tool nobody scripted is reported
// as a possible mistake of the test, not only of the client.
func TestUnscriptedCallReports(t *testing.T) {
	t.Run("a tool that is not scripted", func(t *testing.T) {
		fake, srv := giftFake(t)
		c := dialRaw(t, srv)
		c.handshake(t, "2025-11-25")
		c.call(t, "1", "tools/call", `{"name":"suggest_gift","arguments":{}}`)
		got := srv.Unmatched()
		want := `tools/call (session 1, id 1): tool "suggest_gift" is not scripted (did you forget WithTools?), or the client called a tool the server never listed; did you mean "suggest_gifts"?`
		if len(got) != 1 || got[0] != want {
			t.Errorf("Unmatched: want [%q], got %q", want, got)
		}
		if !strings.Contains(fake.LogOutput(), want) {
			t.Errorf("want the report in the log, got:\n%s", fake.LogOutput())
		}
	})
	t.Run("no tool scripted at all", func(t *testing.T) {
		fake := faketb.New(t)
		srv := mcptest.NewServer(fake).IgnoreViolations()
		c := dialRaw(t, srv)
		c.handshake(t, "2025-11-25")
		c.call(t, "1", "tools/call", `{"name":"suggest_gifts","arguments":{}}`)
		vs := srv.Violations()
		if len(vs) != 1 || vs[0].Rule != "capabilities/undeclared-method" ||
			!strings.Contains(vs[0].Detail, "nothing of it is scripted: if the client is right to call it, did you forget WithTools?") {
			t.Errorf("want one %s violation saying the test may have forgotten WithTools, got %v", "capabilities/undeclared-method", vs)
		}
	})
}

// TestAssertCalledWaitsForAnExtension: a method far from every known one
// may be an extension a client sends: it is waited for, not refused.
func TestAssertCalledWaitsForAnExtension(t *testing.T) {
	fake, srv := giftFake(t)
	c := dialRaw(t, srv)
	c.handshake(t, "2025-11-25")
	done := make(chan bool)
	go func() {
		var ok bool
		fake.Run(func() { ok = srv.AssertCalled(fake, "vendor.example/hello") })
		done <- ok
	}()
	c.notify("vendor.example/hello", `{}`)
	if !<-done {
		t.Fatalf("want AssertCalled to wait for the extension and pass, got %s", fake.Report())
	}
}

// TestAssertCalledTimesIsExact: a count that passed is checked again when
// the test ends, and a later call of the method fails the test there,
// naming the assertion's line and the extra call; the count reached
// exactly does not.
func TestAssertCalledTimesIsExact(t *testing.T) {
	t.Run("a later extra call fails at the end", func(t *testing.T) {
		fake, srv := giftFake(t)
		c := dialRaw(t, srv)
		c.handshake(t, "2025-11-25")
		c.result(t, "1", "tools/list", `{}`)
		_, _, line, _ := runtime.Caller(0)
		if !srv.AssertCalledTimes(fake, "tools/list", 1) { // line+1
			t.Fatalf("want the count of 1 to pass, got %s", fake.Report())
		}
		c.result(t, "2", "tools/list", `{"_meta":{"second":true}}`)
		if errs := fake.Errors(); len(errs) != 0 {
			t.Fatalf("want nothing reported before the end, got %s", fake.Report())
		}
		if err := srv.Verify(); err == nil || !strings.Contains(err.Error(), "AssertCalledTimes") {
			t.Errorf("want Verify to report the extra call, got %v", err)
		}
		fake.Finish()
		errs := fake.Errors()
		if len(errs) != 1 {
			t.Fatalf("want one failure at the end, got %s", fake.Report())
		}
		for _, w := range []string{
			fmt.Sprintf(`AssertCalledTimes("tools/list", 1) passed at assert_test.go:%d, but the client sent it 2 times by the end`, line+1),
			"the first extra one: #6 s1 client→server request tools/list id=2",
			`{"_meta":{"second":true}}`,
		} {
			if !strings.Contains(errs[0], w) {
				t.Errorf("want the failure to say %q, got:\n%s", w, errs[0])
			}
		}
	})
	t.Run("the exact count holds to the end", func(t *testing.T) {
		fake, srv := giftFake(t)
		c := dialRaw(t, srv)
		c.handshake(t, "2025-11-25")
		if !srv.AssertCalledTimes(fake, "tools/list", 0) {
			t.Fatalf("want a count of 0 to pass, got %s", fake.Report())
		}
		c.result(t, "1", "tools/list", `{}`)
		c.result(t, "2", "tools/list", `{}`)
		if !srv.AssertCalledTimes(fake, "tools/list", 2) {
			t.Fatalf("want the count of 2 to pass, got %s", fake.Report())
		}
		c.close()
		fake.Finish()
		errs := fake.Errors()
		if len(errs) != 1 || !strings.Contains(errs[0], `AssertCalledTimes("tools/list", 0) passed at`) || strings.Contains(errs[0], `"tools/list", 2)`) {
			t.Errorf("want only the count of 0 to fail at the end, got %s", fake.Report())
		}
	})
}

// TestAssertNoViolationsAgreesWithVerify: AssertNoViolations fails on what
// Verify (the verdict at the end) fails on, and on nothing else: a rule
// declared with ExpectViolation and a warning are not violations for it.
func TestAssertNoViolationsAgreesWithVerify(t *testing.T) {
	t.Run("expected and warnings", func(t *testing.T) {
		fake, srv := giftFake(t)
		srv.ExpectViolation("lifecycle/initialize-first")
		c := dialRaw(t, srv)
		c.result(t, "1", "tools/list", `{}`) // before initialize: the expected violation
		c.handshake(t, "2025-11-25")
		c.result(t, "2", "tools/call", `{"name":"suggest_gifts","arguments":null}`) // a warning
		srv.WaitFor(fake, mcptest.ClientSent("notifications/initialized"))
		if got := len(srv.Violations()); got != 2 {
			t.Fatalf("want 2 violations recorded (one expected, one warning), got %d: %v", got, srv.Violations())
		}
		if err := srv.Verify(); err != nil {
			t.Fatalf("want Verify to pass, got %v", err)
		}
		if !srv.AssertNoViolations(fake) {
			t.Errorf("want AssertNoViolations to agree with Verify and pass, got %s", fake.Report())
		}
	})
	t.Run("unexpected", func(t *testing.T) {
		fake, srv := giftFake(t)
		c := dialRaw(t, srv)
		c.result(t, "1", "tools/list", `{}`)
		if srv.Verify() == nil {
			t.Fatalf("want Verify to report the violation")
		}
		if srv.AssertNoViolations(fake) {
			t.Fatalf("want AssertNoViolations to fail")
		}
		if errs := fake.Errors(); len(errs) != 1 || !strings.Contains(errs[0], "1 violation:") || !strings.Contains(errs[0], "lifecycle/initialize-first") {
			t.Errorf("want the failure to name the rule, got %s", fake.Report())
		}
		srv.IgnoreViolations()
		if srv.Verify() != nil || srv.AssertNoViolations(fake) {
			t.Errorf("want IgnoreViolations to turn off the verdict at the end, not the assertion")
		}
	})
}

// TestAwaitFailsAtOnceWhenNothingCanMatch: Await, like WaitFor, returns
// at once for a matcher that can never match; ctx is only a bound on a
// failure of this test.
func TestAwaitFailsAtOnceWhenNothingCanMatch(t *testing.T) {
	_, srv := giftFake(t)
	c := dialRaw(t, srv)
	c.handshake(t, "2025-11-25")
	ctx, cancel := context.WithTimeout(context.Background(), failFastTimeout)
	defer cancel()
	start := time.Now()
	_, err := srv.Await(ctx, mcptest.ToolCall("suggest_gift", nil))
	if err == nil || !strings.Contains(err.Error(), `did you mean "suggest_gifts"?`) {
		t.Fatalf("want an error naming the closest tool, got %v", err)
	}
	if elapsed := time.Since(start); elapsed > failFastBound {
		t.Errorf("want an error at once, it took %v", elapsed)
	}
}
