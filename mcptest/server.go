package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpmock/mcpmock/internal/authplug"
	"github.com/mcpmock/mcpmock/internal/spec"
)

// Server is a scripted MCP server living inside a test. Configure it with
// the chained With… methods, connect clients with Dial, drive it while
// connected with the runtime methods (Broadcast, SendRequest, SetTools, …), and
// check what the client did with the journal, Violations and the Assert…
// methods. NewServer registers Close with t.Cleanup.
type Server struct {
	t TB

	mu             sync.Mutex
	started        bool
	closed         bool
	ctx            context.Context
	cancel         context.CancelFunc
	wg             goroutines // every goroutine of the server: Close waits for them
	closeGrace     time.Duration
	closeBy        time.Time // when Close stops waiting for handlers
	abandoned      bool      // Close gave up on goroutines that outlive it
	sessions       []*Session
	violations     []Violation
	violationCount map[violationKey]*violationTally // under a journal window (addViolation)
	expected       []RuleID
	counts         []countCheck // AssertCalledTimes to check again at Verify (assert.go)
	ignore         bool
	unmatched      []string

	// configuration, fixed at the first Dial
	info         map[string]string
	instructions string
	versions     []string
	legacy       []string // the handshake-era ones among versions, fixed at the first Dial
	modern       []string // the stateless-era ones
	capsOverride json.RawMessage
	capsCache    json.RawMessage // capabilities as last built; reset when a catalog changes
	ttlMs        int64
	cacheScope   string
	decor        resultDecor // what decorate adds, as JSON, fixed at the first Dial
	emptyCursor  bool
	logging      bool
	pageSize     int
	waitTimeout  time.Duration
	handlers     map[string]Handler
	completions  []completion

	// catalogs, replaceable while connected (guarded by mu)
	tools, resources, templates, prompts catalog
	toolsDeclared                        bool
	resourcesDeclared, promptsDeclared   bool

	http    *httpFront // the Streamable HTTP endpoint, made by the first URL or HTTPHandler
	httpCfg httpConfig

	auth       authplug.Guard      // WithAuthorization (http_auth.go); nil: off
	authorizer authplug.Authorizer // what WithAuthorization installed

	scriptMu sync.Mutex // guards the counters of scripted sequences
	journal  *Journal
	schemas  schemas   // compiled inputSchemas and requestedSchemas, for the client checks
	states   stateBook // the requestStates of input_required results (mrtr.go)
	faults   faultSet
}

// TB is the part of testing.TB a Server uses: *testing.T, *testing.B and
// *testing.F satisfy it. It is an interface of its own so that a program
// that is not a test (a teaching example, a standalone mock) can run a
// Server too.
type TB interface {
	Helper()
	Cleanup(func())
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
	Failed() bool
}

// HandshakeVersions returns the protocol versions of the handshake era
// (initialize, then notifications/initialized) that the mock speaks, oldest
// first. It returns a new slice each time: changing it changes nothing else.
func HandshakeVersions() []string { return spec.Handshake.List() }

// StatelessVersions returns the protocol versions of the stateless era
// (server/discover, per-request _meta) that the mock speaks, in a new slice.
func StatelessVersions() []string { return spec.Stateless.List() }

// AllVersions returns every protocol version the mock speaks, oldest first,
// in a new slice. A new Server supports all of them: it answers
// server/discover as a modern server, and an initialize selects the
// handshake era for that session.
func AllVersions() []string { return spec.Versions() }

// isStateless reports whether version belongs to the stateless era.
func isStateless(version string) bool { return spec.IsStateless(version) }

// defaultWaitTimeout is how long WaitFor and the waiting assertions wait
// unless Options.WaitTimeout says otherwise.
const defaultWaitTimeout = 10 * time.Second

type catalog struct {
	items []entry
	index map[string]int
}

func (c *catalog) add(e entry) bool {
	if c.index == nil {
		c.index = map[string]int{}
	}
	if _, dup := c.index[e.key]; dup {
		return false
	}
	c.index[e.key] = len(c.items)
	c.items = append(c.items, e)
	return true
}

func (c *catalog) get(key string) (entry, bool) {
	i, ok := c.index[key]
	if !ok {
		return entry{}, false
	}
	return c.items[i], true
}

