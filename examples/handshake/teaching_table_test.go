package main

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestTeachingDocTable: the teaching table of docs/teaching.md says, in
// the column of the official Go SDK, the verdicts this tour prints for
// each mistake, scenario by scenario (cmd/mcpmock holds the built-in
// reference client's column to mcpmock tour).
func TestTeachingDocTable(t *testing.T) {
	var out strings.Builder
	if err := newTour(testLog{t}).Run(&out, "1", "2", "3", "4", "5", "6", "7"); err != nil {
		t.Fatal(err)
	}
	got := verdictsByLesson(out.String(), `The official Go SDK v1\.8\.0|A naive hand-written client that [a-z/ ]+`)
	want := teachingColumn(t, "../../docs/teaching.md", "the official Go SDK v1.8.0")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the teaching table of docs/teaching.md says\n%v\nbut the tour prints\n%v", want, got)
	}
}

// verdictsByLesson returns the verdicts each lesson of a tour's output
// gives the clients whose names match client, in order.
func verdictsByLesson(out, client string) map[int][]string {
	re := regexp.MustCompile(`(?:^|\. )(?:` + client + `): (pass|fail|not-reached|not-applicable|caught|NOT caught)[,.]`)
	got := map[int][]string{}
	for _, sec := range strings.Split(out, "\n# ") {
		var n int
		if _, err := fmt.Sscanf(strings.TrimPrefix(sec, "# "), "Mistake %d of 7", &n); err != nil {
			continue
		}
		for _, para := range strings.Split(sec, "\n\n") {
			for _, m := range re.FindAllStringSubmatch(flat(para), -1) {
				got[n] = append(got[n], m[1])
			}
		}
	}
	return got
}

// teachingColumn reads the verdicts of the teaching table (the section
// "The seven classic mistakes" of the page at path) in the column whose
// heading starts with column: each row's cell up to its first colon, e.g.
// "fail, fail, pass, pass".
func teachingColumn(t *testing.T, path, column string) map[int][]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## The seven classic mistakes\n")
	if !ok {
		t.Fatalf("no teaching section in %s", path)
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
				t.Fatalf("no column %q in the teaching table: %s", column, line)
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
		t.Fatalf("want the teaching table's 7 rows, got %v", got)
	}
	return got
}
