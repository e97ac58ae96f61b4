package verdicts_test

// The scenario catalog against the two real Go MCP clients: the official
// SDK (go-sdk v1.8.0) and mark3labs/mcp-go (v1.2.1). Each scenario either
// passes or is a KnownDeviation of that SDK version: today's behaviour,
// asserted (the subtest fails the day the SDK stops deviating) and named as
// such in the report. A deviation that is a race the SDK usually loses is
// played until it shows (playRacy), so that the suite is not flaky. The
// conformance report of the two SDKs is the output of these tests: the
// table is in the test log, and with MCPMOCK_CONFORMANCE_DIR set they write
// gosdk.json, gosdk.txt, mark3labs.json and mark3labs.txt there:
//
//	MCPMOCK_CONFORMANCE_DIR=/tmp/conformance go test -run Conformance ./integration

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ---- verdicts for other clients: do-nothing, handshake-only, stateless, another app ----

// gosdkFlow is an app on the official client: connect (pinned to pin
// unless it is ""), list the tools (every page with allPages, else the
// first), call tool with args, close. With relistAsync, a
// ToolListChangedHandler lists the tools again from its own goroutine;
// with keepOpen the app is long-lived: its session stays open after the
// connect function returned (Play closes the connection at the end).
type gosdkFlow struct {
	pin         string
	tool        string
	args        map[string]any
	allPages    bool
	relistAsync bool
	keepOpen    bool
}

func (f gosdkFlow) connect() scenarios.ConnectFunc {
	return scenarios.OneSession(func(ctx context.Context, conn net.Conn) error {
		opts := &mcp.ClientOptions{
			ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}, nil
			},
		}
		// The handler only signals: the app re-lists from a goroutine of its
		// own, started once Connect returned. (Calling ListTools from the
		// handler while Connect runs, as an early notification allows, is a
		// data race inside go-sdk v1.8.0: Connect writes the session's
		// state, client.go:399, that ListTools reads, client.go:518.)
		changed := make(chan struct{}, 1)
		if f.relistAsync {
			opts.ToolListChangedHandler = func(context.Context, *mcp.ToolListChangedRequest) {
				select {
				case changed <- struct{}{}:
				default:
				}
			}
		}
		var sopts *mcp.ClientSessionOptions
		if f.pin != "" {
			sopts = &mcp.ClientSessionOptions{ProtocolVersion: f.pin}
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, opts).
			Connect(ctx, &mcp.IOTransport{Reader: conn, Writer: conn}, sopts)
		if err != nil {
			return err
		}
		if f.keepOpen {
			go func() { _ = cs.Wait(); _ = cs.Close() }() // the app cleans up when Play closes the connection
		} else {
			defer cs.Close()
		}
		if f.relistAsync {
			go func() {
				for {
					select {
					case <-changed:
						_, _ = cs.ListTools(ctx, nil)
					case <-ctx.Done():
						return
					}
				}
			}()
		}
		if f.allPages {
			for _, err := range cs.Tools(ctx, nil) {
				if err != nil {
					return err
				}
			}
		} else if _, err := cs.ListTools(ctx, nil); err != nil {
			return err
		}
		_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: f.tool, Arguments: f.args})
		return err
	})
}

// maxPlays is how many plays run at once in one status run.
const maxPlays = 4

// playStatuses plays every scenario with connect, in parallel subtests,
// and returns each one's result.
func playStatuses(t *testing.T, connect scenarios.ConnectFunc, opts ...scenarios.Option) map[string]scenarios.Result {
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
				r := s.Evaluate(s.Play(t, connect, opts...))
				mu.Lock()
				got[s.Name] = r
				mu.Unlock()
			})
		}
	})
	return got
}

// assertStatuses fails t for every scenario whose status is not the one
// want gives (dflt for those it does not name). A scenario in either may
// end in either status: a race the SDK loses most of the time.
func assertStatuses(t *testing.T, got map[string]scenarios.Result, dflt scenarios.Status, want map[string]scenarios.Status, either map[string][2]scenarios.Status) {
	t.Helper()
	var b strings.Builder
	for _, name := range scenarios.Names() {
		r := got[name]
		fmt.Fprintf(&b, "  %-30s %s\n", name, r.Status)
		if e, ok := either[name]; ok {
			if r.Status != e[0] && r.Status != e[1] {
				t.Errorf("%s: want %s or %s, got %s: %s", name, e[0], e[1], r.Status, r.Observed)
			}
			continue
		}
		w, ok := want[name]
		if !ok {
			w = dflt
		}
		if r.Status != w {
			t.Errorf("%s: want %s, got %s: %s", name, w, r.Status, r.Observed)
		}
	}
	t.Logf("statuses:\n%s", b.String())
}

