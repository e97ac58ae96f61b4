package mcpclient

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"sync"
)

// Pipe returns a client on a stdio-framed connection (such as
// mcptest's Server.Dial): newline-delimited JSON, one message a line.
// Call Connect, then use it; Close closes the connection.
func Pipe(conn io.ReadWriteCloser, opt Options) *Client {
	p := &pipeTransport{conn: conn, in: make(chan []byte), done: make(chan struct{}), stop: make(chan struct{})}
	p.wg.Add(1)
	go p.read()
	return newClient(p, opt)
}

type pipeTransport struct {
	conn     io.ReadWriteCloser
	wmu      sync.Mutex
	in       chan []byte
	done     chan struct{} // the reader reached the end
	stop     chan struct{}
	stopOnce sync.Once
	wg       sync.WaitGroup
}

func (p *pipeTransport) read() {
	defer p.wg.Done()
	defer close(p.done)
	r := bufio.NewReaderSize(p.conn, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if line = bytes.TrimSpace(line); len(line) > 0 {
			select {
			case p.in <- line:
			case <-p.stop:
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *pipeTransport) send(_ context.Context, frame []byte, _ hint) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	_, err := p.conn.Write(append(frame, '\n'))
	return err
}

func (p *pipeTransport) frames() <-chan []byte   { return p.in }
func (p *pipeTransport) closed() <-chan struct{} { return p.done }

func (p *pipeTransport) close() error {
	var err error
	p.stopOnce.Do(func() {
		err = p.conn.Close()
		close(p.stop)
	})
	p.wg.Wait()
	return err
}
