package scenarios

import (
	"context"
	"errors"
	"fmt"
	"net"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/mcpmock/mcpmock/mcptest"
)

// DefaultDeadline is how long a ConnectFunc may run before its context
// ends, for scenarios that do not set Scenario.Deadline.
const DefaultDeadline = 2 * time.Second

// grace is how long Play waits after a ConnectFunc's context ended before
// it closes the connections under it, and again before it gives up on it.
const grace = 3 * time.Second

// MaxSessions is how many sessions a client may open through one
// Endpoint in one play; Open fails after that, so that a client that
// reconnects in a loop ends.
const MaxSessions = 16

// ErrStillRunning is Outcome.Err when the ConnectFunc had not returned even
// after Play closed its connections and the server: its goroutine is leaked.
var ErrStillRunning = errors.New("scenarios: the connect function had not returned after its deadline, nor after its connections were closed")

// ConnectFunc drives the client under test as the application does in
// production: it reaches the scenario's server through ep (Open for the
// stdio framing, URL for Streamable HTTP), connects in whichever era the
// client chooses, does the app's
// usual work (list the tools, call one, read a resource…), and returns.
// The checks are phrased over whatever the client does ("the first
// tools/call", "every tool the server listed"); a client that does less
// leaves some scenarios not reached, and their verdicts say what was
// missing. It must return when ctx is done; what it returns is
// Outcome.Err. OneSession adapts a function that takes one connection.
type ConnectFunc func(ctx context.Context, ep *Endpoint) error

// OneSession is the ConnectFunc of a client that uses one session: it
// opens one session with ep.Open and hands the connection to f.
func OneSession(f func(ctx context.Context, conn net.Conn) error) ConnectFunc {
	return func(ctx context.Context, ep *Endpoint) error {
		conn, err := ep.Open()
		if err != nil {
			return err
		}
		return f(ctx, conn)
	}
}

// Endpoint is where the client under test reaches a scenario's server
// during one play, over either transport: Open opens a new stdio-framed
// session each time (a client that reconnects opens another); URL is the
// Streamable HTTP address. Play closes every connection it handed out, and
// the server, when the play ends.
type Endpoint struct {
	srv     *mcptest.Server
	context map[string]string

	mu      sync.Mutex
	closed  bool
	conns   []net.Conn
	usedURL bool // URL was called during the play
	// clientClosed is when the client closed the connection of a session
	// of Open (by session number) while the play was on.
	clientClosed map[int]time.Time
}

// trackedConn is the client's end of a session of Open: it notes when the
// client closes it, so that a verdict can say the client ended its own
// session (see closedEarly).
type trackedConn struct {
	net.Conn
	ep      *Endpoint
	session int
}

func (c *trackedConn) Close() error {
	now := time.Now()
	c.ep.mu.Lock()
	if _, done := c.ep.clientClosed[c.session]; !done && !c.ep.closed {
		if c.ep.clientClosed == nil {
			c.ep.clientClosed = map[int]time.Time{}
		}
		c.ep.clientClosed[c.session] = now
	}
	c.ep.mu.Unlock()
	return c.Conn.Close()
}

// Open opens a new MCP session with the scenario's server and returns the
// client's end of it: an in-memory connection speaking newline-delimited
// JSON-RPC, the stdio transport's framing. Pass it to the client, e.g.
// &mcp.IOTransport{Reader: conn, Writer: conn} (official Go SDK) or
// transport.NewIO(conn, conn, nil) (mark3labs/mcp-go). It fails once the
// play is over, and after MaxSessions sessions.
func (e *Endpoint) Open() (net.Conn, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case e.closed:
		return nil, errors.New("scenarios: Endpoint.Open: the play is over (the connect function returned, or its deadline passed)")
	case len(e.conns) >= MaxSessions:
		return nil, fmt.Errorf("scenarios: Endpoint.Open: the client already opened %d sessions in this play; a client that reconnects in a loop never ends", MaxSessions)
	}
	c := e.srv.Dial()
	sessions := e.srv.Sessions()
	tc := &trackedConn{Conn: c, ep: e, session: sessions[len(sessions)-1].Number()}
	e.conns = append(e.conns, tc)
	return tc, nil
}

// ClientContext returns the scenario's ClientContext (nil for none): what
// the client is given besides the URL, such as pre-registered credentials.
func (e *Endpoint) ClientContext() map[string]string { return e.context }

// URL returns the Streamable HTTP address of the scenario's server, e.g.
// "http://127.0.0.1:38241/mcp", for clients on the HTTP transport
// (&mcp.StreamableClientTransport{Endpoint: ep.URL()}); the HTTP server
// starts on the first call and stops with the play. Each MCP session the
// client opens there is a session of the play, like one of Open. It
// returns "" once the play is over.
func (e *Endpoint) URL() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return ""
	}
	e.usedURL = true
	return e.srv.URL()
}

