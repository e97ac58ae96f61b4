package mcptest

import (
	"fmt"
	"strconv"
	"strings"
)

// Transcript renders every session's wire log as text, one frame a line,
// session by session:
//
//	session 1 (handshake, protocol 2025-11-25)
//	  1 → {"jsonrpc":"2.0","id":1,"method":"initialize",…}
//	  2 ← {"jsonrpc":"2.0","id":1,"result":{…}}
//
// → is client to server, ← server to client; the number is the journal's
// Seq. A frame longer than 2,000 bytes is cut, saying how much was left
// out; the journal keeps every byte. When faults are on, a first line
// names them. It is printed through t.Log when a test fails, and always when the
// environment variable MCPTEST_TRANSCRIPT is set. Under
// Options.JournalKeep it shows the messages in memory, after a line that
// says where the others are.
func (s *Server) Transcript() string {
	msgs, base := s.journal.viewAt()
	tr := renderTranscript(msgs)
	if base > 0 { // Options.JournalKeep moved the oldest out
		tr = s.journal.leftMemory(base) + "\n" + tr
	}
	if names := s.faultNames(); names != "" && tr != "" {
		tr = "faults on: " + names + "\n" + tr
	}
	return tr
}

// renderTranscript renders messages as Server.Transcript does. It takes
// time linear in the number of messages, whatever the number of sessions.
func renderTranscript(msgs []Message) string {
	var b strings.Builder
	size := 0 // the transcript's length, about: one allocation, no regrowth
	for i := range msgs {
		size += min(len(msgs[i].raw), maxTranscriptFrame) + len(msgs[i].Problem) + 24
	}
	b.Grow(size)
	eras := erasOf(msgs)
	order, bySession := groupSessions(msgs)
	for _, n := range order {
		fmt.Fprintf(&b, "session %d", n)
		if e, ok := eras[n]; ok {
			fmt.Fprintf(&b, " (%s, protocol %s)", e.era, e.version)
		}
		b.WriteString("\n")
		for _, i := range bySession[n] {
			transcriptLine(&b, msgs[i])
		}
	}
	return b.String()
}

// transcriptLine writes the transcript's line for one message.
func transcriptLine(b *strings.Builder, m Message) {
	arrow := "→"
	if m.Direction == FromServer {
		arrow = "←"
	}
	var seq [20]byte
	b.WriteString("  ")
	b.Write(strconv.AppendInt(seq[:0], int64(m.Seq), 10))
	b.WriteString(" " + arrow + " ")
	b.WriteString(clip(m.raw, int(m.cut)))
	if m.HTTP != nil {
		fmt.Fprintf(b, "   [%s]", m.HTTP.summary())
	}
	if m.Problem != "" {
		fmt.Fprintf(b, "   ✗ %s", m.Problem)
	}
	b.WriteString("\n")
}

// groupSessions returns the sessions of msgs in the order they first
// appear, and the positions of each one's messages, in one pass.
func groupSessions(msgs []Message) (order []int, bySession map[int][]int) {
	bySession = map[int][]int{}
	for i, m := range msgs {
		idx, seen := bySession[m.SessionNumber]
		if !seen {
			order = append(order, m.SessionNumber)
		}
		bySession[m.SessionNumber] = append(idx, i)
	}
	return order, bySession
}

func sessionsOf(msgs []Message) []int {
	var out []int
	seen := map[int]bool{}
	for _, m := range msgs {
		if !seen[m.SessionNumber] {
			seen[m.SessionNumber] = true
			out = append(out, m.SessionNumber)
		}
	}
	return out
}

// renderSequenceDiagram renders messages as Messages.SequenceDiagram does.
func renderSequenceDiagram(msgs []Message) string {
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	sessions := sessionsOf(msgs)
	lane := func(n int) string {
		if len(sessions) == 1 {
			return "C"
		}
		return fmt.Sprintf("C%d", n)
	}
	for _, n := range sessions {
		label := "Client"
		if len(sessions) > 1 {
			label = fmt.Sprintf("Client %d", n)
		}
		if n == 0 {
			label = "Client (no session)" // HTTP requests that belong to no session: refused ones, authorization
		}
		fmt.Fprintf(&b, "    participant %s as %s\n", lane(n), label)
	}
	b.WriteString("    participant S as Server (mcptest)\n")
	if hasAuthLane(msgs) {
		b.WriteString("    participant AS as Authorization server (mcptest)\n")
	}
	for _, m := range msgs {
		from, to := lane(m.SessionNumber), "S"
		if m.Direction == FromServer {
			from, to = to, from
		}
		id := ""
		if m.ID != "" {
			id = " [id " + m.ID + "]"
		}
		var arrow, text string
		switch m.Kind {
		case KindRequest:
			arrow, text = "->>", m.Method+id
		case KindNotification:
			arrow, text = "-)", m.Method
		case KindResult:
			arrow, text = "-->>", "result"+id
			if m.Method != "" {
				text += " (" + m.Method + ")"
			}
		case KindError:
			arrow, text = "--x", fmt.Sprintf("error %d%s", m.ErrorCode, id)
			if m.Method != "" {
				text += " (" + m.Method + ")"
			}
		case KindAuth:
			authDiagramLine(&b, lane(m.SessionNumber), m)
			continue
		default:
			fmt.Fprintf(&b, "    Note over %s,S: ✗ invalid frame from %s: %s\n", lane(m.SessionNumber),
				map[Direction]string{FromClient: "client", FromServer: "server"}[m.Direction], mermaidText(m.Problem))
			continue
		}
		fmt.Fprintf(&b, "    %s%s%s: %s\n", from, arrow, to, mermaidText(text))
	}
	return b.String()
}

var mermaidEscaper = strings.NewReplacer(";", ",", "#", "", "\n", " ", "%", "pct")

// mermaidText keeps a label from breaking the diagram's syntax.
func mermaidText(s string) string { return mermaidEscaper.Replace(s) }

// maxTranscriptFrame is how much of one frame a transcript shows.
const maxTranscriptFrame = 2000

// clip cuts raw for a transcript; cut is how much the journal already
// left out of it (Options.JournalLimit).
func clip(raw string, cut int) string {
	if len(raw) > maxTranscriptFrame {
		cut += len(raw) - maxTranscriptFrame
		raw = raw[:maxTranscriptFrame]
	}
	if cut == 0 {
		return raw
	}
	return fmt.Sprintf("%s… (%d more bytes)", raw, cut)
}

// Transcript renders the messages as Server.Transcript does, e.g.
// srv.Journal().All().InSession(2).Transcript(). It takes time linear in the
// number of messages, whatever the number of sessions.
func (ms Messages) Transcript() string { return renderTranscript(ms) }

// SequenceDiagram renders the messages as a Mermaid sequenceDiagram: one
// client lane per session and a server lane; requests as solid arrows,
// results as dashed ones, notifications as open arrows, errors crossed and
// marked with their code, invalid frames as notes. The whole conversation
// is srv.Journal().All().SequenceDiagram().
func (ms Messages) SequenceDiagram() string { return renderSequenceDiagram(ms) }
