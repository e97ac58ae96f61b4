package integration_test

// The bug catalog's proofs by real versions in this module: the fixed side
// of the mark3labs/mcp-go ones (the app of integration/bugs/mcpgo-v0.39.1
// and mcpgo-v0.43.2, where those releases are caught, passes each on
// v1.2.1), and the bugs go-sdk v1.8.0 still has.

import (
	"context"
	"net"
	"strings"
	"testing"

	m3client "github.com/mark3labs/mcp-go/client"
	m3transport "github.com/mark3labs/mcp-go/client/transport"
	m3 "github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/mcpmock/mcpmock/scenarios/bugs"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mark3App is what an application on mark3labs/mcp-go does: initialize
// asking for version (empty: the app names none), list the tools, call
// suggest_gifts.
func mark3App(version string) scenarios.ConnectFunc {
	return scenarios.OneSession(func(ctx context.Context, conn net.Conn) error {
		c := m3client.NewClient(m3transport.NewIO(conn, conn, nil))
		defer c.Close()
		if err := c.Start(ctx); err != nil {
			return err
		}
		req := m3.InitializeRequest{}
		req.Params.ProtocolVersion = version
		req.Params.ClientInfo = m3.Implementation{Name: "bugs-app", Version: "1.0.0"}
		if _, err := c.Initialize(ctx, req); err != nil {
			return err
		}
		if _, err := c.ListTools(ctx, m3.ListToolsRequest{}); err != nil {
			return err
		}
		call := m3.CallToolRequest{}
		call.Params.Name = "suggest_gifts"
		call.Params.Arguments = map[string]any{"age": 30}
		_, err := c.CallTool(ctx, call)
		return err
	})
}

// TestBugFixedMark3labs: mark3labs/mcp-go v1.2.1, the fixed release of
// the catalog's proofs by real versions, passes each of those bugs.
func TestBugFixedMark3labs(t *testing.T) {
	n := 0
	for _, b := range bugs.All() {
		if b.Proof.Kind != bugs.RealVersion || !strings.Contains(b.Proof.Fixed, "mark3labs") {
			continue // the npm packages' proofs are .ci/run's
		}
		n++
		require.Contains(t, b.Proof.Fixed, "github.com/mark3labs/mcp-go v1.2.1", b.ID)
		version := m3.LATEST_PROTOCOL_VERSION
		if b.ID == "mcp-go-687" {
			version = "" // the app names no version
		}
		t.Run(b.ID, func(t *testing.T) {
			t.Parallel()
			s := b.Scenario()
			r := s.Evaluate(s.Play(t, mark3App(version)))
			assert.Equal(t, scenarios.Pass, r.Status, "mark3labs/mcp-go v1.2.1 passes: %s\n%s", r, r.Transcript)
		})
	}
	assert.Equal(t, 6, n, "the bugs proven by a real mark3labs/mcp-go version")
}

// gosdkApp is what an application on the official Go SDK does: connect
// (it probes with server/discover and falls back to initialize), list
// every tool, call suggest_gifts, close.
func gosdkApp(ctx context.Context, conn net.Conn) error {
	client := mcp.NewClient(&mcp.Implementation{Name: "bugs-app", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	for _, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return err
		}
	}
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "suggest_gifts", Arguments: map[string]any{"age": 25}})
	return err
}

// TestBugGoSDK: the official Go SDK v1.8.0 still has the bug whose proof
// names it: a line that is not JSON on stdout ends its session.
func TestBugGoSDK(t *testing.T) {
	n := 0
	for _, b := range bugs.All() {
		if b.Proof.Kind != bugs.RealVersion || !strings.Contains(b.Proof.Buggy, "modelcontextprotocol/go-sdk v1.8.0") {
			continue
		}
		n++
		t.Run(b.ID, func(t *testing.T) {
			t.Parallel()
			s := b.Scenario()
			r := s.Evaluate(s.Play(t, scenarios.OneSession(gosdkApp)))
			assert.Equal(t, scenarios.Fail, r.Status, "go-sdk v1.8.0 is caught: %s", r)
			t.Log(r)
		})
	}
	assert.Equal(t, 1, n, "the bugs go-sdk v1.8.0 is the real buggy version of")
}
