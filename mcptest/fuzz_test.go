package mcptest_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/mcptest"
	"go.uber.org/goleak"
)

// fuzzMaxInput caps what one FuzzSession input may write: far below the
// mock's 64 MiB frame limit (past which it discards a frame instead of
// journaling it), and small enough that an iteration stays fast.
const fuzzMaxInput = 256 << 10

// fuzzSessionTimeout is how long the mock may take to read an input to
// its end; past it the session is taken to hang. It is generous because
// -race and parallel fuzz workers slow everything down.
const fuzzSessionTimeout = 10 * time.Second

const (
	fuzzMeta     = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"io.modelcontextprotocol/clientInfo":{"name":"fuzz","version":"1"}}`
	fuzzInit     = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{},"roots":{"listChanged":true}},"clientInfo":{"name":"fuzz","version":"1"}}}`
	fuzzInited   = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	fuzzCallEcho = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"x":1}}}`
)

// fuzzSessionSeeds are what a session's client might write: well-formed
// sessions of both eras and the ways clients get it wrong.
var fuzzSessionSeeds = []string{
	// a handshake-era session that uses everything
	fuzzInit + "\n" + fuzzInited + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"x":1}}}` + "\n" +
		`{"jsonrpc":"2.0","id":4,"method":"resources/list"}` + "\n" +
		`{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"fuzz://doc"}}` + "\n" +
		`{"jsonrpc":"2.0","id":6,"method":"resources/subscribe","params":{"uri":"fuzz://doc"}}` + "\n" +
		`{"jsonrpc":"2.0","id":7,"method":"prompts/list"}` + "\n" +
		`{"jsonrpc":"2.0","id":8,"method":"prompts/get","params":{"name":"greet","arguments":{"who":"fuzz"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":9,"method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","id":10,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"who","value":"f"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":11,"method":"logging/setLevel","params":{"level":"debug"}}` + "\n",
	// a handshake-era tool call that asks the client (elicitation/create
	// id 1), the client's answer, a cancel
	fuzzInit + "\n" + fuzzInited + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"confirm","arguments":{}}}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"ok":true}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"bored"}}` + "\n",
	// stateless: discover, then requests carrying _meta
	`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + fuzzMeta + `}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{` + fuzzMeta + `}}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{},` + fuzzMeta + `}}` + "\n" +
		`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"fuzz://doc",` + fuzzMeta + `}}` + "\n" +
		`{"jsonrpc":"2.0","id":5,"method":"prompts/get","params":{"name":"greet","arguments":{"who":"x"},` + fuzzMeta + `}}` + "\n" +
		`{"jsonrpc":"2.0","id":6,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` + fuzzMeta + `}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":6}}` + "\n",
	// stateless multi-round-trip: input_required, then retries (right, reused id, invented state)
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"confirm","arguments":{},` + fuzzMeta + `}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"confirm","arguments":{},"requestState":"mcptest-state-1","inputResponses":{"confirm":{"action":"accept","content":{"ok":true}}},` + fuzzMeta + `}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"confirm","arguments":{},"requestState":"mcptest-state-1","inputResponses":{}` + `,` + fuzzMeta + `}}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"confirm","requestState":"made-up","inputResponses":{"confirm":null},` + fuzzMeta + `}}` + "\n",
	// stateless with a wrong version, missing _meta, a removed method
	`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"ping","params":{` + fuzzMeta + `}}` + "\n",
	// garbage, and the replies' ways to be wrong
	"not json\n\x00\xff\xfe\n{\n}\n\"str\"\n42\nnull\n",
	`{"jsonrpc":"1.0","id":1,"method":"ping"}` + "\n" + `{"id":2,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":null,"method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","method":7}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":[1,2]}` + "\n" + `{"jsonrpc":"2.0"}` + "\n" +
		`{"jsonrpc":"2.0","id":99,"result":{}}` + "\n" + `{"jsonrpc":"2.0","id":98,"error":{"code":-1,"message":"x"},"result":{}}` + "\n" +
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}` + "\n",
	// batches
	`[` + fuzzInit + `,` + fuzzInited + `]` + "\n[]\n[1,2,3]\n" + `[{"jsonrpc":"2.0","id":5,"method":"ping"}]` + "\n",
	// huge and odd ids, a reused id
	fuzzInit + "\n" + fuzzInited + "\n" +
		`{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","id":-9223372036854775809,"method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","id":1e400,"method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","id":16777216,"method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","id":16777216,"method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","id":"` + strings.Repeat("i", 300) + `","method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","id":-0,"method":"ping"}` + "\n",
	// deep nesting
	strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n" +
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":` + strings.Repeat(`{"a":`, 2000) + "1" + strings.Repeat("}", 2000) + `}}` + "\n",
	// a partial frame at the end, and one longer than the read buffer
	fuzzInit + "\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"long":"` + strings.Repeat("x", 10000) + `"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"tools/ca`,
	// CRLF, blank and whitespace-only lines
	fuzzInit + "\r\n\r\n   \n\t\r\n" + fuzzInited + "\r\n" + fuzzCallEcho + "\r\r\n\n",
	// requests before the handshake, initialize twice, a cancelled initialize
	fuzzCallEcho + "\n" + fuzzInit + "\n" + `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}` + "\n" + fuzzInit + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{}}` + "\n",
	// unknown things, near misses and bad params
	fuzzInit + "\n" + fuzzInited + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ecko"}}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":null}}` + "\n" +
		`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":7}}` + "\n" +
		`{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"cursor":"bogus"}}` + "\n" +
		`{"jsonrpc":"2.0","id":6,"method":"prompts/get","params":{"name":"greet"}}` + "\n" +
		`{"jsonrpc":"2.0","id":7,"method":"x/unknown"}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/x"}` + "\n",
	"",
	"\n\n\n",
}

