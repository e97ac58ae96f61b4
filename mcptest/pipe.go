package mcptest

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"sync"
	"time"
	"unsafe"
)

// errClosed is what I/O on an end that was closed returns: it is both
// net.ErrClosed, as for a closed net.Conn, and fs.ErrClosed, as for a
// closed stdio pipe, so clients written for either see what they expect.
var errClosed = fmt.Errorf("mcptest: use of closed connection: %w (%w)", net.ErrClosed, fs.ErrClosed)

// newPipe returns the two ends of an in-memory, full-duplex connection.
// Unlike net.Pipe, writes are buffered and never wait for the reader, so a
// client that writes several requests before reading cannot deadlock
// against the mock, just as over an OS pipe. Close on either end makes the
// other end's reads return io.EOF once the buffer is drained.
func newPipe(clientName, serverName string) (client, server *pipeConn) {
	c2s := newPipeBuf()
	s2c := newPipeBuf()
	client = &pipeConn{rd: s2c, wr: c2s, local: pipeAddr(clientName), remote: pipeAddr(serverName)}
	server = &pipeConn{rd: c2s, wr: s2c, local: pipeAddr(serverName), remote: pipeAddr(clientName)}
	client.readDL.init()
	client.writeDL.init()
	server.readDL.init()
	server.writeDL.init()
	return client, server
}

// pipeBuf is one direction of a pipe: an unbounded byte queue. Its buffer
// is kept between writes (drained, it starts over at its beginning), and a
// large message the mock will never change again is lent to it instead of
// copied (writeOwned).
type pipeBuf struct {
	mu         sync.Mutex
	buf        []byte        // the unread bytes are buf[off:]
	off        int           // how much of buf was read
	lent       bool          // buf is a message lent by writeOwned: read it, never write into it
	spare      []byte        // the pipe's own buffer while buf is lent
	readerGone bool          // the reading end is closed: writes fail
	writerGone bool          // the writing end is closed: reads drain, then EOF
	wake       chan struct{} // a token when data or state changed
}

// lendMin is the size from which the mock's messages are lent to the pipe
// rather than copied into it; keepMax is the largest buffer a drained pipe
// keeps, so that one large message does not stay allocated for the life of
// an idle session.
const (
	lendMin = 16 << 10
	keepMax = 64 << 10
)

func newPipeBuf() *pipeBuf { return &pipeBuf{wake: make(chan struct{}, 1)} }

func (p *pipeBuf) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func (p *pipeBuf) unread() int { return len(p.buf) - p.off }

// drained starts the buffer over once everything was read.
func (p *pipeBuf) drained() {
	if p.lent {
		p.buf, p.spare, p.lent = p.spare, nil, false
	}
	if cap(p.buf) > keepMax {
		p.buf = nil
	}
	p.buf, p.off = p.buf[:0], 0
}

// appendLocked queues a copy of b; p.mu is held.
func (p *pipeBuf) appendLocked(b []byte) {
	switch {
	case p.lent: // what is left of a lent message moves into the pipe's own buffer first
		own := append(p.spare[:0], p.buf[p.off:]...)
		p.buf, p.off, p.spare, p.lent = own, 0, nil, false
	case p.off > 0 && p.off >= len(p.buf)/2: // a slow reader: reuse what it read
		n := copy(p.buf, p.buf[p.off:])
		p.buf, p.off = p.buf[:n], 0
	}
	p.buf = append(p.buf, b...)
}

// lendLocked queues b itself, which the writer must never change again,
// when nothing else is queued and it is large; else a copy. p.mu is held.
func (p *pipeBuf) lendLocked(b []byte) {
	if len(b) < lendMin || p.unread() > 0 || p.lent {
		p.appendLocked(b)
		return
	}
	p.spare, p.buf, p.off, p.lent = p.buf[:0], b, 0, true
}

type pipeAddr string

func (a pipeAddr) Network() string { return "mcptest" }
func (a pipeAddr) String() string  { return string(a) }

// pipeConn is one end of a pipe; it implements net.Conn.
type pipeConn struct {
	rd, wr        *pipeBuf
	local, remote pipeAddr
	readDL        deadline
	writeDL       deadline
	closeOnce     sync.Once
}

var _ net.Conn = (*pipeConn)(nil)

// Read reads what the other end wrote, blocking until there is some, the
// other end closes (io.EOF), this end closes, or the read deadline passes.
func (c *pipeConn) Read(b []byte) (int, error) {
	p := c.rd
	for {
		p.mu.Lock()
		if p.readerGone && p.unread() == 0 {
			p.mu.Unlock()
			p.signal()
			return 0, errClosed
		}
		if c.readDL.expired() {
			p.mu.Unlock()
			return 0, os.ErrDeadlineExceeded
		}
		if p.unread() > 0 {
			if len(b) == 0 {
				p.mu.Unlock()
				return 0, nil
			}
			n := copy(b, p.buf[p.off:])
			p.off += n
			more := p.unread() > 0
			if !more {
				p.drained()
			}
			p.mu.Unlock()
			if more {
				p.signal()
			}
			return n, nil
		}
		if p.writerGone {
			p.mu.Unlock()
			p.signal()
			return 0, io.EOF
		}
		p.mu.Unlock()
		select {
		case <-p.wake:
		case <-c.readDL.wait():
			if c.readDL.expired() {
				return 0, os.ErrDeadlineExceeded
			}
		}
	}
}

