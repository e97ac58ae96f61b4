package integration_test

// The custom headers of tool parameters (SEP-2243, 2026-07-28): go-sdk
// v1.8.0 and mark3labs v1.2.1 mirror the arguments a tool's inputSchema
// marks with x-mcp-header into Mcp-Param-* headers, and the mock, which
// checks every such header, blames neither. A call of a tool the client
// never listed carries no header (the client cannot know the annotation):
// the mock refuses it as the spec's table says ("Client omits header but
// value is in body: Server MUST reject the request"), as go-sdk's own
// server does.

import (
	"testing"

	m3 "github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// paramHeaderServer serves exec_sql, whose region (a string),
// shard (an integer), dry_run (a boolean) and scope.zone (nested) are
// mirrored into headers.
func paramHeaderServer(t *testing.T) *mcptest.Server {
	return mcptest.NewServer(t).WithTools(mcptest.NewTool("exec_sql").
		WithInputSchema(`{"type":"object","properties":{
			"region":{"type":"string","x-mcp-header":"Region"},
			"shard":{"type":"integer","x-mcp-header":"Shard"},
			"dry_run":{"type":"boolean","x-mcp-header":"Dry-Run"},
			"scope":{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"}}},
			"query":{"type":"string"}}}`).
		ReturnsText("done"))
}

// paramArguments are calls a correct client mirrors: plain ASCII, values
// the spec has Base64-encoded (non-ASCII, surrounding spaces, a newline, the
// sentinel's own form), absent values. (A null region would be mirrored
// correctly too, by leaving the header out, but null is no string: the
// mock would warn of the arguments, tools/arguments-schema.)
var paramArguments = []map[string]any{
	{"region": "us-west1", "shard": 42, "dry_run": true, "scope": map[string]any{"zone": "a"}, "query": "SELECT 1"},
	{"region": "Hello, 世界", "shard": -7, "dry_run": false},
	{"region": " padded ", "scope": map[string]any{"zone": "line1\nline2"}},
	{"region": "=?base64?literal?="},
	{"query": "no header for an absent value"},
}

func TestParamHeadersGoSDK(t *testing.T) {
	srv := paramHeaderServer(t)
	cs := connectGoSDKHTTP(t, srv, nil, nil)
	ctx := testContext(t)
	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Len(t, tools.Tools, 1, "go-sdk keeps the tool: its annotations are valid")
	for _, args := range paramArguments {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "exec_sql", Arguments: args})
		require.NoError(t, err, "arguments %v", args)
		assert.False(t, res.IsError)
	}
	srv.AssertToolCalled(t, "exec_sql", `{"region":"Hello, 世界"}`)
	srv.AssertNoViolations(t)
}

func TestParamHeadersMark3(t *testing.T) {
	srv := paramHeaderServer(t)
	c, res := connectMark3HTTP(t, srv, nil)
	require.Equal(t, "2026-07-28", res.ProtocolVersion)
	ctx := testContext(t)
	tools, err := c.ListTools(ctx, m3.ListToolsRequest{})
	require.NoError(t, err)
	require.Len(t, tools.Tools, 1)
	for _, args := range paramArguments {
		_, err := c.CallTool(ctx, m3.CallToolRequest{Params: m3.CallToolParams{Name: "exec_sql", Arguments: args}})
		require.NoError(t, err, "arguments %v", args)
	}
	srv.AssertNoViolations(t)
}

// TestParamHeadersUnlistedTool: go-sdk v1.8.0 calls a tool it never listed
// without the header; the mock refuses the call (400, -32020) and says why.
func TestParamHeadersUnlistedTool(t *testing.T) {
	srv := paramHeaderServer(t).ExpectViolation("http/param-headers")
	cs := connectGoSDKHTTP(t, srv, nil, nil)
	_, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "exec_sql", Arguments: map[string]any{"region": "us-west1"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no Mcp-Param-Region header")
}