// FuzzSession feeds a whole session arbitrary client bytes: a server with a
// tool, a resource and a prompt reads them to the end, and then the mock
// must not have panicked (it recovers per frame and fails the test), must
// have ended the session (no hang), must have journaled every frame — one
// client message per non-blank line, byte for byte — and must close
// without leaving a goroutine behind. Violations are the client's and
// expected here: they never fail the test.
func FuzzSession(f *testing.F) {
	for _, s := range fuzzSessionSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > fuzzMaxInput {
			data = data[:fuzzMaxInput]
		}
		ignore := goleak.IgnoreCurrent()
		srv := mcptest.NewServer(t).IgnoreViolations().
			WithTool(mcptest.NewTool("echo").WithInputSchema(`{"type":"object"}`).ReturnsText("echo"),
				mcptest.NewTool("confirm").
					RequiresInput(mcptest.ElicitInput("confirm", "Sure?", `{"type":"object","properties":{"ok":{"type":"boolean"}}}`)).
					HandledBy(func(_ context.Context, req *mcptest.Request) mcptest.Reply {
						return mcptest.TextResult(req.InputResponse("confirm").Get("action").String())
					})).
			WithResource(mcptest.NewResource("fuzz://doc", "Doc").WithMIMEType("text/plain").ReturnsText("doc")).
			WithPrompt(mcptest.NewPrompt("greet").WithArgument("who", "whom to greet", true).ReturnsText("hello")).
			WithPromptCompletion("greet", "who", "fuzz", "world").
			WithLogging()

		conn := srv.Dial()
		if n, err := conn.Write(data); err != nil || n != len(data) {
			t.Fatalf("Write: want %d bytes written, got %d, %v", len(data), n, err)
		}
		_ = conn.Close() // EOF once the mock has read everything written
		select {
		case <-srv.Session(1).Done():
		case <-time.After(fuzzSessionTimeout):
			t.Fatalf("the session did not end within %v of the client's EOF: the mock hangs on %q", fuzzSessionTimeout, fuzzClip(data))
		}

		// Every frame is journaled, in order, exactly as the client wrote it.
		var want []string
		for _, line := range bytes.Split(data, []byte("\n")) {
			if len(bytes.TrimSpace(line)) > 0 {
				want = append(want, string(bytes.TrimRight(line, "\r")))
			}
		}
		got := srv.Journal().Filter(func(m mcptest.Message) bool { return m.Direction == mcptest.FromClient })
		if len(got) != len(want) {
			t.Fatalf("want %d client frames journaled (one per non-blank line), got %d:\n%s", len(want), len(got), srv.Transcript())
		}
		for i, m := range got {
			if m.Raw() != want[i] {
				t.Fatalf("client frame %d: want %q journaled, got %q", i+1, fuzzClip([]byte(want[i])), fuzzClip([]byte(m.Raw())))
			}
			if m.Session != 1 {
				t.Fatalf("client frame %d: want session 1, got %d", i+1, m.Session)
			}
		}

		closed := make(chan struct{})
		go func() { srv.Close(); close(closed) }()
		select {
		case <-closed:
		case <-time.After(fuzzSessionTimeout):
			t.Fatalf("Close did not return within %v", fuzzSessionTimeout)
		}
		goleak.VerifyNone(t, ignore)
	})
}

func fuzzClip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}
