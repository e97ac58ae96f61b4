package scenarios_test

import (
	"io"
	"regexp"
	"slices"
	"testing"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/scenarios"
)

// scenarioFaults returns the constructor names of the faults a scenario's
// server installs (NotifyAfterInitializeResult for
// NotifyAfterInitializeResult("notifications/tools/list_changed")), read
// from the server it builds, not from a list.
func scenarioFaults(t *testing.T, s scenarios.Scenario) []string {
	t.Helper()
	var names []string
	tb := mcptest.NewProgramTB(s.Name, io.Discard)
	_ = tb.Run(func(tb mcptest.TB) { // the verdict of a server never played is not the point
		srv := s.Server(scenarios.GiftGen(tb))
		for _, h := range srv.Faults() {
			name := regexp.MustCompile(`^[A-Za-z]\w*`).FindString(h.Fault().String())
			if name != "" && !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
	})
	return names
}

// TestScenarioTextNamesItsFaults: every scenario built on faults names
// each of them in its listing line (Scenario.String, what `mcpmock list`
// prints: the first sentence of its Mistake), as "(fault X)" or "(faults
// X, Y)", so that a reader can tell which fault plays which moment:
// notify-before-initialized is NotifyAfterInitializeResult, sent after the
// initialize result and before the client's notifications/initialized.
func TestScenarioTextNamesItsFaults(t *testing.T) {
	withFaults := 0
	for _, s := range scenarios.All() {
		faults := scenarioFaults(t, s)
		if len(faults) == 0 {
			continue
		}
		withFaults++
		line := s.String()
		for _, f := range faults {
			re := regexp.MustCompile(`\(faults? [^)]*\b` + f + `\b[^)]*\)`)
			if !re.MatchString(line) {
				t.Errorf("%s is built on the fault %s, which its first sentence does not name as \"(fault %s)\":\n  %s", s.Name, f, f, line)
			}
		}
	}
	if withFaults < 20 {
		t.Fatalf("want the catalog's scenarios built on faults, found %d", withFaults)
	}
}
