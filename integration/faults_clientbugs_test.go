package integration_test

// Faults that documented client bugs need (issue 10): a log line glued to
// a frame, server requests with a chosen id (one equal to a pending client
// request), string ids on server requests, batches from a 2025-03-26
// server, and a reply sent as scripted, past the session's version. What
// each Go SDK does is asserted as it is today.

import (
	"context"
	"strings"
	"testing"

	m3 "github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// TestFaultGluedPrefix: "INFO ready" glued to the reply's line. go-sdk
// drops the connection; mark3labs skips the line, so the reply is lost and
// the call runs into its deadline.
func TestFaultGluedPrefix(t *testing.T) {
	const prefix = "INFO ready"
	check := func(t *testing.T, srv *mcptest.Server) {
		t.Helper()
		frames := framesAfter(srv, srv.Journal().All().Requests("tools/call")[0])
		require.NotEmpty(t, frames)
		assert.Equal(t, mcptest.KindInvalid, frames[0].Kind, "the journal says the line is no JSON")
		raw, ok := strings.CutPrefix(frames[0].Raw(), prefix)
		require.True(t, ok, "the line starts with the prefix: %s", frames[0].Raw())
		assert.Equal(t, "hi", gjson.Get(raw, "result.content.0.text").String(), "and goes on with the reply")
	}
	t.Run("gosdk", func(t *testing.T) {
		srv := legacy(echoServer(t)).WithFaults(fault.GluedPrefix("tools/call", prefix))
		cs := connectGoSDK(t, srv, nil, nil)
		_, err := callGoSDK(testContext(t), cs)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "invalid character 'I' looking for beginning of value")
		_, err = callGoSDK(testContext(t), cs)
		require.ErrorIs(t, err, mcp.ErrConnectionClosed, "the connection is gone")
		check(t, srv)
	})
	t.Run("mark3labs", func(t *testing.T) {
		srv := legacy(echoServer(t)).WithFaults(fault.GluedPrefix("tools/call", prefix))
		c, _ := connectMark3(t, srv)
		_, _, err := callMark3(hangContext(t), c)
		require.ErrorIs(t, err, context.DeadlineExceeded, "the reply on the glued line is lost")
		check(t, srv)
	})
}

// pingAnswered matches the client's answer to the mock's ping.
var pingAnswered = mcptest.Matcher{Description: "the client's answer to ping", Match: func(m mcptest.Message) bool {
	return m.Direction == mcptest.FromClient && m.IsResponse() && m.Method == "ping"
}}

// TestFaultRequestWithPendingID: before answering tools/call id n the mock
// sends ping with id n, while the client's call n is pending. A client that
// routes by id alone would take the ping for its answer; both Go SDKs
// route by direction: they answer the ping (with id n) and get their
// result, which the journal shows.
func TestFaultRequestWithPendingID(t *testing.T) {
	check := func(t *testing.T, srv *mcptest.Server) {
		t.Helper()
		call := srv.Journal().All().Requests("tools/call")[0]
		pings := srv.Journal().All().From(mcptest.FromServer).Requests("ping")
		require.Len(t, pings, 1)
		assert.Equal(t, call.ID, pings[0].ID, "the ping carries the pending call's id")
		answers := srv.Journal().All().From(mcptest.FromClient).Responses("ping")
		require.Len(t, answers, 1, "the client answered the ping")
		assert.Equal(t, call.ID, answers[0].ID)
		srv.AssertNoViolations(t)
	}
	t.Run("gosdk", func(t *testing.T) {
		srv := legacy(echoServer(t)).WithFaults(fault.RequestWithID("tools/call", "ping", nil, nil))
		got, err := callGoSDK(testContext(t), connectGoSDK(t, srv, nil, nil))
		require.NoError(t, err)
		assert.Equal(t, "hi", got)
		srv.WaitFor(t, pingAnswered)
		check(t, srv)
	})
	t.Run("mark3labs", func(t *testing.T) {
		srv := legacy(echoServer(t)).WithFaults(fault.RequestWithID("tools/call", "ping", nil, nil))
		c, _ := connectMark3(t, srv)
		_, got, err := callMark3(testContext(t), c)
		require.NoError(t, err)
		assert.Equal(t, "hi", got)
		srv.WaitFor(t, pingAnswered)
		check(t, srv)
	})
}

