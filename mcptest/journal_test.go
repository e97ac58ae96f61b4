package mcptest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/mcpmock/mcpmock/internal/spec"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/mcptest"
)

// journalFixture runs two sessions of known traffic and returns the server.
//
// Session 1: handshake; tools/list (1); tools/call a {"age":25} (2);
// tools/call b (3); ping (4); notifications/progress; a line that is not
// JSON; the server notifies tools/list_changed and pings the client, which
// answers. Session 2: handshake; ping (1).
func journalFixture(t *testing.T) *mcptest.Server {
	t.Helper()
	srv := mcptest.NewServer(t).
		WithTools(mcptest.NewTool("a").ReturnsText("A"), mcptest.NewTool("b").ReturnsText("B")).
		ExpectViolation("jsonrpc/parse-error")
	c1 := dialRaw(t, srv)
	c1.handshake(t, "2025-11-25")
	c1.result(t, "1", "tools/list", "")
	c1.result(t, "2", "tools/call", `{"name":"a","arguments":{"age":25,"tags":["x","y"]}}`)
	c1.result(t, "3", "tools/call", `{"name":"b"}`)
	c1.ping(t, "4")
	c1.notify("notifications/progress", `{"progressToken":"t","progress":1}`)
	c1.send("oops")
	if got := c1.recvJSON(t).Get("error.code").Int(); got != spec.CodeParseError {
		t.Fatalf("want -32700 for a line that is not JSON, got %d", got)
	}
	if n := srv.Broadcast("notifications/tools/list_changed", nil); n != 1 {
		t.Fatalf("Notify: want it sent to the one ready session, got %d", n)
	}
	if got := c1.recvJSON(t).Get("method").String(); got != "notifications/tools/list_changed" {
		t.Fatalf("want notifications/tools/list_changed, got %q", got)
	}
	answerServerPing(t, srv, c1)

	c2 := dialRaw(t, srv)
	c2.handshake(t, "2025-06-18")
	c2.ping(t, "1")
	return srv
}

// journalSummary renders messages as "s<session> <dir> <kind> [<method>] [<id>]" lines.
func journalSummary(msgs []mcptest.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		dir := "→"
		if m.Direction == mcptest.FromServer {
			dir = "←"
		}
		fields := []string{fmt.Sprintf("s%d", m.SessionNumber), dir, m.Kind.String()}
		for _, f := range []string{m.Method, m.ID} {
			if f != "" {
				fields = append(fields, f)
			}
		}
		b.WriteString(strings.Join(fields, " ") + "\n")
	}
	return b.String()
}

func checkSummary(t *testing.T, query string, got []mcptest.Message, want string) {
	t.Helper()
	want = strings.TrimLeft(want, "\n")
	if s := journalSummary(got); s != want {
		t.Errorf("%s:\nwant:\n%sgot:\n%s", query, want, s)
	}
}

func TestJournalAll(t *testing.T) {
	srv := journalFixture(t)
	all := srv.Journal().All()
	if srv.Journal().Len() != len(all) {
		t.Errorf("Len: want %d, as All, got %d", len(all), srv.Journal().Len())
	}
	checkSummary(t, "All()", all, `
s1 → request initialize "init"
s1 ← result initialize "init"
s1 → notification notifications/initialized
s1 → request tools/list 1
s1 ← result tools/list 1
s1 → request tools/call 2
s1 ← result tools/call 2
s1 → request tools/call 3
s1 ← result tools/call 3
s1 → request ping 4
s1 ← result ping 4
s1 → notification notifications/progress
s1 → invalid
s1 ← error null
s1 ← notification notifications/tools/list_changed
s1 ← request ping 1
s1 → result ping 1
s2 → request initialize "init"
s2 ← result initialize "init"
s2 → notification notifications/initialized
s2 → request ping 1
s2 ← result ping 1
`)
	for i, m := range all {
		if m.Seq != i+1 {
			t.Errorf("want Seq %d at position %d, got %d", i+1, i, m.Seq)
		}
		if m.Time.IsZero() {
			t.Errorf("want a Time on every message, #%d has none", m.Seq)
		}
		if strings.HasSuffix(m.Raw(), "\n") || m.Raw() == "" {
			t.Errorf("want Raw without its newline and not empty, #%d is %q", m.Seq, m.Raw())
		}
	}
	if e := all[13]; e.ErrorCode != spec.CodeParseError || e.Get("error.code").Int() != spec.CodeParseError {
		t.Errorf("want the parse error reply journaled with ErrorCode -32700, got %s", e)
	}
}

