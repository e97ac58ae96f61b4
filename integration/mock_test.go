package integration_test

// The integration suite: the two real Go MCP clients — the official SDK
// (github.com/modelcontextprotocol/go-sdk) and mark3labs/mcp-go — talk to
// the mock through Dial, and the mock's journal, checks and assertions are
// held to what they did.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/mcpmock/mcpmock/internal/spec"
	"net"
	"testing"
	"time"

	m3client "github.com/mark3labs/mcp-go/client"
	m3transport "github.com/mark3labs/mcp-go/client/transport"
	m3 "github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// connectGoSDK connects the official SDK client to a new session of srv.
func connectGoSDK(t *testing.T, srv *mcptest.Server, opts *mcp.ClientOptions, sopts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	conn := srv.Dial()
	c := mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, opts)
	cs, err := c.Connect(testContext(t), &mcp.IOTransport{Reader: conn, Writer: conn}, sopts)
	require.NoError(t, err, "go-sdk Connect")
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// connectMark3 connects the mark3labs client to a new session of srv and initializes it.
func connectMark3(t *testing.T, srv *mcptest.Server, opts ...m3client.ClientOption) (*m3client.Client, *m3.InitializeResult) {
	t.Helper()
	return connectMark3Over(t, srv.Dial(), nil, opts...)
}

// connectMark3Over is connectMark3 over a given connection (e.g. a wire
// tap); onNotification, if not nil, is registered before Start.
func connectMark3Over(t *testing.T, conn net.Conn, onNotification func(m3.JSONRPCNotification), opts ...m3client.ClientOption) (*m3client.Client, *m3.InitializeResult) {
	t.Helper()
	c := m3client.NewClient(m3transport.NewIO(conn, conn, nil), opts...)
	if onNotification != nil {
		c.OnNotification(onNotification)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { _ = c.Close(); cancel() })
	require.NoError(t, c.Start(ctx), "mark3labs Start")
	res, err := c.Initialize(testContext(t), m3.InitializeRequest{Params: m3.InitializeParams{
		ClientInfo: m3.Implementation{Name: "mark3-app", Version: "1.0.0"},
	}})
	require.NoError(t, err, "mark3labs Initialize")
	return c, res
}

// giftServer is the GiftGen backend of the examples: a tool, a catalog of
// resources and a template, a prompt, completions.
func giftServer(t *testing.T) *mcptest.Server {
	return mcptest.NewServer(t).
		WithOptions(mcptest.Options{Name: "gift-genius-backend", Version: "0.2.0"}).
		WithOptions(mcptest.Options{Instructions: "Suggest gifts."}).
		WithOptions(mcptest.Options{Logging: true}).
		WithTools(mcptest.NewTool("suggest_gifts").
			WithTitle("Suggest gifts").
			WithDescription("Suggests gift ideas for a recipient").
			WithInputSchema(`{"type":"object","properties":{"age":{"type":"integer"},"budget":{"type":"number"}},"required":["age"]}`).
			WithAnnotations(map[string]any{"readOnlyHint": true}).
			WhenArgs(`{"age":8}`, mcptest.TextResult("a kite")).
			WhenArgs(`{"age":25,"budget":10}`, mcptest.StructuredResult(`{"gift":"a book","price":9.5}`)).
			Returns(mcptest.TextResult("a board game"), mcptest.TextResult("a puzzle"))).
		WithTools(mcptest.NewTool("fail").Returns(mcptest.ToolErrorResult("the gift shop is closed"))).
		WithTools(mcptest.NewTool("broken").Returns(mcptest.JSONRPCError(-32000, "backend down", nil))).
		WithTools(mcptest.NewTool("pictures").Returns(mcptest.ContentResult(
			mcptest.ImageContent([]byte{0x89, 'P', 'N', 'G'}, "image/png"),
			mcptest.ResourceLinkContent("gifts://catalog/1", "gift 1", "application/json"),
			mcptest.EmbeddedResourceContent(mcptest.TextResourceContents("gifts://catalog/2", "text/plain", "a scarf"))))).
		WithResources(mcptest.NewResource("gifts://catalog/1", "Gift 1").WithMIMEType("text/plain").ReturnsText("a kite"),
			mcptest.NewResource("gifts://catalog/2", "Gift 2").WithMIMEType("text/plain").ReturnsText("a scarf")).
		WithResourceTemplates(mcptest.NewResourceTemplate("gifts://person/{name}", "Person").
			HandledBy(func(_ context.Context, req *mcptest.Request) mcptest.Reply {
				return mcptest.ReadResult(mcptest.TextResourceContents(req.Message.Get("params.uri").String(), "text/plain", "likes for "+req.Vars["name"]))
			})).
		WithPrompts(mcptest.NewPrompt("gift_idea").WithDescription("Ask for a gift idea").
			WithArgument("occasion", "what for", true).
			WhenArgs(`{"occasion":"birthday"}`, mcptest.PromptResult("birthday", mcptest.UserText("Suggest a birthday gift"))).
			ReturnsText("Suggest a gift")).
		WithPromptCompletion("gift_idea", "occasion", "birthday", "wedding", "winter holidays")
}

// legacy narrows a server to the handshake era: server/discover gets
// -32601 and probing clients fall back to initialize.
func legacy(srv *mcptest.Server) *mcptest.Server {
	return srv.WithProtocolVersions(mcptest.HandshakeVersions()...)
}

// eraCase runs a test against a legacy-only mock (the clients fall back to
// the handshake) and against the default mock (the clients go stateless).
type eraCase struct {
	name    string
	era     mcptest.Era
	version string
	narrow  func(*mcptest.Server) *mcptest.Server
}

var bothEras = []eraCase{
	{"handshake", mcptest.EraHandshake, "2025-11-25", legacy},
	{"stateless", mcptest.EraStateless, "2026-07-28", func(s *mcptest.Server) *mcptest.Server { return s }},
}

func forEachEra(t *testing.T, f func(t *testing.T, e eraCase)) {
	for _, e := range bothEras {
		t.Run(e.name, func(t *testing.T) { f(t, e) })
	}
}

func text(t *testing.T, c mcp.Content) string {
	t.Helper()
	tc, ok := c.(*mcp.TextContent)
	require.True(t, ok, "want *mcp.TextContent, got %T", c)
	return tc.Text
}

// TestGoSDKHandshakeVersions pins the official client to each handshake-era
// version and checks the mock negotiates it.
func TestGoSDKHandshakeVersions(t *testing.T) {
	for _, v := range mcptest.HandshakeVersions() {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			srv := giftServer(t)
			cs := connectGoSDK(t, srv, nil, &mcp.ClientSessionOptions{ProtocolVersion: v})
			assert.Equal(t, v, cs.InitializeResult().ProtocolVersion)
			assert.Equal(t, "gift-genius-backend", cs.InitializeResult().ServerInfo.Name)
			assert.Equal(t, "Suggest gifts.", cs.InitializeResult().Instructions)
			srv.AssertHandshakeCompleted(t)
			srv.AssertNegotiatedVersion(t, v)
			srv.AssertNotCalled(t, "server/discover")
			srv.AssertOrder(t, "initialize", "notifications/initialized")
			assert.Equal(t, v, srv.Session(1).ProtocolVersion())
		})
	}
}