func (c *catalog) keys() []string {
	ks := make([]string, len(c.items))
	for i, e := range c.items {
		ks[i] = e.key
	}
	return ks
}

type completion struct {
	refType, ref, arg string
	values            []string
}

// NewServer returns a Server for the test t, with server info
// "mcptest"/"0.0.0" and every protocol version of both eras (AllVersions). Its Close,
// the check of client violations, and the transcript on failure are
// registered with t.Cleanup.
func NewServer(t TB) *Server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		t:           t,
		ctx:         ctx,
		cancel:      cancel,
		info:        map[string]string{"name": "mcptest", "version": "0.0.0"},
		versions:    spec.Versions(),
		cacheScope:  "public",
		waitTimeout: defaultWaitTimeout,
		closeGrace:  defaultCloseGrace,
		handlers:    map[string]Handler{},
		journal:     newJournal(),
	}
	t.Cleanup(func() {
		t.Helper() // the transcript is the test's: logged at the line that made the server
		s.Close()
		s.reportViolations(t)
		if t.Failed() || os.Getenv("MCPTEST_TRANSCRIPT") != "" {
			if tr := s.Transcript(); tr != "" {
				t.Logf("mcptest transcript:\n%s", tr)
			}
		}
		if dir := htmlDir(); dir != "" && t.Failed() {
			s.writeFailurePage(t, dir)
		}
	})
	return s
}

// configure runs f under the lock unless the server has started, in which
// case it fails the test naming the call.
func (s *Server) configure(call string, f func() error) *Server {
	s.t.Helper()
	s.mu.Lock()
	started := s.started
	var err error
	if !started {
		err = f()
	}
	s.mu.Unlock()
	if started {
		s.t.Fatalf("mcptest: %s called after the first Dial; configure the server before Dial (runtime changes: SetTools, SetResources, SetPrompts, AddFault, Broadcast, SendRequest)", call)
	}
	if err != nil {
		s.t.Fatalf("mcptest: %s: %v", call, err)
	}
	return s
}

// ServerInfo returns the serverInfo.name and serverInfo.version the
// server announces (Options.Name, Options.Version), e.g. for a banner that names it.
func (s *Server) ServerInfo() (name, version string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.info["name"], s.info["version"]
}

// WithProtocolVersions narrows the protocol versions the server supports.
// With only handshake-era versions it is a legacy server: server/discover
// gets -32601 and the client must fall back to initialize. With only
// stateless-era versions it is a modern-only server: initialize is
// rejected, naming the supported versions. An initialize asking for a
// supported version gets it back; one asking for another gets the newest
// supported handshake version, as the spec says a server must answer. A
// modern request asking for an unsupported version gets -32022.
func (s *Server) WithProtocolVersions(versions ...string) *Server {
	s.t.Helper()
	return s.configure("WithProtocolVersions", func() error {
		if len(versions) == 0 {
			return fmt.Errorf("no versions given")
		}
		for _, v := range versions {
			if !spec.Known(v) {
				return fmt.Errorf("unknown protocol version %q; mcptest speaks %s", v, spec.All)
			}
		}
		s.versions = slices.Clone(versions)
		sort.Strings(s.versions)
		s.versions = slices.Compact(s.versions)
		return nil
	})
}

// legacyVersions and modernVersions split the supported versions by era.
func (s *Server) legacyVersions() []string {
	return slices.DeleteFunc(slices.Clone(s.versions), isStateless)
}

func (s *Server) modernVersions() []string {
	return slices.DeleteFunc(slices.Clone(s.versions), func(v string) bool { return !isStateless(v) })
}

// WithCapabilities replaces the capabilities the server declares, which are
// otherwise derived from what is registered. caps is a JSON object text or
// a Go value. The server still answers what is registered: use it to make
// the declared capabilities differ from what is served.
func (s *Server) WithCapabilities(caps any) *Server {
	s.t.Helper()
	return s.configure("WithCapabilities", func() error {
		b, err := toJSONObject(caps)
		if err != nil {
			return err
		}
		s.capsOverride = b
		return nil
	})
}

