package scenarios

import (
	"os"
	"os/exec"
	"regexp"
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

// TestBasisQuotesTheSpec checks the quotes of the MCP spec's versions
// against the spec itself: each "…"-separated part of a sentence, once
// markdown is stripped (bold, code, links, list markers, line breaks),
// appears in that order in one page of the version quoted. The spec is a
// git repository (modelcontextprotocol/modelcontextprotocol, a clone or a
// bare mirror) named by MCPMOCK_SPEC_REPO; without it the test is skipped.
// The RFC and JSON-RPC quotes are not checked here.
func TestBasisQuotesTheSpec(t *testing.T) {
	repo := os.Getenv("MCPMOCK_SPEC_REPO")
	if repo == "" {
		t.Skip("MCPMOCK_SPEC_REPO is not set: set it to a clone of github.com/modelcontextprotocol/modelcontextprotocol to check the quotes")
	}
	pages := map[string][]string{} // version → its pages, rendered
	for name, b := range bases() {
		if !specVersion.MatchString(b.Version) {
			continue
		}
		if _, ok := pages[b.Version]; !ok {
			pages[b.Version] = specPages(t, repo, b.Version)
		}
		if !quoted(pages[b.Version], b.Sentence) {
			t.Errorf("%s: %q is not in the spec %s (each part between … must appear, in order, in one page)", name, b.Sentence, b.Version)
		}
	}
}

// specVersion is a version of the MCP spec, as opposed to an RFC.
var specVersion = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// specPages returns the pages of a version of the spec in repo, rendered.
func specPages(t *testing.T, repo, version string) []string {
	t.Helper()
	git := func(args ...string) string {
		out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).Output()
		if err != nil {
			t.Fatalf("git %s in %s: %v", strings.Join(args, " "), repo, err)
		}
		return string(out)
	}
	var out []string
	for _, f := range strings.Fields(git("ls-tree", "-r", "--name-only", "HEAD", "docs/specification/"+version)) {
		if strings.HasSuffix(f, ".mdx") || strings.HasSuffix(f, ".md") {
			out = append(out, rendered(git("show", "HEAD:"+f)))
		}
	}
	if len(out) == 0 {
		t.Fatalf("no pages of the spec %s in %s", version, repo)
	}
	return out
}

var (
	mdLink     = regexp.MustCompile(`\[([^\]]*)\](\([^)]*\)|\[[^\]]*\])`)
	mdList     = regexp.MustCompile(`(?m)^\s*(?:[-*>]|\d+\.)\s+`)
	mdEmphasis = regexp.MustCompile(`(^|[\s(])_([^_\s][^_]*)_([\s.,:;)]|$)`)
	spaces     = regexp.MustCompile(`\s+`)
)

// rendered is markdown text as a reader sees it, on one line.
func rendered(md string) string {
	md = mdLink.ReplaceAllString(md, "$1")
	md = mdList.ReplaceAllString(md, "")
	md = strings.NewReplacer("**", "", "`", "").Replace(md)
	md = mdEmphasis.ReplaceAllString(md, "$1$2$3")
	return strings.TrimSpace(spaces.ReplaceAllString(md, " "))
}

// quoted reports whether one of pages holds the parts of sentence between
// its "…", in order.
func quoted(pages []string, sentence string) bool {
	for _, page := range pages {
		rest, ok := page, true
		for _, part := range strings.Split(rendered(sentence), "…") {
			part = strings.TrimSpace(part)
			i := strings.Index(rest, part)
			if i < 0 {
				ok = false
				break
			}
			rest = rest[i+len(part):]
		}
		if ok {
			return true
		}
	}
	return false
}