// TestGoSDKDiscoverFallback: with nil options the client probes with
// server/discover, gets -32601 at once, and falls back to initialize.
func TestGoSDKDiscoverFallback(t *testing.T) {
	srv := legacy(giftServer(t))
	cs := connectGoSDK(t, srv, nil, nil)
	assert.Equal(t, "2025-11-25", cs.InitializeResult().ProtocolVersion)
	srv.AssertHandshakeCompleted(t)
	srv.AssertNegotiatedVersion(t, "2025-11-25")
	srv.AssertOrder(t, "server/discover", "initialize", "notifications/initialized")
	resp := srv.Journal().All().Responses("server/discover")
	require.Len(t, resp, 1)
	assert.Equal(t, spec.CodeMethodNotFound, resp[0].ErrorCode)
	srv.AssertNoViolations(t)
}

func TestGoSDKOlderVersionNegotiation(t *testing.T) {
	// A server that only speaks 2025-03-26 answers a 2025-11-25 client with
	// its own version; the official client accepts any version it knows.
	srv := mcptest.NewServer(t).WithProtocolVersions("2025-03-26").WithTools(mcptest.NewTool("t").ReturnsText("x"))
	cs := connectGoSDK(t, srv, nil, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	assert.Equal(t, "2025-03-26", cs.InitializeResult().ProtocolVersion)
	srv.AssertHandshakeCompleted(t)
	srv.AssertNegotiatedVersion(t, "2025-03-26")
	init := srv.Journal().All().Requests("initialize")
	require.Len(t, init, 1)
	assert.Equal(t, "2025-11-25", init[0].Get("params.protocolVersion").String())
}

func TestGoSDKTools(t *testing.T) { forEachEra(t, testGoSDKTools) }

func testGoSDKTools(t *testing.T, e eraCase) {
	srv := e.narrow(giftServer(t))
	cs := connectGoSDK(t, srv, nil, nil)
	srv.AssertEra(t, e.era)
	srv.AssertNegotiatedVersion(t, e.version)
	ctx := testContext(t)

	list, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Len(t, list.Tools, 4)
	assert.Equal(t, "suggest_gifts", list.Tools[0].Name)
	assert.Equal(t, "Suggest gifts", list.Tools[0].Title)
	assert.True(t, list.Tools[0].Annotations.ReadOnlyHint)

	call := func(name string, args map[string]any) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		require.NoError(t, err, "CallTool %s", name)
		return res
	}
	assert.Equal(t, "a kite", text(t, call("suggest_gifts", map[string]any{"age": 8}).Content[0]))
	structured := call("suggest_gifts", map[string]any{"age": 25, "budget": 10, "extra": true})
	assert.Equal(t, map[string]any{"gift": "a book", "price": 9.5}, structured.StructuredContent)
	// the default sequence: first a board game, then a puzzle, and the puzzle repeats
	assert.Equal(t, "a board game", text(t, call("suggest_gifts", map[string]any{"age": 40}).Content[0]))
	assert.Equal(t, "a puzzle", text(t, call("suggest_gifts", map[string]any{"age": 40}).Content[0]))
	assert.Equal(t, "a puzzle", text(t, call("suggest_gifts", map[string]any{"age": 41}).Content[0]))

	failed := call("fail", map[string]any{})
	assert.True(t, failed.IsError)
	assert.Equal(t, "the gift shop is closed", text(t, failed.Content[0]))

	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "broken"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "backend down")

	pics := call("pictures", nil)
	require.Len(t, pics.Content, 3)
	img, ok := pics.Content[0].(*mcp.ImageContent)
	require.True(t, ok, "%T", pics.Content[0])
	assert.Equal(t, "image/png", img.MIMEType)
	assert.Equal(t, []byte{0x89, 'P', 'N', 'G'}, img.Data)
	link, ok := pics.Content[1].(*mcp.ResourceLink)
	require.True(t, ok, "%T", pics.Content[1])
	assert.Equal(t, "gifts://catalog/1", link.URI)
	emb, ok := pics.Content[2].(*mcp.EmbeddedResource)
	require.True(t, ok, "%T", pics.Content[2])
	assert.Equal(t, "a scarf", emb.Resource.Text)

	// An unknown tool is a JSON-RPC error naming the closest tool.
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "suggest_gift"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `did you mean "suggest_gifts"?`)
	require.Len(t, srv.Unmatched(), 1)

	srv.AssertToolCalled(t, "suggest_gifts", `{"age":25}`)
	srv.AssertToolCalled(t, "suggest_gifts", map[string]any{"budget": 10})
	srv.AssertCalledTimes(t, "tools/call", 9)
	assert.Len(t, srv.Journal().All().ToolCalls("suggest_gifts"), 5)
	assert.Equal(t, int64(8), srv.Journal().All().ToolCalls("suggest_gifts")[0].Get("params.arguments.age").Int())

	// go-sdk v1.8.0 sends "arguments":null when Arguments is a typed nil
	// map (pictures, above), {} when it is untyped nil (broken): the mock
	// accepts null, with a warning that does not fail the test.
	vs := srv.Violations()
	require.Len(t, vs, 1, "pictures was called with a nil map")
	assert.Equal(t, mcptest.RuleID("params/arguments-null"), vs[0].Rule)
	assert.Equal(t, mcptest.SeverityWarning, vs[0].Severity)
}

func TestGoSDKResourcesPromptsCompletion(t *testing.T) {
	forEachEra(t, testGoSDKResourcesPromptsCompletion)
}

func testGoSDKResourcesPromptsCompletion(t *testing.T, e eraCase) {
	srv := e.narrow(giftServer(t))
	cs := connectGoSDK(t, srv, nil, nil)
	ctx := testContext(t)

	res, err := cs.ListResources(ctx, nil)
	require.NoError(t, err)
	require.Len(t, res.Resources, 2)
	assert.Equal(t, "gifts://catalog/2", res.Resources[1].URI)
	assert.Equal(t, "text/plain", res.Resources[1].MIMEType)

	tmpls, err := cs.ListResourceTemplates(ctx, nil)
	require.NoError(t, err)
	require.Len(t, tmpls.ResourceTemplates, 1)
	assert.Equal(t, "gifts://person/{name}", tmpls.ResourceTemplates[0].URITemplate)

	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "gifts://catalog/1"})
	require.NoError(t, err)
	assert.Equal(t, "a kite", read.Contents[0].Text)

	read, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "gifts://person/ada"})
	require.NoError(t, err)
	assert.Equal(t, "likes for ada", read.Contents[0].Text)
	assert.Equal(t, "gifts://person/ada", read.Contents[0].URI)

	_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "gifts://nowhere"})
	require.Error(t, err)
	var rpcErr interface{ Error() string }
	require.True(t, errors.As(err, &rpcErr))
	assert.Contains(t, err.Error(), "Resource not found")

	prompts, err := cs.ListPrompts(ctx, nil)
	require.NoError(t, err)
	require.Len(t, prompts.Prompts, 1)
	require.Len(t, prompts.Prompts[0].Arguments, 1)
	assert.True(t, prompts.Prompts[0].Arguments[0].Required)

	got, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "gift_idea", Arguments: map[string]string{"occasion": "birthday"}})
	require.NoError(t, err)
	assert.Equal(t, "birthday", got.Description)
	assert.Equal(t, "Suggest a birthday gift", text(t, got.Messages[0].Content))
	got, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "gift_idea", Arguments: map[string]string{"occasion": "wedding"}})
	require.NoError(t, err)
	assert.Equal(t, "Suggest a gift", text(t, got.Messages[0].Content))
	srv.ExpectViolation("jsonrpc/invalid-params") // the next call leaves out a required argument
	_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "gift_idea"})
	require.Error(t, err, "a missing required argument is invalid params")
	assert.Contains(t, err.Error(), `missing required argument "occasion"`)

	comp, err := cs.Complete(ctx, &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/prompt", Name: "gift_idea"},
		Argument: mcp.CompleteParamsArgument{Name: "occasion", Value: "w"},
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"wedding", "winter holidays"}, comp.Completion.Values)

	if e.era == mcptest.EraStateless {
		// go-sdk v1.8.0 still sends ping and logging/setLevel on a stateless
		// session, where 2026-07-28 removed them: -32601, and violations.
		srv.ExpectViolation("stateless/removed-method")
		require.Error(t, cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "warning"}))
		require.Error(t, cs.Ping(ctx, nil))
		assert.Equal(t, []mcptest.RuleID{"jsonrpc/invalid-params", "stateless/removed-method", "stateless/removed-method"}, ruleIDs(srv.Violations()))
		return
	}
	require.NoError(t, cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "warning"}))
	assert.Equal(t, "warning", srv.Session(1).LogLevel())
	require.NoError(t, cs.Ping(ctx, nil))
	srv.AssertCalled(t, "ping")
	assert.Equal(t, []mcptest.RuleID{"jsonrpc/invalid-params"}, ruleIDs(srv.Violations()))
}

