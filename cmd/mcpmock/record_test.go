package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/config"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// recordCalls are what the test client asks, after the handshake.
var recordCalls = []string{
	`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
	`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_forecast","arguments":{"city":"Paris"}}}`,
	`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_forecast","arguments":{"city":"Paris"},"_meta":{"progressToken":"p-1"}}}`,
	`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_forecast","arguments":{"city":"Atlantis"}}}`,
	`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"login","arguments":{}}}`,
	`{"jsonrpc":"2.0","id":7,"method":"resources/list"}`,
	`{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":"weather://stations"}}`,
	`{"jsonrpc":"2.0","id":9,"method":"prompts/list"}`,
	`{"jsonrpc":"2.0","id":10,"method":"prompts/get","params":{"name":"brief","arguments":{"city":"Oslo"}}}`,
}

// playStdio does the handshake and the calls and returns the responses
// without their ids.
func playStdio(t *testing.T, p *proc) []string {
	t.Helper()
	out := []string{withoutID(p.handshake())}
	for _, c := range recordCalls {
		p.send(c)
		out = append(out, withoutID(p.recv()))
	}
	return out
}

func withoutID(m gjson.Result) string {
	if r := m.Get("result"); r.Exists() {
		return r.Raw
	}
	return "error " + m.Get("error").Raw
}

func TestRecordStdioThenReplay(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "rec.json")
	p := start(t, "record", "--out", out, "--redact", "structuredContent.token", "--",
		bin, "serve", "--config", "testdata/record-server.json")
	want := playStdio(t, p)
	require.Equal(t, 0, p.exit(), "the real server's status; stderr:\n%s", p.stderr)
	stderr := p.stderr.String()
	assert.Contains(t, stderr, "mcpmock record: wrote "+out+": 2 tools, 1 resources, 0 resource templates, 1 prompts, 0 completions, 0 faults")
	assert.Contains(t, stderr, "mcpmock record: redacted: tools/call login: result.structuredContent.token")

	b, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.NotContains(t, string(b), "tok-123456", "a redacted value is never written")
	cfg, err := config.Parse("rec.json", b)
	require.NoError(t, err, "%s", b)
	assert.Equal(t, "Ask about the weather.", cfg.Server.Instructions)
	assert.Equal(t, []string{"2025-11-25"}, cfg.ProtocolVersions)

	r := start(t, "serve", "--config", out)
	got := playStdio(t, r)
	require.Equal(t, 0, r.exit(), "stderr:\n%s", r.stderr)
	require.Len(t, got, len(want))
	for i := range want {
		assert.Equal(t, strings.ReplaceAll(want[i], "tok-123456", config.Redacted), got[i], "response %d", i)
	}

	// A call the recording has no answer for: the near-miss, not a default.
	r = start(t, "serve", "--config", out)
	r.handshake()
	r.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_forecast","arguments":{"city":"Rome"}}}`)
	assert.True(t, r.recv().Get("error").Exists())
	r.exit()
	assert.Contains(t, r.stderr.String(), `closest is case 1, WhenArgs({"city":"Paris"}): at "city": want "Paris", got "Rome"`)
}

// A server that prints a banner, answers initialize, then dies in the
// middle of its next reply with status 3.
const brokenServer = `echo "Weather server v2 starting..."
read line
echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"broken","version":"0.1"}}}'
read line
read line
printf '{"jsonrpc":"2.0","id":2,"resu'
exit 3`

func TestRecordMisbehavingServer(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "rec.json")
	p := start(t, "record", "--out", out, "--", "sh", "-c", brokenServer)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`)
	select {
	case line := <-p.lines:
		assert.Equal(t, "Weather server v2 starting...", line, "relayed as the server wrote it")
	case <-time.After(20 * time.Second):
		t.Fatalf("no banner; stderr:\n%s", p.stderr)
	}
	assert.Equal(t, "broken", p.recv().Get("result.serverInfo.name").String())
	p.send(initialized)
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	var rest []string
	for l := range p.lines {
		rest = append(rest, l)
	}
	assert.Equal(t, []string{`{"jsonrpc":"2.0","id":2,"resu`}, rest, "what the server wrote, relayed")
	assert.Equal(t, 3, p.wait(), "the proxy exits with the real server's status; stderr:\n%s", p.stderr)
	stderr := p.stderr.String()
	assert.Contains(t, stderr, "recorded as a Banner fault")
	assert.Contains(t, stderr, "the server closed after 29 bytes of its reply to tools/list (id 2): recorded as a Truncate fault")

	cfg, err := config.Load(out)
	require.NoError(t, err)
	require.Len(t, cfg.Faults, 2)
	assert.Equal(t, "Banner", cfg.Faults[0].Name)
	assert.Equal(t, "Truncate", cfg.Faults[1].Name)

	// Replayed: the banner comes first, as the real server's did.
	r := start(t, "serve", "--config", out)
	r.send(initialize)
	select {
	case line := <-r.lines:
		assert.Equal(t, "Weather server v2 starting...", line)
	case <-time.After(20 * time.Second):
		t.Fatalf("no banner; stderr:\n%s", r.stderr)
	}
	r.exit()
}

