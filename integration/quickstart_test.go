package integration_test

// The README's quickstart, line for line from the import block on
// (TestQuickstartIsTheReadme keeps the two the same): it must pass as a
// new user pastes it, with a default go-sdk client, whatever era it picks.

import (
	"context"
	"fmt"
	"testing"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// suggest is the code under test: it asks the server's suggest_gifts tool
// for a gift idea.
func suggest(ctx context.Context, cs *mcp.ClientSession, age int) (string, error) {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "suggest_gifts", Arguments: map[string]any{"age": age}})
	if err != nil {
		return "", err
	}
	for _, c := range res.Content {
		if text, ok := c.(*mcp.TextContent); ok {
			return text.Text, nil
		}
	}
	return "", fmt.Errorf("suggest_gifts answered no text")
}

func TestSuggestsGifts(t *testing.T) {
	ctx := t.Context()
	srv := mcptest.NewServer(t).
		WithTools(mcptest.NewTool("suggest_gifts").
			WithInputSchema(`{"type":"object","properties":{"age":{"type":"integer"}}}`).
			ReturnsText("a board game"))
	conn := srv.Dial() // a net.Conn: the client's end of a stdio-style connection

	client := mcp.NewClient(&mcp.Implementation{Name: "gift-app", Version: "1.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: conn, Writer: conn}, nil)
	require.NoError(t, err)
	defer cs.Close()

	got, err := suggest(ctx, cs, 25)

	require.NoError(t, err)
	assert.Equal(t, "a board game", got)
	srv.AssertConnected(t) // in whichever era the client chose
	srv.AssertToolCalled(t, "suggest_gifts", `{"age":25}`)
}