func ruleIDs(vs []mcptest.Violation) []mcptest.RuleID {
	var ids []mcptest.RuleID
	for _, v := range vs {
		ids = append(ids, v.Rule)
	}
	return ids
}

// TestGoSDKPagination pages through a 250-tool catalog, 40 a page.
func manyTools(n int) []*mcptest.Tool {
	var tools []*mcptest.Tool
	for i := range n {
		tools = append(tools, mcptest.NewTool(fmt.Sprintf("tool_%03d", i)).ReturnsText("ok"))
	}
	return tools
}

func TestGoSDKPagination(t *testing.T) { forEachEra(t, testGoSDKPagination) }

func testGoSDKPagination(t *testing.T, e eraCase) {
	srv := e.narrow(mcptest.NewServer(t).WithOptions(mcptest.Options{PageSize: 40}).WithTools(manyTools(250)...))
	cs := connectGoSDK(t, srv, nil, nil)
	ctx := testContext(t)

	var names []string
	for tool, err := range cs.Tools(ctx, nil) {
		require.NoError(t, err)
		names = append(names, tool.Name)
	}
	require.Len(t, names, 250)
	assert.Equal(t, "tool_000", names[0])
	assert.Equal(t, "tool_249", names[249])
	assert.Len(t, srv.Journal().All().Requests("tools/list"), 7, "seven pages so far (AssertCalledTimes would be exact for the whole test: the made-up cursor below asks an 8th time)")
	pages := srv.Journal().All().Responses("tools/list")
	assert.False(t, pages[6].Get("result.nextCursor").Exists(), "the last page has no nextCursor")
	assert.Len(t, pages[6].Get("result.tools").Array(), 10)

	// A cursor the server never issued gets -32602 and is a violation.
	srv.ExpectViolation("pagination/invalid-cursor")
	_, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: "made-up"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "invalid cursor")
}

func TestMark3Pagination(t *testing.T) {
	forEachEra(t, func(t *testing.T, e eraCase) {
		srv := e.narrow(mcptest.NewServer(t).WithOptions(mcptest.Options{PageSize: 100}).WithTools(manyTools(250)...))
		c, _ := connectMark3(t, srv)
		srv.AssertEra(t, e.era)
		srv.AssertNegotiatedVersion(t, e.version)
		all, err := c.ListTools(testContext(t), m3.ListToolsRequest{})
		require.NoError(t, err)
		assert.Len(t, all.Tools, 250)
		srv.AssertCalledTimes(t, "tools/list", 3)
	})
}

// TestGoSDKListChanged: SetTools sends tools/list_changed; the client's
// handler fires, and the client lists again and sees the new set.
func TestGoSDKListChanged(t *testing.T) { forEachEra(t, testGoSDKListChanged) }

func testGoSDKListChanged(t *testing.T, e eraCase) {
	srv := e.narrow(mcptest.NewServer(t).WithTools(mcptest.NewTool("old").ReturnsText("x")))
	changed := make(chan struct{}, 1)
	cs := connectGoSDK(t, srv, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	}, nil)
	ctx := testContext(t)
	list, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Len(t, list.Tools, 1)

	if e.era == mcptest.EraStateless {
		// go-sdk opens subscriptions/listen by itself when it has a
		// ToolListChangedHandler and the server declares tools.listChanged.
		ack := srv.WaitFor(t, mcptest.ServerSent("notifications/subscriptions/acknowledged"))
		assert.True(t, ack.Get("params.notifications.toolsListChanged").Bool())
	} else {
		srv.AssertHandshakeCompleted(t)
	}
	srv.SetTools(mcptest.ListChanged, mcptest.NewTool("new_a").ReturnsText("a"), mcptest.NewTool("new_b").ReturnsText("b"))
	select {
	case <-changed:
	case <-ctx.Done():
		t.Fatal("the client never saw notifications/tools/list_changed")
	}
	list, err = cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Len(t, list.Tools, 2)
	assert.Equal(t, "new_a", list.Tools[0].Name)
	srv.AssertCalledTimes(t, "tools/list", 2)
	changedMsgs := srv.Journal().All().Notifications("notifications/tools/list_changed")
	require.Len(t, changedMsgs, 1)
	if e.era == mcptest.EraStateless {
		listen := srv.Journal().All().Requests("subscriptions/listen")
		require.Len(t, listen, 1)
		assert.Equal(t, listen[0].ID, changedMsgs[0].Get(`params._meta.io\.modelcontextprotocol/subscriptionId`).Raw,
			"the notification carries the listen request's id")
	}

	// Quietly: no notification, the client is not told.
	srv.SetTools(mcptest.Quietly, mcptest.NewTool("hidden").ReturnsText("h"))
	assert.Len(t, srv.Journal().All().Notifications("notifications/tools/list_changed"), 1)
}

func TestMark3ListChanged(t *testing.T) { forEachEra(t, testMark3ListChanged) }

