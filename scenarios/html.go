package scenarios

import (
	"os"
	"time"

	"github.com/mcpmock/mcpmock/internal/htmlreport"
)

// annotatePage gives the page that the scenario's server writes for its
// failing subtest (MCPMOCK_HTML_DIR; see package mcptest) the scenario's
// verdict: expected, observed, spec, basis.
func annotatePage(o Outcome, r Result) {
	if o.Server == nil || os.Getenv(htmlreport.EnvDir) == "" {
		return
	}
	htmlreport.Annotate(o.Server, verdictCase(r))
}

// verdictCase is r's verdict as a case of an HTML page, without its
// journal (htmlreport.FromServer of the play's server gives that).
func verdictCase(r Result) htmlreport.Case {
	c := htmlreport.Case{Name: r.Scenario, Status: string(r.Status), Spec: r.Spec, Expected: r.Expected,
		DecisionPoint: r.DecisionPoint, Observed: r.Observed, Why: r.Why, Elapsed: time.Duration(r.ElapsedMS) * time.Millisecond}
	if r.Basis != (Basis{}) {
		c.Basis = r.Basis.String()
	}
	return c
}