// WithTools registers tools, and with them the tools capability; with no
// tools it declares the capability with none yet (for tools added later
// with SetTools). A second tool of the same name fails the test. It may be
// called more than once: the tools add up.
func (s *Server) WithTools(tools ...*Tool) *Server {
	s.t.Helper()
	return s.configure("WithTools", func() error {
		s.toolsDeclared = true
		return addAll(&s.tools, tools, (*Tool).entry)
	})
}

// WithResources registers resources, and with them the resources
// capability; with none it declares the capability with none yet.
func (s *Server) WithResources(resources ...*Resource) *Server {
	s.t.Helper()
	return s.configure("WithResources", func() error {
		s.resourcesDeclared = true
		return addAll(&s.resources, resources, (*Resource).entry)
	})
}

// WithResourceTemplates registers resource templates, and with them the
// resources capability.
func (s *Server) WithResourceTemplates(templates ...*ResourceTemplate) *Server {
	s.t.Helper()
	return s.configure("WithResourceTemplates", func() error {
		s.resourcesDeclared = true
		return addAll(&s.templates, templates, (*ResourceTemplate).entry)
	})
}

// WithPrompts registers prompts, and with them the prompts capability;
// with none it declares the capability with none yet.
func (s *Server) WithPrompts(prompts ...*Prompt) *Server {
	s.t.Helper()
	return s.configure("WithPrompts", func() error {
		s.promptsDeclared = true
		return addAll(&s.prompts, prompts, (*Prompt).entry)
	})
}

// WithPromptCompletion answers completion/complete for an argument of a
// prompt with the values that start with what the client typed, and
// declares the completions capability.
func (s *Server) WithPromptCompletion(prompt, argument string, values ...string) *Server {
	s.t.Helper()
	return s.configure("WithPromptCompletion", func() error {
		s.completions = append(s.completions, completion{"ref/prompt", prompt, argument, values})
		return nil
	})
}

// WithResourceCompletion answers completion/complete for a variable of a
// resource template, like WithPromptCompletion.
func (s *Server) WithResourceCompletion(uriTemplate, argument string, values ...string) *Server {
	s.t.Helper()
	return s.configure("WithResourceCompletion", func() error {
		s.completions = append(s.completions, completion{"ref/resource", uriTemplate, argument, values})
		return nil
	})
}

// Handle answers every request of method with h, before any built-in
// behaviour: use it for methods the mock does not know, including ones the
// spec does not know, or to take over one it does.
func (s *Server) Handle(method string, h Handler) *Server {
	s.t.Helper()
	return s.configure("Handle("+strconv.Quote(method)+")", func() error {
		if h == nil {
			return fmt.Errorf("nil Handler")
		}
		s.handlers[method] = h
		return nil
	})
}

type registrable interface{ label() string }