func testMark3ListChanged(t *testing.T, e eraCase) {
	srv := e.narrow(mcptest.NewServer(t).WithTools(mcptest.NewTool("old").ReturnsText("x")))
	conn := srv.Dial()
	c := m3client.NewClient(m3transport.NewIO(conn, conn, nil))
	changed := make(chan string, 4)
	c.OnNotification(func(n m3.JSONRPCNotification) { changed <- n.Method })
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { _ = c.Close(); cancel() })
	require.NoError(t, c.Start(ctx))
	_, err := c.Initialize(testContext(t), m3.InitializeRequest{Params: m3.InitializeParams{ClientInfo: m3.Implementation{Name: "m3", Version: "1"}}})
	require.NoError(t, err)
	if e.era == mcptest.EraStateless {
		// mark3labs listens only when asked to.
		stop, err := c.ListenAsync(ctx, m3.SubscriptionFilter{ToolsListChanged: true}, func(error) {})
		require.NoError(t, err)
		t.Cleanup(stop)
		select {
		case m := <-changed:
			assert.Equal(t, "notifications/subscriptions/acknowledged", m)
		case <-testContext(t).Done():
			t.Fatal("no acknowledgement of subscriptions/listen")
		}
	} else {
		srv.AssertHandshakeCompleted(t)
	}
	srv.SetTools(mcptest.ListChanged, mcptest.NewTool("new").ReturnsText("n"))
	select {
	case m := <-changed:
		assert.Equal(t, "notifications/tools/list_changed", m)
	case <-testContext(t).Done():
		t.Fatal("no list_changed delivered")
	}
	list, err := c.ListTools(testContext(t), m3.ListToolsRequest{})
	require.NoError(t, err)
	require.Len(t, list.Tools, 1)
	assert.Equal(t, "new", list.Tools[0].Name)
}

// TestGoSDKServerRequests: the test drives roots/list, elicitation/create,
// sampling/createMessage and ping to the client; its replies come back.
func TestGoSDKServerRequests(t *testing.T) {
	srv := legacy(mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x")))
	c := &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"age": 30}}, nil
		},
		CreateMessageHandler: func(_ context.Context, r *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Model: "test-model", Role: "assistant", Content: &mcp.TextContent{Text: "hello"}}, nil
		},
	}
	conn := srv.Dial()
	client := mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, c)
	client.AddRoots(&mcp.Root{URI: "file:///home/ada", Name: "home"})
	cs, err := client.Connect(testContext(t), &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	srv.AssertHandshakeCompleted(t)
	ctx := testContext(t)

	roots, err := srv.SendRequest(ctx, "roots/list", nil)
	require.NoError(t, err)
	assert.Equal(t, "file:///home/ada", roots.Get("result.roots.0.uri").String())
	assert.Equal(t, "roots/list", roots.Method, "the reply is journaled with the method it answers")

	elicit, err := srv.SendRequest(ctx, "elicitation/create", map[string]any{
		"message":         "How old is the recipient?",
		"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"age": map[string]any{"type": "integer"}}},
	})
	require.NoError(t, err)
	assert.Equal(t, "accept", elicit.Get("result.action").String())
	assert.Equal(t, int64(30), elicit.Get("result.content.age").Int())

	sample, err := srv.SendRequest(ctx, "sampling/createMessage", map[string]any{
		"messages":  []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": "hi"}}},
		"maxTokens": 10,
	})
	require.NoError(t, err)
	assert.Equal(t, "hello", sample.Get("result.content.text").String())

	ping, err := srv.SendRequest(ctx, "ping", nil)
	require.NoError(t, err)
	assert.Equal(t, "{}", ping.Get("result").Raw)

	unknown, err := srv.SendRequest(ctx, "no/such-method", nil)
	require.NoError(t, err)
	assert.Equal(t, spec.CodeMethodNotFound, unknown.ErrorCode)

	assert.Len(t, srv.Journal().All().From(mcptest.FromServer).Requests(""), 5)
	assert.Len(t, srv.Journal().All().Responses("elicitation/create"), 1)
	srv.AssertNoViolations(t)
}

// TestGoSDKElicitationDuringToolCall: a tool handler asks the client for
// input in the middle of a call, as a real server does.
func TestGoSDKElicitationDuringToolCall(t *testing.T) {
	srv := legacy(mcptest.NewServer(t)).WithTools(mcptest.NewTool("suggest_gifts").HandledBy(
		func(ctx context.Context, req *mcptest.Request) mcptest.Reply {
			answer, err := req.Session.SendRequest(ctx, "elicitation/create", map[string]any{
				"message":         "Age?",
				"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"age": map[string]any{"type": "integer"}}},
			})
			if err != nil {
				return mcptest.ToolErrorResult(err.Error())
			}
			return mcptest.TextResult(fmt.Sprintf("a gift for a %d-year-old", answer.Get("result.content.age").Int()))
		}))
	cs := connectGoSDK(t, srv, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"age": 7}}, nil
		},
	}, nil)
	res, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "suggest_gifts"})
	require.NoError(t, err)
	assert.Equal(t, "a gift for a 7-year-old", text(t, res.Content[0]))
	srv.AssertOrder(t, "tools/call")
	assert.Len(t, srv.Journal().All().From(mcptest.FromServer).Requests("elicitation/create"), 1)
}

func TestMark3ServerRequests(t *testing.T) {
	srv := legacy(mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x")))
	_, _ = connectMark3(t, srv, m3client.WithRootsHandler(rootsHandler{}), m3client.WithElicitationHandler(elicitHandler{}))
	srv.AssertHandshakeCompleted(t)
	ctx := testContext(t)
	roots, err := srv.SendRequest(ctx, "roots/list", nil)
	require.NoError(t, err)
	assert.Equal(t, "file:///m3", roots.Get("result.roots.0.uri").String())
	elicit, err := srv.SendRequest(ctx, "elicitation/create", map[string]any{
		"message": "Age?", "requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"age": map[string]any{"type": "integer"}}},
	})
	require.NoError(t, err)
	assert.Equal(t, "accept", elicit.Get("result.action").String())
	ping, err := srv.SendRequest(ctx, "ping", nil)
	require.NoError(t, err)
	assert.Equal(t, mcptest.KindResult, ping.Kind)
}

type rootsHandler struct{}

func (rootsHandler) ListRoots(context.Context, m3.ListRootsRequest) (*m3.ListRootsResult, error) {
	return &m3.ListRootsResult{Roots: []m3.Root{{URI: "file:///m3", Name: "m3"}}}, nil
}

type elicitHandler struct{}

func (elicitHandler) Elicit(context.Context, m3.ElicitationRequest) (*m3.ElicitationResult, error) {
	return &m3.ElicitationResult{ElicitationResponse: m3.ElicitationResponse{
		Action: m3.ElicitationResponseActionAccept, Content: map[string]any{"age": 3}}}, nil
}

// blockingTool returns a tool whose handler blocks until its context ends,
// and a channel that receives the context's error then.
func blockingTool(name string) (*mcptest.Tool, chan error) {
	ended := make(chan error, 1)
	return mcptest.NewTool(name).HandledBy(func(ctx context.Context, _ *mcptest.Request) mcptest.Reply {
		<-ctx.Done()
		ended <- ctx.Err()
		return mcptest.TextResult("too late")
	}), ended
}

// TestGoSDKCancellation: the client gives up on a slow tool call; the mock
// receives notifications/cancelled, cancels the handler and sends no reply.
func TestGoSDKCancellation(t *testing.T) { forEachEra(t, testGoSDKCancellation) }

func testGoSDKCancellation(t *testing.T, e eraCase) {
	tool, ended := blockingTool("slow")
	srv := e.narrow(mcptest.NewServer(t).WithTools(tool))
	cs := connectGoSDK(t, srv, nil, nil)
	ctx, cancel := context.WithCancel(testContext(t))
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "slow"})
		errc <- err
	}()
	srv.WaitFor(t, mcptest.ToolCall("slow", nil))
	cancel()
	require.ErrorIs(t, <-errc, context.Canceled)
	srv.AssertCancelled(t, "tools/call")
	select {
	case err := <-ended:
		assert.ErrorIs(t, err, context.Canceled)
	case <-testContext(t).Done():
		t.Fatal("the handler's context was never cancelled")
	}
	assert.Empty(t, srv.Journal().All().Responses("tools/call"), "a cancelled request gets no reply")
}

