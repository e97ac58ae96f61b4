package mcptest

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/tidwall/gjson"
)

// Journal is the ordered record of every message that crossed the wire of
// a Server's sessions, in both directions, in wire order: an append-only
// collection, safe for concurrent use while sessions run.
//
// Its queries (Requests, Notifications, Responses, ToolCalls, Where,
// Session, Invalid, Filter, FromClient, FromServer) are those of Messages,
// with the same direction rule, and read the journal in place: j.X(…) is
// j.All().X(…) without copying the journal first, and allocates only for
// what it returns. All returns a copy.
type Journal struct {
	mu       sync.Mutex
	msgs     []Message  // in wire order; what a view covers is never written again (see amend)
	shared   bool       // a view of msgs was handed out since msgs was last copied
	watchers []*watcher // replaced, never changed in place: record reads it without copying
}

// watcher is a goroutine waiting for messages (watch).
type watcher struct {
	wake   func(Message) bool // which messages wake it; nil for every one
	signal chan struct{}      // a token when a waking message was recorded
}

func newJournal() *Journal { return &Journal{} }

// record appends m, giving it its sequence number, wakes the watchers it
// concerns, and returns it.
func (j *Journal) record(m Message) Message {
	j.mu.Lock()
	m.Seq = len(j.msgs) + 1
	j.msgs = append(j.msgs, m) // past every view's end: nothing handed out changes
	ws := j.watchers
	j.mu.Unlock()
	for _, w := range ws {
		if w.wake == nil || w.wake(m) {
			select {
			case w.signal <- struct{}{}:
			default: // a token is already there
			}
		}
	}
	return m
}

// amend changes a message already recorded, for a message whose writing
// was cut short after it was journaled: the journal says what went on the
// wire. Views handed out before keep what they showed: the storage is
// copied first if one exists (a rare event: a connection closed in the
// middle of a write).
func (j *Journal) amend(seq int, change func(*Message)) {
	j.mu.Lock()
	defer j.mu.Unlock()
	i := seq - 1
	if i < 0 || i >= len(j.msgs) {
		return
	}
	if j.shared {
		j.msgs = append(make([]Message, 0, cap(j.msgs)), j.msgs...)
		j.shared = false
	}
	change(&j.msgs[i])
}

// view returns the messages recorded so far without copying them: the
// caller must not change it. Its capacity is its length, so an append to
// it copies.
func (j *Journal) view() Messages {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.shared = true
	return j.msgs[:len(j.msgs):len(j.msgs)]
}

// watch calls step with every message in wire order, from the first, the
// ones recorded later as they come, until step returns true (watch then
// returns that message and true) or ctx ends (then the messages recorded
// until then are stepped through, and it returns false unless one made
// step return true). step runs in the caller's goroutine, once per
// message. wake, if not nil, must be a quick pure function: it is run by
// the goroutine recording each message, and only messages it accepts wake
// the caller (the others are stepped through at the next wake-up), so a
// waiter costs the sessions next to nothing while what it waits for does
// not come.
func (j *Journal) watch(ctx context.Context, wake func(Message) bool, step func(Message) bool) (Message, bool) {
	w := j.addWatcher(wake)
	defer j.unwatch(w)
	next := 0
	scan := func() (Message, bool) {
		msgs := j.view()
		for ; next < len(msgs); next++ {
			if step(msgs[next]) {
				return msgs[next], true
			}
		}
		return Message{}, false
	}
	for {
		if m, ok := scan(); ok {
			return m, true
		}
		select {
		case <-w.signal:
		case <-ctx.Done():
			return scan()
		}
	}
}

// addWatcher registers a watcher: every message recorded from now on is
// offered to its wake.
func (j *Journal) addWatcher(wake func(Message) bool) *watcher {
	w := &watcher{wake: wake, signal: make(chan struct{}, 1)}
	j.mu.Lock()
	j.watchers = append(slices.Clip(j.watchers), w) // a new array: record may be reading the old one
	j.mu.Unlock()
	return w
}

