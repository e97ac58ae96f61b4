package mcptest

import (
	"encoding/json"
	"sync"

	"github.com/tidwall/gjson"
)

// Journal is the ordered record of every frame that crossed the wire of a
// Server's sessions, in both directions: a concurrency-safe, append-only
// collection. Every query returns a fresh slice; Messages are values.
type Journal struct {
	mu      sync.Mutex
	chunks  [][]Message   // fixed-size chunks: appending never copies what is recorded
	n       int           // messages recorded
	changed chan struct{} // closed at the next append; nil while nobody waits
}

const journalChunk = 1024

func newJournal() *Journal { return &Journal{} }

// record appends m, giving it its sequence number, and returns it.
func (j *Journal) record(m Message) Message {
	j.mu.Lock()
	j.n++
	m.Seq = j.n
	if k := len(j.chunks); k == 0 || len(j.chunks[k-1]) == journalChunk {
		j.chunks = append(j.chunks, make([]Message, 0, journalChunk))
	}
	last := &j.chunks[len(j.chunks)-1]
	*last = append(*last, m)
	ch := j.changed
	j.changed = nil
	j.mu.Unlock()
	if ch != nil {
		close(ch)
	}
	return m
}

// amend changes a message already recorded, for a frame whose writing
// was cut short after it was journaled: the journal says what went on the wire.
func (j *Journal) amend(seq int, change func(*Message)) {
	j.mu.Lock()
	defer j.mu.Unlock()
	i := seq - 1
	if i < 0 || i >= j.n {
		return
	}
	change(&j.chunks[i/journalChunk][i%journalChunk])
}

// since returns the messages from index i on, and a channel closed at the
// next append.
func (j *Journal) since(i int) ([]Message, <-chan struct{}) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.changed == nil {
		j.changed = make(chan struct{})
	}
	out := make([]Message, 0, max(0, j.n-i))
	for c, chunk := range j.chunks {
		start := c * journalChunk
		if start+len(chunk) <= i {
			continue
		}
		out = append(out, chunk[max(0, i-start):]...)
	}
	return out, j.changed
}

// All returns every message, in wire order.
func (j *Journal) All() []Message {
	msgs, _ := j.since(0)
	return msgs
}

// Len returns the number of messages recorded so far.
func (j *Journal) Len() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.n
}

// Filter returns the messages for which keep returns true, in wire order.
// keep runs without the journal's lock held.
func (j *Journal) Filter(keep func(Message) bool) []Message {
	var out []Message
	for _, m := range j.All() {
		if keep(m) {
			out = append(out, m)
		}
	}
	return out
}

// Requests returns the requests the client sent with the given method.
// An empty method matches every client request.
func (j *Journal) Requests(method string) []Message {
	return j.Filter(func(m Message) bool {
		return m.Direction == FromClient && m.Kind == KindRequest && (method == "" || m.Method == method)
	})
}

// Notifications returns the notifications sent in either direction with the
// given method. An empty method matches every notification.
func (j *Journal) Notifications(method string) []Message {
	return j.Filter(func(m Message) bool {
		return m.Kind == KindNotification && (method == "" || m.Method == method)
	})
}

// Responses returns the responses (results and errors, either direction)
// to requests of the given method. An empty method matches every response.
func (j *Journal) Responses(method string) []Message {
	return j.Filter(func(m Message) bool {
		return m.IsResponse() && (method == "" || m.Method == method)
	})
}

// ServerRequests returns the requests the mock sent to the client with the
// given method; an empty method matches all.
func (j *Journal) ServerRequests(method string) []Message {
	return j.Filter(func(m Message) bool {
		return m.Direction == FromServer && m.Kind == KindRequest && (method == "" || m.Method == method)
	})
}

// ToolCalls returns the tools/call requests for the named tool; an empty
// name matches every tool.
func (j *Journal) ToolCalls(name string) []Message {
	return j.Filter(func(m Message) bool {
		return m.Direction == FromClient && m.Kind == KindRequest && m.Method == "tools/call" &&
			(name == "" || m.Get("params.name").String() == name)
	})
}

// Session returns the messages of one session, numbered from 1 in Dial order.
func (j *Journal) Session(n int) []Message {
	return j.Filter(func(m Message) bool { return m.Session == n })
}

// Invalid returns the frames that were not valid JSON-RPC messages.
func (j *Journal) Invalid() []Message {
	return j.Filter(func(m Message) bool { return m.Kind == KindInvalid })
}

// Where returns the messages whose value at the gjson path equals want,
// compared as JSON: want may be a Go value (25, "x", true) or a JSON text
// wrapped in json.RawMessage. Messages without the path do not match.
func (j *Journal) Where(path string, want any) []Message {
	wantJSON, err := toJSON(want)
	if want == nil {
		wantJSON = []byte("null")
	}
	if s, ok := want.(string); ok {
		wantJSON, err = json.Marshal(s) // a plain string is a string value, not JSON text
	}
	if err != nil {
		return nil
	}
	var wantV any
	if json.Unmarshal(wantJSON, &wantV) != nil {
		return nil
	}
	return j.Filter(func(m Message) bool {
		r := m.Get(path)
		if !r.Exists() {
			return false
		}
		return jsonEqual(r, wantV)
	})
}

func jsonEqual(r gjson.Result, want any) bool {
	var got any
	if json.Unmarshal([]byte(r.Raw), &got) != nil {
		return false
	}
	ok, _ := subsetDiff(want, got, "", true)
	return ok
}
