package scenarios_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/scenarios"
)

// maxPlays is how many plays run at once in one status run.
const maxPlays = 4

// playAll plays every scenario with connect (and opts), in parallel
// subtests, and returns each one's result by name.
func playAll(t *testing.T, connect scenarios.ConnectFunc, opts ...scenarios.Option) map[string]scenarios.Result {
	t.Helper()
	var mu sync.Mutex
	got := map[string]scenarios.Result{}
	slots := make(chan struct{}, maxPlays) // plays at once: each has a deadline, so do not starve them
	t.Run("play", func(t *testing.T) {
		for _, s := range scenarios.All() {
			t.Run(s.Name, func(t *testing.T) {
				t.Parallel()
				slots <- struct{}{}
				defer func() { <-slots }()
				r := s.Evaluate(s.Play(t, connect, opts...), opts...)
				mu.Lock()
				got[s.Name] = r
				mu.Unlock()
			})
		}
	})
	return got
}

// wantStatuses fails t for every scenario whose status is not want's
// (want names the exceptions; every other scenario must have dflt).
func wantStatuses(t *testing.T, got map[string]scenarios.Result, dflt scenarios.Status, want map[string]scenarios.Status) {
	t.Helper()
	for name := range want {
		if _, ok := scenarios.Lookup(name); !ok {
			t.Errorf("want names %s, which is not in the catalog", name)
		}
	}
	for _, name := range scenarios.Names() {
		w, ok := want[name]
		if !ok {
			w = dflt
		}
		if r := got[name]; r.Status != w {
			t.Errorf("%s: want %s, got %s: %s", name, w, r.Status, r.Observed)
		}
	}
}

// overPipe adds to want the HTTP and authorization scenarios, not
// applicable to a client that never asks for Endpoint.URL.
func overPipe(want map[string]scenarios.Status) map[string]scenarios.Status {
	if want == nil {
		want = map[string]scenarios.Status{}
	}
	for _, s := range append(scenarios.HTTP(), scenarios.Auth()...) {
		want[s.Name] = scenarios.NotApplicable
	}
	for _, name := range suiteHTTP {
		want[name] = scenarios.NotApplicable
	}
	return want
}

// suiteHTTP are the official suite's scenarios of Streamable HTTP, not
// applicable to a client over the pipe.
var suiteHTTP = []string{"sse-retry", "http-standard-headers", "http-custom-headers", "http-invalid-tool-headers"}

// TestDoNothingPassesNothing: a client that never dials, and one that
// dials and sends nothing, reach no decision point: every scenario is
// not reached, and says what was missing (the HTTP scenarios do not apply
// to them: they never ask for the URL). A client that takes the URL and
// sends nothing reaches no decision point of the HTTP scenarios either.
func TestDoNothingPassesNothing(t *testing.T) {
	clients := map[string]scenarios.ConnectFunc{
		"never dials": func(context.Context, *scenarios.Endpoint) error { return nil },
		"dials, sends nothing": scenarios.OneSession(func(_ context.Context, conn net.Conn) error {
			return conn.Close()
		}),
	}
	for name, connect := range clients {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := playAll(t, connect)
			wantStatuses(t, got, scenarios.NotReached, overPipe(nil))
			for _, s := range append(scenarios.HTTP(), scenarios.Auth()...) {
				if r := got[s.Name]; !strings.Contains(r.Observed, "never asked for Endpoint.URL") {
					t.Errorf("%s: want the reason it does not apply, got %+v", s.Name, r)
				}
			}
			for n, r := range got {
				if r.Status == scenarios.NotReached && (!strings.Contains(r.Observed, "it never opened a session") && !strings.Contains(r.Observed, "it sent nothing") || r.DecisionPoint == "") {
					t.Errorf("%s: a not-reached result must say what was missing and name the decision point: %+v", n, r)
				}
			}
		})
	}
}

// TestURLClientSendsNothing: a client that asks for the URL and sends
// nothing is judged by the HTTP scenarios, and reaches none.
func TestURLClientSendsNothing(t *testing.T) {
	for _, s := range scenarios.HTTP() {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			if r := s.Evaluate(s.Play(t, func(_ context.Context, ep *scenarios.Endpoint) error { _ = ep.URL(); return nil })); r.Status != scenarios.NotReached {
				t.Errorf("want not-reached, got %s: %s", r.Status, r.Observed)
			}
		})
	}
}

