package mcptest_test

import (
	"context"
	"fmt"
	"net"
	"strings"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// exampleT stands in for the *testing.T of a real test, so that the
// examples can run as Example functions. In your tests, pass t.
type exampleT struct {
	cleanups []func()
	failed   bool
}

func (t *exampleT) Helper()          {}
func (t *exampleT) Cleanup(f func()) { t.cleanups = append(t.cleanups, f) }
func (t *exampleT) Errorf(format string, args ...any) {
	t.failed = true
	fmt.Printf("FAIL: "+format+"\n", args...)
}
func (t *exampleT) Fatalf(format string, args ...any) { t.Errorf(format, args...) }
func (t *exampleT) Logf(format string, args ...any)   {}
func (t *exampleT) Failed() bool                      { return t.failed }

// finish runs the cleanups, as the testing package does when a test ends.
func (t *exampleT) finish() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
}

// connect connects the official Go SDK client to a new session.
func connect(conn net.Conn, opts *mcp.ClientOptions) *mcp.ClientSession {
	client := mcp.NewClient(&mcp.Implementation{Name: "gift-app", Version: "1.0.0"}, opts)
	cs, err := client.Connect(context.Background(), &mcp.IOTransport{Reader: conn, Writer: conn},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	if err != nil {
		panic(err)
	}
	return cs
}

func ExampleNewServer() {
	t := &exampleT{}
	defer t.finish()

	srv := mcptest.NewServer(t).
		WithServerInfo("gift-genius-backend", "0.2.0").
		WithTool(mcptest.NewTool("suggest_gifts").
			WithDescription("Suggests gift ideas for a recipient").
			WithInputSchema(`{"type":"object","properties":{"age":{"type":"integer"}},"required":["age"]}`).
			ReturnsText("a board game"))

	cs := connect(srv.Dial(), nil) // the client under test
	defer cs.Close()
	res, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "suggest_gifts", Arguments: map[string]any{"age": 25}})
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)

	srv.AssertHandshakeCompleted(t, "2025-06-18")
	srv.AssertToolCalled(t, "suggest_gifts", `{"age":25}`)
	fmt.Print(srv.Transcript())
	// Output:
	// a board game
	// session 1 (handshake, protocol 2025-06-18)
	//   1 → {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"gift-app","version":"1.0.0"},"protocolVersion":"2025-06-18","capabilities":{"roots":{"listChanged":true}}}}
	//   2 ← {"jsonrpc":"2.0","id":1,"result":{"capabilities":{"tools":{"listChanged":true}},"protocolVersion":"2025-06-18","serverInfo":{"name":"gift-genius-backend","version":"0.2.0"}}}
	//   3 → {"jsonrpc":"2.0","method":"notifications/initialized","params":{}}
	//   4 → {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"suggest_gifts","arguments":{"age":25}}}
	//   5 ← {"jsonrpc":"2.0","id":2,"result":{"content":[{"text":"a board game","type":"text"}]}}
}

func ExampleTool_WhenArgs() {
	t := &exampleT{}
	defer t.finish()

	srv := mcptest.NewServer(t).WithTool(mcptest.NewTool("suggest_gifts").
		WhenArgs(`{"age":8}`, mcptest.TextResult("a kite")).
		WhenArgs(map[string]any{"budget": 0}, mcptest.ErrorResult("no budget, no gift")).
		Returns(mcptest.TextResult("a board game"), mcptest.TextResult("a puzzle")))

	cs := connect(srv.Dial(), nil)
	defer cs.Close()
	for _, args := range []map[string]any{{"age": 8}, {"age": 30, "budget": 0}, {"age": 30}, {"age": 31}, {"age": 32}} {
		res, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "suggest_gifts", Arguments: args})
		fmt.Printf("%v → %s (isError %v)\n", args, res.Content[0].(*mcp.TextContent).Text, res.IsError)
	}
	// Output:
	// map[age:8] → a kite (isError false)
	// map[age:30 budget:0] → no budget, no gift (isError true)
	// map[age:30] → a board game (isError false)
	// map[age:31] → a puzzle (isError false)
	// map[age:32] → a puzzle (isError false)
}

