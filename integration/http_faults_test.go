package integration_test

// The HTTP faults against real Streamable HTTP clients.

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	m3 "github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// progressTool reports progress once, then answers "done".
func progressTool() *mcptest.Tool {
	return mcptest.NewTool("work").HandledBy(func(_ context.Context, req *mcptest.Request) mcptest.Reply {
		_ = req.Progress(1, 2, "half way")
		return mcptest.TextResult("done")
	})
}

func pinned() *mcp.ClientSessionOptions {
	return &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}
}

func TestHTTPFaultExpireSession(t *testing.T) {
	srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x"))
	cs := connectGoSDKHTTP(t, srv, nil, pinned())
	ctx := testContext(t)
	_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "t"})
	require.NoError(t, err)
	h := srv.AddFault(fault.ExpireSession().Nth(1))
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "t"})
	require.Error(t, err, "the call after the session expired fails")
	assert.Equal(t, 1, h.Hits())
	assert.True(t, sessionEnded(srv.Session(1)))
	refused := srv.Journal().All().InSession(1).Filter(func(m mcptest.Message) bool { return m.HTTP != nil && m.HTTP.Status == http.StatusNotFound })
	require.NotEmpty(t, refused, "404 journaled")

	// The app starts a new session, as the spec says a client must.
	cs2 := connectGoSDKHTTP(t, srv, nil, pinned())
	_, err = cs2.CallTool(ctx, &mcp.CallToolParams{Name: "t"})
	require.NoError(t, err)
	assert.Len(t, srv.Sessions(), 2)
}

func TestHTTPFaultHTTPStatus(t *testing.T) {
	// go-sdk v1.8.0 keeps the session after the statuses it deems
	// transient (502, 503, 504, 429); after any other, 401 without an
	// OAuthHandler included, it closes the connection.
	for _, code := range []int{http.StatusServiceUnavailable, http.StatusBadGateway, http.StatusTooManyRequests} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x"))
			cs := connectGoSDKHTTP(t, srv, nil, pinned())
			ctx := testContext(t)
			h := srv.AddFault(fault.HTTPStatus("tools/call", code, "").Nth(1))
			_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "t"})
			require.Error(t, err, "the error reaches the app")
			assert.Equal(t, 1, h.Hits())
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "t"})
			require.NoError(t, err, "the session survives")
			assert.Equal(t, "x", text(t, res.Content[0]))
			page := srv.Journal().All().From(mcptest.FromServer).Filter(func(m mcptest.Message) bool { return m.HTTP != nil && m.HTTP.Status == code })
			require.Len(t, page, 1)
			assert.Contains(t, page[0].Raw(), "<html>")
		})
	}
	t.Run("Unauthorized", func(t *testing.T) {
		srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x"))
		cs := connectGoSDKHTTP(t, srv, nil, pinned())
		ctx := testContext(t)
		srv.AddFault(fault.HTTPStatus("tools/call", http.StatusUnauthorized, "").Nth(1))
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "t"})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "Unauthorized")
		_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "t"})
		require.Error(t, err, "go-sdk closed the connection on 401")
		assert.Len(t, srv.Journal().All().ToolCalls("t"), 1, "the second call never reached the server")
		page := srv.Journal().All().From(mcptest.FromServer).Filter(func(m mcptest.Message) bool { return m.HTTP != nil && m.HTTP.Status == http.StatusUnauthorized })
		require.Len(t, page, 1)
	})
	t.Run("mark3labs", func(t *testing.T) {
		srv := legacy(mcptest.NewServer(t).WithTools(mcptest.NewTool("t").ReturnsText("x")))
		c, _ := connectMark3HTTP(t, srv, nil)
		srv.AddFault(fault.HTTPStatus("tools/call", http.StatusServiceUnavailable, "").Nth(1))
		ctx := testContext(t)
		_, err := c.CallTool(ctx, m3.CallToolRequest{Params: m3.CallToolParams{Name: "t"}})
		require.Error(t, err)
		out, err := c.CallTool(ctx, m3.CallToolRequest{Params: m3.CallToolParams{Name: "t"}})
		require.NoError(t, err, "the session survives")
		assert.Equal(t, "x", out.Content[0].(m3.TextContent).Text)
	})
}

// TestHTTPFaultDropStream: the call's SSE stream is cut after the progress
// event. With event ids go-sdk reconnects with Last-Event-ID and gets the
// result replayed; without, the call fails.
func TestHTTPFaultDropStream(t *testing.T) {
	t.Run("resumable", func(t *testing.T) {
		srv := legacy(mcptest.NewServer(t)).WithTools(progressTool()).WithFaults(fault.DropStream("tools/call", 1, true))
		cs := connectGoSDKHTTP(t, srv, nil, nil)
		res, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "work", Meta: mcp.Meta{"progressToken": "p"}})
		require.NoError(t, err, "go-sdk resumes the stream")
		assert.Equal(t, "done", text(t, res.Content[0]))
		reply := srv.Journal().All().Responses("tools/call")
		require.Len(t, reply, 1)
		require.NotNil(t, reply[0].HTTP)
		assert.Equal(t, "GET", reply[0].HTTP.Method, "the reply came on the resumed stream")
		assert.Empty(t, reply[0].Problem)
	})
	t.Run("not resumable", func(t *testing.T) {
		srv := legacy(mcptest.NewServer(t)).WithTools(progressTool()).WithFaults(fault.DropStream("tools/call", 1, false))
		cs := connectGoSDKHTTP(t, srv, nil, nil)
		_, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "work", Meta: mcp.Meta{"progressToken": "p"}})
		require.Error(t, err, "without event ids the reply is lost")
		assert.Contains(t, err.Error(), "terminated")
	})
}