// close ends the play: no more Open, and every connection handed out is
// closed (the client reads end of file).
func (e *Endpoint) close() {
	e.mu.Lock()
	e.closed = true
	conns := e.conns
	e.mu.Unlock()
	for _, c := range conns {
		_ = c.(*trackedConn).Conn.Close()
	}
}

// Scenario is one server behaviour, usually a mistake real servers make,
// together with what a correct client does when it meets it.
type Scenario struct {
	// Name is short and stable: the subtest name, for -run and Only.
	Name string
	// Mistake is one paragraph: what the server does wrong and which client
	// bug it catches.
	Mistake string
	// Spec is the address of the spec section the scenario is about.
	Spec string
	// Basis is what the verdict rests on: the requirement on the client
	// (keyword and sentence), or the sentence a robustness scenario's
	// server breaks. The catalog's scenarios have theirs from one table.
	Basis Basis
	// Server applies the scenario's mistake to base, the app's healthy
	// server (GiftGen unless the run says WithServer), built for the test
	// and not yet started: it adds faults (marked Optional: whether they
	// act is the decision point's business, not a failure of their own),
	// narrows the protocol versions, replaces a method with Handle, and
	// returns the server to play. Play turns off the server's own verdict
	// on violations: the scenario's verdict is the only one.
	Server func(base *mcptest.Server) *mcptest.Server
	// Expect is what a correct client does, and when that can be judged.
	Expect Expectation
	// Deadline is how long the ConnectFunc may run before its context ends;
	// zero means DefaultDeadline.
	Deadline time.Duration
	// ClientContext is what the client is given besides the URL, as the
	// official conformance suite gives it in MCP_CONFORMANCE_CONTEXT (e.g.
	// the client_id and client_secret of a pre-registered client); nil for
	// nothing. Endpoint.ClientContext hands it to a ConnectFunc, and
	// `mcpmock run` to a client program, with the scenario's name.
	ClientContext map[string]string

	// canary, if set, replaces Server in Play: it is given the URL of a
	// canary listener Play starts for the play (json-schema-ref-no-deref),
	// whose hits become Outcome.canaryHits.
	canary func(base *mcptest.Server, canaryURL string) *mcptest.Server
}

// Expectation is the behaviour of a correct client: a description, the
// point the client must have reached for the check to be evidence, and
// the checks. Evaluate runs them in order: NotApplicable, Reached, Check.
type Expectation struct {
	// Description says what a correct client does, e.g. "tools/list is
	// never called".
	Description string
	// DecisionPoint says what the client must have reached for Check to be
	// evidence, e.g. "the client has read the server's capabilities (an
	// initialize or server/discover result)".
	DecisionPoint string
	// NotApplicable, if set, returns why the scenario cannot apply to this
	// client, "" when it does: e.g. a stateless-era scenario for a client
	// that initialized without probing. The subtest is skipped with the
	// reason and the report says not-applicable.
	NotApplicable func(o Outcome) string
	// Reached returns nil once the client reached the decision point,
	// otherwise an error saying what was missing: the verdict is then
	// not-reached, which counts as a failure. A client that does nothing
	// reaches no decision point.
	Reached func(o Outcome) error
	// Check runs only once the decision point is reached: nil when the
	// client did what a correct client does, otherwise an error saying
	// what it did instead.
	Check func(o Outcome) error
	// After, if set, is an event the client must react to, and Play waits
	// for the reaction within a stated window (see Reaction), so that a
	// client that reacts from its own goroutine, after its ConnectFunc
	// returned, gets the same verdict every run.
	After *Reaction
}

// Reaction is what a correct client does after an event, and how long
// Play waits for it after the ConnectFunc returned: until a message that
// Then(event) matches follows the first message matching Event, every
// session has ended, or Window has passed, whichever is first. No
// sleeping: Play waits on the journal with mcptest's Server.Await.
type Reaction struct {
	// Event matches the message the client reacts to, e.g.
	// mcptest.ServerSent("notifications/tools/list_changed").
	Event mcptest.Matcher
	// Then returns what matches the client's reaction to event, e.g. a
	// notifications/cancelled naming the id of the tools/call event.
	Then func(event mcptest.Message) mcptest.Matcher
	// Window is how long Play waits for the reaction after the
	// ConnectFunc returned.
	Window time.Duration
}

// Always is a Reaction's Then that does not depend on the event: the
// reaction is any message m matches.
func Always(m mcptest.Matcher) func(mcptest.Message) mcptest.Matcher {
	return func(mcptest.Message) mcptest.Matcher { return m }
}

