package mcptest_test

import (
	"context"
	"fmt"
	"github.com/mcpmock/mcpmock/internal/spec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/internal/mcpclient"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
	"github.com/tidwall/gjson"
)

// The golden client (internal/mcpclient) is a raw client written from the
// spec: these tests prove that no rule of the mock blames it, on every
// transport, in every era and version it speaks, against a server with
// every feature on.

// goldenTransport is one way the golden client reaches a server.
type goldenTransport struct {
	name string
	dial func(srv *mcptest.Server, opt mcpclient.Options) *mcpclient.Client
	// versions are the Options.Version values the transport is run with
	// ("" probes with server/discover).
	versions []string
}

var goldenTransports = []goldenTransport{
	{name: "pipe", dial: func(srv *mcptest.Server, opt mcpclient.Options) *mcpclient.Client {
		return mcpclient.Pipe(srv.Dial(), opt)
	},
		versions: append(slices.Clone(mcpclient.HandshakeVersions), mcpclient.StatelessVersion, "")},
	{name: "http", dial: func(srv *mcptest.Server, opt mcpclient.Options) *mcpclient.Client {
		return mcpclient.HTTP(srv.URL(), opt)
	},
		versions: append(slices.Clone(mcpclient.HandshakeVersions), mcpclient.StatelessVersion, "")},
	{name: "legacy-sse", dial: func(srv *mcptest.Server, opt mcpclient.Options) *mcpclient.Client {
		return mcpclient.LegacySSE(srv.URL(), opt)
	},
		versions: []string{"2024-11-05"}},
}

// goldenServer has every feature on: tools (one typed, one asking for
// input, one that never answers), resources with a template and
// subscriptions, prompts, completions, logging, one item a page.
func goldenServer(t testing.TB) *mcptest.Server {
	return mcptest.NewServer(t).
		WithTools(
			mcptest.NewTool("echo").ReturnsText("echoed"),
			mcptest.NewTool("add").WithInputSchema(`{"type":"object","properties":{"a":{"type":"integer","minimum":2},"b":{"type":"number"},"unit":{"type":"string","enum":["cm","in"]}},"required":["a","b"]}`).ReturnsText("3"),
			mcptest.NewTool("book").
				RequiresInput(mcptest.ElicitInput("confirm", "Book it?", `{"type":"object","properties":{"ok":{"type":"boolean"},"seats":{"type":"integer","default":2}},"required":["ok"]}`)).
				ReturnsText("booked"),
			mcptest.NewTool("plan").
				RequiresInput(mcptest.RootsInput("where"),
					mcptest.SamplingInput("idea", map[string]any{"messages": []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": "a plan?"}}}, "maxTokens": 50})).
				ReturnsText("planned"),
		).
		WithResources(mcptest.NewResource("file:///notes.txt", "notes").WithMIMEType("text/plain").ReturnsText("remember the milk"),
			mcptest.NewResource("file:///todo.txt", "todo").WithMIMEType("text/plain").ReturnsText("buy bread")).
		WithResourceTemplates(mcptest.NewResourceTemplate("file:///users/{id}", "user").ReturnsText("a user")).
		WithResourceCompletion("file:///users/{id}", "id", "1", "2").
		WithPrompts(mcptest.NewPrompt("greet").WithArgument("name", "who to greet", true).ReturnsText("Hello!"),
			mcptest.NewPrompt("plain").ReturnsText("Hi.")).
		WithPromptCompletion("greet", "name", "alice", "bob").
		WithOptions(mcptest.Options{Logging: true}).
		WithOptions(mcptest.Options{PageSize: 1})
}

// slowTool never answers until the client cancels the call.
func slowTool() *mcptest.Tool {
	return mcptest.NewTool("slow").HandledBy(func(ctx context.Context, _ *mcptest.Request) mcptest.Reply {
		<-ctx.Done()
		return mcptest.NoReply()
	})
}

const goldenWait = 10 * time.Second

// goldenSession runs the golden client's whole session against srv and
// returns what it saw; the caller checks the server's verdict.
func goldenSession(t *testing.T, srv *mcptest.Server, tr goldenTransport, version string, push bool) *mcpclient.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), goldenWait)
	defer cancel()
	c := tr.dial(srv, mcpclient.Options{Version: version})
	defer c.Close()
	if err := c.Connect(ctx); err != nil {
		t.Fatalf("Connect: %v\n%s", err, srv.Transcript())
	}
	rep, err := c.Exercise(ctx)
	if err != nil {
		t.Fatalf("Exercise: %v\n%s", err, srv.Transcript())
	}
	for _, e := range rep.Errors {
		t.Errorf("Exercise: the server answered an error to a correct request: %v", e)
	}
	for _, m := range []string{"tools/list", "tools/call", "resources/list", "resources/templates/list", "resources/read", "prompts/list", "prompts/get", "completion/complete"} {
		if m == "completion/complete" && c.Version() == "2024-11-05" {
			continue // the completions capability came with 2025-03-26
		}
		if rep.Calls[m] == 0 {
			t.Errorf("Exercise never called %s; calls: %v", m, rep.Calls)
		}
	}
	// The tools that ask the client for input were answered: by retries
	// with inputResponses (stateless era), or by answering the server's
	// roots/list and sampling/createMessage (handshake era).
	planned := srv.Journal().All().From(mcptest.FromServer).Filter(func(m mcptest.Message) bool {
		return m.Method == "tools/call" && m.Get("result.content.0.text").String() == "planned"
	})
	if len(planned) != 1 {
		t.Errorf("want the plan tool to answer planned once its inputs came, got %v", planned)
	}
	asked := srv.Journal().All().From(mcptest.FromClient).Filter(func(m mcptest.Message) bool {
		return m.Get("params.inputResponses").Exists() || m.Get("result.roots").Exists() || m.Get("result.model").Exists()
	})
	if len(asked) == 0 {
		t.Errorf("want the client's answers to the plan tool's inputs in the journal\n%s", srv.Transcript())
	}
	switch {
	case c.Stateless():
		statelessExtras(ctx, t, srv, c)
	case push:
		handshakeExtras(ctx, t, srv, c)
	default:
		srv.SetTools(mcptest.Quietly, mcptest.NewTool("echo").ReturnsText("echoed"), slowTool())
	}
	cancelSlowCall(ctx, t, srv, c)
	return c
}

