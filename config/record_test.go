package config

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// original is the server a recording is made of: tools with cases and a
// sequence, a paged list, resources, a template, a prompt, completions, an
// error.
func original(t *testing.T) *mcptest.Server {
	tools := []*mcptest.Tool{
		mcptest.NewTool("weather").WithDescription("the weather").
			WithInputSchema(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}}}`).
			WithField("_meta", json.RawMessage(`{"x":1}`)).
			WhenArgs(`{"city":"Paris","days":2}`, mcptest.TextResult("rain, rain")).
			WhenArgs(`{"city":"Paris"}`, mcptest.TextResult("rain"), mcptest.TextResult("sun")).
			WhenArgs(`{"city":"Oslo"}`, mcptest.JSONRPCError(-32602, "no such city", nil)),
		mcptest.NewTool("login").Returns(mcptest.StructuredResult(`{"token":"s3cret","user":"ann"}`)),
		mcptest.NewTool("t3"), mcptest.NewTool("t4"),
	}
	return mcptest.NewServer(t).WithOptions(mcptest.Options{Name: "orig", Version: "1.2.3"}).WithOptions(mcptest.Options{Instructions: "be nice"}).
		WithOptions(mcptest.Options{PageSize: 2}).WithTools(tools...).
		WithResources(mcptest.NewResource("file:///a.txt", "a").WithMIMEType("text/plain").ReturnsText("hello")).
		WithResourceTemplates(mcptest.NewResourceTemplate("file:///logs/{day}", "logs").
			Returns(mcptest.ReadResult(mcptest.TextResourceContents("file:///logs/x", "text/plain", "log")))).
		WithPrompts(mcptest.NewPrompt("greet").WithArgument("name", "who", true).
			WhenArgs(`{"name":"ann"}`, mcptest.PromptResult("hi", mcptest.UserText("hi ann")))).
		WithPromptCompletion("greet", "name", "ann", "anna", "bob")
}

// calls is what the test client does, each call's response returned
// without its id.
var recCalls = []struct{ method, params string }{
	{"tools/list", `{}`},
	{"tools/list", `{"cursor":"CURSOR"}`},
	{"tools/call", `{"name":"weather","arguments":{"city":"Paris"}}`},
	{"tools/call", `{"name":"weather","arguments":{"city":"Paris"}}`},
	{"tools/call", `{"name":"weather","arguments":{"city":"Paris"}}`},
	{"tools/call", `{"name":"weather","arguments":{"days":2,"city":"Paris"},"_meta":{"progressToken":7}}`},
	{"tools/call", `{"name":"weather","arguments":{"city":"Oslo"}}`},
	{"tools/call", `{"name":"login","arguments":{}}`},
	{"resources/list", `{}`},
	{"resources/templates/list", `{}`},
	{"resources/read", `{"uri":"file:///a.txt"}`},
	{"resources/read", `{"uri":"file:///logs/monday"}`},
	{"prompts/list", `{}`},
	{"prompts/get", `{"name":"greet","arguments":{"name":"ann"}}`},
	{"completion/complete", `{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"name","value":"an"}}`},
}

// play runs the calls against srv and returns the responses, the ids
// left out, the cursor of the first tools/list page fed to the second.
func play(t *testing.T, srv *mcptest.Server) []string {
	s := dialRaw(t, srv)
	var out []string
	cursor := ""
	for _, c := range recCalls {
		params := strings.Replace(c.params, "CURSOR", cursor, 1)
		resp := s.call(c.method, params)
		if c.method == "tools/list" && cursor == "" {
			cursor = resp.Get("result.nextCursor").String()
		}
		r := resp.Get("result").Raw
		if r == "" {
			r = "error " + resp.Get("error").Raw
		}
		out = append(out, c.method+" "+r)
	}
	return out
}

func TestRecordReplaysWhatTheServerAnswered(t *testing.T) {
	orig := original(t)
	want := play(t, orig)
	cfg := FromServer(orig, "structuredContent.token")
	b, err := cfg.JSON()
	require.NoError(t, err)
	t.Logf("%s", b)

	// The recording is a config file: schema-valid, stable.
	again, err := FromServer(orig, "structuredContent.token").JSON()
	require.NoError(t, err)
	assert.Equal(t, string(b), string(again), "the same journal gives the same file")
	path := filepath.Join(t.TempDir(), "rec.json")
	require.NoError(t, cfg.Save(path))
	loaded, err := Load(path)
	require.NoError(t, err, "%s", b)

	// Secrets are gone and the file says where.
	assert.NotContains(t, string(b), "s3cret")
	assert.Equal(t, []string{"tools/call login: result.structuredContent.token", "tools/call login: every other occurrence of a redacted value in the result"}, loaded.Redacted)
	assert.Equal(t, 2, loaded.PageSize)
	assert.Equal(t, []string{"2025-11-25"}, loaded.ProtocolVersions)
	assert.Equal(t, "be nice", loaded.Server.Instructions)
	require.Len(t, loaded.Tools, 4)
	assert.JSONEq(t, `{"_meta":{"x":1}}`, string(loaded.Tools[0].Fields))
	require.Len(t, loaded.Tools[0].Cases, 3)
	assert.JSONEq(t, `{"days":2,"city":"Paris"}`, string(loaded.Tools[0].Cases[0].Arguments), "the most specific case first")
	assert.Len(t, loaded.Tools[0].Cases[1].Replies, 2, "rain, sun, sun: the last repeats")
	require.Len(t, loaded.ResourceTemplates, 1)
	require.Len(t, loaded.ResourceTemplates[0].Cases, 1)
	assert.Equal(t, map[string]string{"day": "monday"}, loaded.ResourceTemplates[0].Cases[0].Vars)
	assert.Equal(t, []Completion{{Prompt: "greet", Argument: "name", Values: []string{"ann", "anna"}}}, loaded.Completions)

	// Replayed, the same calls get the same results.
	replay := LoadServer(t, path)
	got := play(t, replay)
	for i := range want {
		w := strings.ReplaceAll(want[i], "s3cret", Redacted)
		assert.Equal(t, w, got[i], "call %d", i)
	}
	assert.Empty(t, replay.Unmatched())
}

func TestReplayUnrecordedCallGetsTheNearMiss(t *testing.T) {
	orig := original(t)
	play(t, orig)
	replay := FromServer(orig).NewServer(t)
	s := dialRaw(t, replay)
	resp := s.call("tools/call", `{"name":"weather","arguments":{"city":"Rome"}}`)
	require.True(t, resp.Get("error").Exists(), "an unrecorded call is an error, not a default: %s", resp.Raw)
	um := replay.Unmatched()
	require.Len(t, um, 1)
	assert.Contains(t, um[0], `at "city": want "Paris", got "Rome"`)
}

func TestRecorderKeepsMisbehaviourAsFaults(t *testing.T) {
	r := NewRecorder()
	r.NonJSON(1, []byte("Server v1 starting..."))
	r.Message(1, true, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`))
	r.Message(1, false, []byte(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"2","websiteUrl":"https://x"}}}`))
	r.Message(1, false, []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}`))
	r.Message(1, false, []byte(`{"jsonrpc":"2.0","id":"s1","method":"roots/list"}`))
	r.Message(1, true, []byte(`{"jsonrpc":"2.0","id":"s1","result":{"roots":[]}}`))
	r.Message(1, true, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`))
	r.NonJSON(1, []byte("debug: listing tools"))
	r.Message(1, false, []byte(`{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"boom"}}`))
	r.Message(1, true, []byte(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x","arguments":{}}}`))
	r.Ended(1, []byte(`{"jsonrpc":"2.0","id":3,"res`))
	r.Message(2, true, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	r.Message(2, false, []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	r.Message(2, true, []byte(`{"jsonrpc":"2.0","id":2,"method":"prompts/list"}`))
	r.Ended(2, nil)
	cfg := r.Config()
	b, err := cfg.JSON()
	require.NoError(t, err)
	_, err = Parse("rec.json", b)
	require.NoError(t, err, "%s", b)
	var names []string
	for _, f := range cfg.Faults {
		names = append(names, f.Name)
	}
	assert.Equal(t, []string{"Banner", "NonJSONLine", "ReplaceWithJSONRPCError", "Truncate", "CloseBefore"}, names)
	assert.JSONEq(t, `"debug: listing tools"`, string(cfg.Faults[1].Params["text"]))
	assert.JSONEq(t, `"tools/list"`, string(cfg.Faults[1].Params["method"]))
	assert.JSONEq(t, `"Server v1 starting..."`, string(cfg.Faults[0].Params["text"]))
	assert.JSONEq(t, `2`, string(cfg.Faults[4].Params["session"]))
	notes := strings.Join(cfg.Notes, "\n")
	for _, want := range []string{"Banner fault", "roots/list requests", "notifications/message", "websiteUrl", "Truncate fault", "CloseBefore fault", "ReplaceWithJSONRPCError fault", "NonJSONLine fault"} {
		assert.Contains(t, notes, want)
	}
	assert.Equal(t, "s", cfg.Server.Name)
	assert.Equal(t, []string{"2025-06-18"}, cfg.ProtocolVersions)
}

func TestRecorderMergesSessions(t *testing.T) {
	r := NewRecorder()
	for s, city := range []string{"Paris", "Oslo"} {
		s++
		r.Message(s, true, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		r.Message(s, false, []byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"w","inputSchema":{"type":"object"}}]}}`))
		r.Message(s, true, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"w","arguments":{"city":"`+city+`"}}}`))
		r.Message(s, false, []byte(`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"`+city+`"}]}}`))
	}
	cfg := r.Config()
	require.Len(t, cfg.Tools, 1)
	require.Len(t, cfg.Tools[0].Cases, 2)
	assert.Equal(t, `{"content":[{"type":"text","text":"Oslo"}]}`, string(cfg.Tools[0].Cases[1].Replies[0].Result))
}

