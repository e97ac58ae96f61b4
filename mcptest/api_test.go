package mcptest_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
)

// These tests pin the API of faults as immutable values with registrations
// of their own, version lists that cannot be changed from outside, the one
// JSON rule, Verify, ProgramTB and Serve. Each names the footgun it guards.

// One Fault value on two Servers: each registration counts for itself, so
// Nth(1) acts on the first ping of each server (it used to share a count,
// and the second server was not faulted).
func TestFaultValueReusedOnTwoServers(t *testing.T) {
	f := fault.ReplaceWithJSONRPCError("ping", -32000, "faulted", nil).Nth(1)
	for i := range 2 {
		srv := mcptest.NewServer(t).WithFaults(f)
		c := dialRaw(t, srv)
		if got := c.call(t, "1", "ping", "").Get("error.message").String(); got != "faulted" {
			t.Errorf("server %d: want its first ping faulted, got error message %q", i+1, got)
		}
		if got := c.call(t, "2", "ping", ""); got.Get("error").Exists() {
			t.Errorf("server %d: want the second ping served, got %s", i+1, got.Raw)
		}
		if h := srv.Faults()[0]; h.Hits() != 1 {
			t.Errorf("server %d: want 1 hit, got %d", i+1, h.Hits())
		}
	}
}

// Release on the handle of a refined Hang releases what it holds (the
// refined copy used to have a state of its own that Release did not reach).
func TestHangReleaseAfterInSession(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := mcptest.NewServer(t)
		h := srv.AddFault(fault.Hang("ping").InSession(1))
		c := dialRaw(t, srv)
		c.send(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
		// The journal has the ping before the faults see it: wait for the
		// Hang to hold it (every goroutine of the bubble blocked), or a
		// Release before that lets it through unheld.
		synctest.Wait()
		if h.Hits() != 1 {
			t.Fatalf("want the Hang to hold the ping (1 hit) once the server is idle, got %d hits", h.Hits())
		}
		if n := len(srv.Journal().All().Responses("ping")); n != 0 {
			t.Fatalf("want the ping held, got %d replies", n)
		}
		h.Release()
		if got := c.recvJSON(t); got.Get("id").Int() != 1 || !got.Get("result").Exists() {
			t.Errorf("want the released ping answered, got %s", got.Raw)
		}
		if h.Hits() != 1 {
			t.Errorf("want the Hang to have held the ping once (1 hit), got %d", h.Hits())
		}
	})
}

// A fault installed with WithFaults is taken away through its handle,
// which Faults lists.
func TestFaultOfWithFaultsRemoved(t *testing.T) {
	srv := mcptest.NewServer(t).WithFaults(fault.ReplaceWithJSONRPCError("ping", -32000, "faulted", nil).Optional())
	c := dialRaw(t, srv)
	on := srv.Faults()
	if len(on) != 1 {
		t.Fatalf("want the fault listed, got %d", len(on))
	}
	on[0].Remove()
	if got := c.call(t, "1", "ping", ""); got.Get("error").Exists() {
		t.Errorf("want the ping served after Remove, got %s", got.Raw)
	}
	if n := len(srv.Faults()); n != 0 {
		t.Errorf("want no fault on after Remove, got %d", n)
	}
}

// The version lists are copies: the idiom append(v[:2], …) changes nothing
// but the caller's slice (it used to rewrite the package's list).
func TestVersionListsAreCopies(t *testing.T) {
	want := mcptest.HandshakeVersions()
	v := mcptest.HandshakeVersions()
	_ = append(v[:2], mcptest.StatelessVersions()...)
	v[0] = "changed"
	if got := mcptest.HandshakeVersions(); !slices.Equal(got, want) {
		t.Errorf("want HandshakeVersions unchanged %v, got %v", want, got)
	}
	all := mcptest.AllVersions()
	if !slices.Equal(all, append(mcptest.HandshakeVersions(), mcptest.StatelessVersions()...)) {
		t.Errorf("want AllVersions to be both eras in order, got %v", all)
	}
}

