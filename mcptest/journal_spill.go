package mcptest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
	"unicode/utf8"
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

// evict moves the oldest messages out of memory, leaving the newest keep:
// moved to the front of the storage, or into new arrays when a view holds
// it (views never change). Called with j.mu held. When the spill file cannot be written, nothing leaves memory from
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
	if room := j.keep + evictChunk(j.keep); j.shared || cap(j.msgs) != room || cap(j.keys) != room {
		// a view holds the storage, or it is not the window's size: new arrays
		msgs, keys := make([]Message, 0, room), make([]msgKey, 0, room)
		j.msgs, j.keys = append(msgs, j.msgs[k:]...), append(keys, j.keys[k:]...)
	} else { // nobody sees it: move the newest to the front, no allocation
		n := copy(j.msgs, j.msgs[k:])
		copy(j.keys, j.keys[k:])
		clear(j.msgs[n:]) // the moved-out messages' text is garbage now
		j.msgs, j.keys = j.msgs[:n], j.keys[:n]
	}
	j.base += k
	j.shared = false
}

// windowed reports whether the journal has a window (Options.JournalKeep).
func (j *Journal) windowed() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.keep > 0
}

// summarize notes what whyUnfired and count read of m. Called with j.mu
// held. It grows with the methods the clients sent, not with the messages.
func (j *Journal) summarize(m Message) {
	j.sessions = max(j.sessions, m.SessionNumber)
	if m.Direction == FromClient && m.Method != "" && (m.Kind == KindRequest || m.Kind == KindNotification) {
		if j.clientCount == nil {
			j.clientCount = map[string]int{}
		}
		j.clientCount[m.Method]++
	}
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

// leftMemory says where messages 1 to base are, for the transcript.
func (j *Journal) leftMemory(base int) string {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.spill == nil {
		return fmt.Sprintf("(messages 1 to %d are not shown: the journal keeps its last %d messages in memory and dropped the older ones)", base, j.keep)
	}
	return fmt.Sprintf("(messages 1 to %d are not shown: the journal keeps its last messages in memory, and %s holds the older ones)", base, j.spill.path)
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
		return fmt.Sprintf("message %d was dropped: the journal keeps the last %d messages in memory (JournalKeep; serve: --journal-keep) and was given no file for the older ones (JournalSpill; serve: --journal-spill)", seq, j.keep)
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
		if why := j.gone(seq); why != "" { // dropped since the first look
			return Message{}, fmt.Errorf("%s", why)
		}
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
		b := append(appendLine(sp.line[:0], m), '\n')
		sp.line = b[:0]
		if _, err := sp.w.Write(b); err != nil {
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
// line (appendLine writes it; json.Unmarshal reads it back).
type spillLine struct {
	Seq           int        `json:"seq"`
	SessionNumber int        `json:"session"`
	Direction     string     `json:"direction"` // "client" or "server": who sent it
	Kind          string     `json:"kind"`
	Time          time.Time  `json:"time"`
	Method        string     `json:"method,omitempty"`
	ID            string     `json:"id,omitempty"`
	ErrorCode     int        `json:"error_code,omitempty"`
	Problem       string     `json:"problem,omitempty"`
	Batch         int        `json:"batch,omitempty"`
	Truncated     int        `json:"truncated,omitempty"`
	HTTP          *spillHTTP `json:"http,omitempty"`
	Raw           string     `json:"raw"` // the frame as it crossed the wire (Message.Raw)
	Tool          string     `json:"tool,omitempty"`
	Modern        bool       `json:"stateless,omitempty"`
}

// spillHTTP is an HTTPExchange in the spill file.
type spillHTTP struct {
	Method          string `json:"method,omitempty"`
	Status          int    `json:"status,omitempty"`
	ContentType     string `json:"content_type,omitempty"`
	Accept          string `json:"accept,omitempty"`
	SessionID       string `json:"session_id,omitempty"`
	ProtocolVersion string `json:"protocol_version,omitempty"`
	MCPMethod       string `json:"mcp_method,omitempty"`
	MCPName         string `json:"mcp_name,omitempty"`
	EventID         string `json:"event_id,omitempty"`
	Cancelled       bool   `json:"cancelled,omitempty"`
}

// appendLine appends m's line of the spill file to b, without its newline:
// by hand, as json.Marshal of spillLine would write it, at a fraction of
// the cost (the spill writes every message of a long session).
func appendLine(b []byte, m Message) []byte {
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, int64(m.Seq), 10)
	b = append(b, `,"session":`...)
	b = strconv.AppendInt(b, int64(m.SessionNumber), 10)
	if m.Direction == FromClient {
		b = append(b, `,"direction":"client","kind":`...)
	} else {
		b = append(b, `,"direction":"server","kind":`...)
	}
	b = appendString(b, m.Kind.String())
	b = append(b, `,"time":"`...)
	b = m.Time.AppendFormat(b, time.RFC3339Nano)
	b = append(b, '"')
	b = appendField(b, "method", m.Method)
	b = appendField(b, "id", m.ID)
	b = appendInt(b, "error_code", m.ErrorCode)
	b = appendField(b, "problem", m.Problem)
	b = appendInt(b, "batch", m.Batch)
	b = appendInt(b, "truncated", int(m.cut))
	if x := m.HTTP; x != nil {
		b = append(b, `,"http":{"status":`...)
		b = strconv.AppendInt(b, int64(x.Status), 10)
		b = appendField(b, "method", x.Method)
		b = appendField(b, "content_type", x.ContentType)
		b = appendField(b, "accept", x.Accept)
		b = appendField(b, "session_id", x.SessionID)
		b = appendField(b, "protocol_version", x.ProtocolVersion)
		b = appendField(b, "mcp_method", x.MCPMethod)
		b = appendField(b, "mcp_name", x.MCPName)
		b = appendField(b, "event_id", x.EventID)
		if x.Cancelled {
			b = append(b, `,"cancelled":true`...)
		}
		b = append(b, '}')
	}
	b = append(b, `,"raw":`...)
	b = appendString(b, m.raw)
	b = appendField(b, "tool", m.tool)
	if m.modern {
		b = append(b, `,"stateless":true`...)
	}
	return append(b, '}')
}

func appendField(b []byte, name, v string) []byte {
	if v == "" {
		return b
	}
	b = append(append(append(b, ',', '"'), name...), '"', ':')
	return appendString(b, v)
}

func appendInt(b []byte, name string, v int) []byte {
	if v == 0 {
		return b
	}
	b = append(append(append(b, ',', '"'), name...), '"', ':')
	return strconv.AppendInt(b, int64(v), 10)
}

// appendString appends s as a JSON string, as encoding/json reads it back
// to s: quotes, backslashes and control characters escaped; text that is
// not UTF-8 goes through json.Marshal (which makes it so).
func appendString(b []byte, s string) []byte {
	if !utf8.ValidString(s) {
		q, _ := json.Marshal(s)
		return append(b, q...)
	}
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	return append(append(b, s[start:]...), '"')
}

func (l spillLine) message() Message {
	m := Message{Seq: l.Seq, SessionNumber: l.SessionNumber, Direction: FromServer, Time: l.Time, Method: l.Method,
		ID: l.ID, ErrorCode: l.ErrorCode, Problem: l.Problem, Batch: l.Batch, cut: int32(l.Truncated),
		raw: l.Raw, tool: l.Tool, modern: l.Modern}
	if x := l.HTTP; x != nil {
		m.HTTP = &HTTPExchange{Method: x.Method, Status: x.Status, ContentType: x.ContentType, Accept: x.Accept, SessionID: x.SessionID,
			ProtocolVersion: x.ProtocolVersion, MCPMethod: x.MCPMethod, MCPName: x.MCPName, EventID: x.EventID, Cancelled: x.Cancelled}
	}
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
