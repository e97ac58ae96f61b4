package mcptest

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpmock/mcpmock/internal/authplug"
	"github.com/mcpmock/mcpmock/internal/faultkit"
	"github.com/mcpmock/mcpmock/internal/precheck"
)

// Fault is one way a server misbehaves, as a value: a trigger (which
// message: a method, the Nth occurrence, a session, a probability) and an
// action, applied where DESIGN.md puts it — on a client's request before
// the mock serves it (answer instead, delay, hang, close), on a message
// the mock sends (change a field, a wrong id, insert, duplicate or drop
// messages), or on how that message is written (split, truncate, garbage,
// framing). The catalog of faults is package
// github.com/mcpmock/mcpmock/mcptest/fault (fault.Hang, fault.Delay,
// fault.RespondProtocolVersion, …); authorization's are in package
// github.com/mcpmock/mcpmock/mcptest/oauth. Refine the trigger with Nth,
// InSession, WithProbability and Optional.
//
// A Fault is immutable and holds no state: the same value may be given to
// any number of Servers, and the refining methods return new values.
// Installing one (Server.WithFaults, Server.AddFault) makes a registration,
// a *FaultHandle, with its own counts. A fault that never acts fails the
// test when it ends, saying why it likely did not, unless it is Optional.
// A fault prints itself, and a failing test's transcript names the faults
// that were on.
type Fault faultkit.Fault

type fault struct {
	name     string
	method   string  // the method of the message it acts on; "" for any
	kinds    []Kind  // outbound: the kinds of message it acts on; nil for results and errors
	nth      int     // act on the nth matching message only (from 1); 0 for every one
	session  int     // act in this session only (from 1); 0 for any
	prob     float64 // act with this probability, drawn from the server's seeded source; 0 for always
	optional bool    // it may never act without failing the test
	err      error   // why the constructor could not build it; installing it fails the test
	// inbound acts on a client request before it is served; it reports
	// whether it acted (false: the request is served as usual).
	inbound func(h *FaultHandle, s *Session, m Message, serve func()) bool
	// out acts on a message the mock sends; it reports whether it acted.
	out func(h *FaultHandle, s *Session, e *emission) bool
	// http acts at the HTTP transport (http_faults.go).
	http *httpFault
	// ext is the action of a fault an extension plays (faultkit.Spec.Ext):
	// package oauth's, which finds it among authHost.Faults.
	ext any
}

// built is what a constructor of the engine's catalog (faults.go,
// http_faults.go) makes: the fault's action, named, with no trigger yet.
type built struct{ f *fault }

// brokenFault is a fault whose constructor failed: installing it fails the
// test with err, naming the constructor call.
func brokenFault(name string, err error) built {
	return built{&fault{name: name, err: err}}
}

// brokenArg is a fault whose constructor (or refinement) could not take
// its argument param (named as its signature names it): the config
// package places the reason at the file's matching parameter.
func brokenArg(name, param string, err error) built {
	return brokenFault(name, &precheck.ArgError{Param: param, Err: err})
}

// builtFault makes a Fault of a fault built in this package, outside the
// catalog (internal tests).
func builtFault(b built) Fault { return Fault(faultkit.Make(faultkit.Spec{Ext: b})) }

// faultCatalog holds the engine's fault constructors, one method per
// constructor of package fault, with the same name and signature: a
// fault.Hang("tools/call") is the data {Op: "Hang", Args: ["tools/call"]},
// which resolve plays with faultCatalog.Hang. Their docs are package fault's.
type faultCatalog struct{}

// spec returns what f is, nil for the zero Fault.
func (f Fault) spec() *faultkit.Spec { return faultkit.Fault(f).Spec() }

// resolve builds f's action with its trigger: nil for the zero Fault. It
// is pure, so a Fault stays a value; AddFault resolves once.
func (f Fault) resolve() *fault {
	sp := f.spec()
	if sp == nil {
		return nil
	}
	var b *fault
	switch {
	case sp.Op != "":
		b = callCatalog(sp.Op, sp.Args)
	case sp.Ext != nil:
		if pre, ok := sp.Ext.(built); ok { // a fault of this package's own (builtFault)
			c := *pre.f
			b = &c
		} else {
			b = &fault{name: sp.Name, method: sp.Method, err: sp.Err, ext: sp.Ext}
		}
	default:
		b = &fault{name: sp.Name, err: errZeroFault}
	}
	c := *b
	// the trigger: a refinement's, over what the constructor set (ListChangedAfter is Nth(1))
	if sp.Nth != 0 {
		c.nth = sp.Nth
	}
	if sp.Session != 0 {
		c.session = sp.Session
	}
	if sp.Prob != 0 {
		c.prob = sp.Prob
	}
	c.optional = c.optional || sp.Optional
	if sp.Refine != nil && c.err == nil {
		c.err = sp.Refine
	}
	return &c
}