func TestMark3Cancellation(t *testing.T) { forEachEra(t, testMark3Cancellation) }

func testMark3Cancellation(t *testing.T, e eraCase) {
	tool, ended := blockingTool("slow")
	srv := e.narrow(mcptest.NewServer(t).WithTools(tool))
	c, _ := connectMark3(t, srv)
	ctx, cancel := context.WithCancel(testContext(t))
	errc := make(chan error, 1)
	go func() {
		req := m3.CallToolRequest{}
		req.Params.Name = "slow"
		_, err := c.CallTool(ctx, req)
		errc <- err
	}()
	srv.WaitFor(t, mcptest.ToolCall("slow", nil))
	cancel()
	require.Error(t, <-errc)
	srv.AssertCancelled(t, "tools/call")
	select {
	case <-ended:
	case <-testContext(t).Done():
		t.Fatal("the handler's context was never cancelled")
	}
}

// TestCloseUnblocksHungCall: Close ends a handler that blocks and the
// client's call fails with a closed connection.
func TestCloseUnblocksHungCall(t *testing.T) {
	tool, ended := blockingTool("hang")
	srv := mcptest.NewServer(t).WithTools(tool)
	cs := connectGoSDK(t, srv, nil, nil)
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "hang"})
		errc <- err
	}()
	srv.WaitFor(t, mcptest.ToolCall("hang", nil))
	srv.Close()
	srv.Close() // idempotent
	require.Error(t, <-errc, "the call fails when the server goes away")
	assert.ErrorIs(t, <-ended, context.Canceled)
}

func TestMark3Everything(t *testing.T) { forEachEra(t, testMark3Everything) }

func testMark3Everything(t *testing.T, e eraCase) {
	srv := e.narrow(giftServer(t))
	c, init := connectMark3(t, srv)
	ctx := testContext(t)
	assert.Equal(t, e.version, init.ProtocolVersion)
	assert.Equal(t, "gift-genius-backend", init.ServerInfo.Name)
	srv.AssertEra(t, e.era)
	srv.AssertNegotiatedVersion(t, e.version)
	if e.era == mcptest.EraHandshake {
		srv.AssertHandshakeCompleted(t)
		srv.AssertNegotiatedVersion(t, "2025-11-25")
		srv.AssertOrder(t, "server/discover", "initialize", "notifications/initialized")
	}

	tools, err := c.ListTools(ctx, m3.ListToolsRequest{})
	require.NoError(t, err)
	assert.Len(t, tools.Tools, 4)

	req := m3.CallToolRequest{}
	req.Params.Name = "suggest_gifts"
	req.Params.Arguments = map[string]any{"age": 8}
	res, err := c.CallTool(ctx, req)
	require.NoError(t, err)
	assert.Equal(t, "a kite", m3.GetTextFromContent(res.Content[0]))

	req.Params.Name = "fail"
	res, err = c.CallTool(ctx, req)
	require.NoError(t, err)
	assert.True(t, res.IsError)

	rr, err := c.ReadResource(ctx, m3.ReadResourceRequest{Params: m3.ReadResourceParams{URI: "gifts://person/bob"}})
	require.NoError(t, err)
	assert.Equal(t, "likes for bob", rr.Contents[0].(m3.TextResourceContents).Text)

	tl, err := c.ListResourceTemplates(ctx, m3.ListResourceTemplatesRequest{})
	require.NoError(t, err)
	assert.Len(t, tl.ResourceTemplates, 1)

	gp, err := c.GetPrompt(ctx, m3.GetPromptRequest{Params: m3.GetPromptParams{Name: "gift_idea", Arguments: map[string]string{"occasion": "birthday"}}})
	require.NoError(t, err)
	assert.Equal(t, "Suggest a birthday gift", m3.GetTextFromContent(gp.Messages[0].Content))

	require.NoError(t, c.Subscribe(ctx, m3.SubscribeRequest{Params: m3.SubscribeParams{URI: "gifts://catalog/1"}}))
	if e.era == mcptest.EraHandshake {
		assert.Equal(t, []string{"gifts://catalog/1"}, srv.Session(1).Subscriptions())
	} else {
		srv.AssertNotCalled(t, "resources/subscribe") // stateless: Subscribe only edits the next listen filter
	}

	srv.AssertToolCalled(t, "suggest_gifts", `{"age":8}`)
	srv.AssertNoViolations(t)
}

// TestNotificationsToClient: log messages, progress and resource updates
// sent by the test reach the official client's handlers.
func TestNotificationsToClient(t *testing.T) {
	srv := legacy(giftServer(t))
	logs := make(chan string, 1)
	updated := make(chan string, 1)
	cs := connectGoSDK(t, srv, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			b, _ := json.Marshal(r.Params.Data)
			logs <- "log " + string(r.Params.Level) + " " + string(b)
		},
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) { updated <- r.Params.URI },
	}, nil)
	ctx := testContext(t)
	require.NoError(t, cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "gifts://catalog/1"}))
	assert.Equal(t, []string{"gifts://catalog/1"}, srv.Session(1).Subscriptions())

	assert.Equal(t, 1, srv.BroadcastResourceUpdated("gifts://catalog/1"))
	assert.Equal(t, 0, srv.BroadcastResourceUpdated("gifts://catalog/2"), "nobody subscribed to it")
	select {
	case uri := <-updated:
		assert.Equal(t, "gifts://catalog/1", uri)
	case <-ctx.Done():
		t.Fatal("resources/updated never reached the client")
	}
	require.NoError(t, srv.Session(1).Notify("notifications/message", map[string]any{"level": "warning", "data": "low stock"}))
	require.NoError(t, cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "gifts://catalog/1"}))
	assert.Empty(t, srv.Session(1).Subscriptions())
	select {
	case got := <-logs:
		assert.Equal(t, `log warning "low stock"`, got)
	case <-ctx.Done():
		t.Fatal("notifications/message never reached the client")
	}
}

// TestProgressFromHandler: a tool reports progress with the client's token.
func TestProgressFromHandler(t *testing.T) { forEachEra(t, testProgressFromHandler) }

func testProgressFromHandler(t *testing.T, e eraCase) {
	srv := e.narrow(mcptest.NewServer(t)).WithTools(mcptest.NewTool("work").HandledBy(func(_ context.Context, req *mcptest.Request) mcptest.Reply {
		for i := 1; i <= 3; i++ {
			if err := req.Progress(float64(i), 3, "step"); err != nil {
				return mcptest.ToolErrorResult(err.Error())
			}
		}
		return mcptest.TextResult("done")
	}))
	progress := make(chan float64, 3)
	cs := connectGoSDK(t, srv, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) { progress <- r.Params.Progress },
	}, nil)
	p := &mcp.CallToolParams{Name: "work"}
	p.SetProgressToken("tok-1")
	res, err := cs.CallTool(testContext(t), p)
	require.NoError(t, err)
	assert.Equal(t, "done", text(t, res.Content[0]))
	for want := 1.0; want <= 3; want++ {
		select {
		case got := <-progress:
			assert.Equal(t, want, got)
		case <-testContext(t).Done():
			t.Fatal("progress notification missing")
		}
	}
	assert.Len(t, srv.Journal().All().Where("params.progressToken", "tok-1"), 3)
}

