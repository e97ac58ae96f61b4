package config

import (
	"bufio"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// A file scripts what a Go test scripts with RequiresInput (rounds of
// input requests) and Tool.Notifies, and marks inputSchema properties with
// x-mcp-header in one line (paramHeaders).
const scriptedFile = `{
  "server": {"name": "scripted", "version": "1"},
  "tools": [
    {"name": "profile",
     "requiresInput": [
       {"step1": {"method": "elicitation/create", "params": {"message": "Your name?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}}},
       {"step2": {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 10}},
        "where": {"method": "roots/list"}}
     ],
     "replies": [{"text": "done"}]},
    {"name": "work",
     "notifications": [
       {"method": "notifications/progress", "params": {"progress": 50, "total": 100}},
       {"method": "notifications/message", "params": {"level": "info", "data": "half way"}}
     ],
     "replies": [{"text": "worked"}]},
    {"name": "exec_sql",
     "inputSchema": {"type": "object", "properties": {"region": {"type": "string"}, "loc": {"type": "object", "properties": {"zone": {"type": "string"}}}}},
     "paramHeaders": {"region": "Region", "loc.zone": "Zone"},
     "replies": [{"text": "ran"}]}
  ],
  "prompts": [
    {"name": "ask", "requiresInput": [{"ctx": {"method": "elicitation/create", "params": {"message": "Context?", "requestedSchema": {"type": "object"}}}}], "text": "with context"}
  ]
}`

// statelessPipe is a 2026-07-28 client on a Dial of srv: it sends raw
// requests and reads every line.
type statelessPipe struct{ s *rawSession }

const pipeMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"sampling":{},"roots":{}},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}%s}`

// call sends method with params members (and extra _meta members) and
// returns the messages up to its reply.
func (p statelessPipe) call(id int, method, members, extraMeta string) []gjson.Result {
	s := p.s
	s.t.Helper()
	if members != "" {
		members += ","
	}
	s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s%s}}`, id, method, members, fmt.Sprintf(pipeMeta, extraMeta)))
	require.NoError(s.t, s.conn.SetReadDeadline(time.Now().Add(10*time.Second)))
	var got []gjson.Result
	for {
		line, err := s.r.ReadBytes('\n')
		require.NoError(s.t, err, "reading the reply to %s", method)
		m := gjson.ParseBytes(line)
		got = append(got, m)
		if m.Get("id").Int() == int64(id) && !m.Get("method").Exists() {
			return got
		}
	}
}

func TestScriptedFile(t *testing.T) {
	c, err := Parse("scripted.json", []byte(scriptedFile))
	require.NoError(t, err)
	srv := c.NewServer(t)
	conn := srv.Dial()
	t.Cleanup(func() { _ = conn.Close() })
	p := statelessPipe{&rawSession{t: t, conn: conn, r: bufio.NewReader(conn)}}
	last := func(ms []gjson.Result) gjson.Result { return ms[len(ms)-1].Get("result") }

	p.call(100, "server/discover", "", "")
	// two rounds: step1, then step2 and where; the requestState carries step1
	r1 := last(p.call(1, "tools/call", `"name":"profile"`, ""))
	require.Equal(t, "input_required", r1.Get("resultType").String(), r1.Raw)
	assert.Equal(t, []string{"step1"}, keys(r1.Get("inputRequests")), r1.Raw)
	assert.Equal(t, "Your name?", r1.Get("inputRequests.step1.params.message").String())
	r2 := last(p.call(2, "tools/call", `"name":"profile","inputResponses":{"step1":{"action":"accept","content":{"name":"Ada"}}},"requestState":`+r1.Get("requestState").Raw, ""))
	assert.Equal(t, []string{"step2", "where"}, keys(r2.Get("inputRequests")), r2.Raw)
	assert.Equal(t, "sampling/createMessage", r2.Get("inputRequests.step2.method").String())
	assert.Equal(t, "roots/list", r2.Get("inputRequests.where.method").String())
	r3 := last(p.call(3, "tools/call", `"name":"profile","inputResponses":{"step2":{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"},"where":{"roots":[]}},"requestState":`+r2.Get("requestState").Raw, ""))
	assert.Equal(t, "done", r3.Get("content.0.text").String(), r3.Raw)

	// notifications before the reply, each as the request asked
	var methods []string
	for _, m := range p.call(4, "tools/call", `"name":"work"`, `,"progressToken":"t1","io.modelcontextprotocol/logLevel":"info"`) {
		methods = append(methods, m.Get("method").String()+m.Get("params.progressToken").String()+m.Get("result.content.0.text").String())
	}
	assert.Equal(t, []string{"notifications/progresst1", "notifications/message", "worked"}, methods)
	quiet := p.call(5, "tools/call", `"name":"work"`, "")
	assert.Len(t, quiet, 1, "no progressToken and no logLevel: the reply alone, got %v", quiet)

	// paramHeaders mark the inputSchema
	list := last(p.call(6, "tools/list", "", ""))
	sql := list.Get(`tools.#(name=="exec_sql").inputSchema.properties`)
	assert.Equal(t, "Region", sql.Get("region.x-mcp-header").String(), list.Raw)
	assert.Equal(t, "Zone", sql.Get("loc.properties.zone.x-mcp-header").String(), list.Raw)

	// a prompt's input round
	pr := last(p.call(7, "prompts/get", `"name":"ask"`, ""))
	assert.Equal(t, "input_required", pr.Get("resultType").String(), pr.Raw)
	pr = last(p.call(8, "prompts/get", `"name":"ask","inputResponses":{"ctx":{"action":"accept","content":{}}},"requestState":`+pr.Get("requestState").Raw, ""))
	assert.Equal(t, "with context", pr.Get("messages.0.content.text").String(), pr.Raw)

	srv.Close()
	assert.Empty(t, srv.Violations())
}

