package scenarios

import (
	"fmt"
	"strings"
)

// Basis is what a scenario's verdict rests on: a requirement the spec puts
// on the client (its keyword and sentence), or, for a robustness scenario,
// the sentence the scenario's server breaks. A client that fails a MUST
// broke the spec; one that fails a SHOULD did not do what the spec
// recommends; one that fails a robustness scenario broke no requirement of
// its own: it did not survive a server that broke the spec, which users
// meet, and the failure says so.
type Basis struct {
	// Keyword is the keyword of the requirement on the client: "MUST",
	// "MUST NOT", "SHOULD" or "SHOULD NOT"; "" for a robustness scenario.
	Keyword string `json:"keyword,omitempty"`
	// Sentence is the spec's sentence in its own words: the requirement on
	// the client, or, for robustness, the one the server breaks.
	Sentence string `json:"sentence"`
	// Version is the spec version (or the RFC) Sentence is quoted from.
	Version string `json:"version"`
}

// BasisKind is what a failing verdict means: the client broke a MUST, did
// not do what a SHOULD recommends, or did not survive a server that broke
// the spec.
type BasisKind string

// The kinds of Basis.
const (
	Must       BasisKind = "MUST"
	Should     BasisKind = "SHOULD"
	Robustness BasisKind = "robustness"
)

// Kind returns MUST (for MUST and MUST NOT), SHOULD (for SHOULD and SHOULD
// NOT) or robustness (no keyword).
func (b Basis) Kind() BasisKind {
	switch {
	case b.Keyword == "":
		return Robustness
	case strings.HasPrefix(b.Keyword, "SHOULD"):
		return Should
	}
	return Must
}

// String is the basis in one line: `MUST (2025-11-25): "…"`, or
// `robustness: the server breaks "…" (2025-11-25)`.
func (b Basis) String() string {
	if b.Kind() == Robustness {
		return fmt.Sprintf("robustness: the server breaks %q (%s); no requirement of the client", b.Sentence, b.Version)
	}
	return fmt.Sprintf("%s (%s): %q", b.Keyword, b.Version, b.Sentence)
}

// withBases gives each scenario of list whose Basis is zero the one the
// catalog's table (bases) says for its name.
func withBases(list []Scenario) []Scenario {
	table := bases()
	for i := range list {
		if list[i].Basis == (Basis{}) {
			list[i].Basis = table[list[i].Name]
		}
	}
	return list
}
