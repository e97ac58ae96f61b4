package mcptest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"
)

// The journal's window (Options.JournalKeep): once it holds JournalKeep
// messages and a quarter more, the oldest quarter leaves memory, to the
// spill file (JSON Lines, one message a line, in wire order) or nowhere
// (dropped). Sequence numbers do not change: msgs[0] is message base+1.
// What reads one message by its number reads it back from the file (at);
// All reads every one back. The rules keep their own state as messages
// come (the session's ids, its handshake, its pending requests), so no
// verdict depends on a message that left memory.

// evictChunk is how many messages leave memory at a time under a window of
// keep: a quarter, so that moving the rest costs a message four copies of
// its Message at most, and memory holds keep×1.25 messages at most.
func evictChunk(keep int) int { return max(keep/4, 1) }

// evict moves the oldest messages out of memory, leaving the newest keep,
// into new arrays (views handed out keep the old ones). Called with j.mu
// held. When the spill file cannot be written, nothing leaves memory from
// then on (Verify says why).
func (j *Journal) evict() {
	j.flatten()
	k := len(j.msgs) - j.keep
	if k <= 0 {
		return
	}
	if j.spill != nil {
		if err := j.spill.write(j.msgs[:k]); err != nil {
			j.keep = 0 // keep everything from now on: nothing is lost
			return
		}
	}
	room := j.keep + evictChunk(j.keep)
	msgs, keys := make([]Message, 0, room), make([]msgKey, 0, room)
	j.msgs, j.keys = append(msgs, j.msgs[k:]...), append(keys, j.keys[k:]...)
	j.base += k
	j.shared = false
}

// summarize notes what whyUnfired reads of m. Called with j.mu held.
func (j *Journal) summarize(m Message) {
	j.sessions = max(j.sessions, m.SessionNumber)
	if m.Direction == FromClient && m.Method != "" && !m.IsResponse() && !j.clientSent[m.Method] {
		if j.clientSent == nil {
			j.clientSent = map[string]bool{}
		}
		j.clientSent[m.Method] = true
		j.clientMethods = append(j.clientMethods, m.Method)
	}
}

// setWindow makes the journal keep at most keep messages in memory (0:
// every one), the older ones going to the file at path ("": dropped),
// created (or emptied) when the first one leaves memory.
func (j *Journal) setWindow(keep int, path string) error {
	var sp *spillFile
	if keep > 0 && path != "" {
		sp = &spillFile{path: path}
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.spill != nil {
		_ = j.spill.close()
	}
	j.keep, j.spill = keep, sp
	return nil
}

// finishSpill writes to the spill file the messages still in memory too,
// so that it holds the whole journal, and flushes it; Server.Close calls
// it. The file stays open: the journal is read after Close, and the
// process's end closes it. A message recorded later (there is none once
// the sessions are closed) is written when it leaves memory, or by the
// next call.
func (j *Journal) finishSpill() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.spill == nil || j.spill.err != nil || j.spill.f == nil {
		return // nothing left memory: no file
	}
	j.flatten()
	if j.spill.write(j.msgs) == nil {
		_ = j.spill.flush()
	}
}

// spillProblem says what went wrong with the window, "" when nothing did.
func (j *Journal) spillProblem() string {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.spill == nil || j.spill.err == nil {
		return ""
	}
	return fmt.Sprintf("the journal could not write its spill file %s (%v): it keeps every message in memory from message %d on; give JournalSpill (serve: --journal-spill) a file on a disk with room",
		j.spill.path, j.spill.err, j.base+1)
}

// gone says why message seq is not in memory and cannot be read back; ""
// when it can be.
func (j *Journal) gone(seq int) string {
	j.mu.Lock()
	defer j.mu.Unlock()
	switch {
	case seq < 1 || seq > j.n:
		return fmt.Sprintf("no message %d: the journal holds messages 1 to %d", seq, j.n)
	case seq > j.base:
		return ""
	case j.spill == nil:
		return fmt.Sprintf("message %d was dropped: the journal keeps the last %d messages in memory (JournalKeep; serve: --journal-limit) and was given no file for the older ones (JournalSpill; serve: --journal-spill)", seq, j.keep)
	}
	return ""
}

// at returns message seq: from memory, or read back from the spill file.
// The error says why it cannot be had (dropped, or the file unreadable),
// naming the message, the window and the file.
func (j *Journal) at(seq int) (Message, error) {
	if why := j.gone(seq); why != "" {
		return Message{}, fmt.Errorf("%s", why)
	}
	j.mu.Lock()
	if i := seq - 1 - j.base; i >= 0 {
		j.flatten()
		m := j.msgs[i]
		j.mu.Unlock()
		return m, nil
	}
	j.mu.Unlock()
	msgs, err := j.spilled(seq, seq)
	if err == nil && len(msgs) == 0 {
		err = fmt.Errorf("not found")
	}
	if err != nil {
		j.mu.Lock()
		path, keep := j.spill.path, j.keep
		j.mu.Unlock()
		return Message{}, fmt.Errorf("message %d left memory (the journal keeps the last %d) and cannot be read back from %s: %v", seq, keep, path, err)
	}
	return msgs[0], nil
}