func addAll[T registrable](c *catalog, items []T, toEntry func(T) entry) error {
	var errs []string
	for _, it := range items {
		e := toEntry(it)
		if len(e.problems) > 0 {
			errs = append(errs, e.problems...)
			continue
		}
		if !c.add(e) {
			errs = append(errs, fmt.Sprintf("%s: registered twice; names and URIs must be unique", it.label()))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

// Announce says whether replacing a catalog while clients are connected
// (SetTools, SetResources, SetPrompts) tells them.
type Announce bool

const (
	// ListChanged sends the catalog's notifications/…/list_changed to every
	// session that may receive it (as Broadcast does).
	ListChanged Announce = true
	// Quietly tells no client: the clients keep what they listed before,
	// which is how a server makes a cached schema stale.
	Quietly Announce = false
)

// SetTools replaces the tool set while clients are connected; with
// ListChanged it sends notifications/tools/list_changed (see Broadcast for
// who receives it), with Quietly it tells no client.
func (s *Server) SetTools(a Announce, tools ...*Tool) {
	s.t.Helper()
	setCatalog(s, "SetTools", &s.tools, tools, (*Tool).entry, a, "notifications/tools/list_changed")
}

// SetResources replaces the resource set, like SetTools, announcing it
// with notifications/resources/list_changed.
func (s *Server) SetResources(a Announce, resources ...*Resource) {
	s.t.Helper()
	setCatalog(s, "SetResources", &s.resources, resources, (*Resource).entry, a, "notifications/resources/list_changed")
}

// SetPrompts replaces the prompt set, like SetTools, announcing it with
// notifications/prompts/list_changed.
func (s *Server) SetPrompts(a Announce, prompts ...*Prompt) {
	s.t.Helper()
	setCatalog(s, "SetPrompts", &s.prompts, prompts, (*Prompt).entry, a, "notifications/prompts/list_changed")
}

// setCatalog replaces a catalog while connected and, with ListChanged,
// tells every session that may hear it.
func setCatalog[T registrable](s *Server, call string, c *catalog, items []T, toEntry func(T) entry, a Announce, notify string) {
	s.t.Helper()
	var fresh catalog
	if err := addAll(&fresh, items, toEntry); err != nil {
		s.t.Fatalf("mcptest: %s: %v", call, err)
		return
	}
	s.mu.Lock()
	*c = fresh
	s.capsCache = nil
	s.mu.Unlock()
	if a == ListChanged {
		s.Broadcast(notify, nil)
	}
}

// Dial connects a new client: it returns the client's end of a new
// in-memory connection speaking newline-delimited JSON-RPC (the stdio
// framing), with one MCP session behind it. Pass it to the client under
// test, e.g. &mcp.IOTransport{Reader: conn, Writer: conn} (official Go SDK)
// or transport.NewIO(conn, conn, nil) (mark3labs/mcp-go). The first Dial
// freezes the configuration.
func (s *Server) Dial() net.Conn {
	s.t.Helper()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		s.t.Fatalf("mcptest: Dial called after Close")
		return nil
	}
	n := len(s.sessions) + 1
	client, server := newPipe(fmt.Sprintf("client-%d", n), fmt.Sprintf("mcptest-%d", n))
	s.openLocked(server)
	s.mu.Unlock()
	s.journal.wake() // a waiting assertion that found every session ended looks again
	return client
}

// startLocked fixes the configuration at the first Dial, Serve or URL;
// s.mu is held.
func (s *Server) startLocked() {
	if s.started {
		return
	}
	s.started = true
	s.legacy, s.modern = s.legacyVersions(), s.modernVersions()
	s.decor = newResultDecor(s.info, s.ttlMs, s.cacheScope)
}

// openLocked starts a session over the server's end of a connection; s.mu
// is held.
func (s *Server) openLocked(conn io.ReadWriteCloser) *Session {
	s.startLocked()
	sess := newSession(s, len(s.sessions)+1, conn)
	s.sessions = append(s.sessions, sess)
	s.wg.Add(1)
	go sess.readLoop()
	return sess
}

// Serve runs one MCP session over rwc, framed as on stdio (one JSON-RPC
// message a line), as a server process does on its stdin and stdout: the
// client under test writes to rwc and reads what the mock writes. It
// returns nil when the client closed its end (EOF) or the Server closed,
// and ctx.Err() when ctx ended first; it closes rwc either way. rwc's
// Close must end a Read in progress (pipes, sockets and net.Conn do). Like
// Dial, the first Serve freezes the configuration; sessions opened by Dial
// and Serve are numbered together, in the order they opened.
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) error {
	s.t.Helper()
	if rwc == nil {
		s.t.Fatalf("mcptest: Serve: a nil io.ReadWriteCloser")
		return nil
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		_ = rwc.Close()
		return ErrSessionClosed
	}
	sess := s.openLocked(rwc)
	s.mu.Unlock()
	s.journal.wake() // a waiting assertion that found every session ended looks again
	select {
	case <-sess.Done():
		return nil
	case <-ctx.Done():
		sess.close()
		<-sess.Done()
		return ctx.Err()
	}
}

// Sessions returns the sessions opened so far, in the order they opened (Dial, Serve, and the HTTP transport).
func (s *Server) Sessions() []*Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.sessions)
}

// Session returns the n-th session, counted from 1 in the order the sessions opened, or nil.
func (s *Server) Session(n int) *Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n < 1 || n > len(s.sessions) {
		return nil
	}
	return s.sessions[n-1]
}

// Journal returns the record of every message of every session.
func (s *Server) Journal() *Journal { return s.journal }

