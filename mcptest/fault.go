package mcptest

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tidwall/gjson"
)

// Fault is one way a server misbehaves, as a value: a trigger (which
// message: a method, the Nth occurrence, a session, a probability) and an
// action, applied where DESIGN.md puts it — on a client's request before
// the mock serves it (answer instead, delay, hang, close), on a message
// the mock sends (change a field, a wrong id, insert, duplicate or drop
// messages), or on how that message is written (split, truncate, garbage,
// framing). Build faults with the constructors of this package, refine the
// trigger with Nth, InSession and WithProbability, and add them with
// Server.WithFault, before or while clients are connected. A fault prints
// itself, and a failing test's transcript names the faults that were on.
type Fault struct{ f *fault }

type fault struct {
	name    string
	method  string  // the method of the message it acts on; "" for any
	kinds   []Kind  // outbound: the kinds of message it acts on; nil for results and errors
	nth     int     // act on the nth matching message only (from 1); 0 for every one
	session int     // act in this session only (from 1); 0 for any
	prob    float64 // act with this probability, drawn from the server's seeded source; 0 for always
	inbound func(f *fault, s *Session, m Message, serve func()) bool
	out     func(s *Session, e *emission)
	outF    func(f *fault, s *Session, e *emission) // out, for actions that need the fault's own state
	state   *faultState
}

type faultState struct {
	mu       sync.Mutex
	seen     int
	sessions map[int]bool // the sessions a once-per-session fault acted in
	release  chan struct{}
	once     sync.Once
}

func newFault(name, method string) *fault {
	return &fault{name: name, method: method, state: &faultState{release: make(chan struct{})}}
}

// String names the fault and its trigger, e.g. `Delay("tools/call", 2s).Nth(3)`.
func (f Fault) String() string {
	if f.f == nil {
		return "Fault(nil)"
	}
	var b strings.Builder
	b.WriteString(f.f.name)
	if f.f.nth > 0 {
		fmt.Fprintf(&b, ".Nth(%d)", f.f.nth)
	}
	if f.f.session > 0 {
		fmt.Fprintf(&b, ".InSession(%d)", f.f.session)
	}
	if f.f.prob > 0 {
		fmt.Fprintf(&b, ".WithProbability(%g)", f.f.prob)
	}
	return b.String()
}

// refine copies the fault with a fresh trigger state.
func (f Fault) refine(change func(*fault)) Fault {
	c := *f.f
	c.state = &faultState{release: make(chan struct{})}
	change(&c)
	return Fault{&c}
}

// Nth makes the fault act on the nth matching message only, counted from 1
// across all sessions of the server (with InSession, of that session). The
// count belongs to the Fault value: give each Server its own.
func (f Fault) Nth(n int) Fault { return f.refine(func(c *fault) { c.nth = n }) }

// InSession makes the fault act in the n-th session (Dial) only.
func (f Fault) InSession(n int) Fault { return f.refine(func(c *fault) { c.session = n }) }

// WithProbability makes the fault act on each matching message with
// probability p, drawn from the server's seeded source (WithFaultSeed), so
// a run can be repeated exactly.
func (f Fault) WithProbability(p float64) Fault { return f.refine(func(c *fault) { c.prob = p }) }

// Release lets the messages a Hang fault holds go on, and every later one
// pass. It is a no-op for other faults, and idempotent.
func (f Fault) Release() { f.f.state.once.Do(func() { close(f.f.state.release) }) }

// matches reports whether the fault acts on m, counting it.
func (f *fault) matches(s *Session, m Message) bool {
	if f.method != "" && m.Method != f.method {
		return false
	}
	if f.session > 0 && s.n != f.session {
		return false
	}
	if (f.out != nil || f.outF != nil) && m.Direction == FromServer {
		kinds := f.kinds
		if kinds == nil {
			kinds = []Kind{KindResult, KindError}
		}
		if !slices.Contains(kinds, m.Kind) {
			return false
		}
	}
	f.state.mu.Lock()
	f.state.seen++
	seen := f.state.seen
	f.state.mu.Unlock()
	if f.nth > 0 && seen != f.nth {
		return false
	}
	if f.prob > 0 && !s.srv.chance(f.prob) {
		return false
	}
	return true
}

// firstIn reports whether this is the first time the fault acts in
// session s, remembering it.
func (f *fault) firstIn(s *Session) bool {
	f.state.mu.Lock()
	defer f.state.mu.Unlock()
	if f.state.sessions == nil {
		f.state.sessions = map[int]bool{}
	}
	if f.state.sessions[s.n] {
		return false
	}
	f.state.sessions[s.n] = true
	return true
}

// faultSet is the server's faults, split by hook point.
type faultSet struct {
	n        atomic.Int32 // how many faults are on: the fast path checks it without a lock
	mu       sync.Mutex
	all      []Fault
	rng      *rand.Rand
	seed     int64
	inbound  []*fault
	outbound []*fault
}