// callCatalog calls the faultCatalog's constructor op with args (the typed
// arguments package fault passed on), or returns a broken fault saying why
// it cannot: a test checks that every constructor of package fault has its
// method here, with the same signature.
func callCatalog(op string, args []any) *fault {
	m := reflect.ValueOf(faultCatalog{}).MethodByName(op)
	if !m.IsValid() {
		return brokenFault(op, fmt.Errorf("mcptest has no fault %q; build faults with the constructors of package fault", op)).f
	}
	t := m.Type()
	if len(args) != t.NumIn() {
		return brokenFault(op, fmt.Errorf("fault %s takes %d arguments, got %d", op, t.NumIn(), len(args))).f
	}
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		want := t.In(i)
		if a == nil {
			in[i] = reflect.Zero(want)
			continue
		}
		v := reflect.ValueOf(a)
		if !v.Type().AssignableTo(want) {
			return brokenFault(op, fmt.Errorf("fault %s: argument %d is a %s, want %s", op, i+1, v.Type(), want)).f
		}
		in[i] = v
	}
	var out []reflect.Value
	if t.IsVariadic() {
		out = m.CallSlice(in)
	} else {
		out = m.Call(in)
	}
	return out[0].Interface().(built).f
}

// String names the fault and its trigger, e.g. `Delay("tools/call", 2s).Nth(3)`:
// what it does on the wire (Optional, which changes only the verdict, is
// not shown).
func (f Fault) String() string {
	r := f.resolve()
	if r == nil {
		return "Fault(nil)"
	}
	var b strings.Builder
	b.WriteString(r.name)
	if r.nth > 0 {
		fmt.Fprintf(&b, ".Nth(%d)", r.nth)
	}
	if r.session > 0 {
		fmt.Fprintf(&b, ".InSession(%d)", r.session)
	}
	if r.prob > 0 {
		fmt.Fprintf(&b, ".WithProbability(%g)", r.prob)
	}
	return b.String() // Optional is left out: it changes the verdict, not what goes on the wire
}

// refine returns a copy of the fault with a changed trigger.
func (f Fault) refine(change func(*faultkit.Spec)) Fault {
	sp := f.spec()
	if sp == nil {
		return f
	}
	c := *sp
	change(&c)
	return Fault(faultkit.Make(c))
}

// refineErr returns a copy of the fault that fails to install with a
// refinement's error (the first one it got).
func (f Fault) refineErr(param string, err error) Fault {
	return f.refine(func(c *faultkit.Spec) {
		if c.Refine == nil {
			c.Refine = &precheck.ArgError{Param: param, Err: err}
		}
	})
}

// Nth makes the fault act on the nth matching message only, counted from 1
// across all sessions of the server (with InSession, of that session). Each
// registration counts for itself: the same value on two Servers acts on
// the nth message of each.
func (f Fault) Nth(n int) Fault {
	if n < 1 {
		return f.refineErr("Nth", fmt.Errorf("Nth(%d): n counts from 1", n))
	}
	return f.refine(func(c *faultkit.Spec) { c.Nth = n })
}

// InSession makes the fault act in the n-th session of the server only,
// counted from 1 in the order the sessions opened (Session.Number).
func (f Fault) InSession(n int) Fault {
	if n < 1 {
		return f.refineErr("InSession", fmt.Errorf("InSession(%d): sessions count from 1", n))
	}
	return f.refine(func(c *faultkit.Spec) { c.Session = n })
}

// WithProbability makes the fault act on each matching message with
// probability p (0 < p ≤ 1), drawn from the server's seeded source
// (Options.FaultSeed), so a run can be repeated exactly. Such a fault counts as
// having come into play once its trigger matched, whether or not the draw
// made it act.
func (f Fault) WithProbability(p float64) Fault {
	if !(p > 0 && p <= 1) {
		return f.refineErr("WithProbability", fmt.Errorf("WithProbability(%g): want 0 < p <= 1", p))
	}
	return f.refine(func(c *faultkit.Spec) { c.Prob = p })
}

