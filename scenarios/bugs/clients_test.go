package bugs_test

import (
	"context"
	"io"
	"net"

	"github.com/mcpmock/mcpmock/internal/mcpclient"
	"github.com/mcpmock/mcpmock/scenarios"
)

// The clients of the bug catalog's proofs are the kit's client
// (internal/mcpclient), of the handshake era unless a proof says: it
// initializes, lists the tools (every page), calls one and closes (over
// Streamable HTTP it also opens the standalone SSE stream and ends its
// session with DELETE). Its zero Bugs do what a fixed client does for
// every bug of the catalog; each knob turns on one behaviour a report
// describes, so that a proof plays the buggy client and the fixed one and
// nothing else differs.

// knobs are the kit's client bugs.
type knobs = mcpclient.Bugs

// raw is a stdio client of a proof.
type raw struct {
	bugs    knobs
	version string // the protocol version it asks for ("": 2025-11-25; mcpclient.StatelessVersion speaks the stateless era)
	call    string // the tool to call: "" the first listed; one not listed is waited for (a list_changed may bring it)
}

// args are the arguments the proofs' clients call a tool with.
var args = map[string]string{"suggest_gifts": `{"age":30}`}

// connect returns the ConnectFunc of the raw client c.
func (c raw) connect() scenarios.ConnectFunc { return scenarios.OneSession(c.run) }

// run is the raw client's work on one connection.
func (c raw) run(ctx context.Context, conn net.Conn) error {
	opt := mcpclient.Options{Version: c.version, Bugs: c.bugs}
	if opt.Version == "" {
		opt.Version = "2025-11-25"
	}
	dial := mcpclient.Dialer{Open: func() (io.ReadWriteCloser, error) { return conn, nil }}
	return mcpclient.Run(ctx, dial, opt, func(ctx context.Context, cl *mcpclient.Client) error {
		return cl.Work(ctx, mcpclient.Task{Tool: c.call, AwaitTool: c.call != "", Args: args})
	})
}

// rawHTTP is a Streamable HTTP client of a proof: on 404 it starts a new
// session; awaitChange, after its call, waits for the list_changed the
// server said would come; with oauth it authorizes with the kit's OAuth
// client, with those bugs.
type rawHTTP struct {
	bugs        knobs
	awaitChange bool
	oauth       *mcpclient.OAuthBugs
}

func (c rawHTTP) connect() scenarios.ConnectFunc {
	return func(ctx context.Context, ep *scenarios.Endpoint) error {
		opt := mcpclient.Options{Version: "2025-11-25", Bugs: c.bugs}
		if c.oauth != nil {
			opt.Auth = &mcpclient.OAuth{MCPURL: ep.URL(), Version: opt.Version, ClientName: "bugs-raw", CIMDURL: scenarios.CIMDClientID, Bugs: *c.oauth}
			defer opt.Auth.CloseIdleConnections()
		}
		return mcpclient.Run(ctx, mcpclient.Dialer{URL: ep.URL()}, opt, func(ctx context.Context, cl *mcpclient.Client) error {
			return cl.Work(ctx, mcpclient.Task{Tool: "suggest_gifts", Args: args, AwaitChange: c.awaitChange})
		})
	}
}

func init() {
	for id, p := range map[string]proof{
		"python-sdk-3556":     {rawHTTP{bugs: knobs{GiveUpOn404: true}}.connect(), rawHTTP{}.connect()},
		"python-sdk-1676":     {rawHTTP{bugs: knobs{GiveUpOn404: true}}.connect(), rawHTTP{}.connect()},
		"typescript-sdk-1708": {rawHTTP{bugs: knobs{GiveUpOn404: true}}.connect(), rawHTTP{}.connect()}, // also the real 1.32.2 and 2.0.0: .ci/run
		"rust-sdk-733":        {rawHTTP{bugs: knobs{GiveUpOn404: true}}.connect(), rawHTTP{}.connect()},
		"mcp-proxy-149":       {rawHTTP{bugs: knobs{GiveUpOn404: true}}.connect(), rawHTTP{}.connect()},
		"php-sdk-327":         {rawHTTP{bugs: knobs{NoResume: true}}.connect(), rawHTTP{}.connect()},
		"python-sdk-1672":     {rawHTTP{bugs: knobs{NoResume: true}}.connect(), rawHTTP{}.connect()}, // also the real mcp 1.9.1 and 1.30.0: .ci/python_clients.sh
		"python-sdk-1577":     {rawHTTP{bugs: knobs{HangOnCut: true}}.connect(), rawHTTP{}.connect()},
		"claude-code-79826":   {rawHTTP{bugs: knobs{IgnoreListChanged: true}, awaitChange: true}.connect(), rawHTTP{awaitChange: true}.connect()},
		"java-sdk-324":        {rawHTTP{bugs: knobs{HangOnStatus: true}}.connect(), rawHTTP{}.connect()},
		"csharp-sdk-495":      {rawHTTP{bugs: knobs{NoVersionHeader: true}}.connect(), rawHTTP{}.connect()},
		"go-sdk-265":          {rawHTTP{bugs: knobs{HangOn404: true}}.connect(), rawHTTP{}.connect()},
		"typescript-sdk-2831": {rawHTTP{oauth: &mcpclient.OAuthBugs{IgnoreNoPKCE: true}}.connect(), rawHTTP{oauth: &mcpclient.OAuthBugs{}}.connect()}, // also the real 1.32.2: .ci/run
		"typescript-sdk-2344": {rawHTTP{oauth: &mcpclient.OAuthBugs{IgnoreIssuer: true}}.connect(), rawHTTP{oauth: &mcpclient.OAuthBugs{}}.connect()}, // also the real 1.32.2 and 2.0.0: .ci/run
	} {
		httpProofs[id] = p
	}
}
