package mcptest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/mcptest"
)

// renderServer scripts what newer versions have: a tool with title,
// annotations, icons and an outputSchema and a structured result, one with
// audio and resource_link content, one that asks for an elicitation.
func renderServer(t testing.TB) *mcptest.Server {
	return mcptest.NewServer(t).WithOptions(mcptest.Options{Title: "Render"}).WithTools(
		mcptest.NewTool("weather").WithTitle("Weather").WithAnnotations(map[string]any{"readOnlyHint": true}).
			WithIcons([]map[string]any{{"src": "https://example.com/i.png"}}).
			WithOutputSchema(`{"type":"object","properties":{"t":{"type":"number"}}}`).
			Returns(mcptest.Result(`{"content":[],"structuredContent":{"t":21.5}}`)),
		mcptest.NewTool("media").Returns(mcptest.ContentResult(
			mcptest.AudioContent([]byte("RIFF"), "audio/wav"),
			mcptest.ResourceLinkContent("file:///a.txt", "a", "text/plain"))),
		mcptest.NewTool("confirm").
			RequiresInput(mcptest.ElicitInput("ok", "Sure?", `{"type":"object","properties":{"ok":{"type":"boolean"}}}`)).
			HandledBy(func(_ context.Context, req *mcptest.Request) mcptest.Reply {
				return mcptest.TextResult(req.InputResponse("ok").Get("action").String())
			}))
}

// TestRenderForOlderVersions: a 2024-11-05 session gets what its version
// defines — fields it lacks left out, audio and resource_link as text
// items, structuredContent as text, no elicitation (the handler sees it
// declined) — and the test log says so, once per session and thing; the
// newest handshake version gets the script as written.
func TestRenderForOlderVersions(t *testing.T) {
	ft := faketb.New(t)
	srv := renderServer(ft)
	c := dialRaw(t, srv)
	res := c.handshake(t, "2024-11-05")
	if res.Get("serverInfo.title").Exists() {
		t.Errorf("want serverInfo without title in 2024-11-05, got %s", res.Raw)
	}
	tool := c.result(t, "1", "tools/list", "").Get("tools.0")
	for _, f := range []string{"title", "annotations", "icons", "outputSchema"} {
		if tool.Get(f).Exists() {
			t.Errorf("want no %s on a 2024-11-05 tool, got %s", f, tool.Raw)
		}
	}
	if tool.Get("name").String() != "weather" || !tool.Get("inputSchema").Exists() {
		t.Errorf("want the tool's 2024-11-05 fields kept, got %s", tool.Raw)
	}
	weather := c.result(t, "2", "tools/call", `{"name":"weather","arguments":{}}`)
	if weather.Get("structuredContent").Exists() || weather.Get("content.0.type").String() != "text" || weather.Get("content.0.text").String() != `{"t":21.5}` {
		t.Errorf("want structuredContent sent as a text item, got %s", weather.Raw)
	}
	media := c.result(t, "3", "tools/call", `{"name":"media","arguments":{}}`)
	if got := media.Get("content.#.type").Raw; got != `["text","text"]` {
		t.Errorf("want audio and resource_link as text items, got %s", media.Raw)
	}
	if got := media.Get("content.1.text").String(); got != "[resource_link: file:///a.txt (a)]" {
		t.Errorf("want the resource_link's text to name it, got %q", got)
	}
	c.result(t, "4", "tools/call", `{"name":"media","arguments":{}}`) // logged once only
	if got := c.result(t, "5", "tools/call", `{"name":"confirm","arguments":{}}`).Get("content.0.text").String(); got != "decline" {
		t.Errorf("want the handler to see the elicitation declined, got %q", got)
	}
	if n := len(srv.Journal().All().From(mcptest.FromServer).Requests("elicitation/create")); n != 0 {
		t.Errorf("want no elicitation/create sent to a 2024-11-05 client, got %d", n)
	}
	log := ft.LogOutput()
	for _, want := range []string{"serverInfo has title", `tool "weather" has outputSchema`, "content of type resource_link", "structuredContent", `elicitation "ok"`} {
		if !strings.Contains(log, want) {
			t.Errorf("want the log to say %q, got:\n%s", want, log)
		}
	}
	if n := strings.Count(log, "content of type audio"); n != 1 {
		t.Errorf("want the audio downgrade logged once, got %d times:\n%s", n, log)
	}

	newest := dialRaw(t, srv)
	newest.handshake(t, "2025-11-25")
	tool = newest.result(t, "1", "tools/list", "").Get("tools.0")
	for _, f := range []string{"title", "annotations", "icons", "outputSchema"} {
		if !tool.Get(f).Exists() {
			t.Errorf("want %s on a 2025-11-25 tool, got %s", f, tool.Raw)
		}
	}
	if got := newest.result(t, "2", "tools/call", `{"name":"media","arguments":{}}`).Get("content.#.type").Raw; got != `["audio","resource_link"]` {
		t.Errorf("want the content as scripted in 2025-11-25, got %s", got)
	}
	if errs := ft.Errors(); len(errs) > 0 {
		t.Errorf("want no failure, got %q", errs)
	}
}