func TestJournalRequests(t *testing.T) {
	j := journalFixture(t).Journal().All()
	checkSummary(t, `Requests("tools/call")`, j.Requests("tools/call"), `
s1 → request tools/call 2
s1 → request tools/call 3
`)
	checkSummary(t, `Requests("")`, j.Requests(""), `
s1 → request initialize "init"
s1 → request tools/list 1
s1 → request tools/call 2
s1 → request tools/call 3
s1 → request ping 4
s1 ← request ping 1
s2 → request initialize "init"
s2 → request ping 1
`)
	checkSummary(t, `From(FromClient).Requests("ping")`, j.From(mcptest.FromClient).Requests("ping"), `
s1 → request ping 4
s2 → request ping 1
`)
	if got := j.Requests("resources/list"); len(got) != 0 {
		t.Errorf(`Requests("resources/list"): want none, got %v`, got)
	}
	checkSummary(t, `From(FromServer).Requests("")`, j.From(mcptest.FromServer).Requests(""), "s1 ← request ping 1\n")
	checkSummary(t, `From(FromServer).Requests("ping")`, j.From(mcptest.FromServer).Requests("ping"), "s1 ← request ping 1\n")
	if got := j.From(mcptest.FromServer).Requests("roots/list"); len(got) != 0 {
		t.Errorf(`From(FromServer).Requests("roots/list"): want none, got %v`, got)
	}
}

func TestJournalNotifications(t *testing.T) {
	j := journalFixture(t).Journal().All()
	checkSummary(t, `Notifications("notifications/initialized")`, j.Notifications("notifications/initialized"), `
s1 → notification notifications/initialized
s2 → notification notifications/initialized
`)
	checkSummary(t, `Notifications("")`, j.Notifications(""), `
s1 → notification notifications/initialized
s1 → notification notifications/progress
s1 ← notification notifications/tools/list_changed
s2 → notification notifications/initialized
`)
}

// TestJournalResponses: responses carry the method of the request they
// answer, in both directions.
func TestJournalResponses(t *testing.T) {
	j := journalFixture(t).Journal().All()
	checkSummary(t, `Responses("tools/call")`, j.Responses("tools/call"), `
s1 ← result tools/call 2
s1 ← result tools/call 3
`)
	checkSummary(t, `Responses("ping")`, j.Responses("ping"), `
s1 ← result ping 4
s1 → result ping 1
s2 ← result ping 1
`)
	checkSummary(t, `Responses("initialize")`, j.Responses("initialize"), `
s1 ← result initialize "init"
s2 ← result initialize "init"
`)
	if got := len(j.Responses("")); got != 9 {
		t.Errorf(`Responses(""): want all 9 responses, got %d:%s`, got, journalSummary(j.Responses("")))
	}
	// Every response comes after the request it answers.
	all := j
	for _, r := range j.Responses("") {
		if r.ID == "null" {
			continue
		}
		i := slices.IndexFunc(all, func(m mcptest.Message) bool {
			return m.IsRequest() && m.SessionNumber == r.SessionNumber && m.ID == r.ID && m.Direction != r.Direction
		})
		if i < 0 || all[i].Seq >= r.Seq || all[i].Method != r.Method {
			t.Errorf("want the request answered by %s before it, with the same method", r)
		}
	}
}

func TestJournalToolCalls(t *testing.T) {
	j := journalFixture(t).Journal().All()
	calls := j.ToolCalls("a")
	if len(calls) != 1 || calls[0].Get("params.arguments.age").Int() != 25 {
		t.Fatalf(`ToolCalls("a"): want the call with age 25, got %v`, calls)
	}
	if got := len(j.ToolCalls("")); got != 2 {
		t.Errorf(`ToolCalls(""): want both calls, got %d`, got)
	}
	if got := j.ToolCalls("c"); len(got) != 0 {
		t.Errorf(`ToolCalls("c"): want none, got %v`, got)
	}
}

