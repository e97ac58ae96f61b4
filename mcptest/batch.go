package mcptest

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcpmock/mcpmock/internal/spec"
	"github.com/tidwall/gjson"
)

// batch is a client's batch whose responses the mock is gathering: it
// answers with one batch of responses once every request in it has been
// answered or will never be (cancelled, NoReply, the session ended).
type batch struct {
	owed    map[string]int // the reply ids still owed ("null" for errors without an id), with how many
	reading bool           // the read loop is still handling the batch's messages
	replies []batchReply
}

type batchReply struct {
	msg   Message
	frame []byte
}

// takesBatch reports whether the session accepts a batch: its version has
// them, or, before any version is agreed, the batch carries the initialize
// asking for such a version of a server that speaks it.
func (s *Session) takesBatch(elems gjson.Result) bool {
	s.mu.Lock()
	version, era := s.version, s.era
	s.mu.Unlock()
	if era == EraStateless {
		return false
	}
	if version != "" {
		return spec.Batches.Has(version)
	}
	takes := false
	elems.ForEach(func(_, e gjson.Result) bool {
		if e.Get("method").String() != "initialize" {
			return true
		}
		pv := e.Get("params.protocolVersion").String()
		takes = spec.Batches.Has(pv) && slices.Contains(s.srv.legacy, pv)
		return false
	})
	return takes
}

// noBatch says why a batch is refused in this session.
func (s *Session) noBatch(empty bool) string {
	if empty {
		return "an empty JSON-RPC batch"
	}
	version := s.ProtocolVersion()
	if version == "" {
		return "a JSON-RPC batch before initialize agreed on a protocol version that has batches (" + spec.Batches.String() + ")"
	}
	return "a JSON-RPC batch, which protocol " + version + " does not have (only " + strings.Join(spec.Batches.List(), " and ") + " do)"
}

// receiveBatch handles a batch the session accepts: the batch frame is
// journaled, then each of its messages on its own, handled as if framed
// alone; the replies go out together, in one batch, when the last is ready.
func (s *Session) receiveBatch(d decoded) {
	m := d.msg
	m.Kind, m.Problem = KindBatch, ""
	m = s.srv.journal.record(m)
	b := &batch{owed: map[string]int{}, reading: true}
	s.mu.Lock()
	s.batches = append(s.batches, b)
	s.mu.Unlock()
	s.batchesOpen.Add(1)
	initialize := false
	d.batch.ForEach(func(_, e gjson.Result) bool {
		ed := decode([]byte(e.Raw))
		ed.msg.SessionNumber, ed.msg.Direction, ed.msg.Time, ed.msg.Batch = s.n, FromClient, time.Now(), m.Seq
		if ed.batch.Exists() {
			ed.msg.Problem, ed.batch = "a batch inside a batch", gjson.Result{}
		}
		if key, ok := replyKey(ed); ok {
			s.mu.Lock()
			b.owed[key]++
			s.mu.Unlock()
		}
		initialize = initialize || ed.msg.Kind == KindRequest && ed.msg.Method == "initialize"
		s.process(ed)
		return true
	})
	if initialize {
		s.violate(ruleInitializeNotBatched, m, "initialize sent in a batch; it must be sent alone, before any other message")
	}
	s.mu.Lock()
	b.reading = false
	done := s.settleBatchesLocked()
	s.mu.Unlock()
	s.sendBatches(done)
}

// replyKey returns the id the mock's reply to a message of a batch will
// carry, if the message gets one.
func replyKey(d decoded) (string, bool) {
	if d.msg.Kind != KindInvalid && d.msg.Kind != KindRequest {
		return "", false // notifications and responses are not answered
	}
	if validID(d.id) {
		return d.msg.ID, true
	}
	return "null", true
}

// toBatch keeps a reply to a message of a batch for its batch of replies,
// and reports whether it did.
func (s *Session) toBatch(m Message, frame []byte) bool {
	if s.batchesOpen.Load() == 0 {
		return false
	}
	s.mu.Lock()
	for _, b := range s.batches {
		if b.owed[m.ID] == 0 {
			continue
		}
		if b.owed[m.ID]--; b.owed[m.ID] == 0 {
			delete(b.owed, m.ID)
		}
		b.replies = append(b.replies, batchReply{msg: m, frame: append([]byte(nil), frame...)})
		done := s.settleBatchesLocked()
		s.mu.Unlock()
		s.sendBatches(done)
		return true
	}
	s.mu.Unlock()
	return false
}

// settleBatchesLocked forgets the replies that will never come — of
// requests no longer in flight once the batch has been read — and returns
// the batches with nothing more to wait for, taking them off the session.
func (s *Session) settleBatchesLocked() []*batch {
	var done []*batch
	s.batches = slices.DeleteFunc(s.batches, func(b *batch) bool {
		if b.reading {
			return false
		}
		for id := range b.owed {
			if len(s.inflight[id]) == 0 {
				delete(b.owed, id)
			}
		}
		if len(b.owed) > 0 {
			return false
		}
		done = append(done, b)
		return true
	})
	return done
}

// sendBatches writes the replies of each finished batch as one batch
// frame (none for a batch of notifications), journaled first as the batch
// and then each reply with Batch set to it.
func (s *Session) sendBatches(done []*batch) {
	for _, b := range done {
		s.batchesOpen.Add(-1)
		if len(b.replies) == 0 {
			continue
		}
		frame := []byte{'['}
		for i, r := range b.replies {
			if i > 0 {
				frame = append(frame, ',')
			}
			frame = append(frame, r.frame...)
		}
		frame = append(frame, ']')
		s.writeBatch(b.replies, frame)
	}
}

func (s *Session) writeBatch(replies []batchReply, frame []byte) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if s.isClosed() {
		return
	}
	now := time.Now()
	head := s.srv.journal.record(Message{SessionNumber: s.n, Direction: FromServer, Time: now, Kind: KindBatch, raw: string(frame)})
	seqs := []int{head.Seq}
	for _, r := range replies {
		m := r.msg
		m.SessionNumber, m.Direction, m.Time, m.raw, m.Batch = s.n, FromServer, now, string(r.frame), head.Seq
		seqs = append(seqs, s.srv.journal.record(m).Seq)
	}
	out := append(frame, '\n')
	if n, err := s.send(head, out); err != nil {
		s.srv.journal.amend(head.Seq, func(j *Message) { undelivered(j, out, n) })
		for _, seq := range seqs[1:] {
			s.srv.journal.amend(seq, func(j *Message) {
				j.Kind, j.ErrorCode = KindInvalid, 0
				j.Problem = fmt.Sprintf("in batch #%d, which the connection cut after %d of %d bytes", head.Seq, n, len(out))
			})
		}
	}
}