// Optional marks a fault that may legitimately never act in this test (a
// client that may or may not reach it): it then does not fail the test at
// its end. Without it, a fault that never acted is reported as evidence
// that the test did not test what it says.
func (f Fault) Optional() Fault { return f.refine(func(c *faultkit.Spec) { c.Optional = true }) }

// Err reports why the fault cannot be installed on any server, or nil: a
// zero Fault, an argument its constructor or a refinement could not take,
// a method no version of the protocol has (a method a Handle serves is
// checked when the fault is installed). AddFault and WithFaults fail the
// test with it; config checks a file's faults with it when it loads.
func (f Fault) Err() error { return f.problem(nil, false) }

// FaultHandle is one installed fault: the registration that Server.AddFault
// returns (and Server.Faults lists), with its own counts. It is safe for
// concurrent use.
type FaultHandle struct {
	srv   *Server
	f     *fault
	value Fault // what was installed

	mu       sync.Mutex
	matched  int          // messages the trigger matched (method, session, kind)
	hits     int          // times the fault acted
	sessions map[int]bool // the sessions a once-per-session action acted in
	removed  bool
	release  chan struct{}
	once     sync.Once
}

// Fault returns the fault value this registration installed.
func (h *FaultHandle) Fault() Fault { return h.value }

// String names the fault, as Fault.String does.
func (h *FaultHandle) String() string { return h.Fault().String() }

// Hits returns how many times the fault acted so far.
func (h *FaultHandle) Hits() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.hits
}

// Remove uninstalls the fault: messages from now on are not touched by
// it. A Hang it held is released. It is idempotent.
func (h *FaultHandle) Remove() {
	h.srv.removeFaults(func(g *FaultHandle) bool { return g == h })
}

// Release lets the messages a Hang fault holds go on, and every later one
// pass. It is a no-op for other faults, and idempotent.
func (h *FaultHandle) Release() { h.once.Do(func() { close(h.release) }) }

// fired reports whether the fault came into play: it acted, or, for a
// probabilistic fault, its trigger matched.
func (h *FaultHandle) fired() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.hits > 0 || (h.f.prob > 0 && h.matched > 0)
}

// matches reports whether the fault acts on m, counting it.
func (h *FaultHandle) matches(s *Session, m Message) bool {
	f := h.f
	if !h.mayAct(s, m) {
		return false
	}
	h.mu.Lock()
	h.matched++
	matched := h.matched
	h.mu.Unlock()
	if f.nth > 0 && matched != f.nth {
		return false
	}
	if f.prob > 0 && !s.srv.chance(f.prob) {
		return false
	}
	return true
}

// hit records that the fault acted.
func (h *FaultHandle) hit() {
	h.mu.Lock()
	h.hits++
	h.mu.Unlock()
}

// firstIn reports whether this is the first time the fault acts in
// session s, remembering it.
func (h *FaultHandle) firstIn(s *Session) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.sessions == nil {
		h.sessions = map[int]bool{}
	}
	if h.sessions[s.n] {
		return false
	}
	h.sessions[s.n] = true
	return true
}

// faultSet is the server's faults, split by hook point. The hooks read an
// immutable snapshot without a lock; changes swap it.
type faultSet struct {
	mu   sync.Mutex
	all  []*FaultHandle // every registration ever made, in order, removed ones too
	on   atomic.Pointer[faultSnapshot]
	rng  *rand.Rand
	seed int64
}

type faultSnapshot struct {
	inbound, outbound, http []*FaultHandle
	ext                     []authplug.Fault // the faults an extension plays (authHost.Faults)
}

// WithFaults installs faults, as AddFault does, and returns the Server so
// that it chains with the configuration methods. Like them it must come
// before the first Dial (or URL, HTTPHandler, Serve): to install a fault
// while clients are connected, use AddFault, which returns its handle. A
// fault whose constructor failed, or that names a method no version of the
// protocol has and no Handle serves, fails the test at once, naming the
// call.
func (s *Server) WithFaults(faults ...Fault) *Server {
	s.t.Helper()
	s.mu.Lock()
	started := s.started
	s.mu.Unlock()
	if started {
		s.t.Fatalf("mcptest: WithFaults called after the first Dial; configure the server before Dial, or install a fault while clients are connected with AddFault")
		return s
	}
	for _, f := range faults {
		if s.addFault("WithFaults", f) == nil {
			break
		}
	}
	return s
}

