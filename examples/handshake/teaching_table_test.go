package main

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/internal/tourtable"
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
	got := tourtable.ByLesson(out.String(), `The official Go SDK v1\.8\.0|A naive hand-written client that [a-z/ ]+`)
	page, err := os.ReadFile("../../docs/teaching.md")
	if err != nil {
		t.Fatal(err)
	}
	want, err := tourtable.Column(string(page), "the official Go SDK v1.8.0")
	if err != nil {
		t.Fatalf("docs/teaching.md: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the teaching table of docs/teaching.md says\n%v\nbut the tour prints\n%v", want, got)
	}
}
