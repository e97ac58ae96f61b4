// Package scenarios is a catalog of ready-made MCP servers, most of them
// misbehaving in one classic way, each with what a correct client does when
// it meets it — a conformance run for MCP clients. It is built only on the
// public API of mcptest, the way cmpopts is built on cmp.
//
//	func TestMyClient(t *testing.T) {
//		report := scenarios.Run(t, func(ctx context.Context, conn net.Conn) error {
//			cs, err := mcp.NewClient(impl, nil).Connect(ctx, &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
//			if err != nil {
//				return err
//			}
//			defer cs.Close()
//			if _, err := cs.ListTools(ctx, nil); err != nil {
//				return err
//			}
//			_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "suggest_gifts", Arguments: map[string]any{"age": 25}})
//			return err
//		}, scenarios.KnownDeviation("tools-capability-missing", "calls tools/list without the tools capability"))
//		b, _ := report.JSON() // or report.Table()
//	}
//
// # Scenarios
//
// A Scenario has a short stable name (the subtest name: go test -run
// 'TestMyClient/slow-tool-timeout'), a paragraph on the server's mistake
// and the client bug it catches, the spec section, the server it builds,
// and an Expectation: what a correct client does, as a check over the
// Outcome — what the connect function returned, how long it took, the
// journal of every frame, the rules the client broke. All lists the
// catalog, Lookup finds one by name.
//
// # Running
//
// Play runs a client against one scenario and returns the Outcome; Check
// and Evaluate judge it. Run plays them all, one subtest each; a failing
// subtest says what the server did wrong, what a correct client does, what
// this client did, and logs the transcript. Run returns a Report, as JSON
// or a plain table.
//
// # Known deviations
//
// A real client fails some scenarios today. KnownDeviation(name, why)
// records that as the client's current behaviour: the subtest passes, the
// report says "known-deviation" and why; and when the client stops
// deviating (an SDK upgrade), the subtest fails, so the declaration is
// removed and the suite keeps telling the truth.
//
// # The workflow the catalog assumes
//
// The connect function drives the client as the application does; the
// scenarios expect at least: connect (in whichever era the client
// chooses), list the tools, call suggest_gifts with {"age":25}, and close.
// Scenarios about a tool call report "not exercised" as a failure when no
// tool is called.
package scenarios