// TestScenarioVerdictsDoNothing: a client that dials and does nothing
// passes nothing: every scenario is not reached (the HTTP ones do not
// apply: it never asked for the URL).
func TestScenarioVerdictsDoNothing(t *testing.T) {
	got := playStatuses(t, scenarios.OneSession(func(ctx context.Context, conn net.Conn) error {
		return conn.Close()
	}))
	assertStatuses(t, got, scenarios.NotReached, overPipe(nil), nil)
}

// TestScenarioVerdictsHandshakeOnly: the official client pinned to
// 2025-11-25 never probes; the scenarios about the stateless side do not
// apply to it, and it does not page (ListTools reads one page), so the
// looping cursor is never met.
func TestScenarioVerdictsHandshakeOnly(t *testing.T) {
	got := playStatuses(t, gosdkFlow{pin: "2025-11-25", tool: "suggest_gifts", args: map[string]any{"age": 25}}.connect())
	assertStatuses(t, got, scenarios.Pass, noEcho(withGoSDKFailures(map[string]scenarios.Status{
		"giftgen-stateless":             scenarios.NotApplicable,
		"negotiate-unknown-version":     scenarios.NotApplicable,
		"discover-never-answered":       scenarios.NotApplicable,
		"looping-cursor":                scenarios.NotReached,
		"request-metadata":              scenarios.NotApplicable,
		"sep-2322-client-request-state": scenarios.NotApplicable,
		"json-schema-ref-no-deref":      scenarios.NotApplicable,
	})), racyCancel)
}

// goSDKFailures are the scenarios go-sdk v1.8.0 fails in every era (the
// known deviations of TestConformanceGoSDK).
var goSDKFailures = []string{"tools-capability-missing", "tools-schema-changed-quietly", "tools-list-changed", "stdout-banner"}

// withGoSDKFailures adds to m the failures of goSDKFailures, and
// capabilities-per-session, which does not apply to an app that opens one
// session, and the HTTP scenarios, which do not apply to an app that
// connects with Endpoint.Open.
func withGoSDKFailures(m map[string]scenarios.Status) map[string]scenarios.Status {
	for _, n := range goSDKFailures {
		if _, ok := m[n]; !ok {
			m[n] = scenarios.Fail
		}
	}
	if _, ok := m["capabilities-per-session"]; !ok {
		m["capabilities-per-session"] = scenarios.NotApplicable
	}
	return overPipe(m)
}

// overPipe adds to m the HTTP and authorization scenarios, which do not apply to an app
// that connects with Endpoint.Open (it never asks for the URL).
func overPipe(m map[string]scenarios.Status) map[string]scenarios.Status {
	if m == nil {
		m = map[string]scenarios.Status{}
	}
	for _, s := range append(scenarios.HTTP(), scenarios.Auth()...) {
		m[s.Name] = scenarios.NotApplicable
	}
	// the official suite's scenarios of Streamable HTTP
	for _, n := range []string{"sse-retry", "http-standard-headers", "http-custom-headers", "http-invalid-tool-headers"} {
		m[n] = scenarios.NotApplicable
	}
	return m
}

// noEcho adds to m json-schema-2020-12-preservation, which does not apply
// to an app that lists the tools but echoes no schema.
func noEcho(m map[string]scenarios.Status) map[string]scenarios.Status {
	m["json-schema-2020-12-preservation"] = scenarios.NotApplicable
	return m
}

// racyCancel: go-sdk v1.8.0 sends notifications/cancelled from a goroutine
// that races the app's Close (see gosdkRacy).
var racyCancel = map[string][2]scenarios.Status{"slow-tool-timeout": {scenarios.Fail, scenarios.Pass}}

// TestScenarioVerdictsStateless: the official client unpinned goes
// stateless against a server that speaks both eras.
func TestScenarioVerdictsStateless(t *testing.T) {
	got := playStatuses(t, gosdkFlow{tool: "suggest_gifts", args: map[string]any{"age": 25}, allPages: true}.connect())
	assertStatuses(t, got, scenarios.Pass, noEcho(withGoSDKFailures(map[string]scenarios.Status{
		"discover-never-answered":    scenarios.Fail, // the probe has no timeout of its own
		"looping-cursor":             scenarios.Fail, // ClientSession.Tools pages forever
		"capabilities-differ-by-era": scenarios.Fail, // lists tools server/discover did not declare
	})), racyCancel)
}

