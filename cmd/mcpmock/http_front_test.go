package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/internal/mcpclient"
)

// frontTo starts run's HTTP front pointed at a server of handler and
// returns the front's address; both stop with the test.
func frontTo(t *testing.T, handler http.HandlerFunc) string {
	t.Helper()
	up := httptest.NewServer(handler)
	t.Cleanup(up.Close)
	f, err := newHTTPFront(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.close) // before up.Close: the proxy's requests end first
	f.begin(up.URL + "/mcp")
	return f.ln.Addr().String()
}

// bounded is the test's context, ended after a minute: a wait that can
// only end by what the test checks fails instead of hanging.
func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// postAndLeave writes a POST of body to the front at addr on a
// connection of its own and closes it without reading anything, as a
// client that sends a last message and exits does.
func postAndLeave(t *testing.T, addr, body string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s",
		mcpPath, addr, len(body), body); err != nil {
		t.Fatal(err)
	}
}

// TestHTTPFrontDeliversLastMessage: a client that POSTs a message and goes
// away at once (a notifications/cancelled just before it exits) still
// delivers it through run's front to the mock.
func TestHTTPFrontDeliversLastMessage(t *testing.T) {
	ctx := bounded(t)
	got := make(chan string, 1)
	addr := frontTo(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- string(b)
		w.WriteHeader(http.StatusAccepted)
	})
	const body = `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`
	postAndLeave(t, addr, body)
	select {
	case b := <-got:
		if b != body {
			t.Errorf("the mock got %q, want %q", b, body)
		}
	case <-ctx.Done():
		t.Fatal("the message of a client that left never reached the mock")
	}
}

// TestHTTPFrontForwardsDisconnect: a client that closes a POST whose reply
// has not come yet (the stateless era's cancellation of a request) closes
// it at the mock too, through run's front.
func TestHTTPFrontForwardsDisconnect(t *testing.T) {
	ctx := bounded(t)
	arrived, gone, ended := make(chan struct{}), make(chan struct{}), make(chan struct{})
	addr := frontTo(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		close(arrived)
		select { // no reply: only the client's going away ends this (or the test's end)
		case <-r.Context().Done():
			close(gone)
		case <-ended:
		}
	})
	t.Cleanup(func() { close(ended) }) // first of the cleanups: the servers' Close waits for this handler
	call, giveUp := context.WithCancel(ctx)
	sent := make(chan error, 1)
	wire := mcpclient.NewHTTPWire("http://"+addr+mcpPath, "2025-11-25", nil)
	defer wire.Close()
	go func() {
		_, err := wire.Send(call, "2", "tools/call", `{"name":"slow"}`)
		sent <- err
	}()
	select {
	case <-arrived:
	case <-ctx.Done():
		t.Fatal("the request never reached the mock")
	}
	giveUp() // the client closes its request
	if err := <-sent; err == nil {
		t.Fatal("the request was answered; want it held until the client closed it")
	}
	select {
	case <-gone:
	case <-ctx.Done():
		t.Fatal("the client closed its request, but the mock's side of it stayed open")
	}
}
