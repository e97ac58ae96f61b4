package mcptest_test

import (
	"bytes"
	"context"
	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/tidwall/gjson"
	"strconv"
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
	// batches in a version that has them: requests, notifications, an
	// answer, a cancel, garbage inside, initialize inside, nested, empty
	strings.Replace(fuzzInit, "2025-11-25", "2025-03-26", 1) + "\n" + fuzzInited + "\n" +
		`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"confirm","arguments":{}}},{"jsonrpc":"2.0","method":"notifications/roots/list_changed"},42,[]]` + "\n" +
		`[{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"ok":true}}},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}]` + "\n" +
		`[` + fuzzInit + `,{"jsonrpc":"2.0","id":4,"method":"tools/list"}]` + "\n[]\n[[]]\n",
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
		srv := fuzzServer(t)
		fuzzRun(t, srv, data, ignore)
	})
}

// fuzzServer is the server both session fuzz targets talk to: a tool, one
// that asks the client, a resource, a prompt, completions and logging.
// Violations are the client's and expected: they never fail the test.
func fuzzServer(t *testing.T) *mcptest.Server {
	return mcptest.NewServer(t).IgnoreViolations().
		WithTools(mcptest.NewTool("echo").WithInputSchema(`{"type":"object"}`).ReturnsText("echo"),
			mcptest.NewTool("confirm").
				RequiresInput(mcptest.ElicitInput("confirm", "Sure?", `{"type":"object","properties":{"ok":{"type":"boolean"}}}`)).
				HandledBy(func(_ context.Context, req *mcptest.Request) mcptest.Reply {
					return mcptest.TextResult(req.InputResponse("confirm").Get("action").String())
				})).
		WithResources(mcptest.NewResource("fuzz://doc", "Doc").WithMIMEType("text/plain").ReturnsText("doc")).
		WithPrompts(mcptest.NewPrompt("greet").WithArgument("who", "whom to greet", true).ReturnsText("hello")).
		WithPromptCompletion("greet", "who", "fuzz", "world").
		WithOptions(mcptest.Options{Logging: true})
}

