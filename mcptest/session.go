package mcptest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/google/uuid"
	"github.com/tidwall/gjson"
)

// ErrSessionClosed is returned by Session methods once the session has ended.
var ErrSessionClosed = errors.New("mcptest: session closed")

// errCancelledByClient is the cause of a handler context cancelled by
// notifications/cancelled: no reply is sent then, as the spec asks.
var errCancelledByClient = errors.New("mcptest: request cancelled by the client")

// maxFrame is the longest line the mock reads; longer ones are discarded
// and reported as invalid.
const maxFrame = 64 << 20

// phase is where a session stands in the handshake.
type phase int

const (
	phaseNew          phase = iota // nothing yet
	phaseInitializing              // initialize answered, waiting for notifications/initialized
	phaseReady                     // notifications/initialized received
)

// Session is one MCP session of the Server (one Dial, one Serve): its own
// handshake state, negotiated version, subscriptions and log level.
type Session struct {
	srv  *Server
	n    int
	id   string
	conn io.ReadWriteCloser // the server's end: a pipe made by Dial, or what Serve was given

	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}

	writeMu sync.Mutex

	mu            sync.Mutex
	closed        bool
	phase         phase
	version       string
	caps          gjson.Result // capabilities declared to this session
	initID        string
	seenIDs       idSet
	inflight      map[string][]*inflight // by id: a reused id has several
	pending       map[string]pendingRequest
	nextID        int
	subscriptions map[string]bool
	logLevel      string

	era           Era          // "", EraHandshake or EraStateless
	initCaps      gjson.Result // client capabilities from initialize
	clientCaps    gjson.Result // client capabilities from the latest modern request
	wireCaps      gjson.Result // server capabilities the last server/discover result told the client
	discovered    bool         // server/discover was answered with a result
	toldSupported []string     // the supported list of the last -32022, if any
	warned        map[RuleID]bool
	listeners     []*listener
	rounds        []round
	gaveUp        map[string]bool // ids of server requests the mock stopped waiting for
	batches       []*batch        // the client's batches whose replies are being gathered (batch.go)
	downgraded    map[string]bool // what render logged for this session
	askedVersion  string          // the protocolVersion the client's initialize asked for
	batchesOpen   atomic.Int32    // len(batches), read without the lock on every write
}

// inflight is one request being worked on: a Handler running, or a
// request a fault holds. Entries are per request, not per id, so that two
// requests sharing an id (already a violation) keep their own.
type inflight struct {
	id, method string
	what       string // who works on it, for Close's report
	cancel     context.CancelCauseFunc
}

// track registers a request being worked on, so that notifications/cancelled
// and Close can cancel it; untrack takes it away again.
func (s *Session) track(m Message, what string, cancel context.CancelCauseFunc) *inflight {
	e := &inflight{id: m.ID, method: m.Method, what: what, cancel: cancel}
	s.mu.Lock()
	s.inflight[m.ID] = append(s.inflight[m.ID], e)
	s.mu.Unlock()
	return e
}

func (s *Session) untrack(e *inflight) {
	s.mu.Lock()
	rest := slices.DeleteFunc(s.inflight[e.id], func(x *inflight) bool { return x == e })
	if len(rest) == 0 {
		delete(s.inflight, e.id)
	} else {
		s.inflight[e.id] = rest
	}
	done := s.settleBatchesLocked()
	s.mu.Unlock()
	s.sendBatches(done)
}

type pendingRequest struct {
	method string
	params json.RawMessage // what the request asked, for the checks of its answer
	reply  chan Message
}

func newSession(s *Server, n int, conn io.ReadWriteCloser) *Session {
	ctx, cancel := context.WithCancel(s.ctx)
	return &Session{
		srv: s, n: n, id: uuid.NewString(), conn: conn,
		ctx: ctx, cancel: cancel, done: make(chan struct{}),
		inflight: map[string][]*inflight{}, pending: map[string]pendingRequest{},
		subscriptions: map[string]bool{}, warned: map[RuleID]bool{}, gaveUp: map[string]bool{},
	}
}

// idSet remembers the request ids of a session: the small non-negative
// integers clients count with in a bitset, larger integers in a sparse set
// of 64-id words, anything else in a map. Its memory grows with the ids
// seen, not with how large they are.
type idSet struct {
	bits   []uint64          // integer ids below idDenseMax
	sparse map[uint64]uint64 // word (id/64) → bits, for larger integer ids
	other  map[string]struct{}
}

const idDenseMax = 1 << 12 // the bitset never exceeds 512 bytes

// add records id and reports whether it was new.
func (s *idSet) add(id string) bool {
	n, ok := canonicalUint(id)
	if !ok {
		if _, dup := s.other[id]; dup {
			return false
		}
		if s.other == nil {
			s.other = map[string]struct{}{}
		}
		s.other[id] = struct{}{}
		return true
	}
	w, b := n/64, uint64(1)<<(n%64)
	if n < idDenseMax {
		for uint64(len(s.bits)) <= w {
			s.bits = append(s.bits, 0)
		}
		if s.bits[w]&b != 0 {
			return false
		}
		s.bits[w] |= b
		return true
	}
	if s.sparse[w]&b != 0 {
		return false
	}
	if s.sparse == nil {
		s.sparse = map[uint64]uint64{}
	}
	s.sparse[w] |= b
	return true
}

