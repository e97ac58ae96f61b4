package mcptest_test

import (
	"context"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestSmokeGoSDK(t *testing.T) {
	srv := mcptest.NewServer(t).WithTool(mcptest.NewTool("suggest_gifts").ReturnsText("a board game"))
	conn := srv.Dial()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "app", Version: "1.0"}, nil)
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "suggest_gifts", Arguments: map[string]any{"age": 25}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "a board game" {
		t.Fatalf("got %q", got)
	}
	srv.AssertHandshakeCompleted(t, "2025-11-25")
	srv.AssertToolCalled(t, "suggest_gifts", `{"age":25}`)
	t.Log(srv.Transcript())
	t.Log(srv.SequenceDiagram())
}
