package mcptest

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
)

// ProgramTB is a TB for programs that are not tests: a teaching example,
// the mcpmock command, a bridge that runs a client in another language. It
// writes what a test would log to an io.Writer (never to stdout unless you
// pass it), and Run returns the verdict as an error instead of failing a
// test. It is safe for concurrent use; Fatalf, as in a test, must be called
// from the goroutine running Run's function.
type ProgramTB struct {
	name string
	w    io.Writer

	mu       sync.Mutex
	failed   bool
	failures []string
	cleanups []func()
	running  bool
}

// NewProgramTB returns a TB named name (it prefixes every line it writes)
// that writes logs and failures to w; a nil w discards them.
func NewProgramTB(name string, w io.Writer) *ProgramTB {
	if w == nil {
		w = io.Discard
	}
	return &ProgramTB{name: name, w: w}
}

// Run calls f with p, as a test function runs: Fatalf ends f at once (like
// t.FailNow), then the cleanups registered with Cleanup run, last first —
// a Server's Close and its verdict among them. Run returns nil when
// nothing failed, or an error listing every failure. A panic in f is
// reported as a failure, not re-raised. Run may be called once at a time;
// calling it again starts a new run with the failures so far kept.
func (p *ProgramTB) Run(f func(t TB)) error {
	p.mu.Lock()
	if p.running {
		p.mu.Unlock()
		return fmt.Errorf("mcptest: ProgramTB(%q).Run called while it is running", p.name)
	}
	p.running = true
	p.mu.Unlock()

	p.call("", func() { f(p) })
	p.runCleanups()

	p.mu.Lock()
	defer p.mu.Unlock()
	p.running = false
	if !p.failed {
		return nil
	}
	return fmt.Errorf("%s failed:\n%s", p.name, strings.Join(p.failures, "\n"))
}

func (p *ProgramTB) runCleanups() {
	for {
		p.mu.Lock()
		n := len(p.cleanups)
		if n == 0 {
			p.mu.Unlock()
			return
		}
		c := p.cleanups[n-1]
		p.cleanups = p.cleanups[:n-1]
		p.mu.Unlock()
		p.call(" in cleanup", c)
	}
}

// call runs f in a goroutine of its own, so that Fatalf (runtime.Goexit)
// ends f and nothing else, and records a panic as a failure.
func (p *ProgramTB) call(where string, f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				buf := make([]byte, 8<<10)
				buf = buf[:runtime.Stack(buf, false)]
				p.fail(fmt.Sprintf("panic%s: %v\n%s", where, r, buf))
			}
		}()
		f()
	}()
	<-done
}

// Helper does nothing: a program has no call sites to hide.
func (p *ProgramTB) Helper() {}

// Cleanup registers f to run after Run's function returns, last first.
func (p *ProgramTB) Cleanup(f func()) {
	p.mu.Lock()
	p.cleanups = append(p.cleanups, f)
	p.mu.Unlock()
}

// Logf writes a line to the writer.
func (p *ProgramTB) Logf(format string, args ...any) { p.write(fmt.Sprintf(format, args...)) }

// Errorf records a failure, writes it, and goes on.
func (p *ProgramTB) Errorf(format string, args ...any) { p.fail(fmt.Sprintf(format, args...)) }

// Fatalf records a failure, writes it, and ends the function Run is
// running (runtime.Goexit, as testing does); the cleanups still run. Outside
// Run it only records the failure.
func (p *ProgramTB) Fatalf(format string, args ...any) {
	p.fail(fmt.Sprintf(format, args...))
	p.mu.Lock()
	running := p.running
	p.mu.Unlock()
	if running {
		runtime.Goexit()
	}
}

// Failed reports whether anything failed.
func (p *ProgramTB) Failed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.failed
}

// Failures returns the failure messages so far, in order.
func (p *ProgramTB) Failures() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.failures...)
}

func (p *ProgramTB) fail(msg string) {
	p.mu.Lock()
	p.failed = true
	p.failures = append(p.failures, msg)
	p.mu.Unlock()
	p.write("FAIL: " + msg)
}

func (p *ProgramTB) write(msg string) {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(msg, "\n"), "\n") {
		b.WriteString(p.name)
		b.WriteString(": ")
		b.WriteString(line)
		b.WriteByte('\n')
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	_, _ = io.WriteString(p.w, b.String())
}