func TestHTTPFaultReplyModes(t *testing.T) {
	t.Run("ReplyAsJSON", func(t *testing.T) {
		srv := legacy(mcptest.NewServer(t)).WithTools(progressTool()).WithFaults(fault.ReplyAsJSON("tools/call"))
		progress := make(chan string, 1)
		cs := connectGoSDKHTTP(t, srv, &mcp.ClientOptions{
			ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) { progress <- r.Params.Message },
		}, nil)
		srv.WaitFor(t, mcptest.Matcher{Description: "the standalone stream", Match: func(mcptest.Message) bool { return true }})
		res, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "work", Meta: mcp.Meta{"progressToken": "p"}})
		require.NoError(t, err)
		assert.Equal(t, "done", text(t, res.Content[0]))
		assert.Equal(t, "application/json", srv.Journal().All().Responses("tools/call")[0].HTTP.ContentType)
		note := srv.Journal().All().Notifications("notifications/progress")[0]
		assert.NotEqual(t, "POST", note.HTTP.Method, "progress could not go on the call's JSON reply")
	})
	t.Run("ReplyAsSSE", func(t *testing.T) {
		srv := legacy(mcptest.NewServer(t)).WithTools(mcptest.NewTool("t").ReturnsText("x")).WithFaults(fault.ReplyAsSSE("tools/list"))
		cs := connectGoSDKHTTP(t, srv, nil, nil)
		list, err := cs.ListTools(testContext(t), nil)
		require.NoError(t, err)
		assert.Len(t, list.Tools, 1)
		assert.Equal(t, "text/event-stream", srv.Journal().All().Responses("tools/list")[0].HTTP.ContentType)
	})
}

func TestHTTPFaultOmitSessionID(t *testing.T) {
	srv := legacy(mcptest.NewServer(t)).WithTools(mcptest.NewTool("t").ReturnsText("x")).WithFaults(fault.OmitSessionID())
	cs := connectGoSDKHTTP(t, srv, nil, nil)
	res, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "t"})
	require.NoError(t, err, "go-sdk works with a server that keeps no session ids")
	assert.Equal(t, "x", text(t, res.Content[0]))
	call := srv.Journal().All().ToolCalls("t")[0]
	assert.Empty(t, call.HTTP.SessionID)
	assert.Equal(t, 1, call.SessionNumber, "the sessionless requests joined the session")
	srv.AssertHandshakeCompleted(t)
}

func TestHTTPFaultWrongContentType(t *testing.T) {
	srv := legacy(mcptest.NewServer(t)).WithTools(mcptest.NewTool("t").ReturnsText("x")).WithFaults(fault.WrongContentType("tools/call", "text/plain"))
	cs := connectGoSDKHTTP(t, srv, nil, nil)
	_, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "t"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "content type")
	assert.Equal(t, "text/plain", srv.Journal().All().Responses("tools/call")[0].HTTP.ContentType)
}

func TestHTTPFaultSSEComment(t *testing.T) {
	t.Run("gosdk", func(t *testing.T) {
		srv := legacy(mcptest.NewServer(t)).WithTools(mcptest.NewTool("t").ReturnsText("x")).WithFaults(fault.SSEComment("tools/call", "keep-alive"))
		cs := connectGoSDKHTTP(t, srv, nil, nil)
		res, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "t"})
		require.NoError(t, err, "comments are ignored")
		assert.Equal(t, "x", text(t, res.Content[0]))
	})
	t.Run("mark3labs", func(t *testing.T) {
		srv := legacy(mcptest.NewServer(t)).WithTools(mcptest.NewTool("t").ReturnsText("x")).WithFaults(fault.SSEComment("tools/call", "keep-alive"))
		c, _ := connectMark3HTTP(t, srv, nil)
		out, err := c.CallTool(testContext(t), m3.CallToolRequest{Params: m3.CallToolParams{Name: "t"}})
		require.NoError(t, err)
		assert.Equal(t, "x", out.Content[0].(m3.TextContent).Text)
	})
}

// TestHTTPFaultSlowHeaders: a client with a short response-header timeout
// fails the slow call and the next, fast one succeeds.
func TestHTTPFaultSlowHeaders(t *testing.T) {
	srv := legacy(mcptest.NewServer(t)).WithTools(mcptest.NewTool("t").ReturnsText("x"))
	tr := &http.Transport{ResponseHeaderTimeout: 50 * time.Millisecond}
	t.Cleanup(tr.CloseIdleConnections)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "app", Version: "1"}, nil).Connect(testContext(t),
		&mcp.StreamableClientTransport{Endpoint: srv.URL(), HTTPClient: &http.Client{Transport: tr}, DisableStandaloneSSE: true}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	h := srv.AddFault(fault.SlowHeaders("tools/call", time.Minute).Nth(1))
	_, err = cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "t"})
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "timeout") || strings.Contains(err.Error(), "awaiting headers"), err.Error())
	assert.Equal(t, 1, h.Hits())
}