func TestRecordingOfStatelessEraDropsWhatTheMockAdds(t *testing.T) {
	r := NewRecorder()
	r.Message(1, true, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"w","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`))
	r.Message(1, false, []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}}`))
	cfg := r.Config()
	assert.Equal(t, `{"content":[]}`, string(cfg.Tools[0].Cases[0].Replies[0].Result))
	assert.True(t, gjson.Valid(string(cfg.Tools[0].Cases[0].Arguments)))
}

// A recording merged into (Include, mcpmock record --append) is the
// recording of both sessions.
func TestRecorderIncludeIsLikeOneRecording(t *testing.T) {
	orig := original(t)
	play(t, orig)
	play(t, orig) // a second session: sequences go on (sun after rain)
	both := FromServer(orig, "structuredContent.token")
	wantJSON, err := both.JSON()
	require.NoError(t, err)

	ms := orig.Journal().All()
	first, second := ms.InSession(1), ms.InSession(2)
	a, err := FromJournal(first, "structuredContent.token").JSON()
	require.NoError(t, err)
	fromFile, err := Parse("a.json", a)
	require.NoError(t, err)
	r := NewRecorder("structuredContent.token")
	r.Include(fromFile)
	for _, m := range second {
		r.Message(2, m.Direction == mcptest.FromClient, []byte(m.Raw()))
	}
	got, err := r.Config().JSON()
	require.NoError(t, err)
	assert.JSONEq(t, string(wantJSON), string(got))
}

// Definitions the format cannot write as they came are kept in "fields",
// so that the replayed list is the real one.
func TestRecordedListsKeepWhatTheFormatCannotName(t *testing.T) {
	prompts := `[{"name":"p","arguments":[{"name":"state","required":false}]},{"name":"q","title":"Q","arguments":[{"name":"a","title":"A"}],"_meta":{"k":1}}]`
	r := NewRecorder()
	r.Message(1, true, []byte(`{"jsonrpc":"2.0","id":1,"method":"prompts/list"}`))
	r.Message(1, false, []byte(`{"jsonrpc":"2.0","id":1,"result":{"prompts":`+prompts+`}}`))
	b, err := r.Config().JSON()
	require.NoError(t, err)
	cfg, err := Parse("rec.json", b)
	require.NoError(t, err, "%s", b)
	s := dialRaw(t, cfg.NewServer(t))
	assert.Equal(t, prompts, s.call("prompts/list", `{}`).Get("result.prompts").Raw)
}

func TestIncludeAddsUpRepeatedNotes(t *testing.T) {
	logMsg := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}`)
	r := NewRecorder()
	r.Message(1, false, logMsg)
	r.Message(1, false, logMsg)
	first := r.Config()
	require.Equal(t, []string{"the server sent log messages (notifications/message): not replayed (2 times)", notePlaceholderServer}, first.Notes)
	assert.Equal(t, first.Notes, r.Config().Notes, "Config does not change the Recorder")
	m := NewRecorder()
	m.Include(first)
	m.Message(1, false, logMsg)
	assert.Equal(t, []string{"the server sent log messages (notifications/message): not replayed (3 times)", notePlaceholderServer}, m.Config().Notes)
}