// AddFault installs a fault and returns its registration: its counts
// (Hits), its Remove, and Release for a Hang. It may be called at any time,
// also while clients are connected. A misbuilt fault fails the test at
// once, naming the call, and AddFault returns nil.
func (s *Server) AddFault(f Fault) *FaultHandle {
	s.t.Helper()
	return s.addFault("AddFault", f)
}

// addFault installs f for call (WithFaults or AddFault), or fails the
// test naming call and f and saying why, and returns nil.
func (s *Server) addFault(call string, f Fault) *FaultHandle {
	s.t.Helper()
	r := f.resolve()
	if err := f.problem(s.handled(), true); err != nil {
		switch {
		case r == nil:
			s.t.Fatalf("mcptest: %s: %v", call, err)
		case r.err == nil: // built, so its method is what is wrong
			s.t.Fatalf("mcptest: %s(%s): the fault would never act: %v", call, f, err)
		default:
			s.t.Fatalf("mcptest: %s(%s): %v", call, f, err)
		}
		return nil
	}
	h := &FaultHandle{srv: s, f: r, value: f, release: make(chan struct{})}
	s.faults.mu.Lock()
	s.faults.all = append(s.faults.all, h)
	s.faults.swap()
	s.faults.mu.Unlock()
	return h
}

func (s *Server) removeFaults(match func(*FaultHandle) bool) {
	s.faults.mu.Lock()
	var gone []*FaultHandle
	for _, h := range s.faults.all {
		h.mu.Lock()
		if !h.removed && match(h) {
			h.removed = true
			gone = append(gone, h)
		}
		h.mu.Unlock()
	}
	s.faults.swap()
	s.faults.mu.Unlock()
	for _, h := range gone {
		h.Release()
	}
}

// Faults returns the registrations of the faults that are on, in the order
// they were installed.
func (s *Server) Faults() []*FaultHandle {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	var out []*FaultHandle
	for _, h := range s.faults.all {
		if !h.isRemoved() {
			out = append(out, h)
		}
	}
	return out
}

func (h *FaultHandle) isRemoved() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.removed
}

// swap rebuilds the snapshot the hooks read; fs.mu is held.
func (fs *faultSet) swap() {
	snap := &faultSnapshot{}
	for _, h := range fs.all {
		if h.isRemoved() {
			continue
		}
		if h.f.inbound != nil {
			snap.inbound = append(snap.inbound, h)
		}
		if h.f.out != nil {
			snap.outbound = append(snap.outbound, h)
		}
		if h.f.http != nil {
			snap.http = append(snap.http, h)
		}
		if h.f.ext != nil {
			snap.ext = append(snap.ext, extFault{h})
		}
	}
	if len(snap.inbound)+len(snap.outbound)+len(snap.http)+len(snap.ext) == 0 {
		snap = nil
	}
	fs.on.Store(snap)
}

// mayAct reports whether the fault's trigger selects m by its method,
// session and kinds, without counting it: the message paths skip the
// fault machinery for a message no installed fault may act on.
func (h *FaultHandle) mayAct(s *Session, m Message) bool {
	f := h.f
	if f.method != "" && m.Method != f.method {
		return false
	}
	if f.session > 0 && s.n != f.session {
		return false
	}
	if f.out != nil && m.Direction == FromServer {
		if f.kinds == nil {
			return m.Kind == KindResult || m.Kind == KindError
		}
		return slices.Contains(f.kinds, m.Kind)
	}
	return true
}

// hasInbound reports whether a fault on client requests may act on m.
func (fs *faultSet) hasInbound(s *Session, m Message) bool {
	for _, h := range fs.snapshot(true) {
		if h.mayAct(s, m) {
			return true
		}
	}
	return false
}

// outboundFor returns the faults on the mock's messages when one of them
// may act on m, a message the mock is about to send; else nil.
func (fs *faultSet) outboundFor(s *Session, m Message) []*FaultHandle {
	faults := fs.snapshot(false)
	m.Direction = FromServer
	for _, h := range faults {
		if h.mayAct(s, m) {
			return faults
		}
	}
	return nil
}