// Faults that cannot act fail the test at once, naming the call.
func TestMisbuiltFaultsFailAtOnce(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fault mcptest.Fault
		want  []string
	}{
		{"unencodable SetField value", fault.SetField("tools/list", "result.x", make(chan int)),
			[]string{"WithFaults(SetField(", "cannot encode chan int"}},
		{"misspelled method", fault.Delay("tool/call", time.Second),
			[]string{`Delay("tool/call", 1s)`, `"tool/call" is no method`, `did you mean "tools/call"?`}},
		{"bad Nth", fault.Hang("ping").Nth(0), []string{"Nth(0)", "counts from 1"}},
		{"bad probability", fault.Hang("ping").WithProbability(2), []string{"WithProbability(2)"}},
		{"bad raw JSON", fault.RespondCapabilities(`{nope`), []string{"RespondCapabilities({nope)", "not JSON text"}},
		{"unencodable params", fault.NotifyAfterInitializeResult("notifications/message", func() {}), []string{"NotifyAfterInitializeResult", "params"}},
		{"zero fault", mcptest.Fault{}, []string{"a zero Fault"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := faketb.New(t)
			srv := mcptest.NewServer(fake)
			if fake.Run(func() { srv.WithFaults(tc.fault) }) {
				t.Fatalf("want WithFaults to stop the test, it returned; got %s", fake.Report())
			}
			for _, w := range tc.want {
				if msg := fake.FatalOutput(); !strings.Contains(msg, w) {
					t.Errorf("want the failure to say %q, got %q", w, msg)
				}
			}
		})
	}
	// A method only a Handle serves is fine.
	fake := faketb.New(t)
	srv := mcptest.NewServer(fake).Handle("x/custom", func(context.Context, *mcptest.Request) mcptest.Reply { return mcptest.Result(`{}`) })
	if !fake.Run(func() { srv.WithFaults(fault.Delay("x/custom", time.Millisecond).Optional()) }) {
		t.Errorf("want a fault on a handled custom method accepted, got %s", fake.Report())
	}
}

// The README's first fault example with a client that goes stateless: the
// fault never acts, and the test fails saying why and what to do (it used
// to pass silently).
func TestUnfiredFaultFailsTheTest(t *testing.T) {
	fake := faketb.New(t)
	srv := mcptest.NewServer(fake).WithTools(mcptest.NewTool("t").ReturnsText("x")).
		WithFaults(fault.RespondProtocolVersion("1999-01-01"))
	c := dialRaw(t, srv)
	c.discover(t, "1")
	c.result(t, "2", "tools/list", modernParams(""))
	c.close()
	fake.Finish()
	errs := strings.Join(fake.Errors(), "\n")
	for _, w := range []string{`RespondProtocolVersion("1999-01-01") never acted`, "never sent initialize", "went stateless",
		"WithProtocolVersions(mcptest.HandshakeVersions()...)", "Optional()"} {
		if !strings.Contains(errs, w) {
			t.Errorf("want the failure to say %q, got %q", w, errs)
		}
	}
}

// What makes a fault count as having come into play.
func TestFaultFiredOrOptional(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fault mcptest.Fault
		pings int
		fails bool
	}{
		{"acted", fault.ReplaceWithJSONRPCError("ping", -32000, "x", nil), 1, false},
		{"never matched", fault.ReplaceWithJSONRPCError("ping", -32000, "x", nil), 0, true},
		{"optional, never matched", fault.ReplaceWithJSONRPCError("ping", -32000, "x", nil).Optional(), 0, false},
		{"Nth beyond what came", fault.ReplaceWithJSONRPCError("ping", -32000, "x", nil).Nth(3), 2, true},
		{"probabilistic, matched but not drawn", fault.ReplaceWithJSONRPCError("ping", -32000, "x", nil).WithProbability(1e-9), 1, false},
		{"another session only", fault.ReplaceWithJSONRPCError("ping", -32000, "x", nil).InSession(2), 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := faketb.New(t)
			srv := mcptest.NewServer(fake).WithFaults(tc.fault)
			c := dialRaw(t, srv)
			for i := range tc.pings {
				c.call(t, string(rune('1'+i)), "ping", "")
			}
			c.close()
			fake.Finish()
			errs := strings.Join(fake.Errors(), "\n")
			if got := strings.Contains(errs, "never acted"); got != tc.fails {
				t.Errorf("want a never-acted failure: %v; got errors %q", tc.fails, errs)
			}
		})
	}
}

