// Package faketb is the module's one stand-in for a test: a testing.TB
// that records what the code under test reports (Errorf, Fatalf, Logf)
// and keeps its Cleanup funcs until the test that holds it ends the fake
// test with Finish. The tests of mcptest, scenarios and config pass it
// where a library wants a TB, to see how the library fails a test.
//
// Like the testing package, Fatalf and FailNow end the calling goroutine
// with runtime.Goexit: run the code that may call them with Run. For
// code that must go on after a fatal failure (an Example function, which
// runs on the test binary's main goroutine), set FatalReturns.
//
// It is not mcptest.ProgramTB: that one is the library's TB for programs
// that are not tests; this one is for the module's own tests.
package faketb

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// TB is a fake test. Its zero value is ready to use; New ties it to the
// test that holds it. Methods of testing.TB the fake does not define are
// those of the embedded nil testing.TB, and panic: a new use is noticed
// at once. It is safe for concurrent use.
type TB struct {
	testing.TB

	// Out, when not nil, receives a line "FAIL: message" for every Errorf
	// and Fatalf, as an Example shows a failure in its output.
	Out io.Writer
	// FatalReturns makes Fatalf and FailNow return after recording the
	// failure instead of ending the goroutine.
	FatalReturns bool

	mu       sync.Mutex
	errs     []string
	fatals   []string
	logs     []string
	cleanups []func()
	failed   bool
}

// New returns a fake test whose cleanups, if the test t does not run them
// with Finish, run when t ends, so that nothing the fake test started
// outlives t.
func New(t testing.TB) *TB {
	f := &TB{}
	t.Cleanup(f.Finish)
	return f
}

// Helper does nothing: the fake has no call sites to hide.
func (f *TB) Helper() {}

// Name returns "FakeTest".
func (f *TB) Name() string { return "FakeTest" }

// Errorf records a failure and goes on.
func (f *TB) Errorf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	f.mu.Lock()
	f.errs = append(f.errs, msg)
	f.failed = true
	f.mu.Unlock()
	f.print(msg)
}

// Error is Errorf with the message formatted as by fmt.Sprint.
func (f *TB) Error(args ...any) { f.Errorf("%s", fmt.Sprint(args...)) }

// Fatalf records a failure and ends the calling goroutine
// (runtime.Goexit), unless FatalReturns is set.
func (f *TB) Fatalf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	f.mu.Lock()
	f.fatals = append(f.fatals, msg)
	f.failed = true
	f.mu.Unlock()
	f.print(msg)
	f.stop()
}

// Fatal is Fatalf with the message formatted as by fmt.Sprint.
func (f *TB) Fatal(args ...any) { f.Fatalf("%s", fmt.Sprint(args...)) }

// Fail marks the fake test failed and goes on.
func (f *TB) Fail() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failed = true
}

// FailNow marks the fake test failed and ends the calling goroutine,
// unless FatalReturns is set.
func (f *TB) FailNow() {
	f.Fail()
	f.stop()
}

// Failed reports whether Errorf, Fatalf, Fail or FailNow was called.
func (f *TB) Failed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.failed
}

// Logf records a line of log.
func (f *TB) Logf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.logs = append(f.logs, fmt.Sprintf(format, args...))
}

// Log is Logf with the message formatted as by fmt.Sprint.
func (f *TB) Log(args ...any) { f.Logf("%s", fmt.Sprint(args...)) }

// Cleanup registers fn to run at Finish, last registered first.
func (f *TB) Cleanup(fn func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cleanups = append(f.cleanups, fn)
}

// Run calls fn in a goroutine of its own, as the testing package runs a
// test, and reports whether fn returned: false when it called Fatalf or
// FailNow (or anything else that ended its goroutine). A panic in fn is
// raised again in the caller's goroutine, where a recover can see it.
func (f *TB) Run(fn func()) (returned bool) {
	type end struct {
		returned bool
		panicked bool
		value    any
	}
	done := make(chan end)
	go func() {
		e := end{panicked: true}
		defer func() {
			if e.panicked {
				e.value = recover()
				// runtime.Goexit leaves nothing to recover: not a panic.
				e.panicked = e.value != nil
			}
			done <- e
		}()
		fn()
		e = end{returned: true}
	}()
	e := <-done
	if e.panicked {
		panic(e.value)
	}
	return e.returned
}

// Finish ends the fake test: it runs the registered cleanups, last first,
// each with Run, so that one calling Fatalf stops only itself. It may be
// called more than once; each cleanup runs once, and a cleanup registered
// by a cleanup runs too.
func (f *TB) Finish() {
	for {
		f.mu.Lock()
		n := len(f.cleanups)
		if n == 0 {
			f.mu.Unlock()
			return
		}
		fn := f.cleanups[n-1]
		f.cleanups = f.cleanups[:n-1]
		f.mu.Unlock()
		f.Run(fn)
	}
}

// Errors returns what Errorf (and Error) recorded, in order.
func (f *TB) Errors() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.errs...)
}

// Fatals returns what Fatalf (and Fatal) recorded, in order.
func (f *TB) Fatals() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.fatals...)
}

// FatalOutput returns what Fatalf recorded, one message a line.
func (f *TB) FatalOutput() string { return strings.Join(f.Fatals(), "\n") }

// Logs returns what Logf (and Log) recorded, in order.
func (f *TB) Logs() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.logs...)
}

// LogOutput returns what Logf recorded, one message a line.
func (f *TB) LogOutput() string { return strings.Join(f.Logs(), "\n") }

// Report returns everything recorded, for the failure message of the test
// that holds the fake.
func (f *TB) Report() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return fmt.Sprintf("errors: %q\nfatals: %q\nlogs: %q", f.errs, f.fatals, f.logs)
}

func (f *TB) print(msg string) {
	if f.Out != nil {
		_, _ = fmt.Fprintf(f.Out, "FAIL: %s\n", msg)
	}
}

func (f *TB) stop() {
	if !f.FatalReturns {
		runtime.Goexit()
	}
}