func TestRecordUsage(t *testing.T) {
	t.Parallel()
	_, stderr, code := runMcpmock(t, nil, "record", "--", "true")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "mcpmock record: --out FILE is required")
	_, stderr, code = runMcpmock(t, nil, "record", "--out", "x.json")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "no server command")
	_, stderr, code = runMcpmock(t, nil, "record", "--out", "x.json", "--url", "http://127.0.0.1:1/mcp", "--listen", "0.0.0.0:0")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "loopback only")
}

func readURL(t *testing.T, p *proc) string {
	t.Helper()
	select {
	case url := <-p.lines:
		return url
	case <-time.After(20 * time.Second):
		t.Fatalf("no URL printed; stderr:\n%s", p.stderr)
		return ""
	}
}

func TestRecordHTTP(t *testing.T) {
	t.Parallel()
	real := start(t, "serve", "--http", "--config", "testdata/record-server.json")
	realURL := readURL(t, real)
	out := filepath.Join(t.TempDir(), "rec.json")
	p := start(t, "record", "--out", out, "--url", realURL)
	url := readURL(t, p)
	require.Regexp(t, `^http://127\.0\.0\.1:\d+/mcp$`, url)

	post := func(sid, body string) (string, string) {
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer secret-token-42")
		req.AddCookie(&http.Cookie{Name: "session", Value: "cookie-value-42"})
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		var b strings.Builder
		_, err = fmt.Fprint(&b, "")
		require.NoError(t, err)
		buf := make([]byte, 4096)
		for {
			n, err := res.Body.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		body2 := b.String()
		if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
			for _, l := range strings.Split(body2, "\n") {
				if strings.HasPrefix(l, "data:") {
					body2 = strings.TrimSpace(strings.TrimPrefix(l, "data:"))
				}
			}
		}
		return res.Header.Get("Mcp-Session-Id"), body2
	}
	sid, init := post("", initialize)
	require.NotEmpty(t, sid, "the session id passes through")
	assert.Equal(t, "weather", gjson.Get(init, "result.serverInfo.name").String(), init)
	post(sid, initialized)
	var want []string
	for _, c := range recordCalls {
		_, body := post(sid, c)
		want = append(want, withoutID(gjson.Parse(body)))
	}
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	assert.Equal(t, 0, p.wait(), "stderr:\n%s", p.stderr)
	b, err := os.ReadFile(out)
	require.NoError(t, err, "stderr:\n%s", p.stderr)
	for _, secret := range []string{"secret-token-42", "cookie-value-42", sid} {
		assert.NotContains(t, string(b), secret, "headers are never written")
	}
	cfg, err := config.Parse("rec.json", b)
	require.NoError(t, err, "%s", b)
	require.Len(t, cfg.Tools, 2)
	require.Len(t, cfg.Tools[0].Cases, 2)

	// Replayed over stdio, the calls get the same answers.
	r := start(t, "serve", "--config", out)
	got := playStdio(t, r)[1:]
	r.exit()
	assert.Equal(t, want, got)
}

// A client program recorded against the real server (here GiftGen, mcpmock
// serve) and then judged by mcpmock run against the recording, with a
// scenario's mistake on top.
func TestRecordThenRunScenariosOnTheRecording(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rec := filepath.Join(dir, "rec.json")
	env, client := fakeClientCmd("careful")
	argv := fmt.Sprintf(`[%q,"record","--out",%q,"--",%q,"serve"]`, bin, rec, bin)
	cmd := exec.Command(client[0], client[1:]...)
	cmd.Env = append(os.Environ(), append(env, envServerArgv+"="+argv, envDeadline+"=10000")...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "the client against the recording proxy:\n%s", out)
	assert.Contains(t, string(out), "mcpmock record: wrote "+rec)
	cfg, err := config.Load(rec)
	require.NoError(t, err)
	assert.Equal(t, "gift-genius-backend", cfg.Server.Name)

	stdout, stderr, code := runMcpmock(t, env, "run", "--config", rec, "--scenario", "giftgen-handshake", "--scenario", "tools-list-changed", "--scenario", "wrong-id-type", "--", client[0])
	assert.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "3 scenarios: 3 pass")
	assert.Contains(t, stderr, `fake client: called suggest_gifts: "a board game"`, "the recorded reply, replayed")
}