// Verify is the verdict as an error; nil when clean.
func TestVerify(t *testing.T) {
	srv := mcptest.NewServer(t)
	c := dialRaw(t, srv)
	c.handshake(t, "2025-11-25")
	if err := srv.Verify(); err != nil {
		t.Fatalf("want nil for a clean session, got %v", err)
	}

	fake := faketb.New(t)
	bad := mcptest.NewServer(fake).WithFaults(fault.Hang("tools/call"))
	b := dialRaw(t, bad)
	b.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`) // before initialize
	b.recv(t)
	err := bad.Verify()
	var ve *mcptest.VerifyError
	if !errors.As(err, &ve) || len(ve.Findings()) != 2 {
		t.Fatalf("want a VerifyError with 2 findings (a broken rule, an unfired fault), got %v", err)
	}
	for _, w := range []string{"lifecycle/initialize-first", `Hang("tools/call") never acted`} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("want Verify to say %q, got %q", w, err)
		}
	}
	bad.ExpectViolation("lifecycle/initialize-first")
	if err := bad.Verify(); err == nil || strings.Contains(err.Error(), "protocol rule") {
		t.Errorf("want only the unfired fault once the violation is expected, got %v", err)
	}
	b.close()
	fake.Finish()
}

// ProgramTB runs a Server outside a test: logs go to the writer, Fatalf
// ends the function, cleanups (Close, the verdict) run, Run returns it.
func TestProgramTB(t *testing.T) {
	var log bytes.Buffer
	p := mcptest.NewProgramTB("demo", &log)
	var conn net.Conn
	err := p.Run(func(tb mcptest.TB) {
		srv := mcptest.NewServer(tb)
		conn = srv.Dial()
		r := bufio.NewReader(conn)
		_, _ = conn.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}` + "\n"))
		if _, err := r.ReadString('\n'); err != nil {
			tb.Fatalf("read: %v", err)
		}
		tb.Logf("read the reply")
	})
	if err == nil || !strings.Contains(err.Error(), "lifecycle/initialize-first") || !strings.Contains(err.Error(), "demo failed") {
		t.Fatalf("want Run to return the server's verdict naming the broken rule, got %v", err)
	}
	if !strings.Contains(log.String(), "demo: read the reply") || !strings.Contains(log.String(), "demo: FAIL: ") {
		t.Errorf("want logs and failures written with the name, got %q", log.String())
	}
	if _, err := conn.Write([]byte("x\n")); err == nil {
		t.Errorf("want the cleanup to have closed the server's connection")
	}

	after := false
	p2 := mcptest.NewProgramTB("fatal", nil)
	cleaned := false
	err = p2.Run(func(tb mcptest.TB) {
		tb.Cleanup(func() { cleaned = true })
		tb.Fatalf("stop here")
		after = true
	})
	if err == nil || !strings.Contains(err.Error(), "stop here") || after || !cleaned || !p2.Failed() {
		t.Errorf("want Fatalf to end the function, run cleanups and fail; got err %v, after %v, cleaned %v", err, after, cleaned)
	}
	if err := mcptest.NewProgramTB("ok", nil).Run(func(mcptest.TB) {}); err != nil {
		t.Errorf("want nil for a clean run, got %v", err)
	}
	err = mcptest.NewProgramTB("panics", nil).Run(func(mcptest.TB) { panic("boom") })
	if err == nil || !strings.Contains(err.Error(), "panic: boom") {
		t.Errorf("want a panic reported as a failure, got %v", err)
	}
}

// Serve runs a session over any stream, as a server process does on stdio.
func TestServe(t *testing.T) {
	srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("echo").ReturnsText("hi"))
	client, server := net.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), server) }()
	c := newRawClient(t, client)
	c.handshake(t, "2025-06-18")
	if got := c.result(t, "2", "tools/call", `{"name":"echo","arguments":{}}`).Get("content.0.text").String(); got != "hi" {
		t.Errorf("want the scripted tool answered over Serve, got %q", got)
	}
	_ = client.Close()
	if err := <-done; err != nil {
		t.Errorf("want Serve to return nil when the client closes, got %v", err)
	}
	if n := len(srv.Sessions()); n != 1 {
		t.Errorf("want 1 session, got %d", n)
	}

	ctx, cancel := context.WithCancel(context.Background())
	client2, server2 := net.Pipe()
	defer client2.Close()
	go func() { done <- srv.Serve(ctx, server2) }()
	c2 := newRawClient(t, client2)
	c2.ping(t, "1")
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("want Serve to return ctx.Err() when ctx ends, got %v", err)
	}
	srv.AssertNoViolations(t)
}