// WithFault adds faults. Unlike the configuration methods it may be called
// at any time, also while clients are connected; RemoveFault takes one away.
func (s *Server) WithFault(faults ...Fault) *Server {
	s.t.Helper()
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	for _, f := range faults {
		if f.f == nil {
			s.t.Fatalf("mcptest: WithFault: a zero Fault; build faults with the constructors (Hang, Delay, RespondProtocolVersion, …)")
			return s
		}
		s.faults.all = append(s.faults.all, f)
	}
	s.faults.split()
	return s
}

// RemoveFault takes a fault away; messages from now on are not touched by it.
func (s *Server) RemoveFault(f Fault) {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	s.faults.all = slices.DeleteFunc(s.faults.all, func(g Fault) bool { return g.f == f.f })
	s.faults.split()
}

// Faults returns the faults that are on, in the order they were added.
func (s *Server) Faults() []Fault {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	return slices.Clone(s.faults.all)
}

// WithFaultSeed seeds the source WithProbability draws from (the default
// seed is 1), so that a run with probabilistic faults can be repeated.
func (s *Server) WithFaultSeed(seed int64) *Server {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	s.faults.seed = seed
	s.faults.rng = rand.New(rand.NewSource(seed))
	return s
}

func (fs *faultSet) split() {
	fs.n.Store(int32(len(fs.all)))
	fs.inbound, fs.outbound = nil, nil
	for _, f := range fs.all {
		if f.f.inbound != nil {
			fs.inbound = append(fs.inbound, f.f)
		}
		if f.f.out != nil || f.f.outF != nil {
			fs.outbound = append(fs.outbound, f.f)
		}
	}
}

// hasInbound reports whether any fault acts on client requests.
func (fs *faultSet) hasInbound() bool { return fs.n.Load() > 0 && len(fs.snapshot(true)) > 0 }

