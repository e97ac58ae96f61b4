package integration_test

// The docs' links lead somewhere. TestDocLinks reads every link of the
// README and of the pages of docs/ (markdownPages) whose target is not a
// URL, such as [eras](docs/eras.md), [faults](faults.md#the-catalog),
// [the schema](../config/schema.json) or [Quickstart](#quickstart): the
// file must exist, relative to the page, and an #anchor must be the
// anchor of one of its headings, as GitHub makes them (headingAnchors).
// Links inside code blocks and code spans are text, not links.

import (
	"fmt"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// mdLink is a Markdown inline link or image: [text](target) or
// [text](target "title"); the text may run over lines.
var mdLink = regexp.MustCompile(`\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// proseOnly returns a Markdown text with its fenced blocks and code spans
// blanked (newlines kept, so that offsets still count lines).
func proseOnly(text string) string {
	prose := readmeProse(text)
	spans, at := codeSpans(prose)
	b := []byte(prose)
	for k, sp := range spans {
		n := 0 // the backticks that open (and close) the span
		for at[k]+n < len(b) && b[at[k]+n] == '`' {
			n++
		}
		for i := at[k]; i < at[k]+2*n+len(sp) && i < len(b); i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	return string(b)
}

// headingAnchors returns the anchors GitHub gives the headings of a
// Markdown text (outside its fenced blocks): the heading's text, its
// formatting left out, in lower case, with every character but letters,
// digits, '_', '-' and spaces dropped and spaces made '-'; a second
// heading of the same anchor gets "-1", a third "-2".
func headingAnchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, l := range strings.Split(readmeProse(text), "\n") {
		level := 0
		for level < len(l) && l[level] == '#' {
			level++
		}
		if level == 0 || level > 6 || level >= len(l) || l[level] != ' ' {
			continue
		}
		title := mdLink.ReplaceAllString(strings.TrimSpace(l[level:]), "$1")
		var b strings.Builder
		for _, r := range strings.ToLower(title) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			seen[a]++
			a = fmt.Sprintf("%s-%d", a, n)
		} else {
			seen[a] = 1
		}
		out[a] = true
	}
	return out
}

// linkProblems checks the links of pages (their text by their path from
// the repository's root); read returns the text of any other file of the
// repository, by the same kind of path, or an error when there is none.
func linkProblems(pages map[string]string, read func(string) (string, error)) []string {
	var problems []string
	text := func(p string) (string, bool) {
		if s, ok := pages[p]; ok {
			return s, true
		}
		s, err := read(p)
		return s, err == nil
	}
	var names []string
	for p := range pages {
		names = append(names, p)
	}
	slices.Sort(names)
	for _, page := range names {
		prose := proseOnly(pages[page])
		for _, m := range mdLink.FindAllStringSubmatchIndex(prose, -1) {
			target := prose[m[4]:m[5]]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			where := fmt.Sprintf("%s:%d", page, strings.Count(prose[:m[0]], "\n")+1)
			file, anchor, _ := strings.Cut(target, "#")
			dest := page
			if file != "" {
				dest = path.Clean(path.Join(path.Dir(page), file))
				if dest == ".." || strings.HasPrefix(dest, "../") {
					problems = append(problems, fmt.Sprintf("%s: the link %s leads out of the repository", where, target))
					continue
				}
			}
			body, ok := text(dest)
			if !ok {
				problems = append(problems, fmt.Sprintf("%s: the link %s leads to %s, which does not exist", where, target, dest))
				continue
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(dest, ".md") {
				problems = append(problems, fmt.Sprintf("%s: the link %s has an anchor into %s, which is not a Markdown page", where, target, dest))
				continue
			}
			if !headingAnchors(body)[anchor] {
				problems = append(problems, fmt.Sprintf("%s: the link %s names #%s, which no heading of %s has", where, target, anchor, dest))
			}
		}
	}
	return problems
}

// readRepoFile reads a file of the repository by its path from the root;
// a directory reads as empty.
func readRepoFile(p string) (string, error) {
	fi, err := os.Stat("../" + p)
	if err != nil {
		return "", err
	}
	if fi.IsDir() {
		return "", nil
	}
	b, err := os.ReadFile("../" + p)
	return string(b), err
}

// TestDocLinks: every relative link of the README and of the pages of
// docs/ leads to a file of the repository, and its anchor to a heading.
func TestDocLinks(t *testing.T) {
	pages := map[string]string{}
	links := 0
	for _, p := range markdownPages(t) {
		pages[p] = readFile(t, "../"+p)
		for _, m := range mdLink.FindAllStringSubmatch(proseOnly(pages[p]), -1) {
			if !strings.Contains(m[2], "://") {
				links++
			}
		}
	}
	for _, p := range linkProblems(pages, readRepoFile) {
		t.Error(p)
	}
	if links < 30 {
		t.Fatalf("want the links between the README and the pages of docs/, found %d", links)
	}
}

// TestDocLinksCheckCatches: the check finds a missing page, a missing
// heading, an anchor into a file that is not a page and a link out of the
// repository, and leaves good links, URLs and code alone.
func TestDocLinksCheckCatches(t *testing.T) {
	pages := map[string]string{
		"README.md": "# mcpmock\n\n## Setup\n\nSee [Setup](#setup), [eras](docs/eras.md), [the catalog](docs/faults.md#the-catalog),\n" +
			"[the `mcpmock` command](docs/command.md#mcpmock-serve), [a missing page](docs/nope.md), [a missing\nheading](docs/eras.md#nope), " +
			"[the site](https://example.com/x.md#y), `[code](nope.md)`.\n\n```\n[in a block](nope.md)\n```\n",
		"docs/eras.md":    "# The two eras\n\n## Batches\n\nBack to the [README](../README.md#setup); [out](../../x.md); [schema](../config/schema.json#x).\n",
		"docs/faults.md":  "# Faults\n\n## The catalog\n\n## The catalog\n\n[the second](#the-catalog-1), [a third](#the-catalog-2).\n",
		"docs/command.md": "# The command\n\n## `mcpmock serve`\n",
	}
	read := func(p string) (string, error) {
		if p == "config/schema.json" {
			return "{}", nil
		}
		return "", os.ErrNotExist
	}
	got := linkProblems(pages, read)
	want := []string{
		"README.md:6: the link docs/nope.md leads to docs/nope.md, which does not exist",
		"README.md:6: the link docs/eras.md#nope names #nope, which no heading of docs/eras.md has",
		"docs/eras.md:5: the link ../../x.md leads out of the repository",
		"docs/eras.md:5: the link ../config/schema.json#x has an anchor into config/schema.json, which is not a Markdown page",
		"docs/faults.md:7: the link #the-catalog-2 names #the-catalog-2, which no heading of docs/faults.md has",
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("want the problems\n  %s\ngot\n  %s", strings.Join(want, "\n  "), strings.Join(got, "\n  "))
	}
}