// fuzzRun writes data as the client of a new session of srv, closes the
// client's end, and checks what both session fuzz targets promise: the
// session ends (no hang), every frame is journaled byte for byte, and
// Close returns leaving no goroutine behind. A panic of the mock fails the
// test through the recover in its read loop.
func fuzzRun(t *testing.T, srv *mcptest.Server, data []byte, ignore goleak.Option) {
	t.Helper()
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
	// (the messages of a batch are journaled after it, each on its own)
	got := srv.Journal().All().Filter(func(m mcptest.Message) bool { return m.Direction == mcptest.FromClient && m.Batch == 0 })
	if len(got) != len(want) {
		t.Fatalf("want %d client frames journaled (one per non-blank line), got %d:\n%s", len(want), len(got), srv.Transcript())
	}
	for i, m := range got {
		if m.Raw() != want[i] {
			t.Fatalf("client frame %d: want %q journaled, got %q", i+1, fuzzClip([]byte(want[i])), fuzzClip([]byte(m.Raw())))
		}
		if m.SessionNumber != 1 {
			t.Fatalf("client frame %d: want session 1, got %d", i+1, m.SessionNumber)
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
}

func fuzzClip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

// fuzzFramesMax caps the bytes one FuzzFrames input may generate: enough
// for a frame nested millions of levels deep, far below the frame limit.
const fuzzFramesMax = 8 << 20

// frameGen turns fuzz bytes into frames a client could write: JSON-RPC
// messages of the methods the mock serves with values of every JSON type,
// and the inputs that break parsers — nesting far deeper than the mock's
// limit, numbers of thousands of digits, long strings with every escape,
// bytes that are not UTF-8, batches (nested, empty, mixed), cut frames.
// Every choice reads the next input byte (zero once they run out), so the
// fuzzer's mutations map onto the structure of what is sent.
type frameGen struct {
	in  []byte
	out []byte
}

func (g *frameGen) next() byte {
	if len(g.in) == 0 {
		return 0
	}
	b := g.in[0]
	g.in = g.in[1:]
	return b
}

// size reads a length: mostly small, sometimes huge (up to 1<<23).
func (g *frameGen) size() int {
	b := int(g.next())
	switch {
	case b < 200:
		return b % 16
	case b < 250:
		return int(g.next())<<4 | b&15
	default:
		return (int(g.next())<<8 | int(g.next())) << 7
	}
}

// full reports whether the output reached its cap: every loop stops
// there, so that one input costs a bounded time.
func (g *frameGen) full() bool { return len(g.out) >= fuzzFramesMax }

var fuzzMethods = []string{
	"initialize", "notifications/initialized", "ping", "tools/list", "tools/call", "resources/list",
	"resources/read", "resources/templates/list", "resources/subscribe", "prompts/list", "prompts/get",
	"completion/complete", "logging/setLevel", "server/discover", "subscriptions/listen",
	"notifications/cancelled", "notifications/roots/list_changed", "x/unknown", "", "tools/call\u0000",
}

// frame appends one frame, without its newline.
func (g *frameGen) frame(depth int) {
	switch op := g.next() % 8; {
	case op < 3: // a request, a notification or a response
		g.message(op, depth)
	case op == 3 && depth < 3: // a batch
		g.out = append(g.out, '[')
		for i := range g.size() {
			if i > 0 {
				g.out = append(g.out, ',')
			}
			g.frame(depth + 1)
			if g.full() {
				break
			}
		}
		g.out = append(g.out, ']')
	case op == 4: // nesting around a message, around the limit or far past it
		levels := []int{999, 1000, 1001, 5000}[g.next()%4]
		if g.next()%2 == 0 {
			levels = g.size()
		}
		open, shut := "[", "]"
		if g.next()%2 == 0 {
			open, shut = `{"params":`, "}"
		}
		if g.next()%4 == 0 { // or leave it unclosed
			shut = ""
		}
		levels = max(0, min(levels, (fuzzFramesMax-len(g.out))/(len(open)+len(shut))))
		g.out = append(g.out, strings.Repeat(open, levels)...)
		g.message(g.next()%3, depth+1)
		g.out = append(g.out, strings.Repeat(shut, levels)...)
	case op == 5: // bytes as they come
		for range g.size() {
			if g.full() {
				break
			}
			if b := g.next(); b != '\n' {
				g.out = append(g.out, b)
			}
		}
	default: // a message cut short
		start := len(g.out)
		g.message(g.next()%3, depth)
		if n := len(g.out) - start; n > 0 {
			g.out = g.out[:start+int(g.next())%n]
		}
	}
}

// message appends a request (kind 0), notification (1) or response (2).
func (g *frameGen) message(kind byte, depth int) {
	g.out = append(g.out, `{"jsonrpc":"2.0"`...)
	if kind != 1 {
		g.out = append(g.out, `,"id":`...)
		g.id()
	}
	if kind == 2 {
		if g.next()%2 == 0 {
			g.out = append(g.out, `,"result":`...)
			g.value(depth + 1)
		} else {
			g.out = append(g.out, `,"error":{"code":`...)
			g.number()
			g.out = append(g.out, `,"message":`...)
			g.str()
			g.out = append(g.out, '}')
		}
	} else {
		g.out = append(g.out, `,"method":`...)
		g.out = gjson.AppendJSONString(g.out, fuzzMethods[int(g.next())%len(fuzzMethods)])
		if b := g.next(); b%4 != 0 {
			g.out = append(g.out, `,"params":`...)
			g.params(b, depth+1)
		}
	}
	g.out = append(g.out, '}')
}

// params appends params with the members the mock reads, each right or
// of any type.
func (g *frameGen) params(mask byte, depth int) {
	if mask%8 == 1 {
		g.value(depth)
		return
	}
	members := []struct{ key, right string }{
		{"name", `"echo"`}, {"arguments", `{"x":1}`}, {"uri", `"fuzz://doc"`}, {"requestId", `2`},
		{"protocolVersion", `"2025-11-25"`}, {"_meta", strings.TrimPrefix(fuzzMeta, `"_meta":`)},
		{"cursor", `""`}, {"level", `"debug"`}, {"capabilities", `{}`}, {"clientInfo", `{"name":"f","version":"1"}`},
		{"ref", `{"type":"ref/prompt","name":"greet"}`}, {"argument", `{"name":"who","value":"f"}`},
		{"inputResponses", `{"confirm":{"action":"accept","content":{"ok":true}}}`}, {"requestState", `"mcptest-state-1"`},
		{"progressToken", `"p"`}, {"notifications", `{"toolsListChanged":true}`},
	}
	g.out = append(g.out, '{')
	n := 0
	for _, m := range members {
		b := g.next()
		if b%3 == 0 || g.full() {
			continue
		}
		if n > 0 {
			g.out = append(g.out, ',')
		}
		n++
		g.out = gjson.AppendJSONString(g.out, m.key)
		g.out = append(g.out, ':')
		if b%3 == 1 {
			g.out = append(g.out, m.right...)
		} else {
			g.value(depth)
		}
	}
	g.out = append(g.out, '}')
}

func (g *frameGen) id() {
	switch g.next() % 6 {
	case 0:
		g.out = strconv.AppendInt(g.out, int64(g.next()), 10)
	case 1:
		g.str()
	case 2:
		g.number()
	case 3:
		g.out = append(g.out, "null"...)
	default:
		g.value(2)
	}
}

// value appends any JSON value; depth bounds the generator's own recursion.
func (g *frameGen) value(depth int) {
	if g.full() {
		g.out = append(g.out, '0')
		return
	}
	switch g.next() % 8 {
	case 0:
		g.number()
	case 1, 2:
		g.str()
	case 3:
		g.out = append(g.out, []string{"true", "false", "null"}[g.next()%3]...)
	case 4:
		if depth > 6 {
			g.out = append(g.out, "{}"...)
			return
		}
		g.out = append(g.out, '{')
		for i := range g.size() {
			if g.full() {
				break
			}
			if i > 0 {
				g.out = append(g.out, ',')
			}
			g.str()
			g.out = append(g.out, ':')
			g.value(depth + 1)
		}
		g.out = append(g.out, '}')
	case 5:
		if depth > 6 {
			g.out = append(g.out, "[]"...)
			return
		}
		g.out = append(g.out, '[')
		for i := range g.size() {
			if g.full() {
				break
			}
			if i > 0 {
				g.out = append(g.out, ',')
			}
			g.value(depth + 1)
		}
		g.out = append(g.out, ']')
	case 6: // nesting without recursion
		n := max(0, min(g.size(), (fuzzFramesMax-len(g.out))/2))
		g.out = append(g.out, strings.Repeat("[", n)...)
		g.out = append(g.out, strings.Repeat("]", n)...)
	default:
		g.message(g.next()%3, depth+1)
	}
}

// number appends a number: small, negative zero, fractions, exponents far
// out of float64's range, or thousands of digits.
func (g *frameGen) number() {
	switch g.next() % 6 {
	case 0:
		g.out = strconv.AppendInt(g.out, int64(int8(g.next())), 10)
	case 1:
		g.out = append(g.out, []string{"-0", "0.5", "1e400", "-1E-400", "9007199254740993", "1.0", "-9223372036854775809"}[g.next()%7]...)
	case 2:
		n := max(1, min(g.size(), fuzzFramesMax-len(g.out)))
		g.out = append(g.out, '1')
		g.out = append(g.out, strings.Repeat("9", n)...)
	case 3:
		g.out = append(g.out, "1e"...)
		g.out = strconv.AppendInt(g.out, int64(g.next())<<24|int64(g.next()), 10)
	default:
		g.out = strconv.AppendInt(g.out, int64(g.next())<<8|int64(g.next()), 10)
	}
}

// str appends a string: plain, long, with escapes, lone surrogates, NULs,
// or bytes that are not UTF-8.
func (g *frameGen) str() {
	g.out = append(g.out, '"')
	pieces := []string{`a`, `\"`, `\\`, `\n`, `\u0000`, `\ud800`, `\udfff\ud800`, "\xff\xfe", "é", `\u00e9`, `\/`, "\t", `[`, `{`}
	for range g.size() {
		if g.full() {
			break
		}
		p := pieces[int(g.next())%len(pieces)]
		if g.next() >= 250 { // a long run of it
			g.out = append(g.out, strings.Repeat(p, max(0, min(g.size()+1, (fuzzFramesMax-len(g.out))/len(p)+1)))...)
			continue
		}
		g.out = append(g.out, p...)
	}
	g.out = append(g.out, '"')
}

// fuzzFrameSeeds steer the generator to each kind of frame at least once.
var fuzzFrameSeeds = [][]byte{
	{0, 0, 1, 1, 4, 1},                   // a request
	{4, 1, 1, 0},                         // nested 1000 levels around a request
	{4, 2, 1, 1, 0},                      // 1001 levels: past the limit
	{4, 0, 0, 255, 255, 255, 1, 0, 0, 1}, // millions of levels of [, as in issue 10
	{3, 3, 0, 0, 1, 1, 0, 1, 0, 0},       // a batch
	{0, 2, 5, 8, 2, 2, 255, 255, 255},    // a long string id
	{0, 2, 2, 0, 1, 4, 0, 0},             // a huge number id
	{5, 200, 7, '{', '"', 'a', '"', ':'}, // raw bytes
	{7, 0, 0, 1, 1, 4, 60},               // a cut request
}

// FuzzFrames is the structure-aware twin of FuzzSession: it generates the
// client's frames from the fuzz bytes (frameGen), so that deep nesting,
// huge numbers, long strings and batches are reached at once rather than
// by chance. Beyond FuzzSession's checks, every frame nested past the
// mock's limit must be answered -32600 with a message naming the limit.
func FuzzFrames(f *testing.F) {
	for _, s := range fuzzFrameSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		g := &frameGen{in: in}
		for len(g.in) > 0 && !g.full() {
			g.frame(0)
			g.out = append(g.out, '\n')
		}
		ignore := goleak.IgnoreCurrent()
		srv := fuzzServer(t)
		fuzzRun(t, srv, g.out, ignore)
		deep := srv.Journal().All().Filter(func(m mcptest.Message) bool {
			return m.Direction == mcptest.FromClient && strings.Contains(m.Problem, "levels")
		})
		answered := srv.Journal().All().Filter(func(m mcptest.Message) bool {
			// by what the mock wrote: the client closed its end, so the
			// journal may say the answer was never delivered
			return m.Direction == mcptest.FromServer && m.Get("error.code").Int() == spec.CodeInvalidRequest &&
				strings.Contains(m.Get("error.message").String(), "deeper than 1000 levels")
		})
		if len(deep) != len(answered) {
			t.Fatalf("want each of the %d frames nested too deep answered -32600 naming the limit, got %d such answers", len(deep), len(answered))
		}
	})
}
