package faketb_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/mcptest"
)

// The fake is what mcptest.NewServer takes, and what the tests that ask a
// testing.TB get.
var (
	_ mcptest.TB = (*faketb.TB)(nil)
	_ testing.TB = (*faketb.TB)(nil)
)

// TestFatalfStops: Fatalf, Fatal and FailNow end the goroutine Run
// started (the code after them does not run), record the failure, and
// Run says the function did not return.
func TestFatalfStops(t *testing.T) {
	for name, stop := range map[string]func(f *faketb.TB){
		"Fatalf":  func(f *faketb.TB) { f.Fatalf("boom %d", 2) },
		"Fatal":   func(f *faketb.TB) { f.Fatal("boom ", 2) },
		"FailNow": func(f *faketb.TB) { f.FailNow() },
	} {
		t.Run(name, func(t *testing.T) {
			f := faketb.New(t)
			reached := false
			if f.Run(func() { stop(f); reached = true }) {
				t.Errorf("Run: want false for a func that calls %s", name)
			}
			if reached {
				t.Errorf("%s: want the goroutine stopped, but the code after it ran", name)
			}
			if !f.Failed() {
				t.Errorf("%s: want Failed", name)
			}
			if name != "FailNow" && f.FatalOutput() != "boom 2" {
				t.Errorf("%s: want %q recorded, got %s", name, "boom 2", f.Report())
			}
			if !f.Run(func() { f.Logf("a %d", 1) }) || f.LogOutput() != "a 1" {
				t.Errorf("Run: want true for a func that returns, and its log; got %s", f.Report())
			}
		})
	}
}

// TestErrorfGoesOn: Errorf marks the test failed, records the message and
// returns; Logf and Fail alone record without the message.
func TestErrorfGoesOn(t *testing.T) {
	f := faketb.New(t)
	f.Logf("just %s", "a log")
	f.Log("and ", "another")
	if f.Failed() {
		t.Fatalf("Logf: want the test not failed, got %s", f.Report())
	}
	reached := false
	if !f.Run(func() { f.Errorf("bad %d", 1); f.Error("worse ", 2); reached = true }) || !reached {
		t.Fatalf("Errorf: want the function to go on and return")
	}
	if !f.Failed() || fmt.Sprint(f.Errors()) != "[bad 1 worse 2]" || len(f.Fatals()) != 0 {
		t.Errorf("Errorf: want Failed and two errors, no fatal; got %s", f.Report())
	}
	if got := f.LogOutput(); got != "just a log\nand another" {
		t.Errorf("Logf: want two lines, got %q", got)
	}
	g := &faketb.TB{}
	g.Fail()
	if !g.Failed() || len(g.Errors()) != 0 {
		t.Errorf("Fail: want Failed and no message, got %s", g.Report())
	}
}

// TestCleanupsLastFirst: Finish runs the cleanups last registered first,
// each once, a cleanup's Fatalf stops only that cleanup, and a cleanup
// registered by a cleanup runs too.
func TestCleanupsLastFirst(t *testing.T) {
	f := &faketb.TB{}
	var order []int
	f.Cleanup(func() { order = append(order, 1) })
	f.Cleanup(func() { order = append(order, 2); f.Fatalf("stop"); order = append(order, -2) })
	f.Cleanup(func() { order = append(order, 3); f.Cleanup(func() { order = append(order, 4) }) })
	f.Finish()
	f.Finish()
	if fmt.Sprint(order) != "[3 4 2 1]" {
		t.Errorf("Finish: want cleanups run last first and once, [3 4 2 1], got %v", order)
	}
	if f.FatalOutput() != "stop" {
		t.Errorf("want the cleanup's Fatalf recorded, got %s", f.Report())
	}
}

// TestNewFinishesAtTheEnd: the cleanups of a fake made by New run when
// the test holding it ends, if the test did not call Finish.
func TestNewFinishesAtTheEnd(t *testing.T) {
	ran := false
	t.Run("holder", func(t *testing.T) {
		faketb.New(t).Cleanup(func() { ran = true })
	})
	if !ran {
		t.Errorf("want the fake's cleanup run when the test that held it ended")
	}
}

// TestFatalReturnsAndOut: with FatalReturns, Fatalf records and returns
// (an Example goes on to show its output); Out gets a FAIL line for every
// failure.
func TestFatalReturnsAndOut(t *testing.T) {
	var out strings.Builder
	f := &faketb.TB{Out: &out, FatalReturns: true}
	// On the test's own goroutine: a Goexit here would fail this test.
	f.Fatalf("no %s", "server")
	f.FailNow()
	f.Errorf("and %d more", 1)
	if !f.Failed() || f.FatalOutput() != "no server" {
		t.Errorf("FatalReturns: want Fatalf to return after recording, got %s", f.Report())
	}
	if out.String() != "FAIL: no server\nFAIL: and 1 more\n" {
		t.Errorf("Out: want a FAIL line per failure, got %q", out.String())
	}
}

// TestRunPanics: a panic in the function Run runs comes out of Run, in
// the caller's goroutine, with its value.
func TestRunPanics(t *testing.T) {
	f := faketb.New(t)
	defer func() {
		if p := recover(); p != "kaboom" {
			t.Errorf("Run: want the panic %q raised again, got %v", "kaboom", p)
		}
	}()
	f.Run(func() { panic("kaboom") })
	t.Errorf("Run: want the panic raised again, Run returned")
}