// TestManySessions: sessions are independent, each with its own state.
func TestManySessions(t *testing.T) {
	srv := giftServer(t)
	a := connectGoSDK(t, srv, nil, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	b, _ := connectMark3(t, srv)
	c := connectGoSDK(t, srv, nil, &mcp.ClientSessionOptions{ProtocolVersion: "2024-11-05"})
	ctx := testContext(t)
	_, err := a.ListTools(ctx, nil)
	require.NoError(t, err)
	_, err = b.ListTools(ctx, m3.ListToolsRequest{})
	require.NoError(t, err)
	require.NoError(t, c.Ping(ctx, nil))
	require.Len(t, srv.Sessions(), 3)
	assert.Equal(t, "2025-06-18", srv.Session(1).ProtocolVersion())
	assert.Equal(t, "2026-07-28", srv.Session(2).ProtocolVersion(), "mark3labs unpinned goes stateless")
	assert.Equal(t, mcptest.EraStateless, srv.Session(2).Era())
	assert.Equal(t, "2024-11-05", srv.Session(3).ProtocolVersion())
	assert.Len(t, srv.Journal().All().InSession(3), 5, "initialize, its result, initialized, ping, its result")
	assert.True(t, srv.Session(1).Ready())
	assert.False(t, srv.Session(2).Ready(), "a stateless session has no handshake")
	assert.True(t, srv.Session(3).Ready())
	assert.Equal(t, 2, srv.Broadcast("notifications/tools/list_changed", nil), "session 2 has no listen stream")
}

// TestClientNotCheckingCapabilities documents what the two SDKs do today
// when a server declares no tools capability: both call tools/list anyway,
// which the mock reports as capabilities/undeclared-method.
func TestClientNotCheckingCapabilities(t *testing.T) {
	t.Run("gosdk", func(t *testing.T) {
		srv := legacy(mcptest.NewServer(t)).WithCapabilities(`{}`).WithTools(mcptest.NewTool("t").ReturnsText("x"))
		srv.ExpectViolation("capabilities/undeclared-method")
		cs := connectGoSDK(t, srv, nil, nil)
		_, err := cs.ListTools(testContext(t), nil)
		require.NoError(t, err, "go-sdk v1.8.0 does not check the tools capability")
		assert.Equal(t, mcptest.RuleID("capabilities/undeclared-method"), srv.Violations()[0].Rule)
	})
	t.Run("mark3labs", func(t *testing.T) {
		srv := legacy(mcptest.NewServer(t)).WithCapabilities(`{}`).WithTools(mcptest.NewTool("t").ReturnsText("x"))
		srv.ExpectViolation("capabilities/undeclared-method")
		c, _ := connectMark3(t, srv)
		_, err := c.ListTools(testContext(t), m3.ListToolsRequest{})
		require.NoError(t, err, "mark3labs v1.2.1 does not check the tools capability")
	})
	t.Run("stateless", func(t *testing.T) {
		// In the stateless era the server answers an undeclared method with
		// -32601, so the client's call fails.
		srv := mcptest.NewServer(t).WithCapabilities(`{}`).WithTools(mcptest.NewTool("t").ReturnsText("x"))
		srv.ExpectViolation("capabilities/undeclared-method")
		cs := connectGoSDK(t, srv, nil, nil)
		_, err := cs.ListTools(testContext(t), nil)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "does not declare the tools capability")
	})
}

