package scenarios_test

import (
	"context"
	"io"
	"time"

	"github.com/mcpmock/mcpmock/internal/mcpclient"
	"github.com/mcpmock/mcpmock/scenarios"
)

// The scenario clients are the kit's client (internal/mcpclient): by
// default it does what a correct client does in every scenario of the
// catalog (it probes with server/discover and goes stateless or falls back
// to the handshake, checks what the server answered, lists only what was
// declared, pages with loop detection, answers elicitations in both eras,
// cancels a call its deadline ends, and lists the tools again when told
// they changed or when a call is rejected for its arguments); each knob of
// its Bugs turns on exactly one bug, the one a scenario catches.

// bugs are the kit's client bugs, one a scenario.
type bugs = mcpclient.Bugs

// kind is a scenario client: the kit's client with bugs, and how the app
// uses its sessions; the zero kind is a correct client of both eras on
// stdio.
type kind struct {
	bugs          bugs
	handshakeOnly bool // never probes: initialize first (a client of the handshake era only)
	reconnect     bool // after a session that went well, connects once more and works again
	cacheCaps     bool // when it reconnects, keeps the first session's capabilities (Bugs.StaleCapabilities): a bug
}

// probeTimeout is how long a scenario client waits for server/discover.
const probeTimeout = 300 * time.Millisecond

// toolArgs are the arguments the scenario clients call a tool with.
var toolArgs = map[string]string{"suggest_gifts": `{"age":25}`, "get_forecast": `{"city":"Paris"}`}

// connectWith returns the ConnectFunc of a client with the given bugs.
func connectWith(b bugs) scenarios.ConnectFunc { return connectAs(kind{bugs: b}) }

// connectAs returns the ConnectFunc of a client of kind k, over one
// session (two with reconnect).
func connectAs(k kind) scenarios.ConnectFunc {
	return func(ctx context.Context, ep *scenarios.Endpoint) error {
		opt := mcpclient.Options{ProbeTimeout: probeTimeout, Bugs: k.bugs}
		if k.handshakeOnly {
			opt.Version = "2025-11-25"
		}
		task := mcpclient.Task{AllLists: true, Args: toolArgs}
		if k.bugs.CallDespiteListError {
			task.Tool = "suggest_gifts" // the tool it knows, listed or not
		}
		dial := mcpclient.Dialer{Open: func() (io.ReadWriteCloser, error) { return ep.Open() }}
		for n := 1; ; n++ {
			var caps string
			err := mcpclient.Run(ctx, dial, opt, func(ctx context.Context, c *mcpclient.Client) error {
				caps = c.Capabilities().Raw
				return c.Work(ctx, task)
			})
			if err != nil || !k.reconnect || n == 2 {
				return err
			}
			if k.cacheCaps {
				opt.Bugs.StaleCapabilities = caps
			}
		}
	}
}

// correct is the ConnectFunc of a correct client.
var correct = connectWith(bugs{})

// connectHTTP returns the ConnectFunc of a client of the handshake era on
// Streamable HTTP with the given bugs: it initializes, lists the tools,
// calls the first one and ends its session with DELETE; on 404 it starts a
// new session, and a 400, 404 or 405 to its first POST makes it fall back
// to the HTTP+SSE transport of 2024-11-05.
func connectHTTP(b bugs) scenarios.ConnectFunc {
	return func(ctx context.Context, ep *scenarios.Endpoint) error {
		opt := mcpclient.Options{Version: "2025-11-25", Bugs: b}
		return mcpclient.Run(ctx, mcpclient.Dialer{URL: ep.URL()}, opt, func(ctx context.Context, c *mcpclient.Client) error {
			return c.Work(ctx, mcpclient.Task{Args: toolArgs})
		})
	}
}

// correctHTTP is the ConnectFunc of a correct HTTP client.
var correctHTTP = connectHTTP(bugs{})

// connectStatelessHTTP returns the ConnectFunc of a client of both eras on
// Streamable HTTP with the given bugs: it probes with server/discover and
// goes stateless, lists the tools and calls suggest_gifts.
func connectStatelessHTTP(b bugs) scenarios.ConnectFunc {
	return func(ctx context.Context, ep *scenarios.Endpoint) error {
		opt := mcpclient.Options{ProbeTimeout: probeTimeout, Bugs: b}
		return mcpclient.Run(ctx, mcpclient.Dialer{URL: ep.URL()}, opt, func(ctx context.Context, c *mcpclient.Client) error {
			return c.Work(ctx, mcpclient.Task{Args: toolArgs})
		})
	}
}