func (fs *faultSet) snapshot(inbound bool) []*fault {
	if fs.n.Load() == 0 {
		return nil
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if inbound {
		return fs.inbound
	}
	return fs.outbound
}

// chance draws from the seeded source.
func (s *Server) chance(p float64) bool {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	if s.faults.rng == nil {
		s.faults.rng = rand.New(rand.NewSource(1))
		s.faults.seed = 1
	}
	return s.faults.rng.Float64() < p
}

// draw returns a duration in [lo, hi) from the seeded source.
func (s *Server) draw(lo, hi time.Duration) time.Duration {
	if hi <= lo {
		return lo
	}
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	if s.faults.rng == nil {
		s.faults.rng = rand.New(rand.NewSource(1))
	}
	return lo + time.Duration(s.faults.rng.Int63n(int64(hi-lo)))
}

// serve applies the inbound faults to a client request, then serves it
// with dispatch unless a fault answered, held or dropped it.
func (s *Session) serve(m Message, dispatch func()) {
	for _, f := range s.srv.faults.snapshot(true) {
		if f.matches(s, m) && f.inbound(f, s, m, dispatch) {
			return
		}
	}
	dispatch()
}

// hold keeps a request back until wait returns true, then serves it. The
// request is in flight meanwhile: notifications/cancelled or the end of
// the session abort it, and it is then never answered.
func (s *Session) hold(m Message, wait func(ctx context.Context) bool, serve func()) {
	ctx, cancel := context.WithCancelCause(s.ctx)
	e := s.track(m, "a request held by a fault", cancel)
	s.later(func(context.Context) {
		ok := wait(ctx) && ctx.Err() == nil
		if ok {
			serve()
		}
		s.untrack(e) // after serving: a batch waits for the reply until then
		cancel(nil)
	})
}

// later runs f in its own goroutine, tracked by the server so Close waits
// for it; ctx ends with the session.
func (s *Session) later(f func(ctx context.Context)) {
	s.srv.wg.Add(1)
	go func() {
		defer s.srv.wg.Done()
		f(s.ctx)
	}()
}

// sleep waits d, or until ctx ends; it reports whether the full time passed.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// emission is one message the mock is about to send, as the frames that
// will go on the wire once the outbound faults have had their say.
type emission struct {
	msg         Message // the logical message: kind, method, id
	frames      []outFrame
	closeBefore bool // close the connection instead of writing anything
	closeAfter  bool // close the connection after writing
}

// outFrame is one piece of output: normally one JSON-RPC message and its newline.
type outFrame struct {
	data      []byte
	changed   bool          // a fault changed or made it: classify it anew for the journal
	noNewline bool          // write no final newline
	delay     time.Duration // wait before writing
	chunk     int           // write in pieces of this many bytes…
	pause     time.Duration // …with this pause between them
	truncate  int           // write only this many bytes, then close the connection
}

// first returns the message's own frame, for faults that change it.
func (e *emission) first() *outFrame { return &e.frames[0] }

// writeFaulty writes a message through the outbound faults: the journal
// records each frame exactly as it goes on the wire.
func (s *Session) writeFaulty(m Message, frame []byte, faults []*fault) error {
	m.Direction = FromServer
	e := &emission{msg: m, frames: []outFrame{{data: frame}}}
	for _, f := range faults {
		if len(e.frames) > 0 && f.matches(s, m) {
			if f.outF != nil {
				f.outF(f, s, e)
			} else {
				f.out(s, e)
			}
		}
	}
	if e.closeBefore {
		s.close()
		return ErrSessionClosed
	}
	if m.Kind == KindResult {
		for _, fr := range e.frames { // the frame that answers m, wherever faults put it
			if r := gjson.ParseBytes(fr.data); r.Get("id").Raw == m.ID && r.Get("result").Exists() {
				s.noteWire(m, fr.data)
				break
			}
		}
	}
	s.writeMu.Lock()
	err := s.writeFrames(e)
	s.writeMu.Unlock()
	if e.closeAfter {
		s.close()
	}
	return err
}

func (s *Session) writeFrames(e *emission) error {
	// Frames with nothing between them go out in one write, as one flush of
	// a server's stdout does: a client cannot see one without the next.
	var pending []byte
	var seqs []int
	var msg Message // the journal entry of the last frame in pending
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		_, err := s.send(msg, pending)
		if err != nil {
			for _, seq := range seqs {
				s.srv.journal.amend(seq, func(m *Message) {
					m.Kind, m.Problem = KindInvalid, "never delivered: the connection closed"
				})
			}
		}
		pending, seqs = nil, nil
		if err != nil {
			return ErrSessionClosed
		}
		return nil
	}
	for _, fr := range e.frames {
		plain := fr.delay <= 0 && fr.chunk <= 0 && fr.truncate <= 0
		if !plain {
			if err := flush(); err != nil {
				return err
			}
		}
		if !sleep(s.ctx, fr.delay) || s.Closed() {
			return ErrSessionClosed
		}
		out := fr.data
		if !fr.noNewline {
			out = append(append([]byte(nil), out...), '\n')
		}
		if fr.truncate > 0 && fr.truncate < len(out) {
			out = out[:fr.truncate]
			e.closeAfter = true
		}
		rec := e.msg
		if fr.changed || fr.truncate > 0 {
			d := decode([]byte(strings.TrimSuffix(string(out), "\n")))
			rec = d.msg
			if rec.IsResponse() && rec.ID == e.msg.ID {
				rec.Method = e.msg.Method
			}
		}
		rec.Session, rec.Direction, rec.Time, rec.raw = s.n, FromServer, time.Now(), strings.TrimSuffix(string(out), "\n")
		switch {
		case fr.truncate > 0 && fr.truncate < len(fr.data)+1:
			rec.Problem = fmt.Sprintf("truncated after %d bytes, then the connection closed", fr.truncate)
		case fr.noNewline:
			rec.Problem = strings.TrimPrefix(rec.Problem+"; no final newline", "; ")
		}
		rec = s.srv.journal.record(rec)
		if plain {
			pending = append(pending, out...)
			seqs = append(seqs, rec.Seq)
			msg = viaOf(rec, e.msg)
			if s.perMessage() {
				if err := flush(); err != nil {
					return err
				}
			}
			continue
		}
		msg = viaOf(rec, e.msg)
		if n, err := s.writeChunks(msg, out, fr.chunk, fr.pause); err != nil {
			if n < len(out) {
				s.srv.journal.amend(rec.Seq, func(m *Message) {
					m.raw = strings.TrimSuffix(string(out[:n]), "\n")
					m.Kind, m.Problem = KindInvalid, fmt.Sprintf("cut after %d of %d bytes: the connection closed", n, len(out))
				})
			}
			return err
		}
	}
	return flush()
}

// viaOf is the journal entry of a frame as the transport routes it: a
// frame written in place of, or beside, a response goes where that
// response goes.
func viaOf(rec, logical Message) Message {
	if logical.IsResponse() {
		rec.via = logical.ID
	}
	return rec
}

// writeChunks writes out in pieces of chunk bytes with pauses between
// them, and returns how many bytes went out.
func (s *Session) writeChunks(m Message, out []byte, chunk int, pause time.Duration) (int, error) {
	if chunk <= 0 {
		chunk = len(out)
	}
	written := 0
	for written < len(out) {
		n := min(chunk, len(out)-written)
		if _, err := s.send(m, out[written:written+n]); err != nil {
			return written, ErrSessionClosed
		}
		written += n
		if written < len(out) && !sleep(s.ctx, pause) {
			return written, ErrSessionClosed
		}
	}
	return written, nil
}

// faultNames lists the faults that are on, for the transcript.
func (s *Server) faultNames() string {
	var names []string
	for _, f := range s.Faults() {
		names = append(names, f.String())
	}
	return strings.Join(names, ", ")
}

// noteWire keeps what the client was told when a fault changed an
// initialize or server/discover result: the client checks hold the client
// to what went on the wire, not to what the mock would have said.
func (s *Session) noteWire(m Message, data []byte) {
	r := gjson.GetBytes(data, "result")
	s.mu.Lock()
	defer s.mu.Unlock()
	switch m.Method {
	case "initialize":
		s.caps = r.Get("capabilities")
		s.version = r.Get("protocolVersion").String()
	case "server/discover":
		s.wireCaps = r.Get("capabilities")
	}
}