// Write queues b for the other end. It never blocks on the reader.
func (c *pipeConn) Write(b []byte) (int, error) { return c.write(b, false) }

// writeOwned is Write for a message whose bytes the caller never changes
// again (the mock's own messages): a large one is handed to the reader
// without being copied.
func (c *pipeConn) writeOwned(b []byte) (int, error) { return c.write(b, true) }

func (c *pipeConn) write(b []byte, owned bool) (int, error) {
	if c.writeDL.expired() {
		return 0, os.ErrDeadlineExceeded
	}
	p := c.wr
	p.mu.Lock()
	if p.writerGone {
		p.mu.Unlock()
		return 0, errClosed
	}
	if p.readerGone {
		p.mu.Unlock()
		return 0, io.ErrClosedPipe
	}
	if owned {
		p.lendLocked(b)
	} else {
		p.appendLocked(b)
	}
	p.mu.Unlock()
	p.signal()
	return len(b), nil
}

// takeLine waits, as Read does, until the pipe holds bytes for this end,
// then, when they begin with a whole line of at least least and at most most
// bytes (newline included), hands that line over: it is taken out of the
// queue without a copy, and the pipe never writes into its bytes again.
// Otherwise, or on an error (which the next Read returns again), nil.
func (c *pipeConn) takeLine(least, most int) []byte {
	if _, err := c.Read(nil); err != nil {
		return nil
	}
	p := c.rd
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lent || p.readerGone || p.unread() < least {
		return nil
	}
	k := bytes.IndexByte(p.buf[p.off:min(len(p.buf), p.off+most)], '\n')
	if k < 0 || k+1 < least {
		return nil
	}
	line := p.buf[p.off : p.off+k+1 : p.off+k+1]
	p.off += k + 1
	if p.unread() == 0 {
		p.buf, p.off = nil, 0 // the next write starts a buffer of its own
	} else {
		// the rest is read from here; like a lent message, the buffer is
		// not written into again (the next write moves the rest out)
		p.lent, p.spare = true, nil
	}
	return line
}

// pendingBytes returns how many bytes conn holds for its reader beyond
// what was read, when it knows (a pipe), else 0.
func pendingBytes(conn any) int {
	c, ok := conn.(*pipeConn)
	if !ok {
		return 0
	}
	p := c.rd
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.unread()
}

// ownedWriter is implemented by a connection that can take a message
// without copying it (pipeConn).
type ownedWriter interface {
	writeOwned(b []byte) (int, error)
}

// writeMessage writes one of the mock's messages, newline included, to
// conn: lent without a copy to a pipe that takes it, else with Write. The
// caller must not change frame afterwards.
func writeMessage(conn io.Writer, frame []byte) (int, error) {
	if ow, ok := conn.(ownedWriter); ok {
		return ow.writeOwned(frame)
	}
	return conn.Write(frame)
}

// frameString returns frame's bytes as a string without copying them; the
// caller must never change frame's bytes afterwards (nor while the string
// is in use). The mock journals the messages it sends this way: the one
// copy of a large result is both what the journal keeps and what the pipe
// hands to the client; and it reads JSON it holds (a result it decorates,
// the capabilities) without copying it.
func frameString(frame []byte) string {
	if len(frame) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(frame), len(frame))
}

// Close closes this end: the other end reads what is left, then io.EOF,
// and its writes fail. This end's reads return what had already arrived,
// then an error, so nothing the other end wrote is lost. Close is
// idempotent.
func (c *pipeConn) Close() error {
	c.closeOnce.Do(func() {
		c.wr.mu.Lock()
		c.wr.writerGone = true
		c.wr.mu.Unlock()
		c.wr.signal()
		c.rd.mu.Lock()
		c.rd.readerGone = true // what was written before stays readable, then errClosed
		c.rd.mu.Unlock()
		c.rd.signal()
	})
	return nil
}

func (c *pipeConn) LocalAddr() net.Addr  { return c.local }
func (c *pipeConn) RemoteAddr() net.Addr { return c.remote }

func (c *pipeConn) SetDeadline(t time.Time) error {
	c.readDL.set(t)
	c.writeDL.set(t)
	return nil
}
func (c *pipeConn) SetReadDeadline(t time.Time) error  { c.readDL.set(t); return nil }
func (c *pipeConn) SetWriteDeadline(t time.Time) error { c.writeDL.set(t); return nil }

// deadline is a settable point in time with a channel closed when it passes.
type deadline struct {
	mu     sync.Mutex
	timer  *time.Timer
	passed chan struct{}
}

func (d *deadline) init() { d.passed = make(chan struct{}) }

func (d *deadline) set(t time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.timer != nil && !d.timer.Stop() {
		<-d.passed // the timer fired: wait until it closed the channel
	}
	d.timer = nil
	closed := isClosed(d.passed)
	if t.IsZero() {
		if closed {
			d.passed = make(chan struct{})
		}
		return
	}
	if dur := time.Until(t); dur > 0 {
		if closed {
			d.passed = make(chan struct{})
		}
		ch := d.passed
		d.timer = time.AfterFunc(dur, func() { close(ch) })
		return
	}
	if !closed {
		close(d.passed)
	}
}

func (d *deadline) wait() <-chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.passed
}

func (d *deadline) expired() bool { return isClosed(d.wait()) }

func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
