package giftgenius_test

// The GiftGen app against mcptest servers, healthy and broken. Each test
// checks what the app did (its result or error) and what the server saw
// (the journal): the app is correct only if both are right.

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/examples/giftgenius"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// ctxFor is a context for t that ends after d.
func ctxFor(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// connect connects the app to a new session of srv; the app is closed when t ends.
func connect(t *testing.T, srv *mcptest.Server, opts ...giftgenius.Option) *giftgenius.App {
	t.Helper()
	app, err := giftgenius.Connect(ctxFor(t, 10*time.Second), srv.Dial(), opts...)
	require.NoError(t, err, "Connect")
	t.Cleanup(func() { _ = app.Close() })
	return app
}

// giftServer is a healthy GiftGen backend: three ideas for a 25-year-old,
// a kite for anyone else.
func giftServer(t *testing.T) *mcptest.Server {
	return mcptest.NewServer(t).
		WithOptions(mcptest.Options{Name: "gift-genius-backend", Version: "0.2.0"}).
		WithTools(mcptest.NewTool(giftgenius.ToolName).
			WithInputSchema(`{"type":"object","properties":{"age":{"type":"integer"},"budget":{"type":"number"}},"required":["age"]}`).
			WhenArgs(`{"age":25}`, mcptest.TextResult("a board game\nconcert tickets\na pour-over coffee set")).
			ReturnsText("a kite"))
}

var ideas25 = []string{"a board game", "concert tickets", "a pour-over coffee set"}

// legacy narrows srv to the handshake era: server/discover gets -32601
// and the Go SDK falls back to initialize.
func legacy(srv *mcptest.Server) *mcptest.Server {
	return srv.WithProtocolVersions(mcptest.HandshakeVersions()...)
}

type era struct {
	name    string
	era     mcptest.Era
	version string
	narrow  func(*mcptest.Server) *mcptest.Server
}

// eras: the default mock (the Go SDK goes stateless after server/discover)
// and a legacy one (it falls back to the handshake).
var eras = []era{
	{"stateless", mcptest.EraStateless, "2026-07-28", func(s *mcptest.Server) *mcptest.Server { return s }},
	{"handshake", mcptest.EraHandshake, "2025-11-25", legacy},
}

func forEachEra(t *testing.T, f func(t *testing.T, e era)) {
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) { t.Parallel(); f(t, e) })
	}
}

func TestSuggest(t *testing.T) {
	forEachEra(t, func(t *testing.T, e era) {
		srv := e.narrow(giftServer(t))
		app := connect(t, srv)

		got, err := app.Suggest(ctxFor(t, 5*time.Second), 25, 0)
		require.NoError(t, err)
		assert.Equal(t, ideas25, got)
		assert.Equal(t, e.version, app.ProtocolVersion())

		srv.AssertEra(t, e.era)
		srv.AssertNegotiatedVersion(t, e.version)
		srv.AssertToolCalled(t, giftgenius.ToolName, `{"age":25}`)
		calls := srv.Journal().All().ToolCalls(giftgenius.ToolName)
		require.Len(t, calls, 1)
		assert.JSONEq(t, `{"age":25}`, calls[0].Get("params.arguments").Raw, "no budget: no budget argument")
		srv.AssertCalledTimes(t, "tools/list", 1)
		if e.era == mcptest.EraHandshake {
			srv.AssertHandshakeCompleted(t)
			srv.AssertNegotiatedVersion(t, e.version)
			srv.AssertOrder(t, "server/discover", "initialize", "notifications/initialized", "tools/list", "tools/call")
		} else {
			srv.AssertNotCalled(t, "initialize")
			srv.AssertOrder(t, "server/discover", "tools/list", "tools/call")
		}
		srv.AssertNoViolations(t)
	})
}

func TestSuggestBudget(t *testing.T) {
	srv := giftServer(t)
	app := connect(t, srv)
	got, err := app.Suggest(ctxFor(t, 5*time.Second), 8, 12.5)
	require.NoError(t, err)
	assert.Equal(t, []string{"a kite"}, got)
	calls := srv.Journal().All().ToolCalls(giftgenius.ToolName)
	require.Len(t, calls, 1)
	assert.JSONEq(t, `{"age":8,"budget":12.5}`, calls[0].Get("params.arguments").Raw)
}