// The stateless era over HTTP: no session, per-request _meta; the
// recording keeps the results without what the mock adds itself
// (resultType, the serverInfo _meta, caching hints).
func TestRecordHTTPStateless(t *testing.T) {
	t.Parallel()
	real := start(t, "serve", "--http", "--config", "testdata/record-server.json")
	realURL := readURL(t, real)
	out := filepath.Join(t.TempDir(), "rec.json")
	p := start(t, "record", "--out", out, "--url", realURL)
	url := readURL(t, p)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	post := func(body string) string {
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", gjson.Get(body, "method").String())
		if name := gjson.Get(body, "params.name"); name.Exists() {
			req.Header.Set("Mcp-Name", name.String())
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return string(b)
	}
	disc := post(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + meta + `}}`)
	require.Contains(t, disc, `"supportedVersions"`, disc)
	call := post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_forecast","arguments":{"city":"Paris"},` + meta + `}}`)
	require.Contains(t, call, `"resultType":"complete"`, call)
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGINT))
	assert.Equal(t, 0, p.wait(), "stderr:\n%s", p.stderr)

	cfg, err := config.Load(out)
	require.NoError(t, err)
	assert.Equal(t, "weather", cfg.Server.Name, "from the discover result's _meta")
	assert.Contains(t, cfg.ProtocolVersions, "2026-07-28")
	require.Len(t, cfg.Tools, 1, "called, never listed")
	require.Len(t, cfg.Tools[0].Cases, 1)
	assert.JSONEq(t, `{"content":[{"text":"rain","type":"text"}]}`, string(cfg.Tools[0].Cases[0].Replies[0].Result))
	assert.Equal(t, &config.CacheHints{TTLMs: 0, CacheScope: "public"}, cfg.CacheHints)
}

// A stdio client that spawns its server twice: with --append, one
// recording of both sessions.
func TestRecordAppendMergesSessions(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "rec.json")
	for _, city := range []string{"Paris", "Atlantis"} {
		p := start(t, "record", "--out", out, "--append", "--", bin, "serve", "--config", "testdata/record-server.json")
		p.handshake()
		p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_forecast","arguments":{"city":"` + city + `"}}}`)
		p.recv()
		require.Equal(t, 0, p.exit(), "stderr:\n%s", p.stderr)
	}
	cfg, err := config.Load(out)
	require.NoError(t, err)
	require.Len(t, cfg.Tools, 1)
	require.Len(t, cfg.Tools[0].Cases, 2, "both sessions' calls")
	assert.JSONEq(t, `{"city":"Paris"}`, string(cfg.Tools[0].Cases[0].Arguments))
	assert.Equal(t, "unknown city", cfg.Tools[0].Cases[1].Replies[0].JSONRPCError.Message)
	_, err = os.Stat(out + ".lock")
	assert.True(t, os.IsNotExist(err), "the lock file is removed")
}

// A real server behind a gateway that answers a call with 503 and an HTML
// page (mcpmock's http-error-page scenario plays it): the recording keeps
// it as an HTTPStatus fault on that call.
func TestRecordHTTPErrorStatusBecomesAFault(t *testing.T) {
	t.Parallel()
	real := start(t, "serve", "--http", "--scenario", "http-error-page")
	realURL := readURL(t, real)
	out := filepath.Join(t.TempDir(), "rec.json")
	p := start(t, "record", "--out", out, "--url", realURL)
	url := readURL(t, p)
	status, sid, body := httpPost(t, url, "", initialize)
	require.Equal(t, http.StatusOK, status, body)
	httpPost(t, url, sid, initialized)
	status, _, body = httpPost(t, url, sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"suggest_gifts","arguments":{"age":25}}}`)
	require.Equal(t, http.StatusServiceUnavailable, status, body)
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	assert.Equal(t, 0, p.wait(), "stderr:\n%s", p.stderr)
	assert.Contains(t, p.stderr.String(), "the server answered tools/call (id 2) with HTTP status 503: recorded as an HTTPStatus fault")

	cfg, err := config.Load(out)
	require.NoError(t, err)
	require.Len(t, cfg.Faults, 1)
	f := cfg.Faults[0]
	assert.Equal(t, "HTTPStatus", f.Name)
	assert.JSONEq(t, `503`, string(f.Params["code"]))
	assert.JSONEq(t, `"tools/call"`, string(f.Params["method"]))
	assert.Contains(t, string(f.Params["body"]), "<html")

	// Replayed, the call gets the gateway's page again.
	replay := start(t, "serve", "--http", "--config", out)
	url = readURL(t, replay)
	status, sid, body = httpPost(t, url, "", initialize)
	require.Equal(t, http.StatusOK, status, body)
	httpPost(t, url, sid, initialized)
	status, _, body = httpPost(t, url, sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"suggest_gifts","arguments":{"age":25}}}`)
	assert.Equal(t, http.StatusServiceUnavailable, status, body)
	assert.Contains(t, body, "503 Service Unavailable")
}