func TestRedactEveryElement(t *testing.T) {
	r := NewRecorder("content.#.text", "structuredContent.absent")
	r.Message(1, true, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"w","arguments":{}}}`))
	r.Message(1, false, []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a-secret"},{"type":"image","data":"x"},{"type":"text","text":"b-secret"}]}}`))
	cfg := r.Config()
	assert.Equal(t, `{"content":[{"type":"text","text":"[REDACTED]"},{"type":"image","data":"x"},{"type":"text","text":"[REDACTED]"}]}`, string(cfg.Tools[0].Cases[0].Replies[0].Result))
	assert.Equal(t, []string{"tools/call w: result.content.0.text", "tools/call w: result.content.2.text"}, cfg.Redacted)
}

func TestCancelledRequestIsNoCrash(t *testing.T) {
	r := NewRecorder()
	r.Message(1, true, []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow","arguments":{}}}`))
	r.Message(1, true, []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"timeout"}}`))
	r.Ended(1, nil)
	cfg := r.Config()
	assert.Empty(t, cfg.Faults, "a cancelled call left unanswered is no CloseBefore")
	assert.Contains(t, strings.Join(cfg.Notes, "\n"), "the client cancelled tools/call requests")
}

func TestForgetSaysWhatItDrops(t *testing.T) {
	r := NewRecorder()
	r.Message(3, true, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	r.Message(3, false, []byte(`oops, not JSON`))
	r.Forget(3)
	assert.Equal(t, []string{`exchange 3: a body that is not JSON-RPC ("oops, not JSON")`}, r.Dropped())
	assert.Empty(t, r.Config().Faults, "no Banner over HTTP")
}

func TestCallsToWhatTheListsDoNotHaveAreNotInvented(t *testing.T) {
	r := NewRecorder()
	r.Message(1, true, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	r.Message(1, false, []byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}}`))
	r.Message(1, true, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"nope","arguments":{}}}`))
	r.Message(1, false, []byte(`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"unknown tool nope"}}`))
	r.Message(1, true, []byte(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"hidden","arguments":{}}}`))
	r.Message(1, false, []byte(`{"jsonrpc":"2.0","id":3,"result":{"content":[]}}`))
	cfg := r.Config()
	var names []string
	for _, tl := range cfg.Tools {
		names = append(names, tl.Name)
	}
	assert.Equal(t, []string{"a", "hidden"}, names, "a tool that answered is kept (unlisted); one that only errs is not invented")
	assert.True(t, cfg.Tools[1].Unlisted)
	assert.Contains(t, strings.Join(cfg.Notes, "\n"), `tool "nope", which the list does not have`)
}

