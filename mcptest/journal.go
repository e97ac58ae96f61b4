package mcptest

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/tidwall/gjson"
)

// Journal is the ordered record of every message that crossed the wire of
// a Server's sessions, in both directions, in wire order: an append-only
// collection, safe for concurrent use while sessions run.
//
// Read it with All, a copy in wire order that the caller may change, and
// query that with the methods of Messages:
// srv.Journal().All().ToolCalls("search"). The assertions and WaitFor read
// the journal in place, through an index, without copying it.
//
// It keeps every message in memory unless Options.JournalKeep bounds it
// (a process serving one long session, as `mcpmock serve` does): the
// oldest messages then go to the Options.JournalSpill file (JSON Lines) or
// are dropped, sequence numbers unchanged; All reads them back, Await and
// most assertions read the messages in memory, and the client checks, which keep their own
// state as messages come, judge every message.
type Journal struct {
	mu       sync.Mutex
	msgs     []Message  // in wire order; what a view covers is never written again (see amend)
	keys     []msgKey   // msgs[i]'s index entry, under the same rule
	more     []segment  // recorded after msgs filled, in order; the next read folds them into msgs (flatten)
	n        int        // messages recorded: len(msgs) plus those of more
	names    nameTable  // the methods and tool names of keys
	shared   bool       // a view of msgs or keys was handed out since they were last copied
	limit    int        // the most of a message's raw text kept (Options.JournalLimit); 0: all
	watchers []*watcher // replaced, never changed in place: record reads it without copying

	// The window (Options.JournalKeep): msgs[0] is message base+1; the
	// base messages before it went to spill, or were dropped (spill nil).
	keep  int
	base  int
	spill *spillFile
	// What whyUnfired reads, kept as messages are recorded, so that it
	// does not need the messages that left memory.
	sessions      int
	clientMethods []string // the methods the clients sent (not responses), each once, in order
	clientSent    map[string]bool
	clientCount   map[string]int // the requests and notifications the clients sent, by method
}

// segment is storage for messages recorded after the journal's flat
// storage filled: growing adds one instead of copying what is there, so a
// session that nobody reads while it runs never copies its journal, and
// one that is read copies it once a growth at most (flatten).
type segment struct {
	msgs []Message
	keys []msgKey
}

// flatten folds the segments into the flat storage, in one new array with
// their room, so that it is one contiguous slice again. Called with j.mu
// held, by every read of the storage.
func (j *Journal) flatten() {
	if len(j.more) == 0 {
		return
	}
	room := cap(j.msgs)
	for _, sg := range j.more {
		room += cap(sg.msgs)
	}
	msgs, keys := make([]Message, 0, room), make([]msgKey, 0, room)
	msgs, keys = append(msgs, j.msgs...), append(keys, j.keys...)
	for _, sg := range j.more {
		msgs, keys = append(msgs, sg.msgs...), append(keys, sg.keys...)
	}
	clear(j.more) // the segments' messages are garbage now
	j.msgs, j.keys, j.more, j.shared = msgs, keys, j.more[:0], false
}

// msgKey is a message's entry in the journal's index: what the queries
// select on, packed in 16 bytes, so that a query over a long journal reads
// a few bytes a message instead of the whole Message.
type msgKey struct {
	session int32
	method  uint32 // the name number of Method (0: none)
	tool    uint32 // the name number of a tools/call's tool (0: none)
	dir     uint8
	kind    uint8
}

func (j *Journal) keyOf(m Message) msgKey {
	return msgKey{session: int32(m.SessionNumber), method: j.names.number(m.Method),
		tool: j.names.number(m.tool), dir: uint8(m.Direction), kind: uint8(m.Kind)}
}

// nameTable numbers the names (methods, tools) of the index from 1.
type nameTable map[string]uint32

// number returns name's number, giving it one if it has none ("" is 0).
func (t *nameTable) number(name string) uint32 {
	if name == "" {
		return 0
	}
	if n, ok := (*t)[name]; ok {
		return n
	}
	if *t == nil {
		*t = nameTable{}
	}
	n := uint32(len(*t) + 1)
	(*t)[name] = n
	return n
}

// selector chooses messages by their index entry; a zero field accepts
// any value.
type selector struct {
	dir     Direction
	kinds   uint8 // bits 1<<Kind
	method  string
	tool    string
	session int
}

