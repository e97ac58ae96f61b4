package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The HTML pages of run --html, serve --html and tour --html, from real
// runs (issue 33). html_browser_test.go renders them in Chromium.

var (
	caseRe  = regexp.MustCompile(`(?s)<details class="case" id="([^"]+)".*?</details>\n`)
	arrowRe = regexp.MustCompile(`<g class="arrow k-[a-z]+" id="[^"]+" data-seq="(\d+)">`)
	drawnRe = regexp.MustCompile(`<li id="[^"]+-t(\d+)" class="[^"]*"><a class="seq"`)
	lineRe  = regexp.MustCompile(`<li id="[^"]+-t(\d+)" class="`)
)

// htmlRunPage writes the page of mcpmock run --html over the whole
// catalog with the fake client in mode, and returns its path and text.
func htmlRunPage(t *testing.T, mode string, scenarios ...string) (string, string) {
	t.Helper()
	page := filepath.Join(t.TempDir(), "run.html")
	env, cmd := fakeClientCmd(mode)
	args := []string{"run", "--html", page}
	for _, s := range scenarios {
		args = append(args, "--scenario", s)
	}
	args = append(append(args, "--"), cmd...)
	out, stderr, code := runMcpmock(t, env, args...)
	require.NotEqual(t, exitUsage, code, "stdout:\n%s\nstderr:\n%s", out, stderr)
	b, err := os.ReadFile(page)
	require.NoError(t, err, "stderr:\n%s", stderr)
	return page, string(b)
}

// TestRunHTMLWholeCatalog: a run of the whole catalog is one page under
// 2 MB with a section per scenario, and every message of every played
// scenario is drawn, its transcript line linked to its arrow.
func TestRunHTMLWholeCatalog(t *testing.T) {
	t.Parallel()
	_, page := htmlRunPage(t, "non-json-fatal")
	assert.Less(t, len(page), 2<<20, "the whole catalog's page is under 2 MB")
	cases := caseRe.FindAllStringSubmatch(page, -1)
	list, _, _ := runMcpmock(t, nil, "list")
	names := regexp.MustCompile(`(?m)^([a-z0-9/_-]+): `).FindAllString(list, -1)
	assert.Len(t, cases, len(names), "a section per scenario of the catalog")
	drawn := 0
	for _, c := range cases {
		arrows, lines := arrowRe.FindAllStringSubmatch(c[0], -1), lineRe.FindAllStringSubmatch(c[0], -1)
		assert.Len(t, arrows, len(lines), "%s: no scenario of the catalog is long enough to fold: every message is drawn", c[1])
		for i := range min(len(arrows), len(lines)) {
			assert.Equal(t, lines[i][1], arrows[i][1], "%s: the arrows follow the transcript", c[1])
		}
		drawn += len(arrows)
	}
	assert.Greater(t, drawn, 100, "the played scenarios' journals are drawn")
	assert.Contains(t, page, `id="c-stdout-banner" open><summary><h2><span class="badge st-fail"><span aria-hidden="true">✗</span> FAIL</span>`,
		"the failed scenario is open and marked with a shape and a word")
	assert.Contains(t, page, "mcpmock run -- ")
}

// TestServeHTML: serve --html draws the session and marks the broken rule
// on its arrow, with the rule's spec link.
func TestServeHTML(t *testing.T) {
	t.Parallel()
	page := filepath.Join(t.TempDir(), "serve.html")
	p := start(t, "serve", "--html", page)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`) // before initialize
	p.recv()
	assert.Equal(t, exitVerdict, p.exit())
	b, err := os.ReadFile(page)
	require.NoError(t, err)
	s := string(b)
	assert.Contains(t, s, "<title>mcpmock serve: fail</title>")
	assert.Len(t, arrowRe.FindAllString(s, -1), 2)
	assert.Contains(t, s, "✗ broke: lifecycle/initialize-first")
	assert.Regexp(t, `<a class="spec" href="https://modelcontextprotocol.io/specification/[^"]+">lifecycle/initialize-first</a>`, s)
}

// TestTourHTML: tour --html writes a page per mistake, in Spanish and
// English with the lesson's own words, and an index.
func TestTourHTML(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, stderr, code := runMcpmock(t, nil, "tour", "--html", dir)
	require.Equal(t, 0, code, stderr)
	files, err := filepath.Glob(filepath.Join(dir, "mistake-*.html"))
	require.NoError(t, err)
	assert.Len(t, files, 7, "a page per mistake")
	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	require.NoError(t, err)
	for _, f := range files {
		assert.Contains(t, string(index), `href="`+filepath.Base(f)+`"`)
	}
	b, err := os.ReadFile(filepath.Join(dir, "mistake-3-forgotten-capability.html"))
	require.NoError(t, err)
	s := string(b)
	assert.Contains(t, s, "Error n.º 3 de 7: capabilities olvidadas")
	assert.Contains(t, s, "Mistake 3 of 7: a forgotten capability")
	assert.Contains(t, s, "registraste una herramienta en el servidor", "the lesson's own Spanish words")
	assert.Contains(t, s, "Declara cada primitivo que sirves")
	assert.NotEmpty(t, arrowRe.FindAllString(s, -1))
	assert.True(t, strings.Contains(s, `id="lang-es" class="lang" checked`), "Spanish first, as the lesson")
}