// TestWaitingClientPassesNothing: the do-nothing client of issue 8, which
// dials and waits for its context, passed the four scenarios whose checks
// only said "X never happened"; now they are not reached.
func TestWaitingClientPassesNothing(t *testing.T) {
	waits := scenarios.OneSession(func(ctx context.Context, _ net.Conn) error {
		<-ctx.Done()
		return ctx.Err()
	})
	for _, name := range []string{"tools-capability-missing", "undeclared-methods", "capabilities-lie", "negotiate-unknown-version"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, _ := scenarios.Lookup(name)
			if r := s.Evaluate(s.Play(t, waits)); r.Status != scenarios.NotReached {
				t.Errorf("want not-reached, got %s: %s", r.Status, r.Observed)
			}
		})
	}
}

// TestHandshakeOnlyClient: a correct client of the handshake era only
// (initialize first, never a probe) passes every scenario but those about
// the stateless side, which do not apply to it.
func TestHandshakeOnlyClient(t *testing.T) {
	rep := scenarios.Run(t, connectAs(kind{handshakeOnly: true}))
	got := map[string]scenarios.Result{}
	for _, r := range rep.Results {
		got[r.Scenario] = r
	}
	wantStatuses(t, got, scenarios.Pass, overPipe(map[string]scenarios.Status{
		"giftgen-stateless":             scenarios.NotApplicable,
		"negotiate-unknown-version":     scenarios.NotApplicable,
		"discover-never-answered":       scenarios.NotApplicable,
		"capabilities-per-session":      scenarios.NotApplicable,
		"request-metadata":              scenarios.NotApplicable,
		"sep-2322-client-request-state": scenarios.NotApplicable,
		"json-schema-ref-no-deref":      scenarios.NotApplicable,
	}))
	if r := got["discover-never-answered"]; !strings.Contains(r.Observed, "never probes") || r.Transcript != "" {
		t.Errorf("discover-never-answered: want the reason it does not apply and no transcript, got %+v", r)
	}
	na := 7 + len(scenarios.HTTP()) + len(scenarios.Auth()) + len(suiteHTTP)
	if tab := rep.Table(); !strings.Contains(tab, fmt.Sprintf("%d pass, 0 known deviations, 0 fail, 0 not reached, %d not applicable", len(rep.Results)-na, na)) {
		t.Errorf("Table:\n%s", tab)
	}
}

// TestOnePageClient: a client that reads only the first page of a list
// never meets the looping cursor: not reached, not pass.
func TestOnePageClient(t *testing.T) {
	s, _ := scenarios.Lookup("looping-cursor")
	r := s.Evaluate(s.Play(t, connectWith(bugs{OnePage: true})))
	if r.Status != scenarios.NotReached || !strings.Contains(r.Observed, "never asked for a second page") {
		t.Errorf("want not-reached saying the client never asked for a second page, got %+v", r)
	}
}

// forecast is the healthy server of another app: one tool, get_forecast,
// no resources, no prompts.
func forecast(t mcptest.TB) *mcptest.Server {
	return mcptest.NewServer(t).
		WithOptions(mcptest.Options{Name: "weather", Version: "1.0.0"}).
		WithTools(mcptest.NewTool("get_forecast").
			WithDescription("Forecast for a city").
			WithInputSchema(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`).
			ReturnsText("sunny"))
}

// TestWithServer: the scenarios apply their mistakes to another app's
// server, and the checks are about whatever that client calls: the
// correct client passes all of them calling get_forecast, and the buggy
// ones fail with get_forecast in the message.
func TestWithServer(t *testing.T) {
	t.Run("correct", func(t *testing.T) {
		got := playAll(t, correct, scenarios.WithServer(forecast))
		wantStatuses(t, got, scenarios.Pass, overPipe(map[string]scenarios.Status{"capabilities-per-session": scenarios.NotApplicable}))
	})
	t.Run("buggy", func(t *testing.T) {
		t.Parallel()
		for name, b := range map[string]struct {
			bug     bugs
			mention string
		}{
			"tools-schema-changed-quietly": {bugs{RetryStale: true}, `called get_forecast again with the same arguments {"city":"Paris"}`},
			"tools-capability-missing":     {bugs{IgnoreCapabilities: true}, "the client sent tools/list"},
			"elicitation-round-trip":       {bugs{ReuseRetryID: true}, "mrtr/new-id"},
		} {
			s, _ := scenarios.Lookup(name)
			o := s.Play(t, connectWith(b.bug), scenarios.WithServer(forecast))
			if r := s.Evaluate(o); r.Status != scenarios.Fail || !strings.Contains(r.Observed, b.mention) {
				t.Errorf("%s: want fail mentioning %q, got %+v", name, b.mention, r)
			}
			if name == "tools-capability-missing" && len(o.Server.Journal().All().ToolCalls("get_forecast")) == 0 {
				t.Errorf("%s: the buggy client never called get_forecast; the server was not the app's", name)
			}
		}
	})
}

// TestReactionAfterReturn: a client that re-lists the tools from its own
// goroutine after notifications/tools/list_changed, after its connect
// function returned, passes tools-list-changed every time: Play waits for
// the reaction within the scenario's window. A client that never
// re-lists but keeps its session open fails, after the window.
func TestReactionAfterReturn(t *testing.T) {
	s, _ := scenarios.Lookup("tools-list-changed")
	asyncApp := func(relist bool) scenarios.ConnectFunc {
		return scenarios.OneSession(func(ctx context.Context, conn net.Conn) error {
			w := bufio.NewWriter(conn)
			r := bufio.NewReader(conn)
			send := func(line string) error {
				if _, err := w.WriteString(line + "\n"); err != nil {
					return err
				}
				return w.Flush()
			}
			read := func() (string, error) { return r.ReadString('\n') }
			if err := send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"async","version":"1"}}}`); err != nil {
				return err
			}
			if _, err := read(); err != nil {
				return err
			}
			if err := send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
				return err
			}
			if err := send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); err != nil {
				return err
			}
			go func() { // the app's notification loop outlives connect
				for {
					line, err := read()
					if err != nil {
						return
					}
					if relist && strings.Contains(line, "notifications/tools/list_changed") {
						_ = send(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
					}
				}
			}()
			return nil
		})
	}
	for play := 0; play < 5; play++ {
		if r := s.Evaluate(s.Play(t, asyncApp(true))); r.Status != scenarios.Pass {
			t.Fatalf("play %d: the asynchronous re-list: want pass, got %+v", play, r)
		}
	}
	if r := s.Evaluate(s.Play(t, asyncApp(false))); r.Status != scenarios.Fail {
		t.Errorf("no re-list, session open: want fail, got %+v", r)
	}
}