// TestFaultStringRequestIDs: the mock's roots/list carries the id
// "mcptest-1"; both SDKs answer with that id, which the mock matches.
func TestFaultStringRequestIDs(t *testing.T) {
	rootsServer := func(t *testing.T) *mcptest.Server {
		return legacy(mcptest.NewServer(t).WithTools(mcptest.NewTool("roots").HandledBy(
			func(ctx context.Context, req *mcptest.Request) mcptest.Reply {
				m, err := req.Session.SendRequest(ctx, "roots/list", nil)
				if err != nil {
					return mcptest.ToolErrorResult(err.Error())
				}
				return mcptest.TextResult(m.Get("id").Raw)
			}))).WithFaults(fault.StringRequestIDs())
	}
	check := func(t *testing.T, srv *mcptest.Server) {
		t.Helper()
		reqs := srv.Journal().All().From(mcptest.FromServer).Requests("roots/list")
		require.Len(t, reqs, 1)
		assert.Equal(t, `"mcptest-1"`, reqs[0].ID)
		srv.AssertNoViolations(t)
	}
	t.Run("gosdk", func(t *testing.T) {
		srv := rootsServer(t)
		res, err := connectGoSDK(t, srv, nil, nil).CallTool(testContext(t), &mcp.CallToolParams{Name: "roots"})
		require.NoError(t, err)
		assert.Equal(t, `"mcptest-1"`, text(t, res.Content[0]), "the answer matched the string id")
		check(t, srv)
	})
	t.Run("mark3labs", func(t *testing.T) {
		srv := rootsServer(t)
		c, _ := connectMark3(t, srv)
		req := m3.CallToolRequest{}
		req.Params.Name = "roots"
		res, err := c.CallTool(testContext(t), req)
		require.NoError(t, err)
		// mark3labs has no roots handler here: it answers with an error,
		// under the string id, which the mock matched.
		assert.Equal(t, `"mcptest-1"`, m3.GetTextFromContent(res.Content[0]))
		check(t, srv)
	})
}

// TestFaultBatched: a 2025-03-26 server sends its reply as a batch of one,
// which that version says a receiver MUST accept. go-sdk does; mark3labs
// v1.2.1 cannot read a batch: the reply is lost and the call runs into
// its deadline.
func TestFaultBatched(t *testing.T) {
	server := func(t *testing.T) *mcptest.Server {
		return echoServer(t).WithProtocolVersions("2025-03-26").WithFaults(fault.Batched("tools/call"))
	}
	check := func(t *testing.T, srv *mcptest.Server) {
		t.Helper()
		frames := framesAfter(srv, srv.Journal().All().Requests("tools/call")[0])
		require.NotEmpty(t, frames)
		assert.Equal(t, byte('['), frames[0].Raw()[0], "the reply went out as a batch")
	}
	t.Run("gosdk", func(t *testing.T) {
		srv := server(t)
		got, err := callGoSDK(testContext(t), connectGoSDK(t, srv, nil, nil))
		require.NoError(t, err, "go-sdk reads the batch")
		assert.Equal(t, "hi", got)
		srv.AssertEra(t, mcptest.EraHandshake)
		srv.AssertNegotiatedVersion(t, "2025-03-26")
		check(t, srv)
	})
	t.Run("mark3labs", func(t *testing.T) {
		srv := server(t)
		c, _ := connectMark3(t, srv)
		_, _, err := callMark3(hangContext(t), c)
		require.ErrorIs(t, err, context.DeadlineExceeded, "mark3labs loses the batched reply")
		check(t, srv)
	})
}

// TestFaultAsScripted: a resource_link sent to a 2024-11-05 session as
// the script holds it, past the downgrade the mock makes otherwise. Both
// Go SDKs take it without a word (mark3labs v0.32 failed with
// "unsupported content type").
func TestFaultAsScripted(t *testing.T) {
	server := func(t *testing.T, faults ...mcptest.Fault) *mcptest.Server {
		return mcptest.NewServer(t).WithProtocolVersions("2024-11-05").WithTools(mcptest.NewTool("echo").Returns(
			mcptest.ContentResult(mcptest.ResourceLinkContent("file:///a.txt", "a", "text/plain")))).WithFaults(faults...)
	}
	sent := func(t *testing.T, srv *mcptest.Server) string {
		t.Helper()
		return srv.Journal().All().Responses("tools/call")[0].Get("result.content.0.type").String()
	}
	t.Run("downgraded-without-it", func(t *testing.T) {
		srv := server(t)
		res, err := connectGoSDK(t, srv, nil, nil).CallTool(testContext(t), &mcp.CallToolParams{Name: "echo"})
		require.NoError(t, err)
		assert.Equal(t, "[resource_link: file:///a.txt (a)]", text(t, res.Content[0]))
		assert.Equal(t, "text", sent(t, srv))
	})
	t.Run("gosdk", func(t *testing.T) {
		srv := server(t, fault.AsScripted("tools/call"))
		res, err := connectGoSDK(t, srv, nil, nil).CallTool(testContext(t), &mcp.CallToolParams{Name: "echo"})
		require.NoError(t, err)
		link, ok := res.Content[0].(*mcp.ResourceLink)
		require.True(t, ok, "go-sdk decodes the resource_link of a 2024-11-05 server: %T", res.Content[0])
		assert.Equal(t, "file:///a.txt", link.URI)
		assert.Equal(t, "resource_link", sent(t, srv))
	})
	t.Run("mark3labs", func(t *testing.T) {
		srv := server(t, fault.AsScripted("tools/call"))
		c, _ := connectMark3(t, srv)
		res, _, err := callMark3(testContext(t), c)
		require.NoError(t, err)
		link, ok := res.Content[0].(m3.ResourceLink)
		require.True(t, ok, "mark3labs decodes it too: %T", res.Content[0])
		assert.Equal(t, "file:///a.txt", link.URI)
		assert.Equal(t, "resource_link", sent(t, srv))
	})
}
