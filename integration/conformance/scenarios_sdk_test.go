package conformance_test

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
	"os"
	"path/filepath"
	"slices"
	"testing"

	m3client "github.com/mark3labs/mcp-go/client"
	m3transport "github.com/mark3labs/mcp-go/client/transport"
	m3 "github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// gosdkApp drives the official client as an application does: connect with
// default options (an elicitation handler that accepts, for the
// multi-round-trip scenario), list every tool (ClientSession.Tools, the
// SDK's auto-paging iterator), call suggest_gifts, close.
func gosdkApp(ctx context.Context, conn net.Conn) error {
	return gosdkAppOver(ctx, &mcp.IOTransport{Reader: conn, Writer: conn})
}

// gosdkAppOver is gosdkApp on any transport of the SDK.
func gosdkAppOver(ctx context.Context, tr mcp.Transport) error {
	client := mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}, nil
		},
	})
	cs, err := client.Connect(ctx, tr, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	for _, err := range cs.Tools(ctx, nil) { // every page, as an app that shows all tools does
		if err != nil {
			return err
		}
	}
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "suggest_gifts", Arguments: map[string]any{"age": 25}})
	return err
}

// mark3App drives the mark3labs client the same way.
func mark3App(ctx context.Context, conn net.Conn) error {
	return mark3AppOver(ctx, m3transport.NewIO(conn, conn, nil))
}

// mark3AppOver is mark3App on any transport of the client.
func mark3AppOver(ctx context.Context, tr m3transport.Interface) error {
	c := m3client.NewClient(tr, m3client.WithElicitationHandler(acceptElicitation{}))
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		return err
	}
	if _, err := c.Initialize(ctx, m3.InitializeRequest{Params: m3.InitializeParams{
		ClientInfo: m3.Implementation{Name: "mark3-app", Version: "1.0.0"},
	}}); err != nil {
		return err
	}
	if _, err := c.ListTools(ctx, m3.ListToolsRequest{}); err != nil {
		return err
	}
	req := m3.CallToolRequest{}
	req.Params.Name = "suggest_gifts"
	req.Params.Arguments = map[string]any{"age": 25}
	_, err := c.CallTool(ctx, req)
	return err
}

type acceptElicitation struct{}

func (acceptElicitation) Elicit(context.Context, m3.ElicitationRequest) (*m3.ElicitationResult, error) {
	return &m3.ElicitationResult{ElicitationResponse: m3.ElicitationResponse{
		Action: m3.ElicitationResponseActionAccept, Content: map[string]any{"ok": true}}}, nil
}