// snapshot returns the faults of one hook point; it takes no lock.
func (fs *faultSet) snapshot(inbound bool) []*FaultHandle {
	snap := fs.on.Load()
	if snap == nil {
		return nil
	}
	if inbound {
		return snap.inbound
	}
	return snap.outbound
}

// unfiredFaults explains each installed fault that never came into play,
// unless it is Optional.
func (s *Server) unfiredFaults() []string {
	s.faults.mu.Lock()
	all := slices.Clone(s.faults.all)
	s.faults.mu.Unlock()
	var out []string
	for _, h := range all {
		if h.f.optional || h.fired() {
			continue
		}
		out = append(out, fmt.Sprintf("%s never acted: %s", h.Fault(), s.whyUnfired(h)))
	}
	return out
}

// whyUnfired says why a fault likely never acted, from what the journal
// noted of every message as it was recorded (so, under
// Options.JournalKeep, of those that left memory too).
func (s *Server) whyUnfired(h *FaultHandle) string {
	f := h.f
	const hint = " (mark it Optional() if the test may legitimately not reach it)"
	j := s.journal
	j.mu.Lock()
	n, sessions, methods := j.n, j.sessions, slices.Clone(j.clientMethods)
	j.mu.Unlock()
	if n == 0 {
		return "no client sent anything (the journal is empty)" + hint
	}
	sent := map[string]bool{}
	for _, m := range methods {
		sent[m] = true
	}
	if f.session > sessions {
		return fmt.Sprintf("InSession(%d), but the server had %s%s", f.session, plural(sessions, "session", "sessions"), hint)
	}
	if f.method != "" && !sent[f.method] {
		switch {
		case f.method == "initialize" && sent["server/discover"]:
			return "the client never sent initialize: it went stateless (server/discover was answered); narrow the server with " +
				"WithProtocolVersions(mcptest.HandshakeVersions()...), or pin the client to a handshake-era version" + hint
		case f.method == "server/discover" && sent["initialize"]:
			return "the client never sent server/discover: it initialized at once (a handshake-only client, or one pinned to a version)" + hint
		case f.method == "notifications/initialized" || strings.HasPrefix(f.method, "notifications/"):
			return fmt.Sprintf("the client never sent %s (it sent %s)%s", f.method, strings.Join(methods, ", "), hint)
		}
		return fmt.Sprintf("the client never sent %s (it sent %s)%s%s", f.method, strings.Join(methods, ", "), didYouMean(f.method, methods), hint)
	}
	h.mu.Lock()
	matched := h.matched
	h.mu.Unlock()
	if f.nth > 0 && matched < f.nth {
		return fmt.Sprintf("its trigger matched %s, fewer than Nth(%d)%s", plural(matched, "message", "messages"), f.nth, hint)
	}
	if matched == 0 && f.out != nil && f.inbound == nil {
		return "the mock never sent a message it applies to" + hint
	}
	return fmt.Sprintf("its trigger matched %s, but none was one it applies to%s", plural(matched, "message", "messages"), hint)
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
	for _, h := range s.srv.faults.snapshot(true) {
		if h.matches(s, m) && h.f.inbound(h, s, m, dispatch) {
			h.hit()
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

// faultNames lists the faults that are on, for the transcript.
func (s *Server) faultNames() string {
	var names []string
	for _, h := range s.Faults() {
		names = append(names, h.Fault().String())
	}
	return strings.Join(names, ", ")
}

// handled lists the methods a Handle serves, sorted: a fault may name
// them beside the protocol's (precheck.Methods).
func (s *Server) handled() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, 0, len(s.handlers))
	for m := range s.handlers {
		names = append(names, m)
	}
	slices.Sort(names)
	return names
}

// errZeroFault is the problem of a Fault not made by a constructor.
var errZeroFault = errors.New("a zero Fault; build faults with the constructors of package fault (fault.Hang, fault.Delay, …)")

// problem says why f cannot be installed on a server whose Handles serve
// served (handles: the caller has Handle), or returns nil: a zero Fault,
// an argument its constructor could not take, a method it would never see.
// AddFault and WithFaults check it, and, through Err, the config package
// checks a file's faults with it at load.
func (f Fault) problem(served []string, handles bool) error {
	r := f.resolve()
	if r == nil {
		return errZeroFault
	}
	if r.err != nil {
		return r.err
	}
	if why := precheck.UnknownMethod(r.method, served, handles); why != "" {
		return &precheck.ArgError{Param: "method", Err: errors.New(why)}
	}
	return nil
}
