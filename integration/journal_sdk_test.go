package integration_test

// The journal's queries (mcptest.Messages) over what the two real clients
// did: one direction rule, pairing of requests and responses both ways, and
// WaitFor while a client streams calls.

import (
	"context"
	"fmt"
	"strings"
	"testing"

	m3 "github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGoSDKJournalQueries(t *testing.T) {
	ctx := testContext(t)
	srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("echo").ReturnsText("hi"))
	cs := connectGoSDK(t, srv, nil, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})

	const calls, wanted = 30, 20
	found := make(chan mcptest.Message, 1)
	go func() { // waits while the client streams its calls
		found <- srv.WaitFor(t, mcptest.ToolCall("echo", fmt.Sprintf(`{"n":%d}`, wanted)))
	}()
	for n := range calls {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"n": n}})
		require.NoError(t, err)
	}
	call := <-found
	assert.Equal(t, int64(wanted), call.Get("params.arguments.n").Int(), "WaitFor returns the matching call")
	resp, ok := srv.Journal().All().ResponseTo(call)
	require.True(t, ok, "the call was answered")
	assert.Equal(t, mcptest.FromServer, resp.Direction)
	assert.Equal(t, "hi", resp.Get("result.content.0.text").String())
	req, ok := srv.Journal().All().RequestOf(resp)
	require.True(t, ok)
	assert.Equal(t, call.Seq, req.Seq, "RequestOf pairs back")

	// A ping each way: Requests sees both, FromClient and FromServer split them.
	require.NoError(t, cs.Ping(ctx, nil))
	answer, err := srv.SendRequest(ctx, "ping", nil)
	require.NoError(t, err)
	j := srv.Journal().All()
	assert.Len(t, j.Requests("ping"), 2, "one ping each way")
	require.Len(t, j.From(mcptest.FromServer).Requests("ping"), 1)
	serverPing := j.From(mcptest.FromServer).Requests("ping")[0]
	clientAnswer, ok := j.ResponseTo(serverPing)
	require.True(t, ok)
	assert.Equal(t, answer.Seq, clientAnswer.Seq, "the go-sdk client's answer to the mock's ping")
	assert.Equal(t, mcptest.FromClient, clientAnswer.Direction)
	assert.Len(t, j.From(mcptest.FromClient).Requests("ping"), 1)
	assert.Len(t, j.ToolCalls("echo"), calls)
	assert.Len(t, j.Responses("tools/call"), calls)
	assert.Len(t, j.ToolCalls("echo").Where("params.arguments.n", wanted), 1)
}

func TestMark3JournalQueries(t *testing.T) {
	ctx := testContext(t)
	srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("echo").ReturnsText("hi"))
	c, _ := connectMark3(t, srv)
	for n := range 3 {
		req := m3.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "echo", map[string]any{"n": n}
		_, err := c.CallTool(ctx, req)
		require.NoError(t, err)
	}
	srv.AssertToolCalled(t, "echo", `{"n":2}`)
	j := srv.Journal().All()
	for _, resp := range j.Responses("tools/call") {
		req, ok := j.RequestOf(resp)
		require.True(t, ok, "every response pairs with its request")
		assert.Equal(t, mcptest.FromClient, req.Direction)
		assert.Equal(t, "echo", req.Get("params.name").String())
		back, _ := j.ResponseTo(req)
		assert.Equal(t, resp.Seq, back.Seq)
	}
	assert.Empty(t, j.From(mcptest.FromServer).Requests(""), "the mock asked the client nothing")
	assert.Len(t, j.From(mcptest.FromClient).Requests("tools/call"), 3)
}

// TestGoSDKJournalLimit: with Options.JournalLimit the go-sdk client's large
// call is served whole, journaled with its metadata and its first bytes.
func TestGoSDKJournalLimit(t *testing.T) {
	ctx := testContext(t)
	big := strings.Repeat("gift ", 16<<10) // 80 KiB
	srv := mcptest.NewServer(t).WithOptions(mcptest.Options{JournalLimit: 4096}).WithTools(mcptest.NewTool("wrap").
		HandledBy(func(ctx context.Context, req *mcptest.Request) mcptest.Reply {
			return mcptest.TextResult(strings.ToUpper(req.Message.Get("params.arguments.text").String()))
		}))
	cs := connectGoSDK(t, srv, nil, nil) // whatever era it picks
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "wrap", Arguments: map[string]any{"text": big}})
	require.NoError(t, err)
	require.Len(t, res.Content, 1)
	assert.Equal(t, strings.ToUpper(big), res.Content[0].(*mcp.TextContent).Text, "served whole")

	srv.AssertToolCalled(t, "wrap", nil)
	calls := srv.Journal().All().ToolCalls("wrap")
	require.Len(t, calls, 1)
	assert.Len(t, calls[0].Raw(), 4096)
	assert.Greater(t, calls[0].Truncated(), len(big)-4096)
	reply, ok := srv.Journal().All().ResponseTo(calls[0])
	require.True(t, ok)
	assert.Equal(t, mcptest.KindResult, reply.Kind)
	assert.Greater(t, reply.Truncated(), 0)
}