// The known deviations of each SDK version, checked against its source and
// by experiment. Each is asserted as today's behaviour: when an upgrade
// fixes one, its subtest fails and the declaration is removed here.
var (
	gosdkReasons = map[string]string{
		"tools-capability-missing": "go-sdk v1.8.0: ClientSession.ListTools and CallTool send tools/list and tools/call whatever the server declared; " +
			"they do not check InitializeResult().Capabilities.Tools (nil here), so an app that lists tools without checking the capability itself calls an undeclared feature",
		"capabilities-differ-by-era": "go-sdk v1.8.0: in the stateless era ListTools sends tools/list although server/discover declared no tools capability (the SDK does not check capabilities; see tools-capability-missing)",
		"tools-schema-changed-quietly": "go-sdk v1.8.0: CallTool returns the -32602 as an error and the SDK never lists the tools again by itself; " +
			"a refresh is left to the app, and the app flow ends with the stale schema",
		"tools-list-changed": "go-sdk v1.8.0: on notifications/tools/list_changed the client only invalidates its stateless-era tools cache and calls ClientOptions.ToolListChangedHandler; " +
			"with the default options (no handler) nothing lists the tools again",
		"discover-never-answered": "go-sdk v1.8.0: Client.Connect sends the server/discover probe with the caller's context and no timeout of its own, " +
			`so against a server that never answers it waits until that context ends (the scenario's 10 s) and returns "context deadline exceeded" without ever sending initialize`,
		"looping-cursor": "go-sdk v1.8.0: the ClientSession.Tools iterator follows nextCursor without noticing that it repeats, " +
			"so against a looping cursor it sends tools/list until the app's context ends",
		"stdout-banner": "go-sdk v1.8.0: IOTransport treats a non-JSON line as a fatal read error: the connection closes before the server/discover result is read, " +
			`its fallback initialize fails without reaching the wire, and Connect returns "connection closed" with "invalid character 'g' looking for beginning of value"`,
	}
	mark3Reasons = map[string]string{
		"tools-capability-missing": "mark3labs/mcp-go v1.2.1: Client.ListTools and CallTool send tools/list and tools/call whatever the server declared; " +
			"they do not check GetServerCapabilities().Tools (nil here), so an app that lists tools without checking the capability itself calls an undeclared feature",
		"capabilities-differ-by-era": "mark3labs/mcp-go v1.2.1: in the stateless era ListTools sends tools/list although server/discover declared no tools capability (the client does not check capabilities; see tools-capability-missing)",
		"tools-schema-changed-quietly": "mark3labs/mcp-go v1.2.1: CallTool returns the -32602 as an error and the client never lists the tools again by itself; " +
			"a refresh is left to the app, and the app flow ends with the stale schema",
		"tools-list-changed": "mark3labs/mcp-go v1.2.1: notifications/tools/list_changed is only passed to the handlers registered with Client.OnNotification; " +
			"with none registered nothing lists the tools again",
		"elicitation-sep1034-client-defaults": "mark3labs/mcp-go v1.2.1 hands the requestedSchema to the app's ElicitationHandler and sends back the content it returns, without the schema's defaults " +
			"(go-sdk v1.8.0 fills them in); the app's handler returns {\"ok\":true}. 2025-11-25 elicitation: 'Clients that support defaults SHOULD pre-populate form fields with these values'; " +
			"mark3labs leaves defaults to the app. Transcript: the retry's inputResponses.defaults is {\"action\":\"accept\",\"content\":{\"ok\":true}}",
	}
	gosdkDeviations = deviations(gosdkReasons)
	mark3Deviations = deviations(mark3Reasons)
)

// deviations declares each reason as a KnownDeviation of its scenario.
func deviations(reasons map[string]string) []scenarios.Option {
	var out []scenarios.Option
	for name, why := range reasons {
		out = append(out, scenarios.KnownDeviation(name, why))
	}
	return out
}

// declared returns the KnownDeviation of name with its reason in reasons.
func declared(reasons map[string]string, name string) scenarios.Option {
	why, ok := reasons[name]
	if !ok {
		panic("no declared deviation for " + name)
	}
	return scenarios.KnownDeviation(name, why)
}

// The racy deviations: scenarios whose outcome, for that SDK version, is a
// race that the SDK usually loses. Run's single play would make them flaky,
// so conformance plays each until it deviates, at most racyPlays times.
var (
	gosdkRacy = map[string]string{
		"slow-tool-timeout": "go-sdk v1.8.0: when CallTool's context ends the call is retired at once and notifications/cancelled is sent from a new goroutine " +
			"(best effort, go-sdk issue #1150); the app's deferred ClientSession.Close usually runs first and closes the connection, so the notification is usually never written. " +
			"It is a race: the notification got out in 2 of 40 plays under -race and load, in 10 of 10 when the app waits 50 ms before Close, " +
			"and in 5 of 5 with MCPGODEBUG=blockingcancelnotify=1 (the synchronous send)",
	}
	mark3Racy = map[string]string{
		"slow-tool-timeout": "mark3labs/mcp-go v1.2.1: when CallTool's context ends, Client.cancelRequest sends notifications/cancelled from a new goroutine; " +
			"the app's deferred Client.Close usually closes the transport first, so SendNotification finds it closed and the notification is usually never written. " +
			"It is a race: the notification got out in 2 of 40 plays under -race and load, and in 10 of 10 when the app waits 50 ms before Close",
	}
)