func TestJournalWhere(t *testing.T) {
	j := journalFixture(t).Journal().All()
	tests := []struct {
		path string
		want any
		n    int
	}{
		{"params.name", "a", 1},
		{"params.name", "c", 0},
		{"params.arguments.age", 25, 1},
		{"params.arguments.age", 25.0, 1},
		{"params.arguments.age", "25", 0}, // a string is not a number
		{"params.arguments", json.RawMessage(`{"age":25,"tags":["x","y"]}`), 1},
		{"params.arguments", json.RawMessage(`{"age":25}`), 0}, // objects compare whole
		{"params.arguments.tags", []string{"x", "y"}, 1},
		{"params.arguments.tags", []string{"y", "x"}, 0},
		{"method", "ping", 3},           // two client pings, one of the server
		{"id", "init", 4},               // both initialize requests and their results
		{"id", 1, 6},                    // a request id is per session and per direction
		{"result", map[string]any{}, 3}, // the ping results, both directions
		{"params.clientInfo.name", "rawclient", 2},
		{"error.code", spec.CodeParseError, 1},
		{"no.such.path", 1, 0},
		{"params.name", json.RawMessage(`{bad`), 0},
		{"params.name", func() {}, 0}, // cannot be encoded: matches nothing
	}
	for _, tc := range tests {
		if got := j.Where(tc.path, tc.want); len(got) != tc.n {
			t.Errorf("Where(%q, %#v): want %d messages, got %d:\n%s", tc.path, tc.want, tc.n, len(got), journalSummary(got))
		}
	}
}

func TestJournalWhereNull(t *testing.T) {
	srv := mcptest.NewServer(t).ExpectViolation("jsonrpc/unexpected-response")
	c := dialRaw(t, srv)
	c.send(`{"jsonrpc":"2.0","id":1,"result":null}`)
	c.ping(t, "2")
	if got := srv.Journal().All().Where("result", nil); len(got) != 1 {
		t.Fatalf(`Where("result", nil): want the response with a null result, got %v`, got)
	}
}

func TestJournalFilterSessionInvalid(t *testing.T) {
	j := journalFixture(t).Journal().All()
	all := j
	s1, s2 := j.InSession(1), j.InSession(2)
	if len(s1)+len(s2) != len(all) || len(s2) != 5 {
		t.Fatalf("Session: want sessions of %d and 5 messages covering the journal, got %d and %d", len(all)-5, len(s1), len(s2))
	}
	for n, msgs := range map[int][]mcptest.Message{1: s1, 2: s2} {
		for _, m := range msgs {
			if m.SessionNumber != n {
				t.Errorf("Session(%d): want only its messages, got %s", n, m)
			}
		}
	}
	if got := j.InSession(3); len(got) != 0 {
		t.Errorf("Session(3): want none, got %v", got)
	}
	inv := j.Invalid()
	if len(inv) != 1 || inv[0].Raw() != "oops" || inv[0].Problem == "" || inv[0].Kind != mcptest.KindInvalid {
		t.Fatalf(`Invalid(): want the "oops" line with its Problem, got %v`, inv)
	}
	fromServer := j.Filter(func(m mcptest.Message) bool { return m.Direction == mcptest.FromServer })
	if len(fromServer) != 10 {
		t.Errorf("Filter(from the server): want 10 messages, got %d:\n%s", len(fromServer), journalSummary(fromServer))
	}
	if got := j.Filter(func(mcptest.Message) bool { return false }); len(got) != 0 {
		t.Errorf("Filter(none): want no messages, got %d", len(got))
	}
	// keep may query the journal itself: it runs without the lock held.
	nested := j.Filter(func(m mcptest.Message) bool { return len(j) > 0 && m.Seq == 1 })
	if len(nested) != 1 {
		t.Errorf("Filter with a keep that queries the journal: want 1, got %d", len(nested))
	}
}

