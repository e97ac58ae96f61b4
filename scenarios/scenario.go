package scenarios

import (
	"context"
	"errors"
	"fmt"
	"net"
	"runtime/debug"
	"strings"
	"time"

	"github.com/mcpmock/mcpmock/mcptest"
)

// DefaultDeadline is how long a ConnectFunc may run before its context
// ends, for scenarios that do not set Scenario.Deadline.
const DefaultDeadline = 2 * time.Second

// grace is how long Play waits after a ConnectFunc's context ended before
// it closes the connection under it, and again before it gives up on it.
const grace = 3 * time.Second

// ErrStillRunning is Outcome.Err when the ConnectFunc had not returned even
// after Play closed its connection and the server: its goroutine is leaked.
var ErrStillRunning = errors.New("scenarios: the connect function had not returned after its deadline, nor after its connection was closed")

// ConnectFunc drives the client under test over conn, as the application
// does in production: at least connect (in whichever era the client
// chooses), list the tools, call suggest_gifts with {"age":25}, and close.
// The scenarios are built around that workflow; a client that does less
// leaves some scenarios unexercised, and their checks say so. It must
// return when ctx is done; what it returns is Outcome.Err.
type ConnectFunc func(ctx context.Context, conn net.Conn) error

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
	// Server builds the scenario's server for the test t. Play dials it
	// once and turns off its own verdict on violations (the scenario's
	// check is the single verdict).
	Server func(t mcptest.TB) *mcptest.Server
	// Expect is what a correct client does.
	Expect Expectation
	// Deadline is how long the ConnectFunc may run before its context ends;
	// zero means DefaultDeadline.
	Deadline time.Duration
}

// Expectation is the behaviour of a correct client, as a description and a
// check over what the client did.
type Expectation struct {
	// Description says what a correct client does, e.g. "tools/list is
	// never called".
	Description string
	// Check returns nil when the outcome meets the expectation, otherwise
	// an error saying what the client did instead.
	Check func(o Outcome) error
}

// Outcome is what a client did in one play of a scenario, read after the
// client returned and the server closed.
type Outcome struct {
	// Err is what the ConnectFunc returned (ErrStillRunning if it never did,
	// an error naming the panic if it panicked).
	Err error
	// Hung reports that the ConnectFunc was still running well after its
	// context ended, so that Play had to close the connection to stop it.
	Hung bool
	// Elapsed is how long the ConnectFunc ran.
	Elapsed time.Duration
	// Deadline is how long it was allowed to run before its context ended.
	Deadline time.Duration
	// Server is the scenario's server, closed.
	Server *mcptest.Server
	// Journal is every frame of the session, both directions, in wire order.
	Journal []mcptest.Message
	// Violations are the protocol rules the client broke.
	Violations []mcptest.Violation
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

// Play runs the client once against the scenario's server, built for t:
// it dials the server, calls connect with a context that ends after the
// scenario's Deadline, waits until connect returned, closes the connection
// and the server, and returns what happened. It never hangs: a connect
// that ignores its context gets its connection closed a few seconds after
// the deadline, and is abandoned (Outcome.Err is ErrStillRunning) a few
// seconds after that. Play does not judge; Check and Evaluate do.
func (s Scenario) Play(t mcptest.TB, connect ConnectFunc) Outcome {
	t.Helper()
	srv := s.Server(t)
	srv.IgnoreViolations()
	conn := srv.Dial()
	d := s.deadline()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()

	done := make(chan error, 1)
	start := time.Now()
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- fmt.Errorf("scenarios: the connect function panicked: %v\n%s", p, debug.Stack())
			}
		}()
		done <- connect(ctx, conn)
	}()

	o := Outcome{Deadline: d, Server: srv}
	timer := time.NewTimer(d + grace)
	defer timer.Stop()
	select {
	case o.Err = <-done:
		o.Elapsed = time.Since(start)
	case <-timer.C:
		o.Hung = true
		_ = conn.Close()
		srv.Close()
		timer.Reset(grace)
		select {
		case o.Err = <-done:
		case <-timer.C:
			o.Err = ErrStillRunning
		}
		o.Elapsed = time.Since(start)
	}
	_ = conn.Close()
	drain(srv)
	srv.Close()
	o.Journal = srv.Journal().All()
	o.Violations = srv.Violations()
	return o
}

// Check judges an outcome: nil when the client did what a correct client
// does, otherwise an error of the form "want: …; got: …". A client that
// did not return when its context ended fails every scenario.
func (s Scenario) Check(o Outcome) error {
	if got := s.got(o); got != "" {
		return fmt.Errorf("want: %s; got: %s", s.Expect.Description, got)
	}
	return nil
}

// got returns what the client did instead of the expectation, "" when it
// met it.
func (s Scenario) got(o Outcome) string {
	if o.Hung {
		return fmt.Sprintf("the connect function did not return within %v of its context ending (it must return when ctx is done); it returned %s", grace, errText(o.Err))
	}
	if s.Expect.Check == nil {
		return "the scenario has no Expect.Check"
	}
	if err := s.Expect.Check(o); err != nil {
		return err.Error()
	}
	return ""
}

// drain waits (up to grace) until every session has read what the client
// wrote before closing its end: Server.Close would drop frames still in
// the pipe, such as a last notifications/cancelled.
func drain(srv *mcptest.Server) {
	timer := time.NewTimer(grace)
	defer timer.Stop()
	for _, sess := range srv.Sessions() {
		select {
		case <-sess.Done():
		case <-timer.C:
			return
		}
	}
}