func ExampleServer_Request() {
	t := &exampleT{}
	defer t.finish()

	// Server-to-client requests exist in the handshake era only.
	srv := mcptest.NewServer(t).WithProtocolVersions(mcptest.HandshakeVersions...)
	client := mcp.NewClient(&mcp.Implementation{Name: "gift-app", Version: "1.0.0"}, nil)
	client.AddRoots(&mcp.Root{URI: "file:///home/ada/gifts", Name: "gifts"})
	conn := srv.Dial()
	cs, _ := client.Connect(context.Background(), &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
	defer cs.Close()
	srv.AssertHandshakeCompleted(t)

	reply, _ := srv.Request(context.Background(), "roots/list", nil)
	fmt.Println(reply.Get("result.roots.0.uri"))
	// Output:
	// file:///home/ada/gifts
}

// A client that skips the handshake: the mock answers it, records the
// broken rule, and the test declares that it expected it.
func ExampleServer_ExpectViolation() {
	t := &exampleT{}
	defer t.finish()

	srv := mcptest.NewServer(t).WithTool(mcptest.NewTool("suggest_gifts").ReturnsText("a kite"))
	srv.ExpectViolation(mcptest.RuleInitializeFirst)

	conn := srv.Dial()
	defer conn.Close()
	fmt.Fprintln(conn, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	srv.WaitFor(t, mcptest.MatchFunc("the reply", func(m mcptest.Message) bool { return m.IsResponse() }))

	for _, v := range srv.Violations() {
		fmt.Println(v.Rule, "-", v.Detail)
		fmt.Println(v.URL())
	}
	// Output:
	// lifecycle/initialize-first - tools/list sent before initialize
	// https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization
}

func ExampleServer_SequenceDiagram() {
	t := &exampleT{}
	defer t.finish()

	srv := mcptest.NewServer(t).WithTool(mcptest.NewTool("suggest_gifts").ReturnsText("a kite"))
	cs := connect(srv.Dial(), nil)
	_, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "no_such_tool"})
	cs.Close()
	fmt.Print(strings.ReplaceAll(srv.SequenceDiagram(), "    ", "  "))
	// Output:
	// sequenceDiagram
	//   participant C as Client
	//   participant S as Server (mcptest)
	//   C->>S: initialize [id 1]
	//   S-->>C: result [id 1] (initialize)
	//   C-)S: notifications/initialized
	//   C->>S: tools/call [id 2]
	//   S--xC: error -32602 [id 2] (tools/call)
}

// A tool that needs the user's confirmation. In the stateless era the mock
// answers input_required and the client retries with its answer; in the
// handshake era the same script sends elicitation/create to the client.
func ExampleTool_RequiresInput() {
	t := &exampleT{}
	defer t.finish()

	srv := mcptest.NewServer(t).WithTool(mcptest.NewTool("buy_gift").
		RequiresInput(mcptest.ElicitInput("confirm", "Buy the kite for 12 EUR?",
			`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`)).
		HandledBy(func(_ context.Context, req *mcptest.Request) mcptest.Reply {
			if req.InputResponse("confirm").Get("content.ok").Bool() {
				return mcptest.TextResult("bought")
			}
			return mcptest.TextResult("not bought")
		}))

	client := mcp.NewClient(&mcp.Implementation{Name: "gift-app", Version: "1.0.0"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}, nil
		},
	})
	conn := srv.Dial()
	cs, _ := client.Connect(context.Background(), &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
	defer cs.Close()
	res, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "buy_gift", Arguments: map[string]any{}})
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)

	srv.AssertEra(t, mcptest.EraStateless, "2026-07-28")
	for _, m := range srv.Journal().ToolCalls("buy_gift") {
		fmt.Printf("tools/call id=%s requestState=%s inputResponses=%s\n", m.ID,
			m.Get("params.requestState").Raw, m.Get("params.inputResponses").Raw)
	}
	for _, m := range srv.Journal().Responses("tools/call") {
		fmt.Printf("reply id=%s resultType=%s\n", m.ID, m.Get("result.resultType"))
	}
	// Output:
	// bought
	// tools/call id=2 requestState= inputResponses=
	// tools/call id=3 requestState="mcptest-state-1" inputResponses={"confirm":{"action":"accept","content":{"ok":true}}}
	// reply id=2 resultType=input_required
	// reply id=3 resultType=complete
}
