package suggest

import "testing"

func TestNearest(t *testing.T) {
	for _, tc := range []struct {
		s          string
		candidates []string
		want       string
		dist       int
	}{
		{"tool/call", []string{"tools/list", "tools/call", "ping"}, "tools/call", 1},
		{"PING", []string{"ping", "tools/call"}, "ping", 0},
		{"x", nil, "", -1},
		{"ñandú", []string{"nandu", "xyz"}, "nandu", 2},
	} {
		got, d := Nearest(tc.s, tc.candidates, 10)
		if got != tc.want || d != tc.dist {
			t.Errorf("Nearest(%q, %q): want %q at %d, got %q at %d", tc.s, tc.candidates, tc.want, tc.dist, got, d)
		}
	}
	// Past the limit the distance is only the difference in length.
	if _, d := Nearest(string(make([]byte, 1000)), []string{"ab"}, 5); d != 998 {
		t.Errorf("want the length difference 998 past the limit, got %d", d)
	}
	if d := EditDistance("", "abc"); d != 3 {
		t.Errorf("EditDistance(\"\", abc): want 3, got %d", d)
	}
	if d := EditDistance("kitten", "sitting"); d != 3 {
		t.Errorf("EditDistance(kitten, sitting): want 3, got %d", d)
	}
}

func TestDidYouMean(t *testing.T) {
	names := []string{"wrong-id-type", "tools-list-changed"}
	if got := DidYouMean("wrong-id", names); got != `; did you mean "wrong-id-type"?` {
		t.Errorf("wrong-id: got %q", got)
	}
	if got := DidYouMean("nope", names); got != "" {
		t.Errorf("nope: got %q, want no suggestion", got)
	}
}
