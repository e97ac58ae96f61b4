package mcptest

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// defaultCloseGrace is how long Close waits, after cancelling their
// contexts, for handlers to return, unless Options.CloseGrace says otherwise.
const defaultCloseGrace = 5 * time.Second

// Close ends every session (the clients read EOF), cancels running
// handlers, and waits for every goroutine of the server to return. It is
// idempotent, and every caller, concurrent or later, waits for the same
// end. Called from a handler, it ends everything else and does not wait
// for the handler that called it. A handler that ignores its context
// longer than the grace period (Options.CloseGrace, 5 s by default) fails
// the test, named with its method and session, and Close returns without
// waiting for it.
func (s *Server) Close() {
	defer s.journal.finishSpill() // the file then holds every message (Options.JournalSpill)
	self := calledFromServerGoroutine()
	s.mu.Lock()
	first := !s.closed
	if first {
		s.closed = true
		s.closeBy = time.Now().Add(s.closeGrace)
	}
	deadline := s.closeBy
	sessions := slices.Clone(s.sessions)
	front := s.http
	s.mu.Unlock()
	if first {
		if front != nil {
			front.close() // first: it reports the HTTP sessions the clients left open
		}
		// Sessions before handlers: a handler that returns as soon as its
		// context is cancelled finds its session closed, and no reply goes
		// out after Close began.
		for _, sess := range sessions {
			sess.close()
		}
		s.cancel()
	}
	if self {
		s.wg.addClosing(1)
		defer s.wg.addClosing(-1)
	}
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	for {
		n, closing, changed := s.wg.state()
		// A goroutine of the server waiting in Close cannot end before
		// Close returns: count it as ended.
		if n == 0 || self && n == closing {
			return
		}
		select {
		case <-changed:
		case <-timer.C:
			s.abandon(sessions)
			return
		}
	}
}

// abandon fails the test, once, naming what still runs past the grace
// period, and stops reporting to the test: whatever those goroutines do
// later must not touch a test that may have ended.
func (s *Server) abandon(sessions []*Session) {
	s.mu.Lock()
	if s.abandoned {
		s.mu.Unlock()
		return
	}
	s.abandoned = true
	grace := s.closeGrace
	s.mu.Unlock()
	var stuck []string
	for _, sess := range sessions {
		stuck = append(stuck, sess.inflightNames()...)
	}
	what := strings.Join(stuck, "; ")
	if what == "" {
		n, _, _ := s.wg.state()
		what = plural(n, "goroutine", "goroutines") + " of the server"
	}
	s.t.Errorf("mcptest: Close: still running %v after Close cancelled its context: %s; a Handler must return when ctx is done (Options.CloseGrace sets how long Close waits)", grace, what)
}

// reporting reports whether the server may still write to its test: not
// once Close gave up on goroutines that outlive it.
func (s *Server) reporting() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.abandoned
}

// errorf fails the test, unless Close gave up on the goroutine calling it.
func (s *Server) errorf(format string, args ...any) {
	if s.reporting() {
		s.t.Errorf(format, args...)
	}
}

// goroutines counts the server's goroutines, as a sync.WaitGroup does,
// and how many of them are waiting in Close.
type goroutines struct {
	mu      sync.Mutex
	n       int
	closing int
	changed chan struct{} // closed at the next change; nil while nobody waits
}

// Add adds d to the count of running goroutines.
func (g *goroutines) Add(d int) { g.update(&g.n, d) }

// Done marks one goroutine ended.
func (g *goroutines) Done() { g.update(&g.n, -1) }

// Wait waits until every goroutine ended.
func (g *goroutines) Wait() {
	for {
		n, _, changed := g.state()
		if n == 0 {
			return
		}
		<-changed
	}
}

func (g *goroutines) addClosing(d int) { g.update(&g.closing, d) }

func (g *goroutines) update(field *int, d int) {
	g.mu.Lock()
	*field += d
	ch := g.changed
	g.changed = nil
	g.mu.Unlock()
	if ch != nil {
		close(ch)
	}
}

// state returns the counts and a channel closed at the next change.
func (g *goroutines) state() (n, closing int, changed <-chan struct{}) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.changed == nil {
		g.changed = make(chan struct{})
	}
	return g.n, g.closing, g.changed
}

// goTracked runs f in a goroutine the server counts (Close waits for it);
// the caller has already added it to s.wg.
func (s *Server) goTracked(f func()) { go s.runTracked(f) }

// runTracked is the first frame of every goroutine goTracked starts, so
// that calledFromServerGoroutine can recognise one.
//
//go:noinline
func (s *Server) runTracked(f func()) {
	defer s.wg.Done()
	f()
}

// The functions at the bottom of every goroutine of a server.
var serverGoroutineEntries = []string{".(*Server).runTracked", ".(*Session).readLoop"}

// calledFromServerGoroutine reports whether the caller runs on one of the
// goroutines of a server (a handler, a read loop): Close must not wait for
// the goroutine that called it.
func calledFromServerGoroutine() bool {
	pcs := make([]uintptr, 64)
	for {
		n := runtime.Callers(2, pcs)
		if n < len(pcs) {
			pcs = pcs[:n]
			break
		}
		pcs = make([]uintptr, 2*len(pcs))
	}
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, "github.com/mcpmock/mcpmock/mcptest.") {
			for _, e := range serverGoroutineEntries {
				if strings.HasSuffix(f.Function, e) {
					return true
				}
			}
		}
		if !more {
			return false
		}
	}
}
