package mcpclient

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// Pipe returns a client on a stdio-framed connection (such as
// mcptest's Server.Dial): newline-delimited JSON, one message a line.
// Call Connect, then use it; Close closes the connection.
func Pipe(conn io.ReadWriteCloser, opt Options) *Client {
	p := &pipeTransport{conn: conn, bugs: opt.Bugs, in: make(chan []byte), done: make(chan struct{}), stop: make(chan struct{})}
	p.wg.Add(1)
	go p.read()
	return newClient(p, opt)
}

// Stdio returns a client of a server process: it reads the server's
// stdout and writes to its stdin, which Close closes.
func Stdio(stdout io.Reader, stdin io.WriteCloser, opt Options) *Client {
	return Pipe(stdio{stdout, stdin}, opt)
}

type stdio struct {
	io.Reader
	io.WriteCloser
}

type pipeTransport struct {
	conn     io.ReadWriteCloser
	bugs     Bugs
	wmu      sync.Mutex
	in       chan []byte
	done     chan struct{} // the reader reached the end
	stop     chan struct{}
	stopOnce sync.Once
	wg       sync.WaitGroup
	readErr  error // why the reader ended, when not at the end of the stream
}

func (p *pipeTransport) read() {
	defer p.wg.Done()
	defer close(p.done)
	r := bufio.NewReaderSize(p.conn, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if err := p.check(line); err != nil {
			p.readErr = err
			return
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			select {
			case p.in <- line:
			case <-p.stop:
				return
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				p.readErr = err
			}
			return
		}
	}
}

// check is what a buggy reader refuses in a line (Bugs).
func (p *pipeTransport) check(line []byte) error {
	line = bytes.TrimRight(line, "\r\n")
	t := bytes.TrimSpace(line)
	switch b := p.bugs; {
	case b.PanicLine > 0 && len(line) > b.PanicLine:
		return panicked(fmt.Sprintf("runtime error: slice bounds out of range [:%d] with capacity %d", len(line), b.PanicLine))
	case b.MaxLine > 0 && len(line) > b.MaxLine:
		return errors.New("bufio.Scanner: token too long")
	case b.StrictUTF8 && !utf8.Valid(line):
		return errors.New("'utf-8' codec can't decode the server's output")
	case b.NonJSONFatal && len(t) > 0 && !gjson.ValidBytes(t):
		return fmt.Errorf("invalid JSON from the server: %q", t)
	}
	return nil
}

func (p *pipeTransport) send(_ context.Context, frame []byte, _ hint) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	_, err := p.conn.Write(append(frame, '\n'))
	return err
}

func (p *pipeTransport) frames() <-chan []byte   { return p.in }
func (p *pipeTransport) closed() <-chan struct{} { return p.done }

func (p *pipeTransport) err() error {
	select {
	case <-p.done:
		return p.readErr
	default:
		return nil
	}
}

func (p *pipeTransport) close() error {
	var err error
	p.stopOnce.Do(func() {
		err = p.conn.Close()
		close(p.stop)
	})
	p.wg.Wait()
	return err
}
