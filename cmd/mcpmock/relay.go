package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"sync"
	"time"
)

// relayCommand is the command MCPMOCK_SERVER_COMMAND runs: the process a
// stdio client spawns as its server. It connects its stdin and stdout to the
// mock that `mcpmock run` holds, over loopback TCP, so that the runner
// sees the session whole (and the client's exit status) and the client
// sees an ordinary stdio server.
const relayCommand = "relay"

// relayCmd: mcpmock relay ADDR TOKEN. It copies stdin to the runner and the
// runner's bytes to stdout until either side ends.
func relayCmd(args []string, stdin io.Reader, stdout io.Writer) error {
	if len(args) != 2 {
		return usagef("usage: mcpmock relay ADDR TOKEN (the command line mcpmock run puts in MCPMOCK_SERVER_COMMAND; not for direct use)")
	}
	conn, err := net.DialTimeout("tcp", args[0], 10*time.Second)
	if err != nil {
		return fmt.Errorf("cannot reach the mcpmock run that launched this relay at %s: %v (is it still running?)", args[0], err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, args[1]+"\n"); err != nil {
		return err
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, _ = io.Copy(conn, stdin)
		// The client closed our stdin: it is done with its server.
		if tc, ok := conn.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
	}()
	_, _ = io.Copy(stdout, conn)
	// The mock ended the session (or the runner went away): exit, as a
	// server process that closes its stdout does. The copy of stdin may
	// still be blocked reading; the process exit ends it.
	return nil
}

// relayConn is one connection from a relay, its token checked, with the
// client's first bytes already read.
type relayConn struct {
	net.Conn
	r     *bufio.Reader
	first time.Time // when the client's first byte came
}

func (c *relayConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// acceptRelays accepts relay connections on ln, checks their token, waits
// for the client's first byte, and sends them on the returned channel,
// until ln is closed.
func acceptRelays(ln net.Listener, token string) <-chan *relayConn {
	out := make(chan *relayConn, 16)
	go func() {
		defer close(out)
		var wg sync.WaitGroup
		defer wg.Wait()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := bufio.NewReader(c)
				line, err := r.ReadString('\n')
				if err != nil || line != token+"\n" {
					_ = c.Close() // not our relay
					return
				}
				// Wait for the client's first byte: the scenario's deadline counts
				// from there, not from the client's start-up.
				if _, err := r.Peek(1); err != nil {
					_ = c.Close()
					return
				}
				out <- &relayConn{Conn: c, r: r, first: time.Now()}
			}()
		}
	}()
	return out
}

// bridge copies between the relay and the mock's connection until either
// ends, then closes both.
func bridge(relay *relayConn, mock net.Conn) {
	var once sync.Once
	closeBoth := func() {
		once.Do(func() {
			_ = relay.Close()
			_ = mock.Close()
		})
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		_, _ = io.Copy(mock, relay)
		closeBoth()
	}()
	go func() {
		defer wg.Done()
		_, _ = io.Copy(relay, mock)
		closeBoth()
	}()
	wg.Wait()
}
