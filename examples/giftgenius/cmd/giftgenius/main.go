// Command giftgenius runs the GiftGen app against an in-process mcptest
// server and prints gift ideas for a 25-year-old:
//
//	go run ./examples/giftgenius/cmd/giftgenius
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/mcpmock/mcpmock/examples/giftgenius"
	"github.com/mcpmock/mcpmock/mcptest"
)

// stderrTB lets an mcptest.Server run outside a test: it reports to stderr.
type stderrTB struct {
	cleanups []func()
	failed   bool
}

func (t *stderrTB) Helper()          {}
func (t *stderrTB) Cleanup(f func()) { t.cleanups = append(t.cleanups, f) }
func (t *stderrTB) Errorf(format string, args ...any) {
	t.failed = true
	fmt.Fprintf(os.Stderr, format+"\n", args...)
}
func (t *stderrTB) Fatalf(format string, args ...any) {
	t.Errorf(format, args...)
	t.finish()
	os.Exit(1)
}
func (t *stderrTB) Logf(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
func (t *stderrTB) Failed() bool                    { return t.failed }

// finish runs the cleanups (closing the server, checking the client), last first.
func (t *stderrTB) finish() {
	cleanups := t.cleanups
	t.cleanups = nil
	for i := len(cleanups) - 1; i >= 0; i-- {
		cleanups[i]()
	}
}

func main() {
	t := &stderrTB{}
	err := run(t)
	t.finish()
	if err != nil {
		fmt.Fprintln(os.Stderr, "giftgenius:", err)
		os.Exit(1)
	}
	if t.Failed() {
		os.Exit(1)
	}
}

func run(t *stderrTB) error {
	srv := mcptest.NewServer(t).
		WithServerInfo("gift-genius-backend", "0.2.0").
		WithTools(mcptest.NewTool("suggest_gifts").
			WithDescription("Suggests gift ideas for a recipient").
			WithInputSchema(`{"type":"object","properties":{"age":{"type":"integer"},"budget":{"type":"number"}},"required":["age"]}`).
			WhenArgs(`{"age":25}`, mcptest.TextResult("a board game\nconcert tickets\na pour-over coffee set")).
			ReturnsText("a kite"))

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	app, err := giftgenius.Connect(ctx, srv.Dial())
	if err != nil {
		return err
	}
	defer app.Close()
	ideas, err := app.Suggest(ctx, 25, 50)
	if err != nil {
		return err
	}
	fmt.Printf("Connected to gift-genius-backend (MCP %s).\n", app.ProtocolVersion())
	fmt.Println("Gift ideas for a 25-year-old, budget 50:")
	for _, idea := range ideas {
		fmt.Println("  -", idea)
	}
	return nil
}
