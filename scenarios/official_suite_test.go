package scenarios_test

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/scenarios"
)

// officialSuite is the scenario list of the pinned official conformance
// suite, as .ci/conformance_server.sh extracts it (`conformance list`):
// "server NAME [versions]" and "client NAME [versions]" lines.
const officialSuite = "testdata/official-suite.txt"

// conformanceDoc is the page whose tables say, for each of them, what the
// mock does (server scenarios) and whether the catalog has it (client).
const conformanceDoc = "../docs/conformance.md"

// TestOfficialSuiteScenarios holds the pinned suite's scenario names to
// what the catalog and docs/conformance.md know: every server scenario has
// its row (passes, or not yet with the reason; CI checks the verdict);
// every client scenario has its row, and one the catalog has is marked
// "catalog", one it has not "not yet" with the reason. A name the suite
// gains (a new pin, its list copied into testdata) fails here until the
// page says what of it; a row the suite no longer has fails too, and so
// does a "not yet" the catalog now has.
func TestOfficialSuiteScenarios(t *testing.T) {
	suite := map[string][]string{}
	f, err := os.Open(officialSuite)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		suite[fields[0]] = append(suite[fields[0]], fields[1])
	}
	if len(suite["server"]) < 40 || len(suite["client"]) < 40 {
		t.Fatalf("%s: want the suite's server and client scenarios, got %d and %d", officialSuite, len(suite["server"]), len(suite["client"]))
	}
	doc, err := os.ReadFile(conformanceDoc)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]map[string][2]string{"server": docRows(string(doc), "## Server scenarios"), "client": docRows(string(doc), "## Client scenarios")}
	catalog := scenarios.Names()
	for side, names := range suite {
		for _, name := range names {
			row, ok := rows[side][name]
			if !ok {
				t.Errorf("the %s scenario %s of the pinned suite has no row in %s: say what the mock does of it", side, name, conformanceDoc)
				continue
			}
			status, why := row[0], row[1]
			inCatalog := slices.Contains(catalog, name)
			switch {
			case status == "not yet" && why == "":
				t.Errorf("%s: %s %s is not yet served: say why", conformanceDoc, side, name)
			case side == "server" && status != "passes" && status != "not yet":
				t.Errorf("%s: server %s: want passes or not yet, got %q", conformanceDoc, name, status)
			case side == "client" && status != "catalog" && status != "not yet":
				t.Errorf("%s: client %s: want catalog or not yet, got %q", conformanceDoc, name, status)
			case side == "client" && status == "catalog" && !inCatalog:
				t.Errorf("%s says the catalog has %s, but mcpmock list does not", conformanceDoc, name)
			case side == "client" && status == "not yet" && inCatalog:
				t.Errorf("the catalog has %s now: mark it catalog in %s", name, conformanceDoc)
			}
		}
		for name := range rows[side] {
			if !slices.Contains(names, name) {
				t.Errorf("%s has a row for the %s scenario %s, which the pinned suite (%s) does not have", conformanceDoc, side, name, officialSuite)
			}
		}
	}
}

// docRows reads the table under heading: its rows "| `name` | status |
// why |", by name.
func docRows(doc, heading string) map[string][2]string {
	rows := map[string][2]string{}
	_, rest, ok := strings.Cut(doc, "\n"+heading+"\n")
	if !ok {
		return rows
	}
	if next := strings.Index(rest, "\n## "); next >= 0 {
		rest = rest[:next]
	}
	for line := range strings.SplitSeq(rest, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		name := strings.Trim(strings.TrimSpace(cells[1]), "`")
		rows[name] = [2]string{strings.TrimSpace(cells[2]), strings.TrimSpace(strings.Join(cells[3:len(cells)-1], "|"))}
	}
	return rows
}
