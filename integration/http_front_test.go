package integration_test

import (
	"context"
	"github.com/mcpmock/mcpmock/internal/spec"
	"testing"

	m3client "github.com/mark3labs/mcp-go/client"
	m3transport "github.com/mark3labs/mcp-go/client/transport"
	m3 "github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHTTPHandshakeClientOfModernOnlyServer: a client pinned to the
// handshake era initializes a server of the stateless era only over HTTP.
// Its initialize carries no stateless-era headers, as it must not: the
// mock answers it as over stdio, -32602 naming the versions it speaks,
// and charges the client with nothing. (Before: 400 -32020 "no
// Mcp-Protocol-Version header" and an http/stateless-headers violation.)
func TestHTTPHandshakeClientOfModernOnlyServer(t *testing.T) {
	check := func(t *testing.T, srv *mcptest.Server, err error) {
		t.Helper()
		require.Error(t, err, "the initialize of a handshake-era client to a modern-only server fails")
		replies := srv.Journal().All().Filter(func(m mcptest.Message) bool {
			return m.Direction == mcptest.FromServer && m.Method == "initialize"
		})
		require.Len(t, replies, 1, srv.Transcript())
		assert.Equal(t, spec.CodeInvalidParams, replies[0].ErrorCode, srv.Transcript())
		assert.Contains(t, replies[0].Raw(), `"supported":["2026-07-28"]`)
		assert.Equal(t, 200, replies[0].HTTP.Status)
		srv.Close()
		assert.Empty(t, srv.Violations(), "a correct handshake-era client is charged with nothing")
	}
	t.Run("go-sdk", func(t *testing.T) {
		srv := giftServer(t).WithProtocolVersions("2026-07-28")
		c := mcp.NewClient(&mcp.Implementation{Name: "gosdk-http-app", Version: "1.0.0"}, nil)
		cs, err := c.Connect(testContext(t), &mcp.StreamableClientTransport{Endpoint: srv.URL(), HTTPClient: httpClient(t)},
			&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err == nil {
			_ = cs.Close()
		}
		check(t, srv, err)
	})
	t.Run("mark3labs", func(t *testing.T) {
		srv := giftServer(t).WithProtocolVersions("2026-07-28")
		tr, err := m3transport.NewStreamableHTTP(srv.URL(), m3transport.WithHTTPBasicClient(httpClient(t)))
		require.NoError(t, err)
		c := m3client.NewClient(tr, m3client.WithProtocolVersion("2025-11-25"))
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		require.NoError(t, c.Start(ctx))
		_, err = c.Initialize(testContext(t), m3.InitializeRequest{Params: m3.InitializeParams{
			ClientInfo: m3.Implementation{Name: "mark3-http-app", Version: "1.0.0"},
		}})
		_ = c.Close()
		check(t, srv, err)
	})
}
