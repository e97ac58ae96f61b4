package main

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mcpmock/mcpmock/internal/htmlreport"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/scenarios"
)

// The HTML pages of run --html, serve --html and tour --html (issue 33):
// package internal/htmlreport renders them; this file feeds it.

// htmlRun collects, during mcpmock run --html FILE, each scenario's
// journal for the page.
type htmlRun struct {
	file     string
	mu       sync.Mutex
	journals map[string]htmlreport.Case
}

func newHTMLRun(file string) *htmlRun {
	if file == "" {
		return nil
	}
	return &htmlRun{file: file, journals: map[string]htmlreport.Case{}}
}

// keep records the journal of a scenario's play.
func (h *htmlRun) keep(name string, srv *mcptest.Server) {
	if h == nil || srv == nil {
		return
	}
	c := htmlreport.FromServer(srv)
	h.mu.Lock()
	h.journals[name] = c
	h.mu.Unlock()
}

// write writes the page of the run: the verdict table, then each
// scenario with its journal drawn.
func (h *htmlRun) write(rep *scenarios.Report, command []string) error {
	if h == nil {
		return nil
	}
	p := htmlreport.Page{Title: "mcpmock run: " + verdictWord(rep), Subtitle: "mcpmock run -- " + shellJoin(command)}
	for _, r := range rep.Results {
		h.mu.Lock()
		c := h.journals[r.Scenario]
		h.mu.Unlock()
		p.Cases = append(p.Cases, withResult(c, r))
	}
	if err := htmlreport.WriteFile(h.file, p); err != nil {
		return fmt.Errorf("--html: %v", err)
	}
	return nil
}

// verdictWord sums a report up in a few words: "3 failed of 62".
func verdictWord(rep *scenarios.Report) string {
	failed := 0
	for _, r := range rep.Results {
		if r.Status.Failed() {
			failed++
		}
	}
	if failed == 0 {
		return fmt.Sprintf("no failure in %s", plural(len(rep.Results), "scenario", "scenarios"))
	}
	return fmt.Sprintf("%d failed of %s", failed, plural(len(rep.Results), "scenario", "scenarios"))
}

// withResult is c (a journal) with r's verdict.
func withResult(c htmlreport.Case, r scenarios.Result) htmlreport.Case {
	c.Name, c.Status, c.Spec, c.Expected, c.DecisionPoint, c.Observed, c.Why =
		r.Scenario, string(r.Status), r.Spec, r.Expected, r.DecisionPoint, r.Observed, r.Why
	c.Elapsed = time.Duration(r.ElapsedMS) * time.Millisecond
	if r.Basis != (scenarios.Basis{}) {
		c.Basis = r.Basis.String()
	}
	return c
}

// servePage keeps, for serve --html, the server's journal in the report.
func (rep *Report) keepPage(sp serverSpec, srv *mcptest.Server) {
	if sp.html == "" {
		return
	}
	c := htmlreport.FromServer(srv)
	rep.html, rep.page = sp.html, &c
}

// writePage writes serve's page: its verdict, and the journal drawn.
func (rep *Report) writePage() error {
	if rep.html == "" {
		return nil
	}
	c := htmlreport.Case{Name: rep.Server, Status: rep.Verdict}
	if rep.page != nil {
		c = *rep.page
		c.Name, c.Status = rep.Server, rep.Verdict
	}
	if r := rep.Scenario; r != nil {
		c = withResult(c, *r)
		c.Status = rep.Verdict
	}
	c.Elapsed = time.Duration(rep.ElapsedMS) * time.Millisecond
	if len(rep.Problems) > 0 {
		c.Observed = strings.TrimSpace(c.Observed + "\n" + strings.Join(rep.Problems, "\n"))
	}
	p := htmlreport.Page{Title: "mcpmock serve: " + rep.Verdict, Subtitle: rep.Server + " over " + rep.Transport + "; ended: " + rep.Ended, Cases: []htmlreport.Case{c}}
	if err := htmlreport.WriteFile(rep.html, p); err != nil {
		return fmt.Errorf("--html: %v", err)
	}
	return nil
}