// TestJournalReturnsCopies: what a query returns is the caller's to change.
func TestJournalReturnsCopies(t *testing.T) {
	journal := journalFixture(t).Journal()
	j := journal.All()
	before := journalSummary(j)
	queries := map[string]func() mcptest.Messages{
		"All":           journal.All,
		"Requests":      func() mcptest.Messages { return j.Requests("") },
		"Notifications": func() mcptest.Messages { return j.Notifications("") },
		"Responses":     func() mcptest.Messages { return j.Responses("") },
		"ToolCalls":     func() mcptest.Messages { return j.ToolCalls("") },
		"Session":       func() mcptest.Messages { return j.InSession(1) },
		"Invalid":       j.Invalid,
		"Where":         func() mcptest.Messages { return j.Where("method", "ping") },
		"Filter":        func() mcptest.Messages { return j.Filter(func(mcptest.Message) bool { return true }) },
	}
	for name, q := range queries {
		got := q()
		if len(got) == 0 {
			t.Fatalf("%s: want messages to change, got none", name)
		}
		for i := range got {
			got[i].Method, got[i].Seq, got[i].Kind = "changed", -1, mcptest.KindInvalid
		}
		_ = append(got[:1], mcptest.Message{Method: "appended"})
		if after := journalSummary(j); after != before {
			t.Fatalf("%s: want the journal unchanged after changing the returned slice, got:\n%s", name, after)
		}
	}
}

func TestMessageString(t *testing.T) {
	j := journalFixture(t).Journal().All()
	for _, c := range []struct {
		m    mcptest.Message
		want string
	}{
		{j.Requests("tools/call")[0], "#6 s1 client→server request tools/call id=2"},
		{j.Invalid()[0], "#13 s1 client→server invalid (not valid JSON)"},
		{j[13], "#14 s1 server→client error id=null code=-32700"},
		{j.Notifications("notifications/progress")[0], "#12 s1 client→server notification notifications/progress"},
	} {
		if got := c.m.String(); got != c.want {
			t.Errorf("String: want %q, got %q", c.want, got)
		}
	}
	if got := mcptest.Direction(9).String(); got != "Direction(9)" {
		t.Errorf("Direction(9).String: want %q, got %q", "Direction(9)", got)
	}
}

// TestJournalLong: a journal longer than one chunk keeps order and
// numbering, and queries run safely while it grows.
func TestJournalLong(t *testing.T) {
	srv := mcptest.NewServer(t)
	c := dialRaw(t, srv)
	c.handshake(t, "2025-11-25")
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() { // a reader racing the writers
		defer wg.Done()
		last := 0
		for {
			select {
			case <-stop:
				return
			default:
			}
			all := srv.Journal().All()
			if len(all) < last {
				t.Errorf("want the journal never to shrink, %d then %d", last, len(all))
				return
			}
			for i, m := range all {
				if m.Seq != i+1 {
					t.Errorf("want Seq %d at %d while growing, got %d", i+1, i, m.Seq)
					return
				}
			}
			last = len(all)
		}
	}()
	const pings = 1500
	for i := range pings {
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i))
	}
	for i := range pings {
		if got := c.recvJSON(t).Get("id").Int(); got != int64(i) {
			t.Fatalf("want ping %d answered in order, got id %d", i, got)
		}
	}
	close(stop)
	wg.Wait()
	j := srv.Journal().All()
	all := j
	if len(all) != 3+2*pings || len(j) != len(all) {
		t.Fatalf("want %d messages, got %d (Len %d)", 3+2*pings, len(all), len(j))
	}
	for i, m := range all {
		if m.Seq != i+1 {
			t.Fatalf("want Seq %d at %d, got %d", i+1, i, m.Seq)
		}
	}
	if got := len(j.Requests("ping")); got != pings {
		t.Errorf(`Requests("ping"): want %d, got %d`, pings, got)
	}
	if got := j.Where("id", 1234); len(got) != 2 || got[0].Seq != 3+2*1234+1 {
		t.Errorf(`Where("id", 1234): want the request at #%d and its result, got %v`, 3+2*1234+1, got)
	}
}

