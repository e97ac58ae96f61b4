package scenarios

import (
	"slices"
	"strings"
	"testing"
)

// TestEveryScenarioHasABasis: each scenario of the catalog says what its
// verdict rests on. A requirement quotes its sentence with the keyword in
// it (so the keyword is the spec's, not ours); a robustness scenario
// quotes the sentence its server breaks; each names the version quoted.
func TestEveryScenarioHasABasis(t *testing.T) {
	keywords := []string{"MUST", "MUST NOT", "SHOULD", "SHOULD NOT"}
	table := bases()
	names := map[string]bool{}
	for _, s := range All() {
		names[s.Name] = true
		b := s.Basis
		switch {
		case b == (Basis{}):
			t.Errorf("%s: no Basis: add its requirement (or the sentence its server breaks) to bases() in basis_table.go", s.Name)
			continue
		case b.Sentence == "" || b.Version == "":
			t.Errorf("%s: Basis %+v: want the sentence and the version it is quoted from", s.Name, b)
		case b.Keyword != "" && !slices.Contains(keywords, b.Keyword):
			t.Errorf("%s: Basis keyword %q: want one of %q, or none for robustness", s.Name, b.Keyword, keywords)
		case b.Keyword != "" && !strings.Contains(b.Sentence, b.Keyword):
			t.Errorf("%s: Basis %s: the sentence does not carry its keyword %s: quote the spec's own sentence", s.Name, b, b.Keyword)
		}
	}
	for name := range table {
		if !names[name] {
			t.Errorf("bases() names %q, which is no scenario of the catalog", name)
		}
	}
}