func (j *Journal) unwatch(w *watcher) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.watchers = slices.DeleteFunc(slices.Clone(j.watchers), func(x *watcher) bool { return x == w })
}

// waitView evaluates cond over the whole journal, read in place, now and
// each time a message that wake accepts (nil: any) is recorded, until it
// holds or ctx ends. It returns the journal as cond last saw it.
func (j *Journal) waitView(ctx context.Context, wake func(Message) bool, cond func(Messages) bool) (Messages, bool) {
	w := j.addWatcher(wake)
	defer j.unwatch(w)
	for {
		msgs := j.view()
		if cond(msgs) {
			return msgs, true
		}
		select {
		case <-w.signal:
		case <-ctx.Done():
			msgs = j.view()
			return msgs, cond(msgs)
		}
	}
}

// All returns every message recorded so far, in wire order, in a new
// slice: the caller may change it.
func (j *Journal) All() Messages { return slices.Clone(j.view()) }

// Len returns the number of messages recorded so far.
func (j *Journal) Len() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.msgs)
}

// Filter returns the messages for which keep returns true, in wire order,
// as Messages.Filter. keep runs without the journal's lock held: it may
// query the journal.
func (j *Journal) Filter(keep func(Message) bool) Messages { return j.view().Filter(keep) }

// FromClient returns the messages the client sent, as Messages.FromClient.
func (j *Journal) FromClient() Messages { return j.view().FromClient() }

// FromServer returns the messages the mock sent, as Messages.FromServer.
func (j *Journal) FromServer() Messages { return j.view().FromServer() }

// Requests returns the requests of method, in either direction, as
// Messages.Requests.
func (j *Journal) Requests(method string) Messages { return j.view().Requests(method) }

// Notifications returns the notifications of method, in either direction,
// as Messages.Notifications.
func (j *Journal) Notifications(method string) Messages { return j.view().Notifications(method) }

// Responses returns the responses to requests of method, in either
// direction, as Messages.Responses.
func (j *Journal) Responses(method string) Messages { return j.view().Responses(method) }

// ToolCalls returns the tools/call requests of the named tool, as
// Messages.ToolCalls.
func (j *Journal) ToolCalls(name string) Messages { return j.view().ToolCalls(name) }

// Session returns the messages of one session, as Messages.Session.
func (j *Journal) Session(n int) Messages { return j.view().Session(n) }

// Invalid returns the messages that were not valid JSON-RPC, as
// Messages.Invalid.
func (j *Journal) Invalid() Messages { return j.view().Invalid() }

// Where returns the messages whose value at a gjson path equals want, as
// Messages.Where.
func (j *Journal) Where(path string, want any) Messages { return j.view().Where(path, want) }

// ResponseTo returns the response to the request req, as Messages.ResponseTo.
func (j *Journal) ResponseTo(req Message) (Message, bool) { return j.view().ResponseTo(req) }

// RequestOf returns the request a response answers, as Messages.RequestOf.
func (j *Journal) RequestOf(resp Message) (Message, bool) { return j.view().RequestOf(resp) }

// Messages is a sequence of journaled messages in wire order, such as
// Journal.All returns, with the journal's queries. Every query returns a
// new slice holding only its matches (nil when none), in wire order; the
// receiver is not changed.
//
// One direction rule for every query: a query selects by what a message
// is — its kind, its method, its session, its content — never by who sent
// it. Narrow to one side with FromClient or FromServer first:
//
//	j.Requests("ping")                 // pings either way
//	j.FromClient().Requests("ping")    // the pings the client sent
//	j.FromServer().Requests("")        // every request the mock sent the client
//	j.Responses("elicitation/create")  // the client's answers to the mock's elicitations
//
// A response's Method is the method of the request it answers, so
// Responses(method) and ResponseTo pair them.
type Messages []Message

// Filter returns the messages for which keep returns true.
func (ms Messages) Filter(keep func(Message) bool) Messages {
	var out Messages
	for _, m := range ms {
		if keep(m) {
			out = append(out, m)
		}
	}
	return out
}