// handshakeExtras has the server ask the client everything a server may
// ask, and checks the answers.
func handshakeExtras(ctx context.Context, t *testing.T, srv *mcptest.Server, c *mcpclient.Client) {
	t.Helper()
	sess := readySession(t, srv)
	asks := []struct{ method, params, check string }{
		{"ping", `{}`, ""},
		{"roots/list", `{}`, "roots.0.uri"},
		{"sampling/createMessage", `{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":10}`, "model"},
	}
	if c.Version() >= "2025-06-18" {
		asks = append(asks, struct{ method, params, check string }{"elicitation/create",
			`{"message":"Who?","requestedSchema":{"type":"object","properties":{"name":{"type":"string","minLength":2},"ok":{"type":"boolean","default":true}},"required":["name"]}}`, "content.name"})
	}
	for _, a := range asks {
		m, err := sess.SendRequest(ctx, a.method, gjsonRaw(a.params))
		if err != nil || m.Kind != mcptest.KindResult {
			t.Errorf("the server's %s: want a result, got %v, %v", a.method, m, err)
			continue
		}
		if a.check != "" && !gjson.Get(m.Raw(), "result."+a.check).Exists() {
			t.Errorf("the server's %s: want result.%s in the answer, got %s", a.method, a.check, m.Raw())
		}
	}
	// The server changes its tools: the client lists them again.
	srv.SetTools(mcptest.ListChanged, mcptest.NewTool("echo").ReturnsText("echoed"), slowTool())
	if _, err := c.WaitNotification(ctx, "notifications/tools/list_changed"); err != nil {
		t.Fatal(err)
	}
	if c.Changed("notifications/tools/list_changed") {
		if _, err := c.ListAll(ctx, "tools/list", "tools"); err != nil {
			t.Errorf("tools/list after list_changed: %v", err)
		}
	}
	if err := c.Notify(ctx, "notifications/roots/list_changed", ""); err != nil {
		t.Error(err)
	}
}