const (
	kindsRequest  = 1 << KindRequest
	kindsNotice   = 1 << KindNotification
	kindsResponse = 1<<KindResult | 1<<KindError
	kindsInvalid  = 1 << KindInvalid
)

// compiled is a selector with its names numbered; ok is false when a name
// it asks for was never recorded (nothing matches).
type compiled struct {
	dir, kinds   uint8
	method, tool uint32
	session      int32
	anyM, anyT   bool
	anyS         bool
}

func (j *Journal) compile(s selector) (c compiled, ok bool) {
	c = compiled{dir: uint8(s.dir), kinds: s.kinds, session: int32(s.session), anyM: s.method == "", anyT: s.tool == "", anyS: s.session == 0}
	if !c.anyM {
		if c.method, ok = j.names[s.method]; !ok {
			return c, false
		}
	}
	if !c.anyT {
		if c.tool, ok = j.names[s.tool]; !ok {
			return c, false
		}
	}
	return c, true
}

func (c *compiled) match(k msgKey) bool {
	return (c.dir == 0 || k.dir == c.dir) && (c.kinds == 0 || c.kinds&(1<<k.kind) != 0) &&
		(c.anyM || k.method == c.method) && (c.anyT || k.tool == c.tool) && (c.anyS || k.session == c.session)
}

// indexed returns the messages and index recorded so far, without
// copying them (the caller must not change them), and s compiled.
func (j *Journal) indexed(s selector) (Messages, []msgKey, compiled, bool) {
	msgs, keys, _, c, ok := j.indexedAt(s)
	return msgs, keys, c, ok
}

// indexedAt is indexed with the number of messages before the first one
// it returns (Options.JournalKeep: those that left memory).
func (j *Journal) indexedAt(s selector) (Messages, []msgKey, int, compiled, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.flatten()
	j.shared = true
	n := len(j.msgs)
	c, ok := j.compile(s)
	return j.msgs[:n:n], j.keys[:n:n], j.base, c, ok
}

// query returns the messages s selects, reading the index in place.
func (j *Journal) query(s selector) Messages {
	msgs, keys, c, ok := j.indexed(s)
	if !ok {
		return nil
	}
	var out Messages
	for i := range keys {
		if c.match(keys[i]) {
			out = append(out, msgs[i])
		}
	}
	return out
}

// count returns how many messages s selects, those that left memory
// (Options.JournalKeep) included: what a client sent (ClientSent) from the
// counts kept as messages come, anything else read back from the spill file.
func (j *Journal) count(s selector) int {
	j.mu.Lock()
	if j.base > 0 && s.dir == FromClient && s.kinds == kindsRequest|kindsNotice && s.method != "" && s.tool == "" && s.session == 0 {
		n := j.clientCount[s.method]
		j.mu.Unlock()
		return n
	}
	j.mu.Unlock()
	_, keys, base, c, ok := j.indexedAt(s)
	if !ok {
		return 0
	}
	n := 0
	if base > 0 {
		gone, _ := j.spilled(1, base) // dropped ones are not counted: Verify cannot say more
		for _, m := range gone {
			if s.accepts(m) {
				n++
			}
		}
	}
	for i := range keys {
		if c.match(keys[i]) {
			n++
		}
	}
	return n
}

// watcher is a goroutine waiting for messages (watch).
type watcher struct {
	sel    *selector     // which messages wake it; nil for every one
	signal chan struct{} // a token when a waking message was recorded
}

func newJournal() *Journal { return &Journal{} }

