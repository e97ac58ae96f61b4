package integration_test

// The verdict API with real clients: a fault that never came into play
// fails the server's verdict, saying why (the README's first fault example
// with a default client that goes stateless); narrowed to the handshake era
// the same fault acts and the verdict is clean; Serve carries a real
// client's session over any stream. The servers report to a
// mcptest.ProgramTB, whose returned verdict the tests check.

import (
	"bytes"
	"context"
	"net"
	"strings"
	"testing"

	m3client "github.com/mark3labs/mcp-go/client"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUnfiredFaultVerdictGoSDK(t *testing.T) {
	var log bytes.Buffer
	err := mcptest.NewProgramTB("unfired", &log).Run(func(tb mcptest.TB) {
		srv := mcptest.NewServer(tb).WithTools(mcptest.NewTool("echo").ReturnsText("hi")).
			WithFaults(fault.RespondProtocolVersion("1999-01-01"))
		cs := connectGoSDK(t, srv, nil, nil) // the default client probes and goes stateless
		_, err := cs.ListTools(testContext(t), nil)
		require.NoError(t, err)
		require.NoError(t, cs.Close())
	})
	require.Error(t, err, "a fault that never acted must fail the verdict")
	for _, want := range []string{`RespondProtocolVersion("1999-01-01") never acted`, "never sent initialize", "went stateless",
		"WithProtocolVersions(mcptest.HandshakeVersions()...)"} {
		assert.Contains(t, err.Error(), want)
	}

	// Narrowed to the handshake era, the client initializes, the fault acts,
	// and the client rejects the version: the verdict has nothing to say.
	err = mcptest.NewProgramTB("fired", &log).Run(func(tb mcptest.TB) {
		srv := mcptest.NewServer(tb).WithProtocolVersions(mcptest.HandshakeVersions()...).
			WithFaults(fault.RespondProtocolVersion("1999-01-01"))
		conn := srv.Dial()
		defer conn.Close()
		_, err := mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, nil).
			Connect(testContext(t), &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
		assert.ErrorContains(t, err, `unsupported protocol version: "1999-01-01"`)
		assert.Equal(t, 1, srv.Faults()[0].Hits())
	})
	assert.NoError(t, err)
}

func TestUnfiredFaultVerdictMark3(t *testing.T) {
	err := mcptest.NewProgramTB("unfired", nil).Run(func(tb mcptest.TB) {
		srv := mcptest.NewServer(tb).WithFaults(fault.Hang("server/discover"))
		// Pinned to a handshake version, mark3labs never probes.
		c, _ := connectMark3(t, srv, m3client.WithProtocolVersion("2025-06-18"))
		require.NoError(t, c.Close())
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `Hang("server/discover") never acted: the client never sent server/discover: it initialized at once`)
}

func TestServeGoSDK(t *testing.T) {
	srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("echo").ReturnsText("hi"))
	client, server := net.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), server) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, nil).
		Connect(testContext(t), &mcp.IOTransport{Reader: client, Writer: client}, nil)
	require.NoError(t, err)
	res, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{}})
	require.NoError(t, err)
	assert.Equal(t, "hi", res.Content[0].(*mcp.TextContent).Text)
	require.NoError(t, cs.Close())
	require.NoError(t, <-done, "Serve returns nil once the client closed its end")
	srv.AssertToolCalled(t, "echo", nil)
	require.NoError(t, srv.Verify())
	assert.True(t, strings.HasPrefix(srv.Transcript(), "session 1 (stateless"), srv.Transcript())
}
