// Package scenarios is a catalog of ready-made MCP servers, most of them
// misbehaving in one classic way, each with what a correct client does when
// it meets it — a conformance run for MCP clients. It is built only on the
// public API of mcptest, the way cmpopts is built on cmp.
//
//	func TestMyClient(t *testing.T) {
//		report := scenarios.Run(t, scenarios.OneSession(func(ctx context.Context, conn net.Conn) error {
//			cs, err := mcp.NewClient(impl, nil).Connect(ctx, &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
//			if err != nil {
//				return err
//			}
//			defer cs.Close()
//			if _, err := cs.ListTools(ctx, nil); err != nil {
//				return err
//			}
//			_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_forecast", Arguments: map[string]any{"city": "Paris"}})
//			return err
//		}),
//			scenarios.WithServer(myServer), // the app's own tools; GiftGen without it
//			scenarios.KnownDeviation("tools-capability-missing", "calls tools/list without the tools capability"))
//		t.Log(report.Table()) // or report.JSON()
//	}
//
// # Scenarios
//
// A Scenario has a short stable name (the subtest name: go test -run
// 'TestMyClient/slow-tool-timeout'), a paragraph on the server's mistake
// and the client bug it catches, the spec section, how it applies the
// mistake to a healthy server, and an Expectation: what a correct client
// does, the decision point (what the client must have reached for the
// check to be evidence), and the checks over the Outcome — what the
// connect function returned, how long it took, the journal of every
// message, the rules the client broke. All lists the catalog, Lookup finds
// one by name.
//
// # Verdicts
//
// Each scenario ends in one Status. Pass and Fail are given only once the
// client reached the decision point; a client that never got there is
// NotReached, which counts as a failure and says what was missing (a
// client that does nothing passes nothing). A scenario that cannot apply
// to the client is NotApplicable, with the reason (a stateless-era
// scenario for a client that initialized without probing, a discover
// scenario for a client that never probes): its subtest is skipped. A
// check about what the client does after an event (re-list the tools
// after list_changed) waits for it, on the journal, within a stated window
// after the connect function returned, so that a client that reacts from
// its own goroutine gets the same verdict every run.
//
// # The app's own server
//
// By default every scenario starts from GiftGen (suggest_gifts, a gift
// catalog, a prompt). WithServer gives the app's own healthy server
// instead, and each scenario applies its mistake to that one: the checks
// speak of whatever the client calls ("the first tools/call", "every list
// it pages through"), not of GiftGen's names.
//
// # Running
//
// The ConnectFunc gets an Endpoint: Open opens a session (one per call, so
// a client may reconnect), URL is the same server over Streamable HTTP: a
// ConnectFunc that connects to URL plays the whole catalog over HTTP, the
// scenarios of HTTP included (they are not applicable to a client that
// never asks for URL). OneSession adapts a function that takes one
// connection. Play runs a client against
// one scenario and returns the Outcome; Evaluate and Check judge it. Run
// plays them all, one subtest each; a failing subtest says what the
// server did wrong, what a correct client does, what this client did, and
// logs the transcript. Judge does the same with any mcptest.TB (e.g. an
// mcptest.ProgramTB in a program, without *testing.T). Both return a
// Report, as JSON or a plain table.
//
// # Known deviations
//
// A real client fails some scenarios today. KnownDeviation(name, why)
// records that as the client's current behaviour: the subtest passes, the
// report says "known-deviation" and why; and when the client stops
// deviating (an SDK upgrade), the subtest fails, so the declaration is
// removed and the suite keeps telling the truth. A deviation does not
// cover not-reached: leave a scenario the client never reaches out with
// Skip (an app that reads one page of each list:
// Skip("looping-cursor")), or name the ones to play with Only.
//
// A verdict that depends on the client's own race says so: a client that
// closes a session right after an event it must react to, without
// sending anything after it, is told when it closed it (tools-list-changed
// is then not reached; slow-tool-timeout's failure names the close).
package scenarios