// The HTTP proxy in-process, against a hand-written server that checks
// what arrives: Authorization, cookies and the session id pass through;
// an SSE reply is relayed and recorded; nothing of the headers is written.
func TestRecordHTTPPassesHeadersAndSSE(t *testing.T) {
	t.Parallel()
	var seen []string
	var mu sync.Mutex
	real := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet { // the standalone stream: one notification, then open until the end
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n")
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		}
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization")+"|"+r.Header.Get("Cookie")+"|"+r.Header.Get("Mcp-Session-Id"))
		mu.Unlock()
		body, _ := io.ReadAll(r.Body)
		id := gjson.GetBytes(body, "id").Raw
		switch gjson.GetBytes(body, "method").String() {
		case "initialize":
			w.Header().Set("Mcp-Session-Id", "sid-secret-77")
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"hand","version":"1"}}}`, id)
		case "tools/call":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n\n")
			w.(http.Flusher).Flush()
			fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\n", id)
			fmt.Fprint(w, "data: \"result\":{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}}\n\n")
		default:
			w.WriteHeader(http.StatusAccepted)
		}
	}))
	defer real.Close()

	out := filepath.Join(t.TempDir(), "rec.json")
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- recordHTTPUntil(ctx, real.URL+"/mcp", "127.0.0.1:0", recordOut{path: out}, config.NewRecorder(), pw, &lockedWriter{w: &stderr})
		_ = pw.Close()
	}()
	url, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err)
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	url = strings.TrimSpace(url)

	post := func(sid, body string) (*http.Response, string) {
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer tok-secret-55")
		req.Header.Set("Cookie", "s=cookie-secret-66")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res, string(b)
	}
	res, _ := post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	sid := res.Header.Get("Mcp-Session-Id")
	assert.Equal(t, "sid-secret-77", sid)
	post(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	res, body := post(sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"work","arguments":{"n":1},"_meta":{"progressToken":1}}}`)
	assert.Equal(t, "text/event-stream", res.Header.Get("Content-Type"))
	assert.Contains(t, body, "notifications/progress", "relayed as it came")

	// A GET stream still open when the recording ends.
	greq, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	greq.Header.Set("Mcp-Session-Id", sid)
	gres, err := http.DefaultClient.Do(greq)
	require.NoError(t, err)
	first, err := bufio.NewReader(gres.Body).ReadString('\n')
	require.NoError(t, err)
	assert.Contains(t, first, "list_changed")
	streamDone := make(chan struct{})
	go func() {
		defer close(streamDone)
		_, _ = io.Copy(io.Discard, gres.Body)
		_ = gres.Body.Close()
	}()
	cancel()
	<-streamDone
	require.NoError(t, <-done, "stderr:\n%s", stderr.String())

	mu.Lock()
	assert.Equal(t, []string{"Bearer tok-secret-55|s=cookie-secret-66|", "Bearer tok-secret-55|s=cookie-secret-66|sid-secret-77", "Bearer tok-secret-55|s=cookie-secret-66|sid-secret-77"}, seen, "the POSTs' headers")
	mu.Unlock()
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	for _, secret := range []string{"tok-secret-55", "cookie-secret-66", "sid-secret-77"} {
		assert.NotContains(t, string(b), secret)
	}
	cfg, err := config.Parse("rec.json", b)
	require.NoError(t, err, "%s", b)
	require.Len(t, cfg.Tools, 1)
	assert.JSONEq(t, `{"n":1}`, string(cfg.Tools[0].Cases[0].Arguments), "_meta is not a matching key")
	assert.JSONEq(t, `{"content":[{"type":"text","text":"done"}]}`, string(cfg.Tools[0].Cases[0].Replies[0].Result), "an event of two data lines")
	assert.Contains(t, strings.Join(cfg.Notes, "\n"), "progress notifications")
	assert.Contains(t, strings.Join(cfg.Notes, "\n"), "notifications/tools/list_changed on its own initiative", "from the GET stream")
	assert.Equal(t, []string{"tools/call"}, cfg.SSEReplies, "the call was answered over SSE, initialize with JSON")
}

// A server that does not exit when its stdin closes gets --grace, then
// SIGTERM; the proxy exits with the status the signal gave it.
func TestRecordServerThatOutlivesItsClient(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "rec.json")
	p := start(t, "record", "--out", out, "--grace", "100ms", "--", "sh", "-c", "exec sleep 60")
	assert.Equal(t, 128+int(syscall.SIGTERM), p.exit(), "stderr:\n%s", p.stderr)
	assert.Contains(t, p.stderr.String(), "the server did not exit within 100ms of its stdin closing: sending SIGTERM")
	assert.Contains(t, p.stderr.String(), "nothing recorded: the server was killed by signal 15 (terminated) before answering anything (the client had sent nothing); "+out+" is not written")
	assert.NoFileExists(t, out, "an empty recording is not written")
}