// TestMessagesDirectionRule: queries select by what a message is, both
// ways; FromClient and FromServer narrow to one side, and compose.
func TestMessagesDirectionRule(t *testing.T) {
	j := journalFixture(t).Journal().All()
	all := j
	if c, s := len(all.From(mcptest.FromClient)), len(all.From(mcptest.FromServer)); c+s != len(all) || s != 10 {
		t.Fatalf("FromClient/FromServer: want them to split the journal, 10 from the server; got %d and %d of %d", c, s, len(all))
	}
	checkSummary(t, `Requests("ping")`, all.Requests("ping"), `
s1 → request ping 4
s1 ← request ping 1
s2 → request ping 1
`)
	checkSummary(t, `From(FromServer).Notifications("")`, all.From(mcptest.FromServer).Notifications(""), "s1 ← notification notifications/tools/list_changed\n")
	checkSummary(t, `From(FromClient).Responses("ping")`, all.From(mcptest.FromClient).Responses("ping"), "s1 → result ping 1\n")
	// The journal's queries are the same as those of its messages.
	for name, pair := range map[string][2]mcptest.Messages{
		"Requests":      {j.Requests(""), all.Requests("")},
		"Notifications": {j.Notifications(""), all.Notifications("")},
		"Responses":     {j.Responses("ping"), all.Responses("ping")},
		"ToolCalls":     {j.ToolCalls("a"), all.ToolCalls("a")},
		"Session":       {j.InSession(2), all.InSession(2)},
		"Invalid":       {j.Invalid(), all.Invalid()},
		"Where":         {j.Where("method", "ping"), all.Where("method", "ping")},
		"FromClient":    {j.From(mcptest.FromClient), all.From(mcptest.FromClient)},
		"FromServer":    {j.From(mcptest.FromServer), all.From(mcptest.FromServer)},
		"After":         {j.After(5), all.After(5)},
	} {
		if journalSummary(pair[0]) != journalSummary(pair[1]) || len(pair[0]) == 0 {
			t.Errorf("%s: want the journal's query equal to the same query of All(), and not empty:\n%s---\n%s", name, journalSummary(pair[0]), journalSummary(pair[1]))
		}
	}
	if got := all.After(all[len(all)-3].Seq); len(got) != 2 || got[0].Seq != all[len(all)-2].Seq {
		t.Errorf("After: want the last two messages, got %v", got)
	}
	if j.After(len(all)) != nil || len(j.After(-1)) != len(all) {
		t.Errorf("After: want nothing after the last message and everything after -1")
	}
	if got := all.Requests("resources/read"); got != nil {
		t.Errorf("want nil for no match, got %#v", got)
	}
}

// TestMessagesPairing: ResponseTo and RequestOf pair a request with its
// response, in both directions, by session, id and direction.
func TestMessagesPairing(t *testing.T) {
	j := journalFixture(t).Journal().All()
	for _, req := range j.Requests("") {
		resp, ok := j.ResponseTo(req)
		if !ok {
			t.Errorf("ResponseTo(%s): want its response", req)
			continue
		}
		if resp.SessionNumber != req.SessionNumber || resp.ID != req.ID || resp.Direction == req.Direction || resp.Seq < req.Seq || resp.Method != req.Method {
			t.Errorf("ResponseTo(%s) = %s: want the same session, id and method, the other direction, later", req, resp)
		}
		back, ok := j.RequestOf(resp)
		if !ok || back.Seq != req.Seq {
			t.Errorf("RequestOf(%s) = %s, %v: want %s", resp, back, ok, req)
		}
	}
	// s1 and s2 both have a ping with id 1; s1's server ping is id 1 too.
	s2ping := j.InSession(2).Requests("ping")[0]
	if resp, _ := j.ResponseTo(s2ping); resp.SessionNumber != 2 {
		t.Errorf("want the response of session 2's ping from session 2, got %s", resp)
	}
	serverPing := j.From(mcptest.FromServer).Requests("ping")[0]
	if resp, _ := j.ResponseTo(serverPing); resp.Direction != mcptest.FromClient || resp.SessionNumber != 1 {
		t.Errorf("want the client's answer to the mock's ping, got %s", resp)
	}
	parseErr := j.Responses("").Where("error.code", spec.CodeParseError)[0]
	if req, ok := j.RequestOf(parseErr); ok {
		t.Errorf("want no request for the reply to a line that was not JSON (id null), got %s", req)
	}
	if _, ok := j.ResponseTo(j.Notifications("")[0]); ok {
		t.Errorf("want no response to a notification")
	}
	if _, ok := j.RequestOf(j.Requests("")[0]); ok {
		t.Errorf("want RequestOf of a request to find nothing")
	}
}

