// Command handshake is the tour of the handshake lesson's seven classic
// mistakes, then of the rest of mcpmock's scenario catalog. Mistakes of the
// client (1 and 4) are made by a deliberately naive hand-written client that
// the mock catches; mistakes of the server (2, 3, 5, 6 and 7) are made by the
// mock, and the official Go SDK client (v1.8.0) meets them. For each, the
// tour prints the wire transcript, the Mermaid sequence diagram, what the
// client did, the verdict against what a correct client does, and how to
// fix it (in English and in the lesson's Spanish).
//
//	go run ./examples/handshake                      # the tour, in seconds
//	go run ./examples/handshake 3                    # mistake 3 only
//	go run ./examples/handshake forgotten-capability # the same, by name
//	go run ./examples/handshake modern-only          # one scenario of the catalog
//	go run ./examples/handshake -h                   # what can be named
//
// The tour itself is the package github.com/mcpmock/mcpmock/scenarios/tour;
// this command gives it the official SDK client (app.go). The servers are
// the scenarios of github.com/mcpmock/mcpmock/scenarios, run in process
// with mcptest: nothing to set up.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpmock/mcpmock/scenarios/tour"
)

func main() {
	t := newTour(os.Stderr)
	flag.Usage = func() {
		out := flag.CommandLine.Output()
		fmt.Fprintf(out, "usage: go run ./examples/handshake [lesson or scenario ...]\n\n")
		fmt.Fprintf(out, "With no argument, the tour: the seven mistakes in the lesson's order, then the rest of the catalog.\n\n")
		t.Usage(out)
	}
	flag.Parse()
	// A reader that stops early (go run ./examples/handshake | head) ends
	// the tour quietly: writes then fail with EPIPE instead of killing us.
	signal.Ignore(syscall.SIGPIPE)
	err := t.Run(os.Stdout, flag.Args()...)
	if errors.Is(err, syscall.EPIPE) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "handshake:", err)
		os.Exit(1)
	}
}

// newTour is the tour with the official Go SDK client; the mock's problems
// go to log.
func newTour(log io.Writer) tour.Tour {
	return tour.Tour{Client: sdkClient(), Log: log}
}