// statelessExtras opens a subscriptions/listen stream, has the server
// notify on it, and ends it.
func statelessExtras(ctx context.Context, t *testing.T, srv *mcptest.Server, c *mcpclient.Client) {
	t.Helper()
	l, err := c.Listen(ctx, `{"toolsListChanged":true,"resourceSubscriptions":["file:///notes.txt"]}`)
	if err != nil {
		t.Fatalf("subscriptions/listen: %v\n%s", err, srv.Transcript())
	}
	srv.SetTools(mcptest.ListChanged, mcptest.NewTool("echo").ReturnsText("echoed"), slowTool())
	select {
	case n := <-l.C:
		if n.Get("method").String() != "notifications/tools/list_changed" {
			t.Errorf("listen stream: want notifications/tools/list_changed, got %s", n.Raw)
		}
	case <-ctx.Done():
		t.Fatalf("listen stream: no notification\n%s", srv.Transcript())
	}
	if err := l.Stop(ctx); err != nil {
		t.Error(err)
	}
	if _, err := c.ListAll(ctx, "tools/list", "tools"); err != nil {
		t.Errorf("tools/list after list_changed: %v", err)
	}
}

// cancelSlowCall calls the slow tool (the extras installed it), which
// never answers, and gives up on it once the server has it: the client
// sends notifications/cancelled.
func cancelSlowCall(ctx context.Context, t *testing.T, srv *mcptest.Server, c *mcpclient.Client) {
	t.Helper()
	callCtx, giveUp := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := c.Call(callCtx, "tools/call", `{"name":"slow","arguments":{}}`)
		done <- err
	}()
	if _, err := srv.Await(ctx, mcptest.ToolCall("slow", nil)); err != nil {
		t.Fatalf("the slow call never reached the server: %v", err)
	}
	giveUp()
	if err := <-done; err == nil {
		t.Errorf("want the given-up call to fail")
	}
	if _, err := srv.Await(ctx, mcptest.ClientSent("notifications/cancelled")); err != nil {
		t.Fatalf("no notifications/cancelled: %v\n%s", err, srv.Transcript())
	}
}

// readySession returns the server's handshake-era session that completed its handshake.
func readySession(t *testing.T, srv *mcptest.Server) *mcptest.Session {
	t.Helper()
	for _, s := range srv.Sessions() {
		if s.Ready() && !sessionEnded(s) {
			return s
		}
	}
	t.Fatalf("no ready session\n%s", srv.Transcript())
	return nil
}

type gjsonRaw string

func (r gjsonRaw) MarshalJSON() ([]byte, error) { return []byte(r), nil }

// checkGolden fails unless the server recorded nothing against the golden client.
func checkGolden(t *testing.T, srv *mcptest.Server) {
	t.Helper()
	srv.Close()
	if vs := srv.Violations(); len(vs) > 0 {
		var b strings.Builder
		for _, v := range vs {
			fmt.Fprintf(&b, "  - %s\n", v)
		}
		t.Errorf("false blame: the golden client is correct, yet the mock recorded %d violation(s):\n%s\n%s", len(vs), b.String(), srv.Transcript())
	}
	if err := srv.Verify(); err != nil {
		t.Errorf("Verify: %v", err)
	}
}

