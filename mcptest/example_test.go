package mcptest_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/internal/mcpclient"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/tidwall/gjson"
)

// newExampleT returns the stand-in for the *testing.T of a real test, so
// that the examples can run as Example functions: a failure prints a
// "FAIL:" line into the example's output, and the cleanups run at Finish,
// as the testing package runs them when a test ends. In your tests, pass t.
func newExampleT() *faketb.TB { return &faketb.TB{Out: os.Stdout, FatalReturns: true} }

// exampleClient is just enough of an MCP client for these examples: the
// module's client kit's Wire, which writes one JSON-RPC message per line
// to a connection of the mock and reads the mock's lines back. In your
// tests the client under test (your app, over an SDK or not) takes its
// place.
type exampleClient struct{ w *mcpclient.Wire }

func dial(srv *mcptest.Server) *exampleClient { return &exampleClient{mcpclient.NewWire(srv.Dial())} }

// send writes one message; the newline frames it.
func (c *exampleClient) send(line string) { _ = c.w.Send(line) }

// recv reads the next message the mock sent; it gives up after 5 seconds.
func (c *exampleClient) recv() gjson.Result {
	line, err := c.w.Recv(time.Now().Add(5 * time.Second))
	if err != nil {
		panic(fmt.Sprintf("no reply from the mock: %v", err))
	}
	return gjson.Parse(line)
}

// call sends a request and returns the reply.
func (c *exampleClient) call(request string) gjson.Result {
	c.send(request)
	return c.recv()
}

// handshake sends initialize, waits for its result, then sends
// notifications/initialized, as a handshake-era client does.
func (c *exampleClient) handshake(version string) {
	c.call(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"gift-app","version":"1.0.0"},` +
		`"protocolVersion":"` + version + `","capabilities":{"roots":{"listChanged":true}}}}`)
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`)
}

func (c *exampleClient) close() { _ = c.w.Close() }

func ExampleNewServer() {
	t := newExampleT()
	defer t.Finish()

	srv := mcptest.NewServer(t).
		WithOptions(mcptest.Options{Name: "gift-genius-backend", Version: "0.2.0"}).
		WithTools(mcptest.NewTool("suggest_gifts").
			WithDescription("Suggests gift ideas for a recipient").
			WithInputSchema(`{"type":"object","properties":{"age":{"type":"integer"}},"required":["age"]}`).
			ReturnsText("a board game"))

	c := dial(srv) // the client under test
	defer c.close()
	c.handshake("2025-06-18")
	reply := c.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"suggest_gifts","arguments":{"age":25}}}`)
	fmt.Println(reply.Get("result.content.0.text"))

	srv.AssertHandshakeCompleted(t)
	srv.AssertNegotiatedVersion(t, "2025-06-18")
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
	t := newExampleT()
	defer t.Finish()

	srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("suggest_gifts").
		WhenArgs(`{"age":8}`, mcptest.TextResult("a kite")).
		WhenArgs(map[string]any{"budget": 0}, mcptest.ToolErrorResult("no budget, no gift")).
		Returns(mcptest.TextResult("a board game"), mcptest.TextResult("a puzzle")))

	c := dial(srv)
	defer c.close()
	c.handshake("2025-06-18")
	for i, args := range []string{`{"age":8}`, `{"age":30,"budget":0}`, `{"age":30}`, `{"age":31}`, `{"age":32}`} {
		reply := c.call(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"suggest_gifts","arguments":%s}}`, i+2, args))
		fmt.Printf("%s → %s (isError %v)\n", args, reply.Get("result.content.0.text"), reply.Get("result.isError").Bool())
	}
	// Output:
	// {"age":8} → a kite (isError false)
	// {"age":30,"budget":0} → no budget, no gift (isError true)
	// {"age":30} → a board game (isError false)
	// {"age":31} → a puzzle (isError false)
	// {"age":32} → a puzzle (isError false)
}

func ExampleServer_SendRequest() {
	t := newExampleT()
	defer t.Finish()

	// Server-to-client requests exist in the handshake era only.
	srv := mcptest.NewServer(t).WithProtocolVersions(mcptest.HandshakeVersions()...)
	c := dial(srv)
	defer c.close()
	c.handshake("2025-06-18") // declaring the roots capability
	srv.AssertHandshakeCompleted(t)

	// The client answers the one request it is sent.
	go func() {
		req := c.recv()
		fmt.Println("client got", req.Get("method"))
		c.send(`{"jsonrpc":"2.0","id":` + req.Get("id").Raw + `,"result":{"roots":[{"uri":"file:///home/ada/gifts","name":"gifts"}]}}`)
	}()
	reply, _ := srv.SendRequest(context.Background(), "roots/list", nil)
	fmt.Println(reply.Get("result.roots.0.uri"))
	// Output:
	// client got roots/list
	// file:///home/ada/gifts
}