// record appends m, giving it its sequence number, wakes the watchers it
// concerns, and returns it.
func (j *Journal) record(m Message) Message {
	j.mu.Lock()
	j.n++
	m.Seq = j.n
	j.summarize(m)
	kept := m
	if j.limit > 0 && len(m.raw) > j.limit && !lifecycleMethod[m.Method] {
		// A copy of the head, so that the whole message can be freed once
		// the session is done with it. The caller gets it whole.
		kept.raw, kept.cut = strings.Clone(m.raw[:j.limit]), int32(len(m.raw)-j.limit)
		kept.Method, kept.ID, kept.tool = strings.Clone(m.Method), strings.Clone(m.ID), strings.Clone(m.tool) // they may point into the raw text
	}
	switch {
	case len(j.more) == 0 && len(j.msgs) < cap(j.msgs):
		j.msgs = append(j.msgs, kept) // past every view's end: nothing handed out changes
		j.keys = append(j.keys, j.keyOf(m))
	case j.n == 1:
		j.msgs, j.keys = append(make([]Message, 0, 16), kept), append(make([]msgKey, 0, 16), j.keyOf(m))
	default:
		// full: a new segment as large as the journal (its room doubles),
		// and nothing is copied
		if len(j.more) == 0 || len(j.more[len(j.more)-1].msgs) == cap(j.more[len(j.more)-1].msgs) {
			j.more = append(j.more, segment{make([]Message, 0, j.n-1), make([]msgKey, 0, j.n-1)})
		}
		sg := &j.more[len(j.more)-1]
		sg.msgs, sg.keys = append(sg.msgs, kept), append(sg.keys, j.keyOf(m))
	}
	if j.keep > 0 && j.n-j.base >= j.keep+evictChunk(j.keep) {
		j.evict()
	}
	ws := j.watchers
	j.mu.Unlock()
	for _, w := range ws {
		if w.sel == nil || w.sel.accepts(m) {
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
	j.flatten()
	i := seq - 1 - j.base
	if i < 0 || i >= len(j.msgs) {
		return // gone from memory: the spill file keeps it as it was then
	}
	if j.shared {
		j.msgs = append(make([]Message, 0, cap(j.msgs)), j.msgs...)
		j.keys = append(make([]msgKey, 0, cap(j.keys)), j.keys...)
		j.shared = false
	}
	change(&j.msgs[i])
	j.keys[i] = j.keyOf(j.msgs[i])
}

// view returns the messages recorded so far without copying them: the
// caller must not change it. Its capacity is its length, so an append to
// it copies.
func (j *Journal) view() Messages {
	msgs, _ := j.viewAt()
	return msgs
}

// viewAt is view with the number of messages before the first one it
// returns (Options.JournalKeep: those that left memory).
func (j *Journal) viewAt() (Messages, int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.flatten()
	j.shared = true
	return j.msgs[:len(j.msgs):len(j.msgs)], j.base
}

// watch calls step with every message sel selects (nil: every message),
// in wire order, from the first, the ones recorded later as they come,
// until step returns true (watch then returns that message and true) or
// ctx ends (then the messages recorded until then are stepped through, and
// it returns false unless one made step return true). step runs in the
// caller's goroutine, once per message. Only a message sel selects wakes
// the caller, so a waiter costs the sessions next to nothing while what it
// waits for does not come, and the messages already there are found
// through the index.
func (j *Journal) watch(ctx context.Context, sel *selector, step func(Message) bool) (Message, bool) {
	w := j.addWatcher(sel)
	defer j.unwatch(w)
	next := 0
	var buf Messages
	scan := func() (Message, bool) {
		for {
			var end int
			buf, end = j.copyFrom(next, sel, buf)
			for _, m := range buf {
				if step(m) {
					return m, true
				}
			}
			if end == next {
				return Message{}, false
			}
			next = end
		}
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

// watchBatch is the most messages copyFrom copies at a time.
const watchBatch = 256

// copyFrom copies into buf (reused) the messages that sel selects (nil:
// every one) among at most watchBatch of those recorded from index from on
// (Seq from+1: an index over the whole journal, those that left memory
// included), and returns them with the index after the last one read. It copies
// instead of handing out a view of the storage, so that a watcher, which
// reads every new message once, costs the sessions only the new messages:
// a view would make the next amend (over HTTP every message the mock sends
// is amended with its exchange) copy the whole journal.
func (j *Journal) copyFrom(from int, sel *selector, buf Messages) (Messages, int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.flatten()
	buf = buf[:0]
	lo := max(from-j.base, 0) // a watcher left behind by the window skips what left memory
	hi := min(len(j.msgs), lo+watchBatch)
	end := j.base + hi
	if sel == nil {
		return append(buf, j.msgs[lo:hi]...), end
	}
	c, ok := j.compile(*sel)
	if !ok { // none of its names was recorded yet
		return buf, end
	}
	for i := lo; i < hi; i++ {
		if c.match(j.keys[i]) {
			buf = append(buf, j.msgs[i])
		}
	}
	return buf, end
}

// accepts reports whether s selects m, from m's fields.
func (s *selector) accepts(m Message) bool {
	return (s.dir == 0 || m.Direction == s.dir) && (s.kinds == 0 || s.kinds&(1<<m.Kind) != 0) &&
		(s.method == "" || m.Method == s.method) && (s.session == 0 || m.SessionNumber == s.session) &&
		(s.tool == "" || m.tool == s.tool)
}

// addWatcher registers a watcher: every message recorded from now on that
// sel selects (nil: any) signals it.
func (j *Journal) addWatcher(sel *selector) *watcher {
	w := &watcher{sel: sel, signal: make(chan struct{}, 1)}
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
// each time a message sel selects (nil: any) is recorded, until it holds or
// ctx ends. It returns the journal as cond last saw it.
func (j *Journal) waitView(ctx context.Context, sel *selector, cond func(Messages) bool) (Messages, bool) {
	w := j.addWatcher(sel)
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

// lifecycleMethod are the methods whose messages the journal keeps whole
// under Options.JournalLimit: the assertions read the era, the version and the
// capabilities from them.
var lifecycleMethod = map[string]bool{"initialize": true, "server/discover": true}

// All returns every message recorded so far, in wire order, in a new
// slice: the caller may change it. Under Options.JournalKeep it reads the
// messages that left memory back from the spill file, so it costs the
// memory of the whole journal (Await steps through the messages in memory
// without it). It leaves out the messages that were dropped (no JournalSpill) or that
// cannot be read back (Verify says why).
func (j *Journal) All() Messages {
	msgs, base := j.viewAt()
	if base == 0 {
		return slices.Clone(msgs)
	}
	out, _ := j.spilled(1, base)
	return append(out, msgs...)
}

// recent returns the messages still in memory, in wire order, in a new
// slice: every message recorded so far, unless Options.JournalKeep moved
// the oldest out.
func (j *Journal) recent() Messages { return slices.Clone(j.view()) }

// Len returns the number of messages recorded so far.
func (j *Journal) Len() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.n
}

// Messages is a sequence of journaled messages in wire order, such as
// Journal.All returns, with the journal's queries. Every query returns a
// new slice holding only its matches (nil when none), in wire order; the
// receiver is not changed.
//
// One direction rule for every query: a query selects by what a message
// is — its kind, its method, its session, its content — never by who sent
// it. Narrow to one side with From(FromClient) or From(FromServer) first:
//
//	msgs := srv.Journal().All()
//	msgs.Requests("ping")                        // pings either way
//	msgs.From(FromClient).Requests("ping")       // the pings the client sent
//	msgs.From(FromServer).Requests("")           // every request the mock sent the client
//	msgs.Responses("elicitation/create")         // the client's answers to the mock's elicitations
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

// InSession returns the messages of session n (Message.SessionNumber).
func (ms Messages) InSession(n int) Messages {
	return ms.Filter(func(m Message) bool { return m.SessionNumber == n })
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
// compared as JSON: want is any JSON value by the package's JSON rule (a
// Go value such as 25, "x" or true; a json.RawMessage for JSON text).
// Messages without the path do not match; a want that cannot be encoded
// matches nothing.
func (ms Messages) Where(path string, want any) Messages {
	wantJSON, err := anyJSON(want)
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
		if m.Seq > req.Seq && m.IsResponse() && m.SessionNumber == req.SessionNumber && m.Direction != req.Direction && m.ID == req.ID {
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
		if m.Seq < resp.Seq && m.IsRequest() && m.SessionNumber == resp.SessionNumber && m.Direction != resp.Direction && m.ID == resp.ID {
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

// From returns the messages sent in direction dir: FromClient, by the
// client under test; FromServer, by the mock.
func (ms Messages) From(dir Direction) Messages {
	return ms.Filter(func(m Message) bool { return m.Direction == dir })
}

// toolCalls selects the tools/call requests of a tool ("" for any) sent
// in direction dir (0 for either).
func toolCalls(dir Direction, name string) selector {
	return selector{dir: dir, kinds: kindsRequest, method: "tools/call", tool: name}
}
