// Package mcpgo is the proof of the bug catalog's mark3labs/mcp-go bugs
// with the buggy release itself: mark3labs/mcp-go v0.39.1, pinned in this
// module of its own (the integration module's v1.2.1, the fixed release,
// would win in a shared build). .ci/run runs it with GOWORK=off; the fixed
// side is integration/bugs_real_test.go, the same app on v1.2.1.
package mcpgo

import (
	"context"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/mcpmock/mcpmock/scenarios/bugs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// app is what an application on mark3labs/mcp-go does: it starts the
// client on the session's connection, initializes asking for version
// (empty: the app names none), lists the tools and calls suggest_gifts.
func app(version string) scenarios.ConnectFunc {
	return scenarios.OneSession(func(ctx context.Context, conn net.Conn) error {
		// v0.39.1's Close closes the logging stream: give it one. Its
		// Client.Start leaves a *transport.Stdio to the caller to start.
		tr := transport.NewIO(conn, conn, io.NopCloser(strings.NewReader("")))
		if err := tr.Start(ctx); err != nil {
			return err
		}
		c := client.NewClient(tr)
		defer c.Close()
		if err := c.Start(ctx); err != nil {
			return err
		}
		req := mcp.InitializeRequest{}
		req.Params.ProtocolVersion = version
		req.Params.ClientInfo = mcp.Implementation{Name: "bugs-app", Version: "1.0.0"}
		if _, err := c.Initialize(ctx, req); err != nil {
			return err
		}
		if _, err := c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
			return err
		}
		call := mcp.CallToolRequest{}
		call.Params.Name = "suggest_gifts"
		call.Params.Arguments = map[string]any{"age": 30}
		_, err := c.CallTool(ctx, call)
		return err
	})
}

// TestBug: mark3labs/mcp-go v0.39.1 has each bug its catalog entry says
// it has: the bug's check fails (caught, not merely not reached).
func TestBug(t *testing.T) {
	for id, version := range map[string]string{
		"mcp-go-155":   mcp.LATEST_PROTOCOL_VERSION, // the same 70 KB line, the first report of the limit
		"mcp-go-588":   mcp.LATEST_PROTOCOL_VERSION, // a 70 KB tools/list line: bufio.Scanner: token too long
		"mcp-go-650":   mcp.LATEST_PROTOCOL_VERSION, // the server answers 2025-11-25: unsupported protocol version
		"eino-ext-622": mcp.LATEST_PROTOCOL_VERSION,
		"mcp-go-687":   "", // the app names no version: initialize carries ""
	} {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			b, ok := bugs.Lookup(id)
			require.True(t, ok)
			assert.Equal(t, bugs.RealVersion, b.Proof.Kind)
			assert.Contains(t, b.Proof.Buggy, "v0.39.1")
			s := b.Scenario()
			r := s.Evaluate(s.Play(t, app(version)))
			assert.Equal(t, scenarios.Fail, r.Status, "mark3labs/mcp-go v0.39.1 is caught: %s", r)
			t.Log(r)
		})
	}
}
