package bugs_test

import (
	"io"
	"regexp"
	"testing"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/mcpmock/mcpmock/scenarios/bugs"
)

// TestBugTextNamesItsFaults: every bug whose server is built on faults
// names each of them where `mcpmock list --bugs` and `mcpmock list` show
// it: in its own line (a recipe of faults prints them), or in the line of
// the catalog scenario its recipe names.
func TestBugTextNamesItsFaults(t *testing.T) {
	constructor := regexp.MustCompile(`^[A-Za-z]\w*`)
	withFaults := 0
	for _, b := range bugs.All() {
		text := b.String()
		if name := b.Recipe.Scenario; name != "" {
			s, ok := scenarios.Lookup(name)
			if !ok {
				t.Fatalf("%s names the scenario %q, which the catalog does not have", b.ID, name)
			}
			text += "\n" + s.String()
		}
		s := b.Scenario()
		tb := mcptest.NewProgramTB(b.ID, io.Discard)
		_ = tb.Run(func(tb mcptest.TB) { // the verdict of a server never played is not the point
			for _, h := range s.Server(scenarios.GiftGen(tb)).Faults() {
				withFaults++
				f := constructor.FindString(h.Fault().String())
				if !regexp.MustCompile(`\b` + f + `\b`).MatchString(text) {
					t.Errorf("%s is built on the fault %s, which neither its line nor its scenario's names:\n%s", b.ID, f, text)
				}
			}
		})
	}
	if withFaults < 20 {
		t.Fatalf("want the bugs built on faults, found %d faults", withFaults)
	}
}