// One JSON rule: a parameter that takes any JSON value reads a Go string
// as a string and a json.RawMessage as JSON text (SetField used to turn
// "42" into a number).
func TestOneJSONRule(t *testing.T) {
	srv := mcptest.NewServer(t).WithFaults(
		fault.SetField("initialize", "result.instructions", "42"),
		fault.SetField("initialize", "result.serverInfo.version", json.RawMessage(`42`)),
		fault.ReplaceWithJSONRPCError("ping", -32000, "x", "text data"),
	)
	srv.ExpectViolation() // nothing
	c := dialRaw(t, srv)
	res := c.initialize(t, "2025-11-25")
	if got := res.Get("instructions"); got.Raw != `"42"` {
		t.Errorf(`want a Go string set as a JSON string "42", got %s`, got.Raw)
	}
	if got := res.Get("serverInfo.version"); got.Raw != `42` {
		t.Errorf("want a json.RawMessage set as JSON text 42, got %s", got.Raw)
	}
	c.notify("notifications/initialized", "")
	if got := c.call(t, "2", "ping", "").Get("error.data"); got.Raw != `"text data"` {
		t.Errorf(`want error data "text data" as a JSON string, got %s`, got.Raw)
	}
	if got := srv.Journal().All().Where("result.instructions", "42"); len(got) != 1 {
		t.Errorf(`want Where to match the string "42" once, got %d`, len(got))
	}
	if got := srv.Journal().All().Where("result.serverInfo.version", json.RawMessage(`42`)); len(got) != 1 {
		t.Errorf("want Where to match the JSON text 42 once, got %d", len(got))
	}
}

// Typed rule IDs and eras: an unknown rule in ExpectViolation fails at
// once with a did-you-mean.
func TestExpectViolationTypo(t *testing.T) {
	fake := faketb.New(t)
	srv := mcptest.NewServer(fake)
	if fake.Run(func() { srv.ExpectViolation("lifecycle/initialise-first") }) {
		t.Fatalf("want ExpectViolation of an unknown rule to stop the test")
	}
	if msg := fake.FatalOutput(); !strings.Contains(msg, `did you mean "lifecycle/initialize-first"?`) {
		t.Errorf("want a did-you-mean, got %q", msg)
	}
}

// SetTools takes Quietly or ListChanged: one way, with or without the
// notification.
func TestSetToolsAnnounce(t *testing.T) {
	srv := mcptest.NewServer(t).WithTools()
	c := dialRaw(t, srv)
	c.handshake(t, "2025-11-25")
	if _, err := srv.Await(context.Background(), mcptest.ClientSent("notifications/initialized")); err != nil {
		t.Fatal(err)
	}
	srv.SetTools(mcptest.Quietly, mcptest.NewTool("a"))
	srv.SetTools(mcptest.ListChanged, mcptest.NewTool("b"))
	if got := c.recvJSON(t).Get("method").String(); got != "notifications/tools/list_changed" {
		t.Errorf("want one list_changed (for ListChanged), got %q", got)
	}
	if got := c.result(t, "2", "tools/list", "").Get("tools.0.name").String(); got != "b" {
		t.Errorf("want tool b listed, got %q", got)
	}
	if n := len(srv.Journal().All().Notifications("notifications/tools/list_changed")); n != 1 {
		t.Errorf("want exactly one list_changed sent (Quietly sends none), got %d", n)
	}
}

// A Hang released before its request came still came into play: the
// request it let through is a hit, so the test does not fail as if the
// fault had never acted (a test that releases as soon as the journal shows
// the request races the hold).
func TestHangReleasedBeforeItsRequest(t *testing.T) {
	fake := faketb.New(t)
	srv := mcptest.NewServer(fake)
	h := srv.AddFault(fault.Hang("ping"))
	h.Release()
	c := dialRaw(t, srv)
	if got := c.call(t, "1", "ping", ""); !got.Get("result").Exists() {
		t.Errorf("want a released Hang to let the ping through, got %s", got.Raw)
	}
	if h.Hits() != 1 {
		t.Errorf("want the ping it let through counted, got %d hits", h.Hits())
	}
	c.close()
	fake.Finish()
	if errs := fake.Errors(); len(errs) != 0 {
		t.Errorf("want no failure, got %q", errs)
	}
}