// TestJudge runs scenarios without a *testing.T: a not-reached scenario
// fails the TB with its explanation, a not-applicable one is logged, a
// passing one neither.
func TestJudge(t *testing.T) {
	tb := faketb.New(t)
	var rep *scenarios.Report
	if !tb.Run(func() {
		rep = scenarios.Judge(tb, connectAs(kind{handshakeOnly: true, bugs: bugs{OnePage: true}}),
			scenarios.Only("giftgen-handshake", "discover-never-answered", "looping-cursor"))
	}) {
		t.Fatalf("Judge: want it to return, it stopped the test: %s", tb.Report())
	}
	tb.Finish()
	want := map[string]scenarios.Status{"giftgen-handshake": scenarios.Pass, "discover-never-answered": scenarios.NotApplicable, "looping-cursor": scenarios.NotReached}
	for _, r := range rep.Results {
		if r.Status != want[r.Scenario] {
			t.Errorf("%s: want %s, got %+v", r.Scenario, want[r.Scenario], r)
		}
	}
	if errs := tb.Errors(); len(errs) != 1 || !strings.Contains(errs[0], "scenario looping-cursor not reached") || !strings.Contains(errs[0], "missing: the client never asked for a second page (it sent initialize") {
		t.Errorf("want one error, for looping-cursor not reached, got %s", tb.Report())
	}
	logs := tb.LogOutput()
	if !strings.Contains(logs, "scenario discover-never-answered: not applicable: the client never probes") || !strings.Contains(logs, "1 pass, 0 known deviations, 0 fail, 1 not reached, 1 not applicable") {
		t.Errorf("want the not-applicable reason and the table in the log, got:\n%s", logs)
	}
}

// TestEndpointReconnect: a client may open several sessions through its
// Endpoint (one per Dial), and Dial fails once the play is over.
func TestEndpointReconnect(t *testing.T) {
	s, _ := scenarios.Lookup("giftgen-stateless")
	var kept *scenarios.Endpoint
	o := s.Play(t, func(ctx context.Context, ep *scenarios.Endpoint) error {
		kept = ep
		first, err := ep.Open()
		if err != nil {
			return err
		}
		_ = first.Close() // gives up on the first session, reconnects
		return correct(ctx, ep)
	})
	if o.Sessions != 2 || len(o.Server.Sessions()) != 2 {
		t.Errorf("want 2 sessions, got Outcome.Sessions=%d, server sessions %d", o.Sessions, len(o.Server.Sessions()))
	}
	if err := s.Check(o); err != nil {
		t.Errorf("the reconnecting correct client: %v", err)
	}
	if _, err := kept.Open(); err == nil || !strings.Contains(err.Error(), "the play is over") {
		t.Errorf("Dial after the play: want an error saying the play is over, got %v", err)
	}
	if kept.URL() != "" {
		t.Errorf("URL() after the play = %q, want \"\"", kept.URL())
	}
}