// racyPlays is how many times a racy deviation is played before its
// subtest concludes that the SDK no longer deviates.
const racyPlays = 4

// TestConformanceGoSDK runs the catalog against the official Go SDK client.
func TestConformanceGoSDK(t *testing.T) {
	conformance(t, "gosdk", scenarios.OneSession(gosdkApp), gosdkDeviations, gosdkRacy)
}

// TestConformanceMark3 runs the catalog against the mark3labs client.
func TestConformanceMark3(t *testing.T) {
	conformance(t, "mark3labs", scenarios.OneSession(mark3App), mark3Deviations, mark3Racy)
}

// conformance runs the whole catalog against one SDK's app: scenarios.Run
// for every scenario but the racy ones, then each racy one with
// playRacy; it logs the report's table, in catalog order, and writes it.
func conformance(t *testing.T, name string, connect scenarios.ConnectFunc, deviations []scenarios.Option, racy map[string]string) {
	t.Helper()
	var steady, racyNames []string
	for _, n := range scenarios.Names() {
		if _, ok := racy[n]; ok {
			racyNames = append(racyNames, n)
		} else {
			steady = append(steady, n)
		}
	}
	if len(racyNames) != len(racy) {
		t.Fatalf("a racy deviation names no scenario of the catalog: %v", racy)
	}
	rep := scenarios.Run(t, connect, append([]scenarios.Option{scenarios.Only(steady...)}, deviations...)...) // logs its table
	for _, n := range racyNames {
		if r, ok := playRacy(t, connect, n, racy[n]); ok {
			rep.Results = append(rep.Results, r)
			t.Logf("conformance of %s, racy: %s", name, r) // the rest of the table is logged once, by Run
		}
	}
	order := scenarios.Names()
	slices.SortStableFunc(rep.Results, func(a, b scenarios.Result) int {
		return slices.Index(order, a.Scenario) - slices.Index(order, b.Scenario)
	})
	writeConformance(t, name, rep)
	checkDocTotals(t, name, rep)
}

// playRacy plays the scenario in a subtest named after it until the client
// deviates, at most racyPlays times, and returns the result of the last
// play: a known deviation, or a failure when the client did what a correct
// client does in every play (the race is gone: remove the declaration).
// ok is false when go test -run left the subtest out.
func playRacy(t *testing.T, connect scenarios.ConnectFunc, name, why string) (r scenarios.Result, ok bool) {
	t.Helper()
	s, _ := scenarios.Lookup(name)
	t.Run(name, func(t *testing.T) {
		ok = true
		for play := 1; play <= racyPlays; play++ {
			r = s.Evaluate(s.Play(t, connect), scenarios.KnownDeviation(name, why))
			if r.Status == scenarios.Deviation {
				t.Logf("known deviation of scenario %s, in play %d (%s)\n  want: %s\n  got:  %s", name, play, r.Why, r.Expected, r.Observed)
				return
			}
		}
		r.Why += fmt.Sprintf(" (it did, in %d plays out of %d)", racyPlays, racyPlays)
		t.Error(s.Failure(r))
	})
	return r, ok
}

// writeConformance writes the report, when MCPMOCK_CONFORMANCE_DIR is set,
// as <dir>/<name>.json (Report.JSON) and <dir>/<name>.txt (Report.Table).
func writeConformance(t *testing.T, name string, rep *scenarios.Report) {
	t.Helper()
	dir := os.Getenv("MCPMOCK_CONFORMANCE_DIR")
	if dir == "" {
		return
	}
	b, err := rep.JSON()
	if err != nil {
		t.Fatalf("report JSON: %v", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for file, data := range map[string][]byte{name + ".json": append(b, '\n'), name + ".txt": []byte(rep.Table())} {
		if err := os.WriteFile(filepath.Join(dir, file), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("conformance report of %s written to %s", name, filepath.Join(dir, name+".{json,txt}"))
}