// Broadcast sends a notification to the clients that may receive it, and
// returns how many notifications it sent: to every handshake-era session
// that completed the handshake, and, for the list_changed notifications,
// on every stateless-era subscriptions/listen stream that asked for them,
// with its subscriptionId. params is a JSON text or Go value (nil for none).
//
// The stateless era has no session to notify: a stateless client gets a
// list_changed only on a subscriptions/listen stream it opened for that
// list, and no other notification at all. When Broadcast skips a stateless
// session for that reason it says so in the test log. To send exactly
// what you like to one session, use Session.Notify.
func (s *Server) Broadcast(method string, params any) int {
	n := 0
	var missed []string // stateless sessions this notification cannot reach
	for _, sess := range s.Sessions() {
		switch {
		case sess.Ready():
			if sess.Notify(method, params) == nil {
				n++
			}
		case sess.Era() == EraStateless && !sess.isClosed():
			k := 0
			if listChangedKind(method) != "" {
				k = sess.notifyListeners(method, params, "")
			}
			n += k
			if k == 0 {
				missed = append(missed, strconv.Itoa(sess.Number()))
			}
		}
	}
	if len(missed) > 0 {
		why := "only a list_changed notification reaches a stateless session, on a subscriptions/listen stream that asked for it"
		if k := listChangedKind(method); k != "" {
			why = "a stateless session gets it only on a subscriptions/listen stream that asked for " + k + ", and none of these has one"
		}
		stateless := "stateless session"
		if len(missed) > 1 {
			stateless += "s"
		}
		s.logf("mcptest: Broadcast(%q) reached %s; %s %s got nothing: %s", method, plural(n, "session", "sessions"), stateless, strings.Join(missed, ", "), why)
	}
	return n
}

// BroadcastResourceUpdated sends notifications/resources/updated for uri to
// every handshake-era session subscribed to it with resources/subscribe,
// and on every stateless-era listen stream whose resourceSubscriptions
// name it; it returns how many notifications it sent.
func (s *Server) BroadcastResourceUpdated(uri string) int {
	n := 0
	params := map[string]string{"uri": uri}
	for _, sess := range s.Sessions() {
		if sess.subscribed(uri) && sess.Notify("notifications/resources/updated", params) == nil {
			n++
		}
		n += sess.notifyListeners("notifications/resources/updated", params, uri)
	}
	return n
}

// SendRequest sends a request to the client of the only open session and waits
// for its reply, or for ctx, or for the session to end. With several open
// sessions, use Session(n).SendRequest.
func (s *Server) SendRequest(ctx context.Context, method string, params any) (Message, error) {
	var open []*Session
	for _, sess := range s.Sessions() {
		if !sess.isClosed() {
			open = append(open, sess)
		}
	}
	if len(open) != 1 {
		return Message{}, fmt.Errorf("mcptest: Server.SendRequest needs exactly one open session, there are %d; use Session(n).SendRequest", len(open))
	}
	return open[0].SendRequest(ctx, method, params)
}

// capabilities returns what the server declares, as JSON.
func (s *Server) capabilities() json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.capsOverride != nil {
		return s.capsOverride
	}
	if s.capsCache != nil && s.started {
		return s.capsCache
	}
	caps := map[string]any{}
	if s.toolsDeclared || len(s.tools.items) > 0 {
		caps["tools"] = map[string]any{"listChanged": true}
	}
	if s.resourcesDeclared || len(s.resources.items)+len(s.templates.items) > 0 {
		caps["resources"] = map[string]any{"subscribe": true, "listChanged": true}
	}
	if s.promptsDeclared || len(s.prompts.items) > 0 {
		caps["prompts"] = map[string]any{"listChanged": true}
	}
	if s.logging {
		caps["logging"] = map[string]any{}
	}
	if len(s.completions) > 0 {
		caps["completions"] = map[string]any{}
	}
	b, _ := json.Marshal(caps)
	s.capsCache = b // every stateless request checks capabilities: build them once per catalog change
	return b
}

func (s *Server) serverInfo() map[string]string { return s.info }

// logf logs through the test while it is running.
func (s *Server) logf(format string, args ...any) {
	if s.reporting() {
		s.t.Logf(format, args...)
	}
}
