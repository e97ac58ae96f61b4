package integration_test

import (
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGoSDKTranscript: the transcript and the sequence diagram of a session
// of the official SDK, byte for byte. The Examples of package mcptest show
// the same renderings for a hand-written client; this pins what the SDK
// itself puts on the wire (the order of its initialize members, the empty
// params of notifications/initialized) and that both renderings keep it.
func TestGoSDKTranscript(t *testing.T) {
	t.Run("transcript", func(t *testing.T) {
		srv := mcptest.NewServer(t).
			WithOptions(mcptest.Options{Name: "gift-genius-backend", Version: "0.2.0"}).
			WithTools(mcptest.NewTool("suggest_gifts").
				WithInputSchema(`{"type":"object","properties":{"age":{"type":"integer"}},"required":["age"]}`).
				ReturnsText("a board game"))
		cs := connectGoSDK(t, srv, nil, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
		res, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "suggest_gifts", Arguments: map[string]any{"age": 25}})
		require.NoError(t, err)
		assert.Equal(t, "a board game", text(t, res.Content[0]))
		srv.AssertHandshakeCompleted(t)
		srv.AssertNegotiatedVersion(t, "2025-06-18")
		srv.AssertToolCalled(t, "suggest_gifts", `{"age":25}`)
		assert.Equal(t, `session 1 (handshake, protocol 2025-06-18)
  1 → {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"gosdk-app","version":"1.0.0"},"protocolVersion":"2025-06-18","capabilities":{"roots":{"listChanged":true}}}}
  2 ← {"jsonrpc":"2.0","id":1,"result":{"capabilities":{"tools":{"listChanged":true}},"protocolVersion":"2025-06-18","serverInfo":{"name":"gift-genius-backend","version":"0.2.0"}}}
  3 → {"jsonrpc":"2.0","method":"notifications/initialized","params":{}}
  4 → {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"suggest_gifts","arguments":{"age":25}}}
  5 ← {"jsonrpc":"2.0","id":2,"result":{"content":[{"text":"a board game","type":"text"}]}}
`, srv.Transcript())
	})
	t.Run("sequence-diagram", func(t *testing.T) {
		srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("suggest_gifts").ReturnsText("a kite"))
		cs := connectGoSDK(t, srv, nil, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
		_, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "no_such_tool"})
		require.Error(t, err, "an unknown tool is a JSON-RPC error")
		require.NoError(t, cs.Close())
		assert.Equal(t, `sequenceDiagram
  participant C as Client
  participant S as Server (mcptest)
  C->>S: initialize [id 1]
  S-->>C: result [id 1] (initialize)
  C-)S: notifications/initialized
  C->>S: tools/call [id 2]
  S--xC: error -32602 [id 2] (tools/call)
`, strings.ReplaceAll(srv.Journal().All().SequenceDiagram(), "    ", "  "))
	})
}