// Outcome is what a client did in one play of a scenario, read after the
// client returned and the server closed.
type Outcome struct {
	// Err is what the ConnectFunc returned (ErrStillRunning if it never did,
	// an error naming the panic if it panicked).
	Err error
	// Hung reports that the ConnectFunc was still running well after its
	// context ended, so that Play had to close its connections to stop it.
	Hung bool
	// Panicked reports that the ConnectFunc panicked (Err says with what).
	Panicked bool
	// Elapsed is how long the ConnectFunc ran.
	Elapsed time.Duration
	// Deadline is how long it was allowed to run before its context ended.
	Deadline time.Duration
	// Sessions is how many sessions the client opened (Open or URL).
	Sessions int
	// OverHTTP reports that the client asked for Endpoint.URL during the
	// play: it uses the Streamable HTTP transport (the HTTP scenarios do
	// not apply to a client that never did).
	OverHTTP bool
	// Server is the scenario's server, closed.
	Server *mcptest.Server
	// Journal is every message of every session, both directions, in wire order.
	Journal mcptest.Messages
	// Violations are the protocol rules the client broke.
	Violations []mcptest.Violation
	// Faults are the registrations of the faults the scenario installed,
	// with how often each acted (Hits): the catalog's
	// faults are Optional, and whether they came into play is what the
	// decision point judges.
	Faults []*mcptest.FaultHandle

	// returned is when the ConnectFunc returned (zero for an Outcome not
	// made by Play), for Idle.
	returned time.Time
	// clientClosed is when the client closed its end of a session of Open
	// (by session number) before Play closed it.
	clientClosed map[int]time.Time
	// canaryHits are the requests to the play's canary listener (a
	// scenario with canary only).
	canaryHits []string
}

// Idle is how long the client had sent no request when its ConnectFunc
// returned: from the last request it sent before the return to the
// return. A client that waits for its own timeout after the server died
// under its request is idle for the whole wait (a notifications/cancelled
// it sends on giving up is no request); one that notices at once is not,
// however slowly the machine brought it there. Idle is Elapsed when the
// client sent no request, or for an Outcome not made by Play.
func (o Outcome) Idle() time.Duration {
	if o.returned.IsZero() {
		return o.Elapsed
	}
	var last time.Time
	for _, m := range o.Journal {
		if m.Direction == mcptest.FromClient && m.IsRequest() && !m.Time.After(o.returned) && m.Time.After(last) {
			last = m.Time
		}
	}
	if last.IsZero() {
		return o.Elapsed
	}
	return o.returned.Sub(last)
}

// WaitedOut reports whether the client returned only after half its
// deadline, and idle for a quarter of it or more (Idle): it waited for its
// own timeout rather than acting on what happened on the wire, such as a
// server that died under its request. Both bars must be passed, so that a
// machine slow to bring the client up to the fault blames no client that
// then returned at once.
func (o Outcome) WaitedOut() bool {
	return o.Elapsed >= o.Deadline/2 && o.Idle() >= o.Deadline/4
}

// String names the scenario, the spec section and the first sentence of
// its mistake, e.g. for a listing of the catalog.
func (s Scenario) String() string {
	return fmt.Sprintf("%s: %s [%s]", s.Name, firstSentence(s.Mistake), s.Spec)
}

func firstSentence(p string) string {
	if i := strings.Index(p, ". "); i >= 0 {
		return p[:i+1]
	}
	return p
}

func (s Scenario) deadline() time.Duration {
	if s.Deadline > 0 {
		return s.Deadline
	}
	return DefaultDeadline
}

// Play runs the client once against the scenario applied to GiftGen, or to
// the server of a WithServer option: it builds the server for t, calls
// connect with an Endpoint and a context that ends after the scenario's
// Deadline, waits until connect returned (and, for a scenario with an
// After reaction, for the reaction within its window), closes every
// session and the server, and returns what happened. It never hangs: a
// connect that ignores its context gets its connections closed a few
// seconds after the deadline, and is abandoned (Outcome.Err is
// ErrStillRunning) a few seconds after that. Play does not judge;
// Evaluate and Check do.
func (s Scenario) Play(t mcptest.TB, connect ConnectFunc, opts ...Option) Outcome {
	t.Helper()
	c := newConfig(opts)
	var srv *mcptest.Server
	var canary *canaryListener
	if s.canary != nil {
		var err error
		if canary, err = startCanary(); err != nil {
			t.Fatalf("%v", err)
		}
		srv = s.canary(c.base(t), canary.url)
	} else {
		srv = s.Server(c.base(t))
	}
	srv.IgnoreViolations()
	ep := &Endpoint{srv: srv, context: s.ClientContext}
	d := s.deadline()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()

	type result struct {
		err      error
		panicked bool
	}
	done := make(chan result, 1)
	start := time.Now()
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{fmt.Errorf("scenarios: the connect function panicked: %v\n%s", p, debug.Stack()), true}
			}
		}()
		done <- result{err: connect(ctx, ep)}
	}()

	o := Outcome{Deadline: d, Server: srv}
	timer := time.NewTimer(d + grace)
	defer timer.Stop()
	select {
	case r := <-done:
		o.Err, o.Panicked = r.err, r.panicked
		o.returned = time.Now()
		o.Elapsed = o.returned.Sub(start)
		if s.Expect.After != nil {
			awaitReaction(srv, *s.Expect.After)
		}
	case <-timer.C:
		o.Hung = true
		ep.close()
		srv.Close()
		timer.Reset(grace)
		select {
		case r := <-done:
			o.Err, o.Panicked = r.err, r.panicked
		case <-timer.C:
			o.Err = ErrStillRunning
		}
		o.returned = time.Now()
		o.Elapsed = o.returned.Sub(start)
	}
	ep.close()
	drain(srv)
	srv.Close()
	o.Sessions = len(srv.Sessions())
	ep.mu.Lock()
	o.OverHTTP = ep.usedURL
	o.clientClosed = ep.clientClosed
	ep.mu.Unlock()
	o.Journal = srv.Journal().All()
	o.Violations = srv.Violations()
	o.Faults = srv.Faults()
	if canary != nil {
		o.canaryHits = canary.close()
	}
	return o
}