// forecastServer is the healthy server of another app: one tool, get_forecast.
func forecastServer(t mcptest.TB) *mcptest.Server {
	return mcptest.NewServer(t).
		WithOptions(mcptest.Options{Name: "weather", Version: "1.0.0"}).
		WithTools(mcptest.NewTool("get_forecast").
			WithDescription("Forecast for a city").
			WithInputSchema(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`).
			ReturnsText("sunny"))
}

// TestScenarioVerdictsForecastApp: an app whose tool is get_forecast runs
// the catalog against its own server, calling its own tool. It is
// long-lived (its session outlives the connect function) and re-lists the
// tools from the SDK's ToolListChangedHandler, in a goroutine of its own:
// tools-list-changed passes, every run, because Play waits for the
// re-list within the scenario's window.
func TestScenarioVerdictsForecastApp(t *testing.T) {
	app := gosdkFlow{tool: "get_forecast", args: map[string]any{"city": "Paris"}, relistAsync: true, keepOpen: true}
	got := playStatuses(t, app.connect(), scenarios.WithServer(forecastServer))
	want := noEcho(withGoSDKFailures(map[string]scenarios.Status{
		"tools-list-changed":         scenarios.Pass,
		"discover-never-answered":    scenarios.Fail,
		"capabilities-differ-by-era": scenarios.Fail,
		"looping-cursor":             scenarios.NotReached, // ListTools reads one page
	}))
	// slow-tool-timeout passes: the session stays open, so the SDK's
	// notifications/cancelled, sent from a goroutine, gets out, and Play
	// waits for it.
	assertStatuses(t, got, scenarios.Pass, want, nil)
	for _, name := range []string{"tools-capability-missing", "tools-schema-changed-quietly"} {
		if r := got[name]; !strings.Contains(r.Observed+r.Transcript, "get_forecast") {
			t.Errorf("%s: the play does not show the app's tool get_forecast: %+v", name, r)
		}
	}

	s, _ := scenarios.Lookup("tools-list-changed")
	for play := 1; play <= 5; play++ {
		if r := s.Evaluate(s.Play(t, app.connect(), scenarios.WithServer(forecastServer))); r.Status != scenarios.Pass {
			t.Fatalf("play %d of tools-list-changed: want pass every time, got %s: %s", play, r.Status, r.Observed)
		}
	}
}

// TestScenarioVerdictsOverHTTP: the official client on the Streamable
// HTTP transport reaches the scenario's server at Endpoint.URL; the
// scenarios judge it as they judge a stdio client.
func TestScenarioVerdictsOverHTTP(t *testing.T) {
	app := func(ctx context.Context, ep *scenarios.Endpoint) error {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "gosdk-http-app", Version: "1.0.0"}, nil).
			Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ep.URL()}, nil)
		if err != nil {
			return err
		}
		defer cs.Close()
		if _, err := cs.ListTools(ctx, nil); err != nil {
			return err
		}
		_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "suggest_gifts", Arguments: map[string]any{"age": 25}})
		return err
	}
	for name, want := range map[string]scenarios.Status{
		"giftgen-stateless":        scenarios.Pass,
		"giftgen-handshake":        scenarios.Pass,
		"tools-capability-missing": scenarios.Fail, // go-sdk v1.8.0 lists tools whatever the server declared
	} {
		t.Run(name, func(t *testing.T) {
			s, _ := scenarios.Lookup(name)
			o := s.Play(t, app)
			if r := s.Evaluate(o); r.Status != want {
				t.Fatalf("want %s, got %s: %s", want, r.Status, r.Observed)
			}
			if o.Sessions == 0 || len(o.Journal) == 0 || o.Journal[0].HTTP == nil {
				t.Errorf("want the play's messages to have crossed HTTP, got %d sessions, journal %v", o.Sessions, o.Journal)
			}
		})
	}
}

// TestScenarioVerdictClosedBeforeRelist: a go-sdk app that lists the tools
// and closes its session when its function returns, while its
// ToolListChangedHandler has a goroutine re-list, races itself on
// tools-list-changed. The verdict is never a plain fail: either the
// re-list got out (pass), or the verdict says the client closed the
// session right after the notification, before re-listing (not reached).
func TestScenarioVerdictClosedBeforeRelist(t *testing.T) {
	app := scenarios.OneSession(func(ctx context.Context, conn net.Conn) error {
		changed := make(chan struct{}, 1)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, &mcp.ClientOptions{
			ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
				select {
				case changed <- struct{}{}:
				default:
				}
			},
		}).Connect(ctx, &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
		if err != nil {
			return err
		}
		defer cs.Close() // the race: the session ends when the function returns
		go func() {
			select {
			case <-changed:
				_, _ = cs.ListTools(ctx, nil)
			case <-ctx.Done():
			}
		}()
		_, err = cs.ListTools(ctx, nil)
		return err
	})
	s, _ := scenarios.Lookup("tools-list-changed")
	seen := map[scenarios.Status]int{}
	for play := 1; play <= 5; play++ {
		r := s.Evaluate(s.Play(t, app))
		seen[r.Status]++
		switch {
		case r.Status == scenarios.Pass:
		case r.Status == scenarios.NotReached && strings.Contains(r.Observed, "after notifications/tools/list_changed, without sending anything after it, before re-listing"):
		default:
			t.Errorf("play %d: want pass, or not-reached naming the close, got %s: %s", play, r.Status, r.Observed)
		}
	}
	t.Logf("verdicts over 5 plays: %v", seen)
}