// goldenVariants are the server configurations the golden client runs
// against: the plain full server, and the ways a correct server may
// choose to answer (SSE replies, no GET stream, an empty-string cursor,
// cache hints, a server-sent log line on every call).
var goldenVariants = []struct {
	name string
	// httpOnly: the variant changes only the HTTP transport.
	httpOnly bool
	// noPush: the server has no way to send a message outside a
	// request's reply (no GET stream), so it asks the client nothing.
	noPush bool
	apply  func(*mcptest.Server) *mcptest.Server
}{
	{name: "plain", apply: func(s *mcptest.Server) *mcptest.Server { return s }},
	{name: "sse-replies", httpOnly: true, apply: func(s *mcptest.Server) *mcptest.Server { return s.WithFaults(fault.ReplyAsSSE("").Optional()) }},
	{name: "sse-retry", httpOnly: true, apply: func(s *mcptest.Server) *mcptest.Server {
		return s.WithFaults(fault.ReplyAsSSE("").Optional()).WithHTTP(mcptest.HTTPOptions{SSERetry: time.Second})
	}},
	{name: "no-get-stream", httpOnly: true, noPush: true, apply: func(s *mcptest.Server) *mcptest.Server { return s.WithHTTP(mcptest.HTTPOptions{NoStandaloneSSE: true}) }},
	{name: "empty-string-cursor", apply: func(s *mcptest.Server) *mcptest.Server {
		return s.WithOptions(mcptest.Options{EmptyStringCursor: true})
	}},
	{name: "cache-hints", apply: func(s *mcptest.Server) *mcptest.Server {
		return s.WithOptions(mcptest.Options{CacheTTL: time.Minute, CacheScope: "private"})
	}},
}

// goldenCombos counts the transport × version × server runs of TestGoldenClient.
func goldenCombos() (n int) {
	for _, tr := range goldenTransports {
		for _, vr := range goldenVariants {
			if vr.httpOnly && tr.name == "pipe" || vr.noPush && tr.name == "legacy-sse" {
				continue
			}
			n += len(tr.versions)
		}
	}
	return n
}

// TestGoldenClient runs the golden client's whole session on every
// transport and in every version and era it speaks, against a server with
// every feature on in each of its variants, and asserts that no rule of
// any severity fires.
func TestGoldenClient(t *testing.T) {
	runs := 0
	for _, tr := range goldenTransports {
		for _, vr := range goldenVariants {
			if vr.httpOnly && tr.name == "pipe" || vr.noPush && tr.name == "legacy-sse" {
				continue // legacy-sse is a GET stream
			}
			for _, v := range tr.versions {
				name := v
				if name == "" {
					name = "probe"
				}
				runs++
				t.Run(tr.name+"/"+vr.name+"/"+name, func(t *testing.T) {
					srv := vr.apply(goldenServer(t))
					c := goldenSession(t, srv, tr, v, !vr.noPush)
					want := v
					if v == "" {
						want = mcpclient.StatelessVersion
					}
					if c.Version() != want {
						t.Errorf("negotiated %q, want %q", c.Version(), want)
					}
					checkGolden(t, srv)
				})
			}
		}
	}
	if runs != goldenCombos() {
		t.Errorf("ran %d combinations, goldenCombos counts %d", runs, goldenCombos())
	}
	t.Logf("%d transport × version × server combinations, no violation", runs)
}

// TestGoldenClientProbesHandshakeServer: a probing golden client against a
// server without the stateless era falls back to initialize.
func TestGoldenClientProbesHandshakeServer(t *testing.T) {
	for _, tr := range goldenTransports[:2] {
		t.Run(tr.name, func(t *testing.T) {
			srv := goldenServer(t).WithProtocolVersions(mcptest.HandshakeVersions()...)
			c := goldenSession(t, srv, tr, "", true)
			if c.Stateless() || c.Version() != "2025-11-25" {
				t.Errorf("want the handshake in 2025-11-25 after the probe failed, got %q", c.Version())
			}
			checkGolden(t, srv)
		})
	}
}

// TestGoldenStatelessHTTPNeedsNoProbe: over Streamable HTTP a stateless
// request needs no server/discover before it. The spec asks for the probe
// on stdio (basic/transports/stdio#protocol-version-detection), where a
// client must learn the server's era on its connection; over HTTP each
// request carries its version in Mcp-Protocol-Version, and the mock's
// grouping of stateless requests into sessions is its own. It was false
// blame: stateless/discover-first fired for the first request of every
// such group (found by the golden client in the scenario
// disconnect-mid-call over HTTP, whose second group began with resources/list).
func TestGoldenStatelessHTTPNeedsNoProbe(t *testing.T) {
	srv := goldenServer(t)
	h := newHTTPRaw(t, srv)
	status, _, body := h.post(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+statelessMeta+`}}`,
		spec.HeaderProtocolVersion, "2026-07-28", spec.HeaderMethod, "tools/list")
	if status != 200 || gjson.Get(body, "result.tools.0.name").String() != "echo" {
		t.Fatalf("tools/list: status %d, body %s; want 200 and the first page", status, body)
	}
	checkGolden(t, srv)
}