func keys(obj gjson.Result) []string {
	var out []string
	obj.ForEach(func(k, _ gjson.Result) bool { out = append(out, k.String()); return true })
	return out
}

// TestBadScriptedFiles: the mistakes a file can make in these fields are
// reported at their line, saying what to write.
func TestBadScriptedFiles(t *testing.T) {
	for _, tc := range []struct{ name, file, want string }{
		{"notification a server does not send", "{\"tools\": [{\"name\": \"a\",\n \"notifications\": [{\"method\": \"notifications/initialized\"}]}]}",
			`bad.json:2:21: tools[0].notifications[0].method: "notifications/initialized" is no notification a server sends; these are: notifications/cancelled,`},
		{"not a notification", "{\"tools\": [{\"name\": \"a\",\n \"notifications\": [{\"method\": \"tools/list\"}]}]}",
			`bad.json:2:21: tools[0].notifications[0].method: 'tools/list' does not match pattern '^notifications/'`},
		{"elicitation without its message", "{\"tools\": [{\"name\": \"a\",\n \"requiresInput\": [{\"k\": {\"method\": \"elicitation/create\", \"params\": {}}}]}]}",
			`bad.json:2:21: tools[0].requiresInput[0].k: an elicitation/create needs params with "message" (a string) and "requestedSchema" (an object)`},
		{"an input method the era has not", "{\"prompts\": [{\"name\": \"a\",\n \"requiresInput\": [{\"k\": {\"method\": \"ping\"}}]}]}",
			`bad.json:2:27: prompts[0].requiresInput[0].k.method: value must be one of 'elicitation/create', 'sampling/createMessage', 'roots/list'`},
		{"one key in two rounds", "{\"tools\": [{\"name\": \"a\",\n \"requiresInput\": [{\"k\": {\"method\": \"roots/list\"}},\n {\"k\": {\"method\": \"roots/list\"}}]}]}",
			`bad.json:3:3: tools[0].requiresInput[1].k: input "k" is asked in round 0 already: keys must be unique across the rounds`},
		{"an empty round", "{\"tools\": [{\"name\": \"a\",\n \"requiresInput\": [{}]}]}", `bad.json:2:20: tools[0].requiresInput[0]: minProperties`},
		{"a header on a property the schema has not", "{\"tools\": [{\"name\": \"a\", \"inputSchema\": {\"type\": \"object\"},\n \"paramHeaders\": {\"region\": \"Region\"}}]}",
			`bad.json:2:19: tools[0].paramHeaders.region: the inputSchema has no property "region" to mark with x-mcp-header`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("bad.json", []byte(tc.file))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Len(t, strings.Split(err.Error(), "\n"), 1, err.Error())
		})
	}
}