// canonicalUint reads the JSON text of a non-negative integer written
// without a sign, exponent or leading zero, of up to 18 digits.
func canonicalUint(id string) (uint64, bool) {
	if len(id) == 0 || len(id) > 18 || (id[0] == '0' && len(id) > 1) {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	return n, true
}

// Number returns the session's number, from 1 in the order the sessions opened, as in Message.SessionNumber.
func (s *Session) Number() int { return s.n }

// ID returns the session's unique id.
func (s *Session) ID() string { return s.id }

// Era returns the era the session is in: EraHandshake once the mock
// answered initialize, EraStateless once it accepted a request of the
// stateless era (server/discover or one carrying the per-request _meta),
// "" before either.
func (s *Session) Era() Era {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.era
}

// ProtocolVersion returns the negotiated version: the one the mock
// answered initialize with, or in the stateless era the one of the latest
// request it accepted; "" before either.
func (s *Session) ProtocolVersion() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// Ready reports whether the client completed the handshake: the mock
// answered initialize and received notifications/initialized. A stateless
// session has no handshake and is never Ready.
func (s *Session) Ready() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.phase == phaseReady && !s.closed
}

// isClosed reports whether the session has ended.
func (s *Session) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// Done returns a channel closed when the session ends.
func (s *Session) Done() <-chan struct{} { return s.done }

// LogLevel returns the level the client set with logging/setLevel, "" if none.
func (s *Session) LogLevel() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logLevel
}

// subscribed reports whether the client subscribed to uri with resources/subscribe.
func (s *Session) subscribed(uri string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.subscriptions[uri]
}

// Subscriptions returns the URIs the client is subscribed to, sorted.
func (s *Session) Subscriptions() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.subscriptions))
	for u := range s.subscriptions {
		out = append(out, u)
	}
	sort.Strings(out)
	return out
}

// Close ends the session: the client reads EOF, handlers are cancelled.
func (s *Session) Close() { s.close() }

func (s *Session) close() {
	s.mu.Lock()
	s.closed = true // nothing more is written; what the client sent is still read and journaled
	s.mu.Unlock()
	s.cancel()
	_ = s.conn.Close()
}

// Notify sends a notification to the client. params is a JSON text or Go
// value (nil for none).
func (s *Session) Notify(method string, params any) error { return s.notifyVia("", method, params) }

// viaKey is the context key of the id of the request a handler serves: what
// the handler sends goes on that request's HTTP stream.
type viaKey struct{}

// notifyVia is Notify for a notification sent on behalf of the request
// with id via (JSON text), "" for none.
func (s *Session) notifyVia(via, method string, params any) error {
	p, err := toJSONObject(params)
	if err != nil {
		return fmt.Errorf("mcptest: Notify(%q): %w", method, err)
	}
	frame := appendRequest(make([]byte, 0, 64+len(p)), "", method, p)
	return s.write(Message{Kind: KindNotification, Method: method, via: via}, frame)
}

// SendRequest sends a request to the client (ping, roots/list,
// sampling/createMessage, elicitation/create, or anything else) and waits
// for the reply, which it returns as journaled: inspect it with
// Get("result…") or Get("error…"). It gives up when ctx is done (sending
// notifications/cancelled) or the session ends. The stateless era has no
// server-to-client requests: in a stateless session it returns an error;
// script input_required results instead (InputRequired, RequiresInput).
func (s *Session) SendRequest(ctx context.Context, method string, params any) (Message, error) {
	p, err := toJSONObject(params)
	if err != nil {
		return Message{}, fmt.Errorf("mcptest: SendRequest(%q): %w", method, err)
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return Message{}, ErrSessionClosed
	}
	if s.era == EraStateless {
		s.mu.Unlock()
		return Message{}, fmt.Errorf("mcptest: SendRequest(%q): session %d is in the stateless era, which has no server-to-client requests; script an input_required result instead (InputRequired, RequiresInput)", method, s.n)
	}
	s.nextID++
	id := strconv.Itoa(s.nextID)
	ch := make(chan Message, 1)
	s.pending[id] = pendingRequest{method: method, params: p, reply: ch}
	s.mu.Unlock()
	forget := func() string { // the id the request went out with (a fault may have changed it)
		s.mu.Lock()
		defer s.mu.Unlock()
		for k, p := range s.pending {
			if p.reply == ch {
				delete(s.pending, k)
				return k
			}
		}
		return id
	}
	frame := appendRequest(make([]byte, 0, 64+len(p)), id, method, p)
	via, _ := ctx.Value(viaKey{}).(string)
	if err := s.write(Message{Kind: KindRequest, Method: method, ID: id, via: via}, frame); err != nil {
		forget()
		return Message{}, err
	}
	select {
	case m := <-ch:
		return m, nil
	case <-ctx.Done():
		sent := forget()
		s.mu.Lock()
		s.gaveUp[sent] = true // an answer already on its way is not a violation
		s.mu.Unlock()
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			s.unanswered(sent, method, "its deadline passed")
		}
		_ = s.Notify("notifications/cancelled", map[string]any{"requestId": json.RawMessage(sent), "reason": ctx.Err().Error()})
		return Message{}, ctx.Err()
	case <-s.done:
		return Message{}, ErrSessionClosed
	}
}

// end marks the session closed, cancels its handlers and fails the
// server's pending requests.
func (s *Session) end() {
	s.mu.Lock()
	s.closed = true
	type req struct{ id, method string }
	var owed []req
	for id, p := range s.pending {
		owed = append(owed, req{id, p.method})
	}
	s.mu.Unlock()
	sort.Slice(owed, func(i, j int) bool { return owed[i].id < owed[j].id })
	for _, r := range owed {
		s.unanswered(r.id, r.method, "the session ended first")
	}
	s.cancel()
	_ = s.conn.Close()
	close(s.done)
	s.srv.journal.wake() // a waiting assertion may be settled now
}

func (s *Session) inflightNames() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, list := range s.inflight {
		for _, inf := range list {
			out = append(out, fmt.Sprintf("%s (%s id %s, session %d)", inf.what, inf.method, inf.id, s.n))
		}
	}
	sort.Strings(out)
	return out
}