// TestJudgeProgramTB: Judge runs in a program with mcptest's ProgramTB,
// whose verdict is the run's: nil when every scenario passed or did not
// apply, an error naming the not-reached scenario otherwise.
func TestJudgeProgramTB(t *testing.T) {
	var log strings.Builder
	var rep *scenarios.Report
	p := mcptest.NewProgramTB("conformance", &log)
	err := p.Run(func(tb mcptest.TB) {
		rep = scenarios.Judge(tb, connectAs(kind{handshakeOnly: true}), scenarios.Only("giftgen-handshake", "discover-never-answered"))
	})
	if err != nil || rep.Status("giftgen-handshake") != scenarios.Pass || rep.Status("discover-never-answered") != scenarios.NotApplicable {
		t.Errorf("a passing run: want a nil verdict, pass and not-applicable, got %v, %+v\n%s", err, rep.Results, log.String())
	}
	p = mcptest.NewProgramTB("conformance", &log)
	err = p.Run(func(tb mcptest.TB) {
		rep = scenarios.Judge(tb, func(context.Context, *scenarios.Endpoint) error { return nil }, scenarios.Only("tools-list-changed"))
	})
	if err == nil || !strings.Contains(err.Error(), "scenario tools-list-changed not reached") || rep.Status("tools-list-changed") != scenarios.NotReached {
		t.Errorf("a do-nothing client: want a verdict naming the scenario not reached, got %v, %+v", err, rep.Results)
	}
}

// TestOutcomeFaults: the Outcome carries the scenario's fault
// registrations; the catalog's faults are optional, so a client that never
// meets one does not fail the test, and its hits say it never acted.
func TestOutcomeFaults(t *testing.T) {
	s, _ := scenarios.Lookup("notify-before-initialized")
	idle := s.Play(t, func(context.Context, *scenarios.Endpoint) error { return nil })
	met := s.Play(t, correct)
	if len(idle.Faults) != 1 || idle.Faults[0].Hits() != 0 || len(met.Faults) != 1 || met.Faults[0].Hits() != 1 {
		t.Fatalf("want one fault, idle: 0 hits, correct client: 1 hit; got %v and %v", idle.Faults, met.Faults)
	}
}

// TestUnknownNames: a misspelled name given to Only, Skip or
// KnownDeviation fails the test naming the option and the nearest
// scenario, not the whole catalog; nothing is played.
func TestUnknownNames(t *testing.T) {
	rec := faketb.New(t)
	var rep *scenarios.Report
	if !rec.Run(func() {
		rep = scenarios.Judge(rec, correct, scenarios.Only("wrong-id"), scenarios.Skip("looping-cursr"),
			scenarios.KnownDeviation("tool-list-changed", "x"), scenarios.KnownDeviation("nothing-like-it", "y"))
	}) {
		t.Fatalf("Judge: want it to return, it stopped the test: %s", rec.Report())
	}
	rec.Finish()
	want := `scenarios: Only("wrong-id"): no scenario named "wrong-id"; did you mean "wrong-id-type"?; ` +
		`Skip("looping-cursr"): no scenario named "looping-cursr"; did you mean "looping-cursor"?; ` +
		`KnownDeviation("nothing-like-it"): no scenario named "nothing-like-it"; ` +
		`KnownDeviation("tool-list-changed"): no scenario named "tool-list-changed"; did you mean "tools-list-changed"? (scenarios.Names() lists the catalog)`
	if errs := rec.Errors(); len(errs) != 1 || errs[0] != want {
		t.Errorf("want one error\n%s\ngot %s", want, rec.Report())
	}
	if len(rep.Results) != 0 {
		t.Errorf("want nothing played, got %d results", len(rep.Results))
	}
}

// TestBannerNamesTheServer: stdout-banner's banner names the server the
// run starts from (WithServer, mcpmock run --config), not GiftGen.
func TestBannerNamesTheServer(t *testing.T) {
	s, _ := scenarios.Lookup("stdout-banner")
	for _, tc := range []struct {
		opts []scenarios.Option
		want string
	}{
		{nil, "gift-genius-backend 0.2.0 listening on stdio\n"},
		{[]scenarios.Option{scenarios.WithServer(forecast)}, "weather 1.0.0 listening on stdio\n"},
	} {
		var first string
		s.Play(t, scenarios.OneSession(func(ctx context.Context, conn net.Conn) error {
			if _, err := conn.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}` + "\n")); err != nil {
				return err
			}
			var err error
			first, err = bufio.NewReader(conn).ReadString('\n')
			return err
		}), tc.opts...)
		if first != tc.want {
			t.Errorf("want the banner %q, got %q", tc.want, first)
		}
	}
}
