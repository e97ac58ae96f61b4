package main

import (
	"context"
	"time"

	"github.com/mcpmock/mcpmock/internal/mcpclient"
)

// The reference client is mcpmock's client for `mcpmock tour` without a
// client program of your own (and, in the tests, the client program of
// `mcpmock run`): the kit's client (internal/mcpclient) as a stdio client
// of the handshake era that declares no capability, doing what the
// scenarios call correct. It initializes in 2025-11-25, refuses a version
// it does not speak, reads the capabilities before it calls, lists every
// page of the tools (stopping at a cursor it has seen), lists again after
// notifications/tools/list_changed or a -32602, calls suggest_gifts
// {"age":25}, skips lines that are not JSON, matches reply ids exactly,
// and gives up on a call (cancelling it) before its deadline. It asks for
// no progress (a known deviation: opencode-21701 fails it).

// refOptions are the reference client's options; say is told what it did.
func refOptions(say func(string, ...any)) mcpclient.Options {
	return mcpclient.Options{Version: "2025-11-25", Name: "mcpmock-reference-client", Capabilities: "{}", Say: say,
		Bugs: mcpclient.Bugs{NoProgress: true}}
}

// refWork is the reference client's session: connect, list the tools,
// call suggest_gifts, done.
func refWork(ctx context.Context, c *mcpclient.Client) error {
	if err := c.Connect(ctx); err != nil {
		return err
	}
	return c.Work(ctx, mcpclient.Task{Tool: "suggest_gifts", Args: map[string]string{"suggest_gifts": `{"age":25}`}})
}

// callDeadline is how long the reference client waits for its session:
// 70% of the scenario's deadline, leaving room to cancel.
func callDeadline(d time.Duration) time.Duration { return d * 7 / 10 }
