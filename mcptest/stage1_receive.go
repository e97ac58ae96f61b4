package mcptest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"github.com/mcpmock/mcpmock/internal/spec"
	"io"
	"net"
	"runtime/debug"
	"time"
)

// Stage 1 of 4: receive. The engine's stages are the files stage1_receive.go,
// stage2_check.go, stage3_dispatch.go and stage4_write.go, in the order a
// frame from the client takes them (docs/internals.md, "How a frame flows"):
//
//  1. receive (this file): one entry, Session.receive, for a frame from any
//     transport — the pipe's or Serve's connection (readLoop) and the HTTP
//     front (httpConn.receive, after the front's own checks) — with the
//     one recover that turns a panic of the mock into a test failure, the
//     decoding, and the split of a batch into its messages.
//  2. check (stage2_check.go): the message is journaled and the rules for a
//     message from the client are checked, in order; a frame that breaks
//     one the mock must refuse is answered there.
//  3. dispatch (stage3_dispatch.go): lifecycle, tools, resources, prompts,
//     or the test's Handler, which compute the reply.
//  4. write (stage4_write.go): the reply (or a message the server sends on
//     its own) is rendered for the session's version, its faults played,
//     journaled, and written to the transport.

// readLoop reads frames until the connection ends, then ends the session.
func (s *Session) readLoop() {
	defer s.srv.wg.Done()
	defer s.end()
	r := bufio.NewReaderSize(s.conn, 4<<10) // grows per frame, not per session: idle sessions stay small
	var long []byte                         // a frame longer than the buffer, being gathered
	oversized := 0                          // bytes of a frame past maxFrame, being discarded
	pc, _ := s.conn.(*pipeConn)
	for {
		if pc != nil && r.Buffered() == 0 && long == nil && oversized == 0 {
			// a long frame waiting whole in the pipe is taken as it is:
			// neither gathered through the reader's buffer nor copied
			if line := pc.takeLine(lendMin, maxFrame); line != nil {
				if line = bytes.TrimRight(line, "\r\n"); len(bytes.TrimSpace(line)) > 0 {
					s.receive(incoming{text: frameString(line)})
				}
				continue
			}
		}
		chunk, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if oversized > 0 || len(long)+len(chunk) > maxFrame {
				oversized += len(long) + len(chunk)
				long = nil
			} else {
				if long == nil { // room for the whole frame when the connection knows its size: one copy
					long = make([]byte, 0, min(maxFrame+1, len(chunk)+r.Buffered()+pendingBytes(s.conn)))
				}
				long = append(long, chunk...)
			}
			continue
		}
		line, owned := chunk, false
		switch {
		case oversized > 0:
			s.receiveOversized(oversized + len(chunk))
			oversized, line = 0, nil
		case long != nil && len(long)+len(chunk) > maxFrame:
			s.receiveOversized(len(long) + len(chunk))
			line, long = nil, nil
		case long != nil:
			// the gathered frame is the loop's no more: decode keeps it
			// as the message's text instead of copying it
			line, long, owned = append(long, chunk...), nil, true
		}
		if err != nil && err != io.EOF {
			line = nil // a frame cut by Close is not the client's
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(bytes.TrimSpace(line)) > 0 {
			// an owned frame is the message's text as it is; the loop's
			// buffer is copied
			text := frameString(line)
			if !owned {
				text = string(line)
			}
			s.receive(incoming{text: text})
		}
		if err != nil {
			if err != io.EOF && !errors.Is(err, net.ErrClosed) {
				s.srv.logf("mcptest: session %d: read: %v", s.n, err)
			}
			return
		}
	}
}

// receiveOversized journals a frame too long to keep (its first bytes are
// not kept either) and answers it as an invalid request.
func (s *Session) receiveOversized(n int) {
	m := s.srv.journal.record(Message{SessionNumber: s.n, Direction: FromClient, Time: time.Now(), Kind: KindInvalid,
		Problem: fmt.Sprintf("frame of %d bytes is longer than mcptest reads (%d); its bytes were discarded", n, maxFrame)})
	s.violate(ruleInvalidRequest, m, m.Problem)
	s.replyError("", "", spec.CodeInvalidRequest, "Invalid Request: frame too long", nil)
}

// incoming is one frame as a transport hands it to the session: its text as
// read from a connection, or the frame the HTTP front already decoded, its
// HTTP exchange in decoded.msg.HTTP.
type incoming struct {
	text    string   // the frame read from a connection, not decoded yet
	decoded *decoded // or the frame the HTTP front decoded (its body, kept without a copy)
}

// receive is the one entry of a frame from the client, whatever carried
// it: it decodes the frame, splits a batch the session accepts into its
// messages, and hands each to process (stage 2). A panic of the mock while
// the frame is handled becomes a test failure instead of a crash or a hung
// session.
func (s *Session) receive(in incoming) {
	defer func() {
		if p := recover(); p != nil {
			text := in.text
			if in.decoded != nil {
				text = in.decoded.msg.raw
			}
			s.srv.errorf("mcptest: internal error handling %q in session %d: %v\n%s", shorten(text, 200), s.n, p, debug.Stack())
		}
	}()
	var d decoded
	if in.decoded != nil {
		d = *in.decoded
	} else {
		d = decodeText(in.text)
	}
	d.msg.SessionNumber, d.msg.Direction, d.msg.Time = s.n, FromClient, time.Now()
	if d.batch.Exists() {
		empty := len(d.batch.Array()) == 0
		if !empty && s.takesBatch(d.batch) { // over HTTP too: the batch POST waits for the batch reply
			s.receiveBatch(d)
			return
		}
		d.msg.Problem = s.noBatch(empty)
	}
	s.process(d)
}