// awaitReaction waits until a message matching r.Then follows the first
// one matching r.Event, every session has ended, or r.Window has passed.
func awaitReaction(srv *mcptest.Server, r Reaction) {
	ctx, cancel := context.WithTimeout(context.Background(), r.Window)
	defer cancel()
	go func() {
		for _, sess := range srv.Sessions() {
			select {
			case <-sess.Done():
			case <-ctx.Done():
				return
			}
		}
		cancel() // nothing more can come
	}()
	event := 0
	var then mcptest.Matcher
	_, _ = srv.Await(ctx, mcptest.Matcher{Description: "the reaction to " + r.Event.Description, Match: func(m mcptest.Message) bool {
		if event == 0 {
			if r.Event.Match(m) {
				event, then = m.Seq, r.Then(m)
			}
			return false
		}
		return m.Seq > event && then.Match(m)
	}})
}

// Check judges an outcome: nil when the client did what a correct client
// does, otherwise an error of the form "want: …; got: …" (for a scenario
// that was not reached: "not reached: …"; not applicable: "not applicable:
// …"). A client that did not return when its context ended fails every
// scenario.
func (s Scenario) Check(o Outcome) error {
	st, got := s.judge(o)
	switch st {
	case Pass:
		return nil
	case NotReached:
		return fmt.Errorf("not reached: the check needs %s; %s", s.Expect.DecisionPoint, got)
	case NotApplicable:
		return fmt.Errorf("not applicable: %s", got)
	}
	return fmt.Errorf("want: %s; got: %s", s.Expect.Description, got)
}

// judge returns the status before known deviations (Pass, Fail,
// NotReached or NotApplicable) and what the client did instead or what
// was missing.
func (s Scenario) judge(o Outcome) (Status, string) {
	if o.Hung {
		return Fail, fmt.Sprintf("the connect function did not return within %v of its context ending (it must return when ctx is done); it returned %s", grace, errText(o.Err))
	}
	if o.Panicked {
		return Fail, errText(o.Err)
	}
	if s.Expect.Check == nil || s.Expect.Reached == nil {
		return Fail, "the scenario has no Expect.Check or Expect.Reached"
	}
	if s.Expect.NotApplicable != nil {
		if why := s.Expect.NotApplicable(o); why != "" {
			return NotApplicable, why
		}
	}
	if err := s.Expect.Reached(o); err != nil {
		return NotReached, err.Error()
	}
	if err := s.Expect.Check(o); err != nil {
		return Fail, err.Error()
	}
	return Pass, ""
}

// drain waits (up to grace) until every session of Open has read what
// the client wrote before closing its end: Server.Close would drop
// messages still in the pipe, such as a last notifications/cancelled.
// HTTP sessions have nothing in flight (each message is journaled before
// its HTTP request is answered), but a stateless-era request the client
// closed is seen a moment after the client ended, and at Close it would be
// cut by the server, not cancelled by the client: drain waits for those too
// (mcptest.Server.AwaitStatelessRequests).
func drain(srv *mcptest.Server) {
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	overHTTP := map[int]bool{}
	for _, m := range srv.Journal().All() {
		if m.HTTP != nil {
			overHTTP[m.SessionNumber] = true
		}
	}
	for _, sess := range srv.Sessions() {
		if overHTTP[sess.Number()] {
			continue
		}
		select {
		case <-sess.Done():
		case <-ctx.Done():
			return
		}
	}
	_ = srv.AwaitStatelessRequests(ctx) // a client that holds one open past grace did not cancel it
}