// spilled reads back messages from to to (Seq numbers, both included) from
// the spill file: those of them that left memory and were kept there.
func (j *Journal) spilled(from, to int) (Messages, error) {
	j.mu.Lock()
	sp := j.spill
	if sp == nil || from > j.base {
		j.mu.Unlock()
		return nil, nil
	}
	to = min(to, j.base)
	err := sp.flush()
	off, size := sp.offsetOf(from), sp.off
	j.mu.Unlock()
	if err != nil {
		return nil, err
	}
	// What is written below size never changes: read it without the lock.
	sc := bufio.NewScanner(io.NewSectionReader(sp.f, off, size-off))
	sc.Buffer(nil, maxFrame*2+64<<10)
	var out Messages
	for sc.Scan() {
		var l spillLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return out, fmt.Errorf("%s: a line after offset %d: %v", sp.path, off, err)
		}
		if l.Seq < from {
			continue
		}
		if l.Seq > to {
			break
		}
		out = append(out, l.message())
	}
	return out, sc.Err()
}

// spillFile is where the messages that leave the journal's memory go.
type spillFile struct {
	path  string
	f     *os.File
	w     *bufio.Writer
	off   int64       // bytes written (buffered ones included)
	upto  int         // the Seq of the last message written
	marks []spillMark // the offset of every spillStride-th message, to read one back
	err   error       // the first write error: nothing is written after it
	line  []byte
}

// spillStride is how many messages a mark of the spill file stands for:
// reading one message back reads at most that many lines, and the marks
// cost 16 bytes per spillStride messages.
const spillStride = 256

type spillMark struct {
	seq int
	off int64
}

func (sp *spillFile) write(msgs Messages) error {
	if sp.err != nil {
		return sp.err
	}
	if sp.f == nil { // the first message to leave memory: a short session makes no file
		f, err := os.OpenFile(sp.path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			sp.err = err
			return err
		}
		sp.f, sp.w = f, bufio.NewWriterSize(f, 64<<10)
	}
	for _, m := range msgs {
		if m.Seq <= sp.upto {
			continue // written by finish already
		}
		sp.upto = m.Seq
		if (m.Seq-1)%spillStride == 0 {
			sp.marks = append(sp.marks, spillMark{m.Seq, sp.off})
		}
		b, err := json.Marshal(lineOf(m))
		if err == nil {
			b = append(b, '\n')
			_, err = sp.w.Write(b)
		}
		if err != nil {
			sp.err = err
			return err
		}
		sp.off += int64(len(b))
	}
	return nil
}

func (sp *spillFile) flush() error {
	if sp.err != nil || sp.w == nil {
		return sp.err
	}
	if err := sp.w.Flush(); err != nil {
		sp.err = err
	}
	return sp.err
}

func (sp *spillFile) close() error {
	if sp.f == nil {
		return nil
	}
	err := sp.flush()
	if cerr := sp.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// offsetOf returns the offset of the last mark at or before message seq.
func (sp *spillFile) offsetOf(seq int) int64 {
	var off int64
	for _, mk := range sp.marks { // marks are few: one per spillStride messages
		if mk.seq > seq {
			break
		}
		off = mk.off
	}
	return off
}

// spillLine is a message as the spill file holds it: one JSON object a
// line, its fields named as Message's.
type spillLine struct {
	Seq           int           `json:"seq"`
	SessionNumber int           `json:"session"`
	Direction     string        `json:"direction"` // "client" or "server": who sent it
	Kind          string        `json:"kind"`
	Time          time.Time     `json:"time"`
	Method        string        `json:"method,omitempty"`
	ID            string        `json:"id,omitempty"`
	ErrorCode     int           `json:"error_code,omitempty"`
	Problem       string        `json:"problem,omitempty"`
	Batch         int           `json:"batch,omitempty"`
	Truncated     int           `json:"truncated,omitempty"`
	HTTP          *HTTPExchange `json:"http,omitempty"`
	Raw           string        `json:"raw"` // the frame as it crossed the wire (Message.Raw)
	Tool          string        `json:"tool,omitempty"`
	Modern        bool          `json:"stateless,omitempty"`
}

func lineOf(m Message) spillLine {
	l := spillLine{Seq: m.Seq, SessionNumber: m.SessionNumber, Direction: "server", Kind: m.Kind.String(),
		Time: m.Time, Method: m.Method, ID: m.ID, ErrorCode: m.ErrorCode, Problem: m.Problem, Batch: m.Batch,
		Truncated: int(m.cut), HTTP: m.HTTP, Raw: m.raw, Tool: m.tool, Modern: m.modern}
	if m.Direction == FromClient {
		l.Direction = "client"
	}
	return l
}

func (l spillLine) message() Message {
	m := Message{Seq: l.Seq, SessionNumber: l.SessionNumber, Direction: FromServer, Time: l.Time, Method: l.Method,
		ID: l.ID, ErrorCode: l.ErrorCode, Problem: l.Problem, Batch: l.Batch, HTTP: l.HTTP, cut: int32(l.Truncated),
		raw: l.Raw, tool: l.Tool, modern: l.Modern}
	if l.Direction == "client" {
		m.Direction = FromClient
	}
	for k := KindInvalid; k <= KindAuth; k++ {
		if k.String() == l.Kind {
			m.Kind = k
		}
	}
	return m
}
