package integration_test

// Large payloads in the stateless era through the two real clients: the
// paths the performance work rewrote (the request's _meta read from its
// own member, the tool's inputSchema checked on the frame's own strings,
// the result decorated in the one copy that is the response frame, the
// eras read from the end of the journal) give the same answers a test
// relies on.

import (
	"context"
	"strings"
	"testing"

	m3 "github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// largeEchoServer is a server whose tool "shout" takes a string text (its
// inputSchema says so) and answers it upper-cased.
func largeEchoServer(t *testing.T) *mcptest.Server {
	return mcptest.NewServer(t).WithTools(mcptest.NewTool("shout").
		WithInputSchema(map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}, "required": []string{"text"}}).
		HandledBy(func(ctx context.Context, req *mcptest.Request) mcptest.Reply {
			return mcptest.TextResult(strings.ToUpper(req.Message.Get("params.arguments.text").String()))
		}))
}

// checkLargeStateless checks what the journal says of a session that sent
// big to "shout" in the stateless era, then arguments the schema refuses.
func checkLargeStateless(t *testing.T, srv *mcptest.Server, big string) {
	t.Helper()
	srv.AssertEra(t, mcptest.EraStateless)
	srv.AssertNegotiatedVersion(t, "2026-07-28")
	calls := srv.Journal().All().ToolCalls("shout")
	require.Len(t, calls, 2)
	assert.Equal(t, big, calls[0].Get("params.arguments.text").String(), "the call journaled whole")
	reply, ok := srv.Journal().All().ResponseTo(calls[0])
	require.True(t, ok)
	assert.Equal(t, strings.ToUpper(big), reply.Get("result.content.0.text").String(), "the result journaled whole")
	assert.Equal(t, "complete", reply.Get("result.resultType").String(), "the stateless era's resultType added")
	assert.Equal(t, "mcptest", reply.Get(`result._meta.io\.modelcontextprotocol/serverInfo.name`).String(), "the server's serverInfo added")

	var schema []mcptest.Violation
	for _, v := range srv.Violations() {
		if v.Rule == "tools/arguments-schema" {
			schema = append(schema, v)
		}
	}
	require.Len(t, schema, 1, "only the second call breaks the inputSchema: %v", srv.Violations())
	assert.Equal(t, calls[1].Seq, schema[0].Message.Seq)
	assert.Contains(t, schema[0].Detail, "text")
}

func TestGoSDKLargeStateless(t *testing.T) {
	ctx := testContext(t)
	big := strings.Repeat("a gift for ana ", 70000) // about 1 MiB
	srv := largeEchoServer(t).ExpectViolation("tools/arguments-schema")
	cs := connectGoSDK(t, srv, nil, nil) // v1.8.0 goes stateless against a server that speaks 2026-07-28
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "shout", Arguments: map[string]any{"text": big}})
	require.NoError(t, err)
	require.Len(t, res.Content, 1)
	assert.Equal(t, strings.ToUpper(big), res.Content[0].(*mcp.TextContent).Text)
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "shout", Arguments: map[string]any{"text": 7}})
	require.NoError(t, err, "a warning: the mock still answers")
	checkLargeStateless(t, srv, big)
}

func TestMark3LargeStateless(t *testing.T) {
	ctx := testContext(t)
	big := strings.Repeat("a gift for ana ", 70000)
	srv := largeEchoServer(t).ExpectViolation("tools/arguments-schema")
	c, _ := connectMark3(t, srv)
	req := m3.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "shout", map[string]any{"text": big}
	res, err := c.CallTool(ctx, req)
	require.NoError(t, err)
	require.Len(t, res.Content, 1)
	text, ok := m3.AsTextContent(res.Content[0])
	require.True(t, ok)
	assert.Equal(t, strings.ToUpper(big), text.Text)
	req.Params.Arguments = map[string]any{"text": 7}
	_, err = c.CallTool(ctx, req)
	require.NoError(t, err)
	checkLargeStateless(t, srv, big)
}