// TestSuggestPinnedVersion: a pinned version skips the server/discover
// probe and initializes with it.
func TestSuggestPinnedVersion(t *testing.T) {
	srv := giftServer(t)
	app := connect(t, srv, giftgenius.WithProtocolVersion("2025-06-18"))
	got, err := app.Suggest(ctxFor(t, 5*time.Second), 25, 0)
	require.NoError(t, err)
	assert.Equal(t, ideas25, got)
	assert.Equal(t, "2025-06-18", app.ProtocolVersion())
	srv.AssertNotCalled(t, "server/discover")
	srv.AssertHandshakeCompleted(t)
	srv.AssertNegotiatedVersion(t, "2025-06-18")
	srv.AssertToolCalled(t, giftgenius.ToolName, `{"age":25}`)
}

// TestSuggestStructured: structuredContent {"ideas": [...]} wins over the
// text content (the mock also sends the same JSON as text, for old clients).
func TestSuggestStructured(t *testing.T) {
	forEachEra(t, func(t *testing.T, e era) {
		srv := e.narrow(mcptest.NewServer(t).WithTools(mcptest.NewTool(giftgenius.ToolName).
			WithOutputSchema(`{"type":"object","properties":{"ideas":{"type":"array","items":{"type":"string"}}}}`).
			Returns(mcptest.StructuredResult(map[string]any{"ideas": []string{"a scarf", "a book"}}))))
		app := connect(t, srv)
		got, err := app.Suggest(ctxFor(t, 5*time.Second), 25, 0)
		require.NoError(t, err)
		assert.Equal(t, []string{"a scarf", "a book"}, got)

		srv.AssertToolCalled(t, giftgenius.ToolName, `{"age":25}`)
		reply := srv.Journal().All().Responses("tools/call")
		require.Len(t, reply, 1)
		assert.JSONEq(t, `{"ideas":["a scarf","a book"]}`, reply[0].Get("result.structuredContent").Raw)
		assert.JSONEq(t, `{"ideas":["a scarf","a book"]}`, reply[0].Get("result.content.0.text").String())
		srv.AssertNoViolations(t)
	})
}

// TestSuggestTextLines: one idea a line; blank lines, CRLF and spaces go.
func TestSuggestTextLines(t *testing.T) {
	srv := mcptest.NewServer(t).WithTools(mcptest.NewTool(giftgenius.ToolName).
		Returns(mcptest.TextResult("a kite\r\n\n  a scarf  \n", "a book"), mcptest.TextResult(" \n ")))
	app := connect(t, srv)
	got, err := app.Suggest(ctxFor(t, 5*time.Second), 25, 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"a kite", "a scarf", "a book"}, got)

	_, err = app.Suggest(ctxFor(t, 5*time.Second), 25, 0)
	assert.EqualError(t, err, "giftgenius: suggest_gifts returned no ideas")
	srv.AssertCalledTimes(t, "tools/call", 2)
}