// FromClient returns the messages the client under test sent.
func (ms Messages) FromClient() Messages {
	return ms.Filter(func(m Message) bool { return m.Direction == FromClient })
}

// FromServer returns the messages the mock sent to the client.
func (ms Messages) FromServer() Messages {
	return ms.Filter(func(m Message) bool { return m.Direction == FromServer })
}

// Requests returns the requests of method ("" for every request).
func (ms Messages) Requests(method string) Messages {
	return ms.Filter(func(m Message) bool { return m.Kind == KindRequest && (method == "" || m.Method == method) })
}

// Notifications returns the notifications of method ("" for every
// notification).
func (ms Messages) Notifications(method string) Messages {
	return ms.Filter(func(m Message) bool { return m.Kind == KindNotification && (method == "" || m.Method == method) })
}

// Responses returns the responses, results and errors, to requests of
// method ("" for every response, including those to requests whose method
// is unknown, such as error replies to invalid messages).
func (ms Messages) Responses(method string) Messages {
	return ms.Filter(func(m Message) bool { return m.IsResponse() && (method == "" || m.Method == method) })
}

// ToolCalls returns the tools/call requests of the named tool ("" for
// every tool).
func (ms Messages) ToolCalls(name string) Messages {
	return ms.Filter(func(m Message) bool { return isToolCall(m, name) })
}

// isToolCall reports whether m is a tools/call request of the named tool
// ("" for any). It reads the name the decoder kept, not the raw message.
func isToolCall(m Message, name string) bool {
	return m.Kind == KindRequest && m.Method == "tools/call" && (name == "" || m.toolName() == name)
}

// Session returns the messages of session n (Message.Session).
func (ms Messages) Session(n int) Messages {
	return ms.Filter(func(m Message) bool { return m.Session == n })
}

// Invalid returns the messages that were not valid JSON-RPC messages.
func (ms Messages) Invalid() Messages {
	return ms.Filter(func(m Message) bool { return m.Kind == KindInvalid })
}

// After returns the messages recorded after the one numbered seq
// (Message.Seq).
func (ms Messages) After(seq int) Messages {
	return ms.Filter(func(m Message) bool { return m.Seq > seq })
}

// Where returns the messages whose value at the gjson path equals want,
// compared as JSON: want may be a Go value (25, "x", true; a Go string is
// a JSON string) or a JSON text wrapped in json.RawMessage. Messages
// without the path do not match; a want that cannot be encoded matches
// nothing.
func (ms Messages) Where(path string, want any) Messages {
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
	return ms.Filter(func(m Message) bool {
		r := m.Get(path)
		if !r.Exists() {
			return false
		}
		return jsonEqual(r, wantV)
	})
}

// ResponseTo returns the response to the request req: the first response
// after it in the same session, sent the other way, with its id. It
// returns false while req is unanswered (or when req is not a request).
func (ms Messages) ResponseTo(req Message) (Message, bool) {
	if !req.IsRequest() {
		return Message{}, false
	}
	for _, m := range ms {
		if m.Seq > req.Seq && m.IsResponse() && m.Session == req.Session && m.Direction != req.Direction && m.ID == req.ID {
			return m, true
		}
	}
	return Message{}, false
}

// RequestOf returns the request the response resp answers: the last
// request before it in the same session, sent the other way, with its id.
func (ms Messages) RequestOf(resp Message) (Message, bool) {
	if !resp.IsResponse() {
		return Message{}, false
	}
	var req Message
	found := false
	for _, m := range ms {
		if m.Seq < resp.Seq && m.IsRequest() && m.Session == resp.Session && m.Direction != resp.Direction && m.ID == resp.ID {
			req, found = m, true
		}
	}
	return req, found
}

func jsonEqual(r gjson.Result, want any) bool {
	var got any
	if json.Unmarshal([]byte(r.Raw), &got) != nil {
		return false
	}
	ok, _ := subsetDiff(want, got, "", true)
	return ok
}
