// Package giftgenius is the GiftGen app of the MCP handshake lesson: a small
// MCP client, on the official Go SDK, that asks a server's suggest_gifts tool
// for gift ideas. It is the code under test of the examples: its tests run it
// against mcptest servers, healthy and broken.
package giftgenius

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ToolName is the tool the app calls.
const ToolName = "suggest_gifts"

var (
	// ErrNoGiftTool means the server offers no suggest_gifts tool: it did
	// not declare the tools capability, or its tool list lacks the tool.
	ErrNoGiftTool = errors.New("giftgenius: the server offers no " + ToolName + " tool")
	// ErrToolFailed means suggest_gifts answered with an error result
	// (isError); the error text follows it.
	ErrToolFailed = errors.New("giftgenius: " + ToolName + " failed")
)

// App suggests gifts through one MCP session.
type App struct {
	cs *mcp.ClientSession
}

// Option configures Connect.
type Option func(*mcp.ClientSessionOptions)

// WithProtocolVersion pins the protocol version: the client skips the
// server/discover probe and initializes with v.
func WithProtocolVersion(v string) Option {
	return func(o *mcp.ClientSessionOptions) { o.ProtocolVersion = v }
}

// Connect connects to the MCP server at the other end of rw (a stdio-style
// stream of newline-delimited JSON), in whichever era the two agree on.
// On failure rw is closed.
func Connect(ctx context.Context, rw io.ReadWriteCloser, opts ...Option) (*App, error) {
	var sopts mcp.ClientSessionOptions
	for _, o := range opts {
		o(&sopts)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "giftgenius", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: rw, Writer: rw}, &sopts)
	if err != nil {
		_ = rw.Close()
		return nil, fmt.Errorf("giftgenius: connecting: %w", err)
	}
	return &App{cs: cs}, nil
}

// ProtocolVersion is the protocol version of the session.
func (a *App) ProtocolVersion() string { return a.cs.InitializeResult().ProtocolVersion }

// Close ends the session and closes the connection.
func (a *App) Close() error { return a.cs.Close() }

// Suggest returns gift ideas for a recipient of the given age; a budget of
// 0 means no budget. The tool may answer one idea per line of text, or
// structuredContent {"ideas": [...]}.
func (a *App) Suggest(ctx context.Context, age int, budget float64) ([]string, error) {
	if err := a.findTool(ctx); err != nil {
		return nil, err
	}
	args := map[string]any{"age": age}
	if budget > 0 {
		args["budget"] = budget
	}
	res, err := a.cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolName, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("giftgenius: calling %s: %w", ToolName, err)
	}
	if res.IsError {
		return nil, fmt.Errorf("%w: %s", ErrToolFailed, strings.Join(texts(res), " "))
	}
	var out struct {
		Ideas []string `json:"ideas"`
	}
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &out); err != nil {
			return nil, fmt.Errorf("giftgenius: %s: structuredContent: %w", ToolName, err)
		}
	}
	if len(out.Ideas) == 0 {
		for _, t := range texts(res) {
			for line := range strings.Lines(t) {
				if line = strings.TrimSpace(line); line != "" {
					out.Ideas = append(out.Ideas, line)
				}
			}
		}
	}
	if len(out.Ideas) == 0 {
		return nil, fmt.Errorf("giftgenius: %s returned no ideas", ToolName)
	}
	return out.Ideas, nil
}

// findTool checks that the server offers suggest_gifts. The Go SDK lists
// tools whatever the server declared, so the app checks the capability
// itself; it follows nextCursor, and stops at a cursor it has seen.
func (a *App) findTool(ctx context.Context) error {
	if caps := a.cs.InitializeResult().Capabilities; caps == nil || caps.Tools == nil {
		return fmt.Errorf("%w: it declares no tools capability", ErrNoGiftTool)
	}
	seen := map[string]bool{}
	params := &mcp.ListToolsParams{}
	for {
		res, err := a.cs.ListTools(ctx, params)
		if err != nil {
			return fmt.Errorf("giftgenius: listing tools: %w", err)
		}
		for _, t := range res.Tools {
			if t.Name == ToolName {
				return nil
			}
		}
		if res.NextCursor == "" || seen[res.NextCursor] {
			return ErrNoGiftTool
		}
		seen[res.NextCursor] = true
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
}

// texts returns the text content items of res.
func texts(res *mcp.CallToolResult) []string {
	var out []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			out = append(out, t.Text)
		}
	}
	return out
}
