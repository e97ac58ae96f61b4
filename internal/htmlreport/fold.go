package htmlreport

import (
	"fmt"
	"strings"
)

// Folding: a long journal draws the part that failed and folds the rest,
// so a page of 10,000 messages stays light.
const (
	maxArrows      = 160  // most arrows a case's diagram draws
	foldEdge       = 12   // messages drawn at the start and at the end
	foldAround     = 8    // messages drawn on each side of one that went wrong
	maxFoldedLines = 1200 // most folded transcript lines a case writes
	foldedLineLen  = 160  // bytes of a folded transcript line
	shownLineLen   = 1200 // bytes of a drawn message's transcript line
)

// fold returns, for each message of c, whether the diagram draws it.
func fold(c *Case) []bool {
	n := len(c.Msgs)
	shown := make([]bool, n)
	if n <= maxArrows {
		for i := range shown {
			shown[i] = true
		}
		return shown
	}
	left := maxArrows
	mark := func(from, to int) {
		for i := max(from, 0); i < min(to, n) && left > 0; i++ {
			if !shown[i] {
				shown[i] = true
				left--
			}
		}
	}
	bySeq := map[int]int{}
	for i, m := range c.Msgs {
		bySeq[m.Seq] = i
	}
	mark(0, foldEdge)
	// what went wrong first: a broken rule, then errors, faults, invalid frames
	for _, v := range c.Violations {
		if i, ok := bySeq[v.Seq]; ok {
			mark(i-foldAround, i+foldAround+1)
		}
	}
	for i, m := range c.Msgs {
		if m.Problem != "" || m.Fault != "" || m.Kind == "error" || m.Kind == "invalid" {
			mark(i-foldAround, i+foldAround+1)
		}
	}
	left += foldEdge // the end is always drawn
	mark(n-foldEdge, n)
	return shown
}

// writeTranscript writes the transcript: a line per message, each linked
// to its arrow; the folded messages in closed <details>, shortened.
func writeTranscript(b *strings.Builder, caseID string, c *Case, shown []bool) {
	b.WriteString("<ol class=\"transcript\">\n")
	folded := 0
	for i := 0; i < len(c.Msgs); {
		if shown[i] {
			transcriptLine(b, caseID, c.Msgs[i], shownLineLen, true)
			i++
			continue
		}
		j := i
		for j < len(c.Msgs) && !shown[j] {
			j++
		}
		fmt.Fprintf(b, "<li class=\"fold\"><details><summary>%d messages folded (%d to %d)</summary><ol>\n", j-i, c.Msgs[i].Seq, c.Msgs[j-1].Seq)
		for k := i; k < j; k++ {
			if folded == maxFoldedLines {
				fmt.Fprintf(b, "<li>… %d more messages not written here (the journal, the text transcript and the JSON report have them)</li>\n", j-k)
				break
			}
			folded++
			transcriptLine(b, caseID, c.Msgs[k], foldedLineLen, false)
		}
		b.WriteString("</ol></details></li>\n")
		i = j
	}
	b.WriteString("</ol>\n")
}

func transcriptLine(b *strings.Builder, caseID string, m Msg, clipAt int, drawn bool) {
	arrow := "→"
	if m.FromServer {
		arrow = "←"
	}
	class := "k-" + m.Kind
	if m.Problem != "" {
		class += " bad"
	}
	fmt.Fprintf(b, `<li id="%s" class="%s">`, lineID(caseID, m.Seq), class)
	if drawn {
		fmt.Fprintf(b, `<a class="seq" href="#%s">%d</a>`, arrowID(caseID, m.Seq), m.Seq)
	} else {
		fmt.Fprintf(b, `<span class="seq">%d</span>`, m.Seq)
	}
	fmt.Fprintf(b, ` <span class="at">%s</span> %s <code>%s</code>`, esc(atText(m)), arrow, esc(clipText(m.Raw, clipAt)))
	if m.HTTP != "" {
		fmt.Fprintf(b, ` <span class="http">[%s]</span>`, esc(m.HTTP))
	}
	if m.Fault != "" {
		fmt.Fprintf(b, ` <span class="fault">⚡ %s</span>`, esc(m.Fault))
	}
	if m.Problem != "" {
		fmt.Fprintf(b, ` <span class="problem">✗ %s</span>`, esc(m.Problem))
	}
	b.WriteString("</li>\n")
}

func atText(m Msg) string {
	return fmt.Sprintf("+%.1f ms", float64(m.At.Microseconds())/1000)
}