// TestToolsCapabilityOmitted is "the tools capability forgotten": the
// server serves suggest_gifts but declares no tools capability.
//
// The Go SDK v1.8.0 does not check capabilities: it sends tools/list
// anyway, and this server answers it, so an app that only lists would find
// the tool (and break the capability-negotiation rule; see go-sdk-alone).
// The app checks the capability itself: ErrNoGiftTool, and the server sees
// neither tools/list nor tools/call.
func TestToolsCapabilityOmitted(t *testing.T) {
	forEachEra(t, func(t *testing.T, e era) {
		srv := e.narrow(giftServer(t)).WithFaults(fault.OmitCapability("tools"))
		app := connect(t, srv)
		_, err := app.Suggest(ctxFor(t, 5*time.Second), 25, 0)
		require.ErrorIs(t, err, giftgenius.ErrNoGiftTool)
		assert.EqualError(t, err, "giftgenius: the server offers no suggest_gifts tool: it declares no tools capability")

		srv.AssertEra(t, e.era)
		srv.AssertNegotiatedVersion(t, e.version)
		srv.AssertNotCalled(t, "tools/list")
		srv.AssertNotCalled(t, "tools/call")
		srv.AssertNoViolations(t)
	})

	// Today's Go SDK on its own: tools/list goes out without the
	// capability and is answered; the mock records the broken rule.
	t.Run("go-sdk-alone", func(t *testing.T) {
		srv := giftServer(t).WithFaults(fault.OmitCapability("tools"))
		srv.ExpectViolation("capabilities/undeclared-method")
		conn := srv.Dial()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bare", Version: "1.0.0"}, nil).
			Connect(ctxFor(t, 5*time.Second), &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
		require.NoError(t, err)
		defer cs.Close()
		assert.Nil(t, cs.InitializeResult().Capabilities.Tools, "the SDK sees no tools capability")
		list, err := cs.ListTools(ctxFor(t, 5*time.Second), nil)
		require.NoError(t, err, "go-sdk v1.8.0 lists tools without the capability")
		require.Len(t, list.Tools, 1)
		vs := srv.Violations()
		require.Len(t, vs, 1)
		assert.Equal(t, "tools/list", vs[0].Message.Method)
	})
}

// TestToolMissing: the server has tools, but not suggest_gifts.
func TestToolMissing(t *testing.T) {
	other := func(names ...string) []*mcptest.Tool {
		var out []*mcptest.Tool
		for _, n := range names {
			out = append(out, mcptest.NewTool(n).ReturnsText(n))
		}
		return out
	}
	t.Run("absent", func(t *testing.T) {
		srv := mcptest.NewServer(t).WithTools(other("wrap_gift", "suggest_gift")...)
		app := connect(t, srv)
		_, err := app.Suggest(ctxFor(t, 5*time.Second), 25, 0)
		require.ErrorIs(t, err, giftgenius.ErrNoGiftTool)
		assert.EqualError(t, err, "giftgenius: the server offers no suggest_gifts tool")
		srv.AssertCalledTimes(t, "tools/list", 1)
		srv.AssertNotCalled(t, "tools/call")
		srv.AssertNoViolations(t)
	})
	// The tool on the third page: the app follows nextCursor.
	t.Run("paged", func(t *testing.T) {
		srv := giftServer(t).WithOptions(mcptest.Options{PageSize: 1})
		srv.SetTools(mcptest.Quietly, append(other("wrap_gift", "ship_gift"), mcptest.NewTool(giftgenius.ToolName).ReturnsText("a kite"))...)
		app := connect(t, srv)
		got, err := app.Suggest(ctxFor(t, 5*time.Second), 25, 0)
		require.NoError(t, err)
		assert.Equal(t, []string{"a kite"}, got)
		lists := srv.Journal().All().Requests("tools/list")
		require.Len(t, lists, 3)
		assert.False(t, lists[0].Get("params.cursor").Exists())
		assert.NotEmpty(t, lists[2].Get("params.cursor").String())
		srv.AssertToolCalled(t, giftgenius.ToolName, `{"age":25}`)
		srv.AssertNoViolations(t)
	})
	// Every page points back at the first: the app stops at the repeated
	// cursor instead of paging forever.
	t.Run("looping-cursor", func(t *testing.T) {
		srv := mcptest.NewServer(t).WithTools(other("wrap_gift")...).WithFaults(fault.LoopingCursor("tools/list"))
		app := connect(t, srv)
		_, err := app.Suggest(ctxFor(t, 5*time.Second), 25, 0)
		require.ErrorIs(t, err, giftgenius.ErrNoGiftTool)
		srv.AssertCalledTimes(t, "tools/list", 2)
		srv.AssertNotCalled(t, "tools/call")
	})
}

func TestToolError(t *testing.T) {
	// isError: the tool ran and failed; its text is the error.
	t.Run("isError", func(t *testing.T) {
		srv := mcptest.NewServer(t).WithTools(mcptest.NewTool(giftgenius.ToolName).Returns(mcptest.ToolErrorResult("the gift shop is closed")))
		app := connect(t, srv)
		got, err := app.Suggest(ctxFor(t, 5*time.Second), 25, 0)
		require.ErrorIs(t, err, giftgenius.ErrToolFailed)
		assert.EqualError(t, err, "giftgenius: suggest_gifts failed: the gift shop is closed")
		assert.Nil(t, got)
		srv.AssertToolCalled(t, giftgenius.ToolName, `{"age":25}`)
		reply := srv.Journal().All().Responses("tools/call")
		require.Len(t, reply, 1)
		assert.True(t, reply[0].Get("result.isError").Bool())
	})
	// A JSON-RPC error: the SDK's *jsonrpc.Error, wrapped.
	t.Run("rpc-error", func(t *testing.T) {
		srv := mcptest.NewServer(t).WithTools(mcptest.NewTool(giftgenius.ToolName).Returns(mcptest.JSONRPCError(-32000, "backend down", nil)))
		app := connect(t, srv)
		_, err := app.Suggest(ctxFor(t, 5*time.Second), 25, 0)
		var wire *jsonrpc.Error
		require.ErrorAs(t, err, &wire)
		assert.Equal(t, int64(-32000), wire.Code)
		assert.EqualError(t, err, `giftgenius: calling suggest_gifts: calling "tools/call": backend down`)
		assert.NotErrorIs(t, err, giftgenius.ErrToolFailed)
		reply := srv.Journal().All().Responses("tools/call")
		require.Len(t, reply, 1)
		assert.Equal(t, -32000, reply[0].ErrorCode)
	})
}

// TestUnknownProtocolVersion: a legacy server answers initialize with
// 1999-01-01. The SDK rejects the version, Connect fails, and the
// connection is closed right after the initialize result: no
// notifications/initialized, no tools/list.
func TestUnknownProtocolVersion(t *testing.T) {
	srv := legacy(giftServer(t)).WithFaults(fault.RespondProtocolVersion("1999-01-01"))
	app, err := giftgenius.Connect(ctxFor(t, 5*time.Second), srv.Dial())
	require.Error(t, err)
	assert.Nil(t, app)
	assert.EqualError(t, err, `giftgenius: connecting: unsupported protocol version: "1999-01-01"`)

	srv.AssertCalledTimes(t, "initialize", 1)
	init := srv.Journal().All().Requests("initialize")[0]
	assert.Equal(t, "2025-11-25", init.Get("params.protocolVersion").String(), "the app asked for the latest handshake version")
	reply := srv.Journal().All().Responses("initialize")
	require.Len(t, reply, 1)
	assert.Equal(t, "1999-01-01", reply[0].Get("result.protocolVersion").String())
	select {
	case <-srv.Session(1).Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the connection is still open after the rejected version")
	}
	srv.AssertNotCalled(t, "notifications/initialized")
	srv.AssertNotCalled(t, "tools/list")
	srv.AssertNoViolations(t)

	// The fault edits initialize results only: a server that also speaks
	// the stateless era is reached through server/discover, untouched.
	t.Run("stateless-era-unaffected", func(t *testing.T) {
		srv := giftServer(t).WithFaults(fault.RespondProtocolVersion("1999-01-01").Optional())
		app := connect(t, srv)
		assert.Equal(t, "2026-07-28", app.ProtocolVersion())
		srv.AssertNotCalled(t, "initialize")
	})
}

// TestToolHangs: the server never answers tools/call. Suggest gives up
// when its context ends (100 ms), and the SDK tells the server with
// notifications/cancelled.
func TestToolHangs(t *testing.T) {
	forEachEra(t, func(t *testing.T, e era) {
		srv := e.narrow(giftServer(t)).WithFaults(fault.Hang("tools/call"))
		app := connect(t, srv)
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_, err := app.Suggest(ctx, 25, 0) // it returns: a hang would end the test at go test's timeout
		require.ErrorIs(t, err, context.DeadlineExceeded)

		srv.AssertToolCalled(t, giftgenius.ToolName, `{"age":25}`)
		srv.AssertCancelled(t, "tools/call")
		call := srv.Journal().All().ToolCalls(giftgenius.ToolName)[0]
		note := srv.Journal().All().Notifications("notifications/cancelled")
		require.NotEmpty(t, note)
		assert.Equal(t, call.ID, note[0].Get("params.requestId").Raw)
		assert.Empty(t, srv.Journal().All().Responses("tools/call"), "a cancelled request is never answered")
		srv.AssertNoViolations(t)
	})
}

// TestDisconnectMidCall: the server closes the connection when tools/call
// arrives. Suggest fails at once with EOF; it does not wait for its deadline.
func TestDisconnectMidCall(t *testing.T) {
	forEachEra(t, func(t *testing.T, e era) {
		srv := e.narrow(giftServer(t)).WithFaults(fault.CloseBefore("tools/call"))
		app := connect(t, srv)
		_, err := app.Suggest(ctxFor(t, 10*time.Second), 25, 0)
		require.Error(t, err)
		// EOF, not the deadline: Suggest noticed the closed connection
		// instead of waiting (a wall-clock bound would depend on the machine)
		assert.NotErrorIs(t, err, context.DeadlineExceeded, "Suggest waited instead of noticing the closed connection")
		assert.ErrorIs(t, err, io.EOF)
		assert.EqualError(t, err, `giftgenius: calling suggest_gifts: calling "tools/call": EOF`)

		// The session is gone: the next Suggest fails too, at once.
		_, err = app.Suggest(ctxFor(t, 10*time.Second), 25, 0)
		assert.ErrorIs(t, err, mcp.ErrConnectionClosed)

		srv.AssertCalledTimes(t, "tools/call", 1)
		assert.Empty(t, srv.Journal().All().Responses("tools/call"))
		assert.True(t, sessionEnded(srv.Session(1)))
		srv.AssertNoViolations(t)
	})
}