// TestGoldenNoGetStreamServerRequest: a server without the standalone
// SSE stream (HTTPOptions.NoStandaloneSSE) asks a Streamable HTTP client
// something outside any request (Session.SendRequest): the request can reach
// the client on no stream (it waits for a GET the client may never open), so
// when its deadline passes the client is not blamed with
// jsonrpc/server-request-unanswered, and the journal says why.
func TestGoldenNoGetStreamServerRequest(t *testing.T) {
	srv := goldenServer(t).WithHTTP(mcptest.HTTPOptions{NoStandaloneSSE: true})
	ctx, cancel := context.WithTimeout(context.Background(), goldenWait)
	defer cancel()
	c := mcpclient.HTTP(srv.URL(), mcpclient.Options{Version: "2025-11-25"})
	defer c.Close()
	if err := c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	// The request's deadline is what the test is about (what happens when
	// it passes), not a wait for something.
	askCtx, giveUp := context.WithTimeout(ctx, 100*time.Millisecond)
	defer giveUp()
	asked := make(chan error, 1)
	go func() {
		_, err := readySession(t, srv).SendRequest(askCtx, "ping", nil)
		asked <- err
	}()
	// The ping is journaled as sent, though no stream carried it.
	if _, err := srv.Await(ctx, mcptest.ServerSent("ping")); err != nil {
		t.Fatal(err)
	}
	<-asked
	c.Close()
	checkGolden(t, srv)
	ping := srv.Journal().All().From(mcptest.FromServer).Requests("ping")
	if len(ping) != 1 || !strings.Contains(ping[0].Problem, "never delivered") {
		t.Fatalf("the undelivered ping's journal entry does not say so: %+v", ping)
	}
}

// TestGoldenInitializeToModernOnlyHTTP: a handshake-era client POSTs
// initialize to a server that speaks only 2026-07-28. It sends no
// Mcp-Protocol-Version, as the spec asks (the header comes after the
// handshake), and the stateless era's headers are no business of a
// handshake-era client; the server should refuse the version, yet the mock
// blames the client with http/stateless-headers ("no Mcp-Protocol-Version
// header"). Over the pipe the same client is not blamed. Found by the
// golden client pinned to any handshake version in the scenario modern-only
// over HTTP (TestGoldenScenariosPinned).
func TestGoldenInitializeToModernOnlyHTTP(t *testing.T) {
	srv := goldenServer(t).WithProtocolVersions(mcpclient.StatelessVersion)
	h := newHTTPRaw(t, srv)
	status, _, body := h.post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if gjson.Get(body, "result").Exists() {
		t.Errorf("initialize to a modern-only server: want an error, got %d %s", status, body)
	}
	checkGolden(t, srv)
}