// TestEraDetection: the probe-and-fallback dance of both SDKs against a
// default (both eras), a legacy-only and a modern-only mock.
func TestEraDetection(t *testing.T) {
	t.Run("gosdk/default-goes-stateless", func(t *testing.T) {
		srv := giftServer(t)
		cs := connectGoSDK(t, srv, nil, nil)
		assert.Equal(t, "2026-07-28", cs.InitializeResult().ProtocolVersion)
		_, err := cs.ListTools(testContext(t), nil)
		require.NoError(t, err)
		srv.AssertEra(t, mcptest.EraStateless)
		srv.AssertNegotiatedVersion(t, "2026-07-28")
		srv.AssertNotCalled(t, "initialize")
		list := srv.Journal().All().Requests("tools/list")
		require.Len(t, list, 1)
		assert.Equal(t, "2026-07-28", list[0].Get(`params._meta.io\.modelcontextprotocol/protocolVersion`).String(), "modern requests carry _meta")
		assert.Equal(t, mcptest.EraStateless, srv.Session(1).Era())
		srv.AssertNoViolations(t)
	})
	t.Run("gosdk/legacy-only-falls-back", func(t *testing.T) {
		srv := legacy(giftServer(t))
		cs := connectGoSDK(t, srv, nil, nil)
		assert.Equal(t, "2025-11-25", cs.InitializeResult().ProtocolVersion)
		srv.AssertEra(t, mcptest.EraHandshake)
		srv.AssertNegotiatedVersion(t, "2025-11-25")
		srv.AssertOrder(t, "server/discover", "initialize", "notifications/initialized")
	})
	t.Run("gosdk/unsupported-version-retries-once", func(t *testing.T) {
		// The client asks for a version the mock does not know; -32022 lists
		// only 2026-07-28, and the client retries discover once with it.
		srv := mcptest.NewServer(t).WithProtocolVersions("2026-07-28").WithTools(mcptest.NewTool("t").ReturnsText("x"))
		cs := connectGoSDK(t, srv, nil, &mcp.ClientSessionOptions{ProtocolVersion: "2026-09-01"})
		assert.Equal(t, "2026-07-28", cs.InitializeResult().ProtocolVersion)
		discover := srv.Journal().All().Requests("server/discover")
		require.Len(t, discover, 2, "one probe, one retry")
		replies := srv.Journal().All().Responses("server/discover")
		require.Len(t, replies, 2)
		assert.Equal(t, spec.CodeUnsupportedProtocolVersion, replies[0].ErrorCode)
		assert.Equal(t, `["2026-07-28"]`, replies[0].Get("error.data.supported").Raw)
		assert.Equal(t, "2026-09-01", replies[0].Get("error.data.requested").String())
		assert.Equal(t, mcptest.KindResult, replies[1].Kind)
		srv.AssertEra(t, mcptest.EraStateless)
		srv.AssertNegotiatedVersion(t, "2026-07-28")
		srv.AssertNotCalled(t, "initialize")
	})
	t.Run("gosdk/modern-only-rejects-initialize", func(t *testing.T) {
		srv := mcptest.NewServer(t).WithProtocolVersions("2026-07-28")
		conn := srv.Dial()
		c := mcp.NewClient(&mcp.Implementation{Name: "old-app", Version: "1"}, nil)
		_, err := c.Connect(testContext(t), &mcp.IOTransport{Reader: conn, Writer: conn}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
		require.Error(t, err, "a legacy-only client cannot talk to a modern-only server")
		assert.Contains(t, err.Error(), "2026-07-28", "the error names the versions the server speaks")
	})
	t.Run("mark3labs/default-goes-stateless", func(t *testing.T) {
		srv := giftServer(t)
		c, init := connectMark3(t, srv)
		assert.Equal(t, "2026-07-28", init.ProtocolVersion)
		_, err := c.ListTools(testContext(t), m3.ListToolsRequest{})
		require.NoError(t, err)
		srv.AssertEra(t, mcptest.EraStateless)
		srv.AssertNegotiatedVersion(t, "2026-07-28")
		srv.AssertNotCalled(t, "initialize")
		srv.AssertNoViolations(t)
	})
	t.Run("mark3labs/legacy-only-falls-back", func(t *testing.T) {
		srv := legacy(giftServer(t))
		_, init := connectMark3(t, srv)
		assert.Equal(t, "2025-11-25", init.ProtocolVersion)
		srv.AssertEra(t, mcptest.EraHandshake)
		srv.AssertNegotiatedVersion(t, "2025-11-25")
		srv.AssertOrder(t, "server/discover", "initialize", "notifications/initialized")
	})
	t.Run("mark3labs/unsupported-version-retries-once", func(t *testing.T) {
		srv := mcptest.NewServer(t).WithProtocolVersions("2026-07-28").WithTools(mcptest.NewTool("t").ReturnsText("x"))
		_, init := connectMark3(t, srv, m3client.WithProtocolVersion("2026-09-01"))
		assert.Equal(t, "2026-07-28", init.ProtocolVersion)
		require.Len(t, srv.Journal().All().Requests("server/discover"), 2, "one probe, one retry")
		assert.Equal(t, spec.CodeUnsupportedProtocolVersion, srv.Journal().All().Responses("server/discover")[0].ErrorCode)
		srv.AssertEra(t, mcptest.EraStateless)
		srv.AssertNegotiatedVersion(t, "2026-07-28")
	})
}

// TestMultiRoundTrip: a tool that asks for the user's confirmation, with
// both SDKs, in both eras — input_required and a retry in the stateless
// era, an elicitation/create request in the handshake era.
func TestMultiRoundTrip(t *testing.T) {
	newServer := func(t *testing.T, e eraCase) *mcptest.Server {
		return e.narrow(mcptest.NewServer(t)).WithTools(mcptest.NewTool("buy_gift").
			RequiresInput(mcptest.ElicitInput("confirm", "Buy it?", `{"type":"object","properties":{"ok":{"type":"boolean"}}}`)).
			HandledBy(func(_ context.Context, req *mcptest.Request) mcptest.Reply {
				return mcptest.TextResult(fmt.Sprintf("ok=%v", req.InputResponse("confirm").Get("content.ok").Bool()))
			}))
	}
	checkWire := func(t *testing.T, srv *mcptest.Server, e eraCase) {
		t.Helper()
		if e.era == mcptest.EraStateless {
			calls := srv.Journal().All().ToolCalls("buy_gift")
			require.Len(t, calls, 2, "the call and its retry")
			assert.NotEqual(t, calls[0].ID, calls[1].ID, "the retry has a new id")
			first := srv.Journal().All().Responses("tools/call")[0]
			assert.Equal(t, "input_required", first.Get("result.resultType").String())
			assert.Equal(t, first.Get("result.requestState").String(), calls[1].Get("params.requestState").String(), "requestState echoed")
		} else {
			require.Len(t, srv.Journal().All().From(mcptest.FromServer).Requests("elicitation/create"), 1)
		}
		srv.AssertNoViolations(t)
	}
	forEachEra(t, func(t *testing.T, e eraCase) {
		t.Run("gosdk", func(t *testing.T) {
			srv := newServer(t, e)
			cs := connectGoSDK(t, srv, &mcp.ClientOptions{
				ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}, nil
				},
			}, nil)
			res, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "buy_gift", Arguments: map[string]any{}})
			require.NoError(t, err)
			assert.Equal(t, "ok=true", text(t, res.Content[0]))
			checkWire(t, srv, e)
		})
		t.Run("mark3labs", func(t *testing.T) {
			srv := newServer(t, e)
			c, _ := connectMark3(t, srv, m3client.WithElicitationHandler(okHandler{}))
			req := m3.CallToolRequest{}
			req.Params.Name = "buy_gift"
			res, err := c.CallTool(testContext(t), req)
			require.NoError(t, err)
			assert.Equal(t, "ok=true", m3.GetTextFromContent(res.Content[0]))
			checkWire(t, srv, e)
		})
		t.Run("no-elicitation-capability", func(t *testing.T) {
			// A client without the capability gets an error naming it:
			// -32021 in the stateless era, whose code it is; -32603 in the
			// handshake era, which has only the generic codes.
			srv := newServer(t, e)
			cs := connectGoSDK(t, srv, nil, nil)
			_, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "buy_gift", Arguments: map[string]any{}})
			require.Error(t, err)
			reply := srv.Journal().All().Responses("tools/call")[0]
			want := spec.CodeInternalError
			if e.era == mcptest.EraStateless {
				want = spec.CodeMissingClientCapability
			}
			assert.Equal(t, want, reply.ErrorCode)
			assert.True(t, reply.Get("error.data.requiredCapabilities.elicitation").Exists())
		})
	})
}

type okHandler struct{}

func (okHandler) Elicit(context.Context, m3.ElicitationRequest) (*m3.ElicitationResult, error) {
	return &m3.ElicitationResult{ElicitationResponse: m3.ElicitationResponse{
		Action: m3.ElicitationResponseActionAccept, Content: map[string]any{"ok": true}}}, nil
}

// TestStatelessResourceSubscription: go-sdk's Subscribe opens a listen
// stream naming the URI; BroadcastResourceUpdated reaches it with its
// subscription id; Unsubscribe cancels the stream.
func TestStatelessResourceSubscription(t *testing.T) {
	srv := giftServer(t)
	updated := make(chan string, 1)
	cs := connectGoSDK(t, srv, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) { updated <- r.Params.URI },
	}, nil)
	ctx := testContext(t)
	require.NoError(t, cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "gifts://catalog/1"}))
	ack := srv.WaitFor(t, mcptest.ServerSent("notifications/subscriptions/acknowledged"))
	assert.Equal(t, `["gifts://catalog/1"]`, ack.Get("params.notifications.resourceSubscriptions").Raw)
	require.Len(t, srv.Session(1).Listening(), 1)

	assert.Equal(t, 1, srv.BroadcastResourceUpdated("gifts://catalog/1"))
	select {
	case uri := <-updated:
		assert.Equal(t, "gifts://catalog/1", uri)
	case <-ctx.Done():
		t.Fatal("resources/updated never reached the client")
	}
	note := srv.Journal().All().Notifications("notifications/resources/updated")[0]
	assert.Equal(t, srv.Session(1).Listening()[0], note.Get(`params._meta.io\.modelcontextprotocol/subscriptionId`).Raw)

	require.NoError(t, cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "gifts://catalog/1"}))
	srv.AssertCancelled(t, "subscriptions/listen")
	// The cancel is journaled before it is handled, and nothing follows it
	// to wake a wait: a later request, answered in order, proves it handled.
	_, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	assert.Empty(t, srv.Session(1).Listening(), "the listen stream closed")
	assert.Equal(t, 0, srv.BroadcastResourceUpdated("gifts://catalog/1"), "nobody listens any more")
}