// A client that skips the handshake: the mock answers it, records the
// broken rule, and the test declares that it expected it.
func ExampleServer_ExpectViolation() {
	t := newExampleT()
	defer t.Finish()

	srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("suggest_gifts").ReturnsText("a kite"))
	srv.ExpectViolation("lifecycle/initialize-first")

	conn := srv.Dial()
	defer conn.Close()
	fmt.Fprintln(conn, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	srv.WaitFor(t, mcptest.Matcher{Description: "the reply", Match: func(m mcptest.Message) bool { return m.IsResponse() }})

	for _, v := range srv.Violations() {
		fmt.Println(v.Rule, "-", v.Detail)
		fmt.Println(v.URL())
	}
	// Output:
	// lifecycle/initialize-first - tools/list sent before initialize
	// https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization
}

func ExampleMessages_SequenceDiagram() {
	t := newExampleT()
	defer t.Finish()

	srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("suggest_gifts").ReturnsText("a kite"))
	c := dial(srv)
	c.handshake("2025-06-18")
	c.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"no_such_tool"}}`)
	c.close()
	fmt.Print(strings.ReplaceAll(srv.Journal().All().SequenceDiagram(), "    ", "  "))
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
	t := newExampleT()
	defer t.Finish()

	srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("buy_gift").
		RequiresInput(mcptest.ElicitInput("confirm", "Buy the kite for 12 EUR?",
			`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`)).
		HandledBy(func(_ context.Context, req *mcptest.Request) mcptest.Reply {
			if req.InputResponse("confirm").Get("content.ok").Bool() {
				return mcptest.TextResult("bought")
			}
			return mcptest.TextResult("not bought")
		}))

	// A stateless-era client sends its version, capabilities and name in
	// every request's _meta, and asks server/discover first.
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
		`"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},` +
		`"io.modelcontextprotocol/clientInfo":{"name":"gift-app","version":"1.0.0"}}`
	c := dial(srv)
	defer c.close()
	c.call(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + meta + `}}`)
	round := c.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"buy_gift","arguments":{},` + meta + `}}`)
	fmt.Println(round.Get("result.inputRequests.confirm.method"), "-", round.Get("result.inputRequests.confirm.params.message"))
	// The user says yes: the client retries with a new id, its answer and
	// the requestState the mock gave it.
	reply := c.call(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"buy_gift","arguments":{},` +
		`"requestState":` + round.Get("result.requestState").Raw + `,` +
		`"inputResponses":{"confirm":{"action":"accept","content":{"ok":true}}},` + meta + `}}`)
	fmt.Println(reply.Get("result.content.0.text"))

	srv.AssertEra(t, mcptest.EraStateless)
	srv.AssertNegotiatedVersion(t, "2026-07-28")
	for _, m := range srv.Journal().All().ToolCalls("buy_gift") {
		fmt.Printf("tools/call id=%s requestState=%s inputResponses=%s\n", m.ID,
			m.Get("params.requestState").Raw, m.Get("params.inputResponses").Raw)
	}
	for _, m := range srv.Journal().All().Responses("tools/call") {
		fmt.Printf("reply id=%s resultType=%s\n", m.ID, m.Get("result.resultType"))
	}
	// Output:
	// elicitation/create - Buy the kite for 12 EUR?
	// bought
	// tools/call id=2 requestState= inputResponses=
	// tools/call id=3 requestState="mcptest-state-1" inputResponses={"confirm":{"action":"accept","content":{"ok":true}}}
	// reply id=2 resultType=input_required
	// reply id=3 resultType=complete
}

// An assertion whose answer cannot change any more fails at once instead
// of waiting for the timeout: here the tool is not even scripted, and the
// failure names the closest one.
func ExampleServer_AssertToolCalled() {
	t := newExampleT()
	defer t.Finish()

	srv := mcptest.NewServer(t).
		WithTools(mcptest.NewTool("suggest_gifts").ReturnsText("a board game"))
	c := dial(srv)
	defer c.close()
	c.handshake("2025-11-25")
	c.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"suggest_gifts","arguments":{"age":25}}}`)

	fmt.Println(srv.AssertToolCalled(t, "suggest_gifts", `{"age":25}`))
	fmt.Println(srv.AssertToolCalled(t, "suggest_gift", nil)) // a typo: it fails at once
	// Output:
	// true
	// FAIL: mcptest: AssertToolCalled("suggest_gift") failed
	//   want: the client calls tool "suggest_gift"
	//   got:  tool "suggest_gift" was never called; tool "suggest_gift" is not scripted (did you forget WithTools?); did you mean "suggest_gifts"?
	// journal (messages 1 to 5 of 5; the transcript, every message in full, is logged when the test ends):
	//   #1 s1 client→server request initialize id=1  {"clientInfo":{"name":"gift-app","version":"1.0.0"},"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true}}}
	//   #2 s1 server→client result initialize id=1  {"capabilities":{"tools":{"listChanged":true}},"protocolVersion":"2025-11-25","serverInfo":{"name":"mcptest","version":"0.0.0"}}
	//   #3 s1 client→server notification notifications/initialized  {}
	//   #4 s1 client→server request tools/call id=2  {"name":"suggest_gifts","arguments":{"age":25}}
	//   #5 s1 server→client result tools/call id=2  {"content":[{"text":"a board game","type":"text"}]}
	//
	// false
}
