package mcptest

import (
	"fmt"
	"os"
	"strings"

	"github.com/mcpmock/mcpmock/internal/authplug"
	"github.com/mcpmock/mcpmock/internal/htmlreport"
)

// The HTML page of a failing test (issue 33): with the environment
// variable MCPMOCK_HTML_DIR naming a directory, a Server whose test failed
// writes one self-contained page there (the journal drawn as a sequence
// diagram, the transcript, the violations) and logs its path after the
// transcript. scenarios.Run adds the scenario's verdict to it.

func init() {
	htmlreport.FromServer = func(srv any) htmlreport.Case {
		if s, ok := srv.(*Server); ok && s != nil {
			return s.htmlCase()
		}
		return htmlreport.Case{}
	}
}

// writeFailurePage writes the page of t's failure into dir and logs its
// path.
func (s *Server) writeFailurePage(t TB, dir string) {
	name := "mcptest"
	if n, ok := t.(interface{ Name() string }); ok {
		name = n.Name()
	}
	c := s.htmlCase()
	c.Name, c.Status = name, "fail"
	if v, ok := htmlreport.TakeVerdict(s); ok {
		c = htmlreport.WithVerdict(c, v)
	}
	path, err := htmlreport.SaveFailure(dir, name, htmlreport.Page{Title: "mcpmock: " + name, Subtitle: "a failing test, its journal drawn", Cases: []htmlreport.Case{c}})
	if err != nil {
		t.Logf("mcptest: the HTML page was not written: %v", err)
		return
	}
	t.Logf("mcptest HTML page: %s", path)
}

// htmlCase is the server's journal, violations and faults as a page's case.
func (s *Server) htmlCase() htmlreport.Case {
	msgs := s.journal.view()
	var c htmlreport.Case
	c.Msgs = make([]htmlreport.Msg, len(msgs))
	for i, m := range msgs {
		hm := htmlreport.Msg{Seq: m.Seq, Session: m.SessionNumber, FromServer: m.Direction == FromServer, Kind: m.Kind.String(),
			Method: m.Method, ID: m.ID, ErrorCode: m.ErrorCode, Raw: m.raw, Problem: m.Problem,
			AuthServer: m.Kind == KindAuth && m.Method != authplug.Resource && m.Method != authplug.PRM}
		if m.HTTP != nil {
			hm.HTTP, hm.Status = m.HTTP.summary(), m.HTTP.Status
		}
		if i > 0 && !m.Time.IsZero() && !msgs[0].Time.IsZero() {
			hm.At = m.Time.Sub(msgs[0].Time)
		}
		c.Msgs[i] = hm
	}
	for _, h := range s.Faults() {
		c.Faults = append(c.Faults, fmt.Sprintf("%s (acted %d×)", h.String(), h.Hits()))
		markFault(c.Msgs, h)
	}
	for _, v := range s.Violations() {
		c.Violations = append(c.Violations, htmlreport.Violation{Rule: string(v.Rule), Severity: v.Severity.String(), Detail: v.Detail, URL: v.URL(), Seq: v.Message.Seq})
	}
	return c
}

// markFault marks the messages a fault most likely acted on (the journal
// does not record which): those of its method (the mock's answers for a
// fault on what the mock sends, the client's requests for one on what it
// receives), in its session, the nth only when it has Nth, as many as it
// acted. A fault of no method on what the mock sends (OmitCapability,
// CorruptServerInfo, …) is marked on the handshake's answers (initialize,
// server/discover); one of the HTTP transport only in the case's faults.
func markFault(msgs []htmlreport.Msg, h *FaultHandle) {
	f := h.f
	hits := h.Hits()
	if f == nil || hits == 0 || (f.method == "" && (f.out == nil || f.inbound != nil)) {
		return
	}
	fromServer := f.inbound == nil
	matched := 0
	for i := range msgs {
		m := &msgs[i]
		method := m.Method == f.method || (f.method == "" && (m.Method == "initialize" || m.Method == "server/discover"))
		if !method || m.FromServer != fromServer || (f.session > 0 && m.Session != f.session) {
			continue
		}
		if fromServer && !kindIn(m.Kind, f.kinds) {
			continue
		}
		if !fromServer && m.Kind != "request" && m.Kind != "notification" {
			continue
		}
		matched++
		if f.nth > 0 && matched != f.nth {
			continue
		}
		if m.Fault != "" {
			m.Fault += ", "
		}
		m.Fault += f.name
		if hits--; hits == 0 {
			return
		}
	}
}

func kindIn(kind string, kinds []Kind) bool {
	if len(kinds) == 0 {
		return kind == "result" || kind == "error"
	}
	for _, k := range kinds {
		if k.String() == kind {
			return true
		}
	}
	return false
}

// htmlDir is the directory of failure pages, "" when none is asked for.
func htmlDir() string { return strings.TrimSpace(os.Getenv(htmlreport.EnvDir)) }
