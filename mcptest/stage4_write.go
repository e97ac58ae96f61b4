package mcptest

import (
	"bytes"
	"fmt"
	"github.com/mcpmock/mcpmock/internal/spec"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// Stage 4 of 4: write (stage1_receive.go lists the stages). Everything the
// mock sends goes out here, in one step per message so that the journal's
// order is the wire's: a reply (reply, replyResult, replyError: rendered
// for the session's version or decorated for the stateless era), or a
// message the server sends on its own (Notify, SendRequest) through write.
// A response owed to a batch waits for the rest of it (batch.go); the
// outbound faults acting on the message rewrite, split, delay or drop its
// frames (writeFaulty, writeFrames, writeChunks); the journal records
// each frame as it goes on the wire, then send hands it to the transport:
// the connection (a pipe, or Serve's), or the HTTP front's messageWriter,
// which routes it to the stream of its request.

// reply sends r as the answer to request m.
func (s *Session) reply(m Message, r Reply) {
	switch {
	case r.noReply:
	case r.problem != nil:
		s.srv.errorf("mcptest: reply to %s (session %d, id %s): %v", m.Method, s.n, m.ID, r.problem)
		s.replyError(m.ID, m.Method, spec.CodeInternalError, "mcptest: "+r.problem.Error(), nil)
	case r.rpcErr != nil:
		s.replyError(m.ID, m.Method, r.rpcErr.Code, r.rpcErr.Message, r.rpcErr.Data)
	case r.result != nil:
		s.replyResult(m, r.result)
	default:
		s.srv.errorf("mcptest: the Handler for %s (session %d, id %s) returned an empty Reply; return a result, an error or NoReply()", m.Method, s.n, m.ID)
		s.replyError(m.ID, m.Method, spec.CodeInternalError, "mcptest: empty reply", nil)
	}
}

func (s *Session) replyResult(m Message, result []byte) {
	if m.Method == "initialize" && !m.modern {
		s.initialized(m, result)
	}
	if m.modern {
		result, add, at, inputRequired := s.decorate(m.Method, result)
		frame := appendResult(make([]byte, 0, 48+len(result)+len(add)), m.ID, result[:at], add, result[at:])
		if inputRequired {
			s.noteRound(m, gjson.Get(frameString(frame), "result"))
		}
		_ = s.write(Message{Kind: KindResult, Method: m.Method, ID: m.ID}, frame)
		return
	}
	var scripted []byte
	if rendered, changed := s.render(m.Method, result); changed {
		// the session's version of it (render.go); AsScripted sends the script's
		scripted = appendResult(nil, m.ID, result)
		result = rendered
	}
	frame := appendResult(make([]byte, 0, 48+len(result)), m.ID, result)
	_ = s.writeScripted(Message{Kind: KindResult, Method: m.Method, ID: m.ID}, frame, scripted)
}

func (s *Session) replyError(id, method string, code int, message string, data []byte) {
	frame := appendError(make([]byte, 0, 96+len(message)+len(data)), id, &rpcError{Code: code, Message: message, Data: data})
	if id == "" {
		id = "null"
	}
	_ = s.write(Message{Kind: KindError, Method: method, ID: id, ErrorCode: code}, frame)
}

// write journals a message the mock sends and writes it, in one step so
// that the journal's order is the wire's order.
func (s *Session) write(m Message, frame []byte) error { return s.writeScripted(m, frame, nil) }

// writeScripted is write for a reply the version's rendering changed:
// scripted is the frame as the script held it, for AsScripted.
func (s *Session) writeScripted(m Message, frame, scripted []byte) error {
	if m.IsResponse() && s.toBatch(m, frame) {
		return nil // it goes out with the rest of its batch's responses
	}
	if faults := s.srv.faults.outboundFor(s, m); len(faults) > 0 {
		return s.writeFaulty(m, frame, scripted, faults)
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if s.isClosed() {
		return ErrSessionClosed
	}
	// The journal and the client share the frame's one copy: nobody
	// changes it after this.
	m.SessionNumber, m.Direction, m.Time, m.raw = s.n, FromServer, time.Now(), frameString(frame)
	m = s.srv.journal.record(m)
	frame = append(frame, '\n')
	if n, err := s.send(m, frame); err != nil {
		s.srv.journal.amend(m.Seq, func(j *Message) { undelivered(j, frame, n) })
		return ErrSessionClosed
	}
	return nil
}

// writeFaulty writes a message through the outbound faults: the journal
// records each frame exactly as it goes on the wire.
func (s *Session) writeFaulty(m Message, frame, scripted []byte, faults []*FaultHandle) error {
	m.Direction = FromServer
	e := &emission{msg: m, frames: []outFrame{{data: frame}}, scripted: scripted}
	for _, h := range faults {
		if len(e.frames) > 0 && h.matches(s, m) && h.f.out(h, s, e) {
			h.hit()
		}
	}
	if e.closeBefore {
		s.close()
		return ErrSessionClosed
	}
	if m.Kind == KindResult {
		for _, fr := range e.frames { // the frame that answers m, wherever faults put it
			if r := gjson.ParseBytes(fr.data); r.Get("id").Raw == m.ID && r.Get("result").Exists() {
				s.noteWire(m, fr.data)
				break
			}
		}
	}
	s.writeMu.Lock()
	err := s.writeFrames(e)
	s.writeMu.Unlock()
	if e.closeAfter {
		s.close()
	}
	return err
}

// emission is one message the mock is about to send, as the frames that
// will go on the wire once the outbound faults have had their say.
type emission struct {
	msg         Message // the logical message: kind, method, id
	frames      []outFrame
	scripted    []byte // the reply as the script held it, when the version's rendering changed it (AsScripted)
	closeBefore bool   // close the connection instead of writing anything
	closeAfter  bool   // close the connection after writing
}

// outFrame is one piece of output: normally one JSON-RPC message and its newline.
type outFrame struct {
	data      []byte
	changed   bool          // a fault changed or made it: classify it anew for the journal
	noNewline bool          // write no final newline
	delay     time.Duration // wait before writing
	chunk     int           // write in pieces of this many bytes…
	pause     time.Duration // …with this pause between them
	truncate  int           // write only this many bytes, then close the connection
}

// first returns the message's own frame, for faults that change it.
func (e *emission) first() *outFrame { return &e.frames[0] }

// writeFrames journals each frame of e, as the faults left it, and sends
// it: delayed, in pieces, cut short or with the connection closed, as
// they asked.
func (s *Session) writeFrames(e *emission) error {
	// Frames with nothing between them go out in one write, as one flush of
	// a server's stdout does: a client cannot see one without the next.
	var pending []byte
	var seqs []int
	var msg Message // the journal entry of the last frame in pending
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		_, err := s.send(msg, pending)
		if err != nil {
			for _, seq := range seqs {
				s.srv.journal.amend(seq, func(m *Message) {
					m.Kind, m.Problem = KindInvalid, "never delivered: the connection closed"
				})
			}
		}
		pending, seqs = nil, nil
		if err != nil {
			return ErrSessionClosed
		}
		return nil
	}
	for _, fr := range e.frames {
		plain := fr.delay <= 0 && fr.chunk <= 0 && fr.truncate <= 0
		if !plain {
			if err := flush(); err != nil {
				return err
			}
		}
		if !sleep(s.ctx, fr.delay) || s.isClosed() {
			return ErrSessionClosed
		}
		out := fr.data
		if !fr.noNewline {
			out = append(append([]byte(nil), out...), '\n')
		}
		if fr.truncate > 0 && fr.truncate < len(out) {
			out = out[:fr.truncate]
			e.closeAfter = true
		}
		rec := e.msg
		if fr.changed || fr.truncate > 0 {
			d := decode([]byte(strings.TrimSuffix(string(out), "\n")))
			rec = d.msg
			if rec.IsResponse() && rec.ID == e.msg.ID {
				rec.Method = e.msg.Method
			}
		}
		rec.SessionNumber, rec.Direction, rec.Time, rec.raw = s.n, FromServer, time.Now(), strings.TrimSuffix(string(out), "\n")
		switch {
		case fr.truncate > 0 && fr.truncate < len(fr.data)+1:
			rec.Problem = fmt.Sprintf("truncated after %d bytes, then the connection closed", fr.truncate)
		case fr.noNewline:
			rec.Problem = strings.TrimPrefix(rec.Problem+"; no final newline", "; ")
		}
		rec = s.srv.journal.record(rec)
		if plain {
			pending = append(pending, out...)
			seqs = append(seqs, rec.Seq)
			msg = viaOf(rec, e.msg)
			if s.perMessage() {
				if err := flush(); err != nil {
					return err
				}
			}
			continue
		}
		msg = viaOf(rec, e.msg)
		if n, err := s.writeChunks(msg, out, fr.chunk, fr.pause); err != nil {
			if n < len(out) {
				s.srv.journal.amend(rec.Seq, func(m *Message) {
					m.raw = strings.TrimSuffix(string(out[:n]), "\n")
					m.Kind, m.Problem = KindInvalid, fmt.Sprintf("cut after %d of %d bytes: the connection closed", n, len(out))
				})
			}
			return err
		}
	}
	return flush()
}

// viaOf is the journal entry of a frame as the transport routes it: a
// frame written in place of, or beside, a response goes where that
// response goes.
func viaOf(rec, logical Message) Message {
	if logical.IsResponse() {
		rec.via = logical.ID
	}
	return rec
}

// writeChunks writes out in pieces of chunk bytes with pauses between
// them, and returns how many bytes went out.
func (s *Session) writeChunks(m Message, out []byte, chunk int, pause time.Duration) (int, error) {
	if chunk <= 0 {
		chunk = len(out)
	}
	written := 0
	for written < len(out) {
		n := min(chunk, len(out)-written)
		if _, err := s.send(m, out[written:written+n]); err != nil {
			return written, ErrSessionClosed
		}
		written += n
		if written < len(out) && !sleep(s.ctx, pause) {
			return written, ErrSessionClosed
		}
	}
	return written, nil
}

// noteWire keeps what the client was told when a fault changed an
// initialize or server/discover result: the client checks hold the client
// to what went on the wire, not to what the mock would have said.
func (s *Session) noteWire(m Message, data []byte) {
	r := gjson.GetBytes(data, "result")
	s.mu.Lock()
	defer s.mu.Unlock()
	switch m.Method {
	case "initialize":
		s.caps = r.Get("capabilities")
		s.version = r.Get("protocolVersion").String()
	case "server/discover":
		s.wireCaps = r.Get("capabilities")
	}
}

// undelivered corrects the journal's record of a frame whose write failed
// after n of its bytes (with its newline): the journal says what went on
// the wire.
func undelivered(m *Message, out []byte, n int) {
	m.Kind, m.ErrorCode = KindInvalid, 0
	if n <= 0 {
		m.Problem = "never delivered: the connection closed"
		return
	}
	n = min(n, len(out))
	m.raw = string(bytes.TrimSuffix(out[:n], []byte("\n")))
	m.Problem = fmt.Sprintf("cut after %d of %d bytes: the connection closed", n, len(out))
}

// messageWriter is a transport that routes each message on its own, as
// the HTTP transport does (a response on the stream of its request): it is
// given the message, as journaled, with its bytes (one frame and its
// newline, or a piece of one).
type messageWriter interface {
	sendMessage(m Message, data []byte) (int, error)
}

// send writes the bytes of m on the session's transport.
func (s *Session) send(m Message, data []byte) (int, error) {
	if mw, ok := s.conn.(messageWriter); ok {
		return mw.sendMessage(m, data)
	}
	return writeMessage(s.conn, data)
}

// perMessage reports whether the transport takes each frame on its own.
func (s *Session) perMessage() bool {
	_, ok := s.conn.(messageWriter)
	return ok
}
