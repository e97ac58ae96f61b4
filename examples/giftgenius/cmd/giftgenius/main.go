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

func main() {
	// ProgramTB is mcptest's TB for programs: the server's verdict and logs
	// go to stderr (stdout is the app's), and Run returns the verdict.
	p := mcptest.NewProgramTB("giftgenius", os.Stderr)
	if err := p.Run(run); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(t mcptest.TB) {
	srv := mcptest.NewServer(t).
		WithOptions(mcptest.Options{Name: "gift-genius-backend", Version: "0.2.0"}).
		WithTools(mcptest.NewTool("suggest_gifts").
			WithDescription("Suggests gift ideas for a recipient").
			WithInputSchema(`{"type":"object","properties":{"age":{"type":"integer"},"budget":{"type":"number"}},"required":["age"]}`).
			WhenArgs(`{"age":25}`, mcptest.TextResult("a board game\nconcert tickets\na pour-over coffee set")).
			ReturnsText("a kite"))

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	app, err := giftgenius.Connect(ctx, srv.Dial())
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer app.Close()
	ideas, err := app.Suggest(ctx, 25, 50)
	if err != nil {
		t.Fatalf("suggest: %v", err)
	}
	fmt.Printf("Connected to gift-genius-backend (MCP %s).\n", app.ProtocolVersion())
	fmt.Println("Gift ideas for a 25-year-old, budget 50:")
	for _, idea := range ideas {
		fmt.Println("  -", idea)
	}
}
