// Package tourtable reads the verdicts of the teaching tour twice, from
// the tour's output and from the teaching table of docs/teaching.md, so
// that the tests of cmd/mcpmock (the built-in reference client's column)
// and of examples/handshake (the official Go SDK's column) hold the page
// to what the tour prints with one reader.
package tourtable

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// ByLesson returns the verdicts each lesson of a tour's output gives the
// clients whose names match the regular expression client, in order: the
// word after "NAME: " (pass, fail, not-reached, not-applicable, caught,
// NOT caught).
func ByLesson(out, client string) map[int][]string {
	re := regexp.MustCompile(`(?:^|\. )(?:` + client + `): (pass|fail|not-reached|not-applicable|caught|NOT caught)[,.]`)
	got := map[int][]string{}
	for _, sec := range strings.Split(out, "\n# ") {
		var n int
		if _, err := fmt.Sscanf(strings.TrimPrefix(sec, "# "), "Mistake %d of 7", &n); err != nil {
			continue
		}
		for _, para := range strings.Split(sec, "\n\n") {
			for _, m := range re.FindAllStringSubmatch(strings.Join(strings.Fields(para), " "), -1) {
				got[n] = append(got[n], m[1])
			}
		}
	}
	return got
}

// Column reads the verdicts of the teaching table (the section "The seven
// classic mistakes" of the page doc) in the column whose heading starts
// with column: each row's cell up to its first colon, split at ", ", e.g.
// "fail, fail, pass, pass".
func Column(doc, column string) (map[int][]string, error) {
	_, sec, ok := strings.Cut(doc, "\n## The seven classic mistakes\n")
	if !ok {
		return nil, fmt.Errorf("no section \"The seven classic mistakes\"")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	col := -1
	got := map[int][]string{}
	for _, line := range strings.Split(sec, "\n") {
		if !strings.HasPrefix(line, "| ") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if col < 0 {
			for i, c := range cells {
				if strings.HasPrefix(c, column) {
					col = i
				}
			}
			if col < 0 {
				return nil, fmt.Errorf("no column %q in the teaching table: %s", column, line)
			}
			continue
		}
		n, err := strconv.Atoi(cells[0])
		if err != nil || col >= len(cells) {
			continue
		}
		verdicts, _, _ := strings.Cut(cells[col], ":")
		got[n] = strings.Split(verdicts, ", ")
	}
	if len(got) != 7 {
		return nil, fmt.Errorf("want the teaching table's 7 rows, got %v", got)
	}
	return got, nil
}