// TestEndListen: the test ends a listen stream the way a server does; the
// mark3labs Listen call returns.
func TestEndListen(t *testing.T) {
	srv := giftServer(t)
	c, _ := connectMark3(t, srv)
	done := make(chan error, 1)
	go func() { done <- c.Listen(testContext(t), m3.SubscriptionFilter{ToolsListChanged: true}) }()
	ack := srv.WaitFor(t, mcptest.ServerSent("notifications/subscriptions/acknowledged"))
	id := ack.Get(`params._meta.io\.modelcontextprotocol/subscriptionId`).Raw
	require.NoError(t, srv.Session(1).EndListen(id))
	select {
	case err := <-done:
		assert.NoError(t, err, "Listen returns when the server ends the stream")
	case <-testContext(t).Done():
		t.Fatal("Listen never returned")
	}
	assert.Error(t, srv.Session(1).EndListen(id), "the stream is gone")
}

// TestAwait: a wait that does not fail the test, usable from any goroutine:
// it returns the message, or an error when ctx ends or the server closes.
func TestAwait(t *testing.T) {
	srv := giftServer(t)
	cs := connectGoSDK(t, srv, nil, nil)
	got := make(chan mcptest.Message, 1)
	go func() {
		m, err := srv.Await(testContext(t), mcptest.ToolCall("suggest_gifts", `{"age":8}`))
		if err == nil {
			got <- m
		}
		close(got)
	}()
	_, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "suggest_gifts", Arguments: map[string]any{"age": 8}})
	require.NoError(t, err)
	m, ok := <-got
	require.True(t, ok, "Await returned an error")
	assert.Equal(t, int64(8), m.Get("params.arguments.age").Int())

	short, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err = srv.Await(short, mcptest.ClientSent("resources/list"))
	require.ErrorIs(t, err, context.DeadlineExceeded)

	done := make(chan error, 1)
	go func() {
		_, err := srv.Await(context.Background(), mcptest.ClientSent("prompts/list"))
		done <- err
	}()
	srv.Close()
	select {
	case err := <-done:
		require.Error(t, err)
		assert.Contains(t, err.Error(), "the server closed first")
	case <-testContext(t).Done():
		t.Fatal("Await did not return when the server closed")
	}
}

// TestStatelessCachingAndCursorsWithRealClients: the caching hints reach
// the official client's cache, and the empty-string cursor of 2026-07-28
// shows what both SDKs do with it.
func TestStatelessCachingAndCursorsWithRealClients(t *testing.T) {
	t.Run("gosdk caches for ttlMs", func(t *testing.T) {
		srv := mcptest.NewServer(t).WithOptions(mcptest.Options{CacheTTL: time.Minute, CacheScope: "private"}).WithTools(mcptest.NewTool("t").ReturnsText("x"))
		cs := connectGoSDK(t, srv, nil, nil)
		for range 3 {
			_, err := cs.ListTools(testContext(t), nil)
			require.NoError(t, err)
		}
		srv.AssertCalledTimes(t, "tools/list", 1) // the second and third come from the client's cache
		reply := srv.Journal().All().Responses("tools/list")[0]
		assert.Equal(t, int64(60000), reply.Get("result.ttlMs").Int())
		assert.Equal(t, "private", reply.Get("result.cacheScope").String())
	})
	t.Run("gosdk asks again with the default ttl 0", func(t *testing.T) {
		srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x"))
		cs := connectGoSDK(t, srv, nil, nil)
		for range 2 {
			_, err := cs.ListTools(testContext(t), nil)
			require.NoError(t, err)
		}
		srv.AssertCalledTimes(t, "tools/list", 2)
	})
	// The spec: an empty nextCursor "MUST NOT be treated as the end of
	// results". Both SDK versions stop there, and miss every page after the
	// first; these subtests assert today's behaviour.
	t.Run("gosdk stops at an empty cursor", func(t *testing.T) {
		srv := mcptest.NewServer(t).WithOptions(mcptest.Options{PageSize: 2}).WithOptions(mcptest.Options{EmptyStringCursor: true}).WithTools(manyTools(5)...)
		cs := connectGoSDK(t, srv, nil, nil)
		var names []string
		for tool, err := range cs.Tools(testContext(t), nil) {
			require.NoError(t, err)
			names = append(names, tool.Name)
		}
		assert.Equal(t, []string{"tool_000", "tool_001"}, names, "go-sdk v1.8.0 treats nextCursor \"\" as the end")
		assert.Equal(t, `""`, srv.Journal().All().Responses("tools/list")[0].Get("result.nextCursor").Raw)
	})
	t.Run("mark3labs stops at an empty cursor", func(t *testing.T) {
		srv := mcptest.NewServer(t).WithOptions(mcptest.Options{PageSize: 2}).WithOptions(mcptest.Options{EmptyStringCursor: true}).WithTools(manyTools(5)...)
		c, _ := connectMark3(t, srv)
		all, err := c.ListTools(testContext(t), m3.ListToolsRequest{})
		require.NoError(t, err)
		assert.Len(t, all.Tools, 2, "mark3labs v1.2.1 treats nextCursor \"\" as the end")
		srv.AssertCalledTimes(t, "tools/list", 1)
	})
}

// TestLogOnlyWhenAsked: in the stateless era a handler's log message goes
// out only for a request whose _meta asked for that level — mark3labs puts
// the level of SetLevel there.
func TestLogOnlyWhenAsked(t *testing.T) {
	newServer := func(t *testing.T) *mcptest.Server {
		return mcptest.NewServer(t).WithOptions(mcptest.Options{Logging: true}).WithTools(mcptest.NewTool("work").HandledBy(
			func(_ context.Context, req *mcptest.Request) mcptest.Reply {
				sent, err := req.Log("info", "working")
				if err != nil {
					return mcptest.ToolErrorResult(err.Error())
				}
				return mcptest.TextResult(fmt.Sprintf("log sent: %v", sent))
			}))
	}
	call := func(t *testing.T, c *m3client.Client) string {
		req := m3.CallToolRequest{}
		req.Params.Name = "work"
		res, err := c.CallTool(testContext(t), req)
		require.NoError(t, err)
		return m3.GetTextFromContent(res.Content[0])
	}
	t.Run("no level asked", func(t *testing.T) {
		srv := newServer(t)
		c, _ := connectMark3(t, srv)
		assert.Equal(t, "log sent: false", call(t, c))
		assert.Empty(t, srv.Journal().All().Notifications("notifications/message"))
	})
	t.Run("level info asked", func(t *testing.T) {
		srv := newServer(t)
		c, _ := connectMark3(t, srv)
		require.NoError(t, c.SetLevel(testContext(t), m3.SetLevelRequest{Params: m3.SetLevelParams{Level: m3.LoggingLevelInfo}}))
		assert.Equal(t, "log sent: true", call(t, c))
		require.Len(t, srv.Journal().All().Notifications("notifications/message"), 1)
		assert.Equal(t, "info", srv.Journal().All().ToolCalls("work")[0].Get(`params._meta.io\.modelcontextprotocol/logLevel`).String())
	})
	t.Run("level error asked", func(t *testing.T) {
		srv := newServer(t)
		c, _ := connectMark3(t, srv)
		require.NoError(t, c.SetLevel(testContext(t), m3.SetLevelRequest{Params: m3.SetLevelParams{Level: m3.LoggingLevelError}}))
		assert.Equal(t, "log sent: false", call(t, c))
	})
}