func TestRedactLeavesKeysAlone(t *testing.T) {
	r := NewRecorder("structuredContent.role")
	r.Message(1, true, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"w","arguments":{}}}`))
	r.Message(1, false, []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"role\":\"admin\",\"admin\":1}"}],"structuredContent":{"role":"admin","admin":1}}}`))
	cfg := r.Config()
	assert.Equal(t, `{"content":[{"type":"text","text":"{\"role\":\"[REDACTED]\",\"[REDACTED]\":1}"}],"structuredContent":{"role":"[REDACTED]","admin":1}}`, string(cfg.Tools[0].Cases[0].Replies[0].Result), "the key \"admin\" stays; inside a text, all is text")
}

func TestRedactArgumentsLeavesThemOutOfTheCase(t *testing.T) {
	r := NewRecorder("arguments.apiKey")
	r.Message(1, true, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"w","arguments":{"city":"Paris","apiKey":"k-secret-1"}}}`))
	r.Message(1, false, []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`))
	cfg := r.Config()
	b, err := cfg.JSON()
	require.NoError(t, err)
	assert.NotContains(t, string(b), "k-secret-1")
	assert.JSONEq(t, `{"city":"Paris"}`, string(cfg.Tools[0].Cases[0].Arguments))
	assert.Equal(t, []string{"tools/call w: arguments.apiKey (left out of the case: any value matches)"}, cfg.Redacted)
	s := dialRaw(t, cfg.NewServer(t))
	resp := s.call("tools/call", `{"name":"w","arguments":{"city":"Paris","apiKey":"another"}}`)
	assert.Equal(t, `{"content":[]}`, resp.Get("result").Raw, "any key matches")
}

func TestUnaskedBatchBecomesBatched(t *testing.T) {
	r := NewRecorder()
	r.Message(1, true, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	r.Message(1, false, []byte(`[{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}},{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}]`))
	cfg := r.Config()
	require.Len(t, cfg.Faults, 1)
	assert.Equal(t, "Batched", cfg.Faults[0].Name)
	assert.JSONEq(t, `"tools/list"`, string(cfg.Faults[0].Params["method"]))
	b, err := cfg.JSON()
	require.NoError(t, err)
	_, err = Parse("rec.json", b)
	require.NoError(t, err)
}
