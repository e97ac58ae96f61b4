package giftgenius_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/mcpmock/mcpmock/examples/giftgenius"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
)

// The examples run with mcptest.ProgramTB, the TB for programs that are not
// tests: a failure is printed (to stdout, so that // Output: checks it) and
// the cleanups run when the function returns. In your tests, pass t.
func example(f func(t mcptest.TB)) {
	if err := mcptest.NewProgramTB("example", os.Stdout).Run(f); err != nil {
		fmt.Println("FAIL")
	}
}

func ExampleApp_Suggest() {
	example(func(t mcptest.TB) {
		srv := mcptest.NewServer(t).
			WithTools(mcptest.NewTool("suggest_gifts").
				WithInputSchema(`{"type":"object","properties":{"age":{"type":"integer"}},"required":["age"]}`).
				WhenArgs(`{"age":25}`, mcptest.TextResult("a board game\nconcert tickets")).
				ReturnsText("a kite"))

		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		app, err := giftgenius.Connect(ctx, srv.Dial())
		if err != nil {
			fmt.Println(err)
			return
		}
		defer app.Close()
		ideas, err := app.Suggest(ctx, 25, 0)
		fmt.Println(ideas, err)

		srv.AssertEra(t, mcptest.EraStateless)
		srv.AssertNegotiatedVersion(t, "2026-07-28")
		srv.AssertToolCalled(t, "suggest_gifts", `{"age":25}`)
		for _, m := range srv.Journal().All().Requests("") {
			fmt.Println(m.Method)
		}
	})
	// Output:
	// [a board game concert tickets] <nil>
	// server/discover
	// tools/list
	// tools/call
}

// The same app against a legacy server: the Go SDK's server/discover probe
// is answered -32601, and it falls back to the handshake.
func ExampleApp_Suggest_handshake() {
	example(func(t mcptest.TB) {
		srv := mcptest.NewServer(t).
			WithProtocolVersions(mcptest.HandshakeVersions()...).
			WithTools(mcptest.NewTool("suggest_gifts").Returns(mcptest.StructuredResult(`{"ideas":["a scarf","a book"]}`)))

		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		app, err := giftgenius.Connect(ctx, srv.Dial())
		if err != nil {
			fmt.Println(err)
			return
		}
		defer app.Close()
		ideas, err := app.Suggest(ctx, 25, 30)
		fmt.Printf("%q %v\n", ideas, err)

		srv.AssertHandshakeCompleted(t)
		srv.AssertNegotiatedVersion(t, "2025-11-25")
		fmt.Print(srv.Journal().All().SequenceDiagram())
	})
	// Output:
	// ["a scarf" "a book"] <nil>
	// sequenceDiagram
	//     participant C as Client
	//     participant S as Server (mcptest)
	//     C->>S: server/discover [id 1]
	//     S--xC: error -32601 [id 1] (server/discover)
	//     C->>S: initialize [id 2]
	//     S-->>C: result [id 2] (initialize)
	//     C-)S: notifications/initialized
	//     C->>S: tools/list [id 3]
	//     S-->>C: result [id 3] (tools/list)
	//     C->>S: tools/call [id 4]
	//     S-->>C: result [id 4] (tools/call)
}

// A broken server: it answers initialize with a protocol version that
// never existed. The app's Connect fails and the client hangs up.
func ExampleConnect_unknownProtocolVersion() {
	example(func(t mcptest.TB) {
		srv := mcptest.NewServer(t).
			WithProtocolVersions(mcptest.HandshakeVersions()...).
			WithTools(mcptest.NewTool("suggest_gifts").ReturnsText("a kite")).
			WithFaults(fault.RespondProtocolVersion("1999-01-01"))

		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, err := giftgenius.Connect(ctx, srv.Dial())
		fmt.Println(err)

		<-srv.Session(1).Done() // the client closed the connection
		fmt.Print(srv.Transcript())
	})
	// Output:
	// giftgenius: connecting: unsupported protocol version: "1999-01-01"
	// faults on: RespondProtocolVersion("1999-01-01")
	// session 1 (handshake, protocol 1999-01-01)
	//   1 → {"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}},"io.modelcontextprotocol/clientInfo":{"name":"giftgenius","version":"1.0.0"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}
	//   2 ← {"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found: server/discover"}}
	//   3 → {"jsonrpc":"2.0","id":2,"method":"initialize","params":{"clientInfo":{"name":"giftgenius","version":"1.0.0"},"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true}}}}
	//   4 ← {"jsonrpc":"2.0","id":2,"result":{"capabilities":{"tools":{"listChanged":true}},"protocolVersion":"1999-01-01","serverInfo":{"name":"mcptest","version":"0.0.0"}}}
}

// Another broken server: it serves suggest_gifts but forgot to declare the
// tools capability. The Go SDK would list the tools anyway; the app checks
// the capability and sends neither tools/list nor tools/call.
func ExampleApp_Suggest_toolsCapabilityForgotten() {
	example(func(t mcptest.TB) {
		srv := mcptest.NewServer(t).
			WithTools(mcptest.NewTool("suggest_gifts").ReturnsText("a kite")).
			WithFaults(fault.OmitCapability("tools"))

		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		app, err := giftgenius.Connect(ctx, srv.Dial())
		if err != nil {
			fmt.Println(err)
			return
		}
		defer app.Close()
		_, err = app.Suggest(ctx, 25, 0)
		fmt.Println(err)
		fmt.Println("tools/list sent:", len(srv.Journal().All().Requests("tools/list")))
	})
	// Output:
	// giftgenius: the server offers no suggest_gifts tool: it declares no tools capability
	// tools/list sent: 0
}