// TestTranscriptGroupsSessions: interleaved sessions are rendered session
// by session, in the order they first appear, each in wire order.
func TestTranscriptGroupsSessions(t *testing.T) {
	srv := mcptest.NewServer(t)
	c1, c2 := dialRaw(t, srv), dialRaw(t, srv)
	c2.ping(t, "1")
	c1.ping(t, "7")
	c2.ping(t, "2")
	tr := srv.Transcript()
	want := `session 2
  1 → {"jsonrpc":"2.0","id":1,"method":"ping"}
  2 ← {"jsonrpc":"2.0","id":1,"result":{}}
  5 → {"jsonrpc":"2.0","id":2,"method":"ping"}
  6 ← {"jsonrpc":"2.0","id":2,"result":{}}
session 1
  3 → {"jsonrpc":"2.0","id":7,"method":"ping"}
  4 ← {"jsonrpc":"2.0","id":7,"result":{}}
`
	if tr != want {
		t.Errorf("want:\n%sgot:\n%s", want, tr)
	}
	if got := srv.Journal().All().Transcript(); got != tr {
		t.Errorf("Messages.Transcript(All()): want the server's transcript, got:\n%s", got)
	}
}

// TestJournalLimit: with Options.JournalLimit the journal keeps the head of
// each long message and all of its metadata; the mock serves it whole.
func TestJournalLimit(t *testing.T) {
	long := strings.Repeat("z", 5000)
	srv := mcptest.NewServer(t).WithOptions(mcptest.Options{JournalLimit: 100}).WithTools(mcptest.NewTool("echo").
		HandledBy(func(ctx context.Context, req *mcptest.Request) mcptest.Reply {
			return mcptest.TextResult(req.Message.Get("params.arguments.text").String())
		}))
	c := dialRaw(t, srv)
	c.handshake(t, "2025-11-25")
	got := c.result(t, "7", "tools/call", `{"name":"echo","arguments":{"text":"`+long+`"}}`)
	if text := got.Get("content.0.text").String(); text != long {
		t.Fatalf("want the handler to get the whole arguments and echo them, got %d bytes", len(text))
	}
	j := srv.Journal().All()
	call := j.ToolCalls("echo")
	if len(call) != 1 || call[0].ID != "7" || call[0].Method != "tools/call" || len(call[0].Raw()) != 100 || call[0].Truncated() < 4900 {
		t.Fatalf("want the call journaled with its metadata and its first 100 bytes, got %v (%d bytes kept, %d cut)", call, len(call[0].Raw()), call[0].Truncated())
	}
	reply, ok := j.ResponseTo(call[0])
	if !ok || len(reply.Raw()) != 100 || reply.Truncated() == 0 || reply.Kind != mcptest.KindResult {
		t.Fatalf("want the reply paired and cut, got %v", reply)
	}
	for _, m := range j {
		if m.Truncated() > 0 && (m.Method == "initialize" || len(m.Raw()) != 100) {
			t.Errorf("want only messages longer than 100 bytes cut, and never initialize or its result, got %s cut by %d", m, m.Truncated())
		}
	}
	srv.AssertHandshakeCompleted(t) // reads the initialize result
	if tr := srv.Transcript(); !strings.Contains(tr, fmt.Sprintf("… (%d more bytes)", call[0].Truncated())) {
		t.Errorf("want the transcript to say how much was left out, got:\n%s", tr)
	}
	fake := faketb.New(t)
	bad := mcptest.NewServer(fake)
	if fake.Run(func() { bad.WithOptions(mcptest.Options{JournalLimit: -1}) }) {
		t.Fatal("want JournalLimit -1 to fail the test at once")
	}
	if msg := fake.FatalOutput(); !strings.Contains(msg, "WithOptions") || !strings.Contains(msg, "JournalLimit -1 is negative") {
		t.Errorf("want the failure to name the call and the problem, got %q", msg)
	}
}
