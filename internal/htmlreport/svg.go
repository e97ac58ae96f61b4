package htmlreport

import (
	"fmt"
	"strings"
)

// The diagram's geometry, in SVG user units (CSS pixels at full width).
const (
	laneClient  = 80
	rowH        = 30  // an arrow's row
	markH       = 14  // the extra height of a row with a fault or a broken rule under its arrow
	headH       = 48  // the lifelines' labels
	chunkRows   = 22  // rows per SVG: each piece fits a printed A4 page
	labelChars  = 48  // most characters of an arrow's label (the whole text is its tooltip)
	charW       = 6.6 // about the width of a label character, for the folded band
	laneSpacing = 340
)

// row is one row of the diagram: a message, or a band of folded ones.
type row struct {
	msg    *Msg
	folded int // messages folded into this band
	from   int // Seq of the first folded message
	to     int // Seq of the last
}

// drawDiagram writes the case's sequence diagram as inline SVG, in pieces
// of chunkRows rows, each with the lifelines' labels.
func drawDiagram(b *strings.Builder, caseID string, c *Case, shown []bool) {
	auth := false
	sessions := map[int]bool{}
	for i := range c.Msgs {
		auth = auth || c.Msgs[i].AuthServer
		sessions[c.Msgs[i].Session] = true
	}
	lanes := []string{"client", "mock (mcpmock)"}
	if auth {
		lanes = append(lanes, "authorization server")
	}
	width := laneClient*2 + laneSpacing*(len(lanes)-1)
	ruleAt := map[int][]string{}
	for _, v := range c.Violations {
		ruleAt[v.Seq] = append(ruleAt[v.Seq], v.Rule)
	}
	var rows []row
	for i := 0; i < len(c.Msgs); {
		if shown[i] {
			rows = append(rows, row{msg: &c.Msgs[i]})
			i++
			continue
		}
		j := i
		for j < len(c.Msgs) && !shown[j] {
			j++
		}
		rows = append(rows, row{folded: j - i, from: c.Msgs[i].Seq, to: c.Msgs[j-1].Seq})
		i = j
	}
	for start := 0; start < len(rows); start += chunkRows {
		end := min(start+chunkRows, len(rows))
		height := headH + 16
		for _, r := range rows[start:end] {
			height += rowH
			if r.msg != nil && (r.msg.Fault != "" || len(ruleAt[r.msg.Seq]) > 0) {
				height += markH
			}
		}
		fmt.Fprintf(b, `<svg class="seq" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" role="img" aria-label="sequence diagram of %s, messages %s">`,
			width, height, width, esc(c.Name), esc(seqRange(rows[start:end])))
		for k, name := range lanes {
			x := laneClient + k*laneSpacing
			fmt.Fprintf(b, `<g class="lane"><rect x="%d" y="6" width="150" height="28" rx="4"/><text class="lane-label" x="%d" y="25" text-anchor="middle">%s</text><line x1="%d" y1="34" x2="%d" y2="%d"/></g>`,
				x-75, x, esc(name), x, x, height-4)
		}
		y := headH
		for _, r := range rows[start:end] {
			y += rowH
			if r.msg == nil {
				fmt.Fprintf(b, `<g class="folded"><rect x="10" y="%d" width="%d" height="22"/><text x="%d" y="%d" text-anchor="middle">⋯ %d messages folded (%d to %d): see the transcript</text></g>`,
					y-17, width-20, width/2, y-2, r.folded, r.from, r.to)
				continue
			}
			y = drawArrow(b, caseID, r.msg, y, len(sessions) > 1, auth, ruleAt[r.msg.Seq])
		}
		b.WriteString("</svg>\n")
	}
}

func seqRange(rows []row) string {
	first, last := 0, 0
	for _, r := range rows {
		s, e := r.from, r.to
		if r.msg != nil {
			s, e = r.msg.Seq, r.msg.Seq
		}
		if first == 0 {
			first = s
		}
		last = e
	}
	return fmt.Sprintf("%d to %d", first, last)
}