// TestGoldenClientsSideBySide: correct clients on every transport and
// era share one server, one after the other and at the same time; no
// rule may mix them up.
func TestGoldenClientsSideBySide(t *testing.T) {
	srv := goldenServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), goldenWait)
	defer cancel()
	type run struct {
		tr goldenTransport
		v  string
	}
	var runs []run
	for _, tr := range goldenTransports {
		for _, v := range tr.versions {
			runs = append(runs, run{tr, v})
		}
	}
	one := func(r run, name string) error {
		c := r.tr.dial(srv, mcpclient.Options{Version: r.v, Name: name})
		defer c.Close()
		if err := c.Connect(ctx); err != nil {
			return fmt.Errorf("%s %s: Connect: %w", r.tr.name, r.v, err)
		}
		if _, err := c.Exercise(ctx); err != nil {
			return fmt.Errorf("%s %s: Exercise: %w", r.tr.name, r.v, err)
		}
		return nil
	}
	for i, r := range runs { // one after the other
		if err := one(r, fmt.Sprintf("golden-a%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	errs := make(chan error, len(runs))
	for i, r := range runs { // all at once, each its own app
		go func() { errs <- one(r, fmt.Sprintf("golden-b%d", i)) }()
	}
	for range runs {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	checkGolden(t, srv)
}

// TestGoldenStatelessHTTPRetrySameID: over stateless HTTP a retry that
// reuses the id of the round it answers still breaks mrtr/new-id.
func TestGoldenStatelessHTTPRetrySameID(t *testing.T) {
	srv := goldenServer(faketb.New(t))
	h := newHTTPRaw(t, srv)
	hdr := []string{spec.HeaderProtocolVersion, "2026-07-28", spec.HeaderMethod, "tools/call", spec.HeaderName, "book"}
	meta := strings.Replace(statelessMeta, `clientCapabilities":{}`, `clientCapabilities":{"elicitation":{}}`, 1)
	_, _, body := h.post(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"book","arguments":{},`+meta+`}}`, hdr...)
	state := gjson.Get(body, "result.requestState")
	if gjson.Get(body, "result.resultType").String() != "input_required" || !state.Exists() {
		t.Fatalf("want input_required with a requestState, got %s", body)
	}
	h.post(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"book","arguments":{},"inputResponses":{"confirm":{"action":"accept","content":{"ok":true,"seats":2}}},"requestState":`+state.Raw+`,`+meta+`}}`, hdr...)
	srv.Close()
	vs := srv.Violations()
	if len(vs) != 1 || vs[0].Rule != "mrtr/new-id" {
		t.Fatalf("want one mrtr/new-id violation, got %v", vs)
	}
}

// TestGoldenStatelessHTTPSameAppTwice: the same app (the same clientInfo)
// runs twice against a stateless server over HTTP, each run counting its
// ids from 1. Stateless-era HTTP requests have no session: the mock
// groups them by clientInfo, and blamed the second run with
// jsonrpc/id-unique (and mrtr/new-id for its retries) for the first
// run's ids. Fixed in session.go: over stateless HTTP only a retry that
// reuses the id of the round it answers breaks a rule.
func TestGoldenStatelessHTTPSameAppTwice(t *testing.T) {
	srv := goldenServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), goldenWait)
	defer cancel()
	for range 2 {
		c := mcpclient.HTTP(srv.URL(), mcpclient.Options{Version: mcpclient.StatelessVersion})
		if err := c.Connect(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := c.ListAll(ctx, "tools/list", "tools"); err != nil {
			t.Fatal(err)
		}
		if res, err := c.Call(ctx, "tools/call", `{"name":"book","arguments":{}}`); err != nil || res.Get("content.0.text").String() != "booked" {
			t.Fatalf("tools/call book: %s, %v", res.Raw, err)
		}
		c.Close()
	}
	checkGolden(t, srv)
}

// TestGoldenStatelessHTTPSameAppListenTwice: the same app runs twice and
// each run opens a subscriptions/listen stream with the same id; the
// second run's stream is never acknowledged (the mock routes by the id,
// within the group of requests sharing the clientInfo).
func TestGoldenStatelessHTTPSameAppListenTwice(t *testing.T) {
	t.Skip("false blame: a second client with the same clientInfo over stateless HTTP never gets its subscriptions/listen acknowledged when its id is that of the first client's cancelled listen (http.go groups stateless requests by clientInfo and routes by id); fixed by the HTTP/rules work")
	srv := goldenServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), goldenWait)
	defer cancel()
	for range 2 {
		c := mcpclient.HTTP(srv.URL(), mcpclient.Options{Version: mcpclient.StatelessVersion})
		if err := c.Connect(ctx); err != nil {
			t.Fatal(err)
		}
		l, err := c.Listen(ctx, `{"toolsListChanged":true}`)
		if err != nil {
			t.Fatalf("listen: %v\n%s", err, srv.Transcript())
		}
		if err := l.Stop(ctx); err != nil {
			t.Fatal(err)
		}
		c.Close()
	}
	checkGolden(t, srv)
}