// drawArrow draws one message at row y and returns the row's y (moved down
// when marks go under the arrow).
func drawArrow(b *strings.Builder, caseID string, m *Msg, y int, manySessions, auth bool, rules []string) int {
	client, mock, as := laneClient, laneClient+laneSpacing, laneClient+2*laneSpacing
	peer := mock
	if m.AuthServer && auth {
		peer = as
	}
	from, to := client, peer
	if m.FromServer {
		from, to = peer, client
	}
	label := arrowLabel(m, manySessions, labelChars)
	full := arrowLabel(m, manySessions, 400) // the whole label; the transcript has the message
	fmt.Fprintf(b, `<a href="#%s"><g class="arrow k-%s" id="%s" data-seq="%d"><title>%s</title>`, lineID(caseID, m.Seq), esc(m.Kind), arrowID(caseID, m.Seq), m.Seq, esc(full))
	if m.Kind == "invalid" {
		fmt.Fprintf(b, `<rect class="note" x="%d" y="%d" width="%d" height="22"/><text class="label" x="%d" y="%d" text-anchor="middle">%s</text>`,
			client+10, y-17, peer-client-20, (client+peer)/2, y-2, esc(shorten("✗ invalid frame: "+m.Problem, labelChars)))
	} else {
		dashed := m.Kind == "result" || m.Kind == "error" || (m.Kind == "auth" && m.FromServer)
		dash := ""
		if dashed {
			dash = ` stroke-dasharray="6 4"`
		}
		dir := 1
		if to < from {
			dir = -1
		}
		tip := to - dir*2
		fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d"%s/>`, from, y, tip, y, dash)
		if m.Kind == "notification" {
			fmt.Fprintf(b, `<polyline class="open" points="%d,%d %d,%d %d,%d"/>`, tip-dir*10, y-5, tip, y, tip-dir*10, y+5)
		} else {
			fmt.Fprintf(b, `<polygon points="%d,%d %d,%d %d,%d"/>`, tip-dir*10, y-5, tip, y, tip-dir*10, y+5)
		}
		if m.Kind == "error" {
			fmt.Fprintf(b, `<text class="cross" x="%d" y="%d" text-anchor="middle">✗</text>`, tip-dir*22, y+5)
		}
		fmt.Fprintf(b, `<text class="label" x="%d" y="%d" text-anchor="middle">%s</text>`, (from+to)/2, y-5, esc(label))
	}
	var marks []string
	if m.Fault != "" {
		marks = append(marks, "⚡ fault: "+m.Fault)
	}
	for _, r := range rules {
		marks = append(marks, "✗ broke: "+r)
	}
	if len(marks) > 0 {
		y += markH
		fmt.Fprintf(b, `<text class="mark" x="%d" y="%d" text-anchor="middle">%s</text>`, (client+peer)/2, y-1, esc(shorten(strings.Join(marks, " · "), labelChars+8)))
	}
	b.WriteString("</g></a>")
	return y
}

// arrowLabel is the text over an arrow: the method and id of a request,
// "result"/"error CODE" with the method answered, the HTTP status.
func arrowLabel(m *Msg, manySessions bool, n int) string {
	id := ""
	if m.ID != "" {
		id = " #" + m.ID
	}
	var s string
	switch m.Kind {
	case "request":
		s = m.Method + id
	case "notification":
		s = m.Method
	case "result":
		s = "result" + id
		if m.Method != "" {
			s += " (" + m.Method + ")"
		}
	case "error":
		s = fmt.Sprintf("error %d%s", m.ErrorCode, id)
		if m.Method != "" {
			s += " (" + m.Method + ")"
		}
	case "batch":
		s = "batch"
	default:
		s = m.Raw
	}
	if m.Status != 0 && m.Kind != "auth" {
		s += fmt.Sprintf(" · HTTP %d", m.Status)
	}
	if manySessions {
		s = fmt.Sprintf("s%d: %s", m.Session, s)
	}
	return shorten(s, n)
}

// shorten cuts s to n runes, with an ellipsis.
func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
