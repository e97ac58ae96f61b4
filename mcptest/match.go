package mcptest

import (
	"encoding/json"
	"fmt"
	"github.com/mcpmock/mcpmock/internal/suggest"
	"math"
	"sort"
	"unicode/utf8"
)

// subsetDiff reports whether got contains want: objects match when every key
// of want is in got with a matching value (extra keys in got are fine);
// arrays, strings, numbers, booleans and null must be equal. With exact,
// objects must have the same keys too. When they do not match, the string
// says where and how, e.g. `at "age": want 25, got 30`.
func subsetDiff(want, got any, path string, exact bool) (bool, string) {
	where := "at top level"
	if path != "" {
		where = fmt.Sprintf("at %q", path)
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false, fmt.Sprintf("%s: want an object, got %s", where, jsonText(got))
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			gv, ok := g[k]
			sub := k
			if path != "" {
				sub = path + "." + k
			}
			if !ok {
				return false, fmt.Sprintf("at %q: missing (want %s)", sub, jsonText(w[k]))
			}
			if ok, why := subsetDiff(w[k], gv, sub, exact); !ok {
				return false, why
			}
		}
		if exact && len(g) != len(w) {
			for k := range g {
				if _, ok := w[k]; !ok {
					return false, fmt.Sprintf("%s: unexpected key %q", where, k)
				}
			}
		}
		return true, ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false, fmt.Sprintf("%s: want %s, got %s", where, jsonText(want), jsonText(got))
		}
		for i := range w {
			if ok, why := subsetDiff(w[i], g[i], fmt.Sprintf("%s[%d]", path, i), exact); !ok {
				return false, why
			}
		}
		return true, ""
	case float64:
		if g, ok := got.(float64); ok && (g == w || math.Abs(g-w) < 1e-12*math.Max(1, math.Abs(w))) {
			return true, ""
		}
	default:
		if want == got {
			return true, ""
		}
	}
	return false, fmt.Sprintf("%s: want %s, got %s", where, jsonText(want), jsonText(got))
}

func jsonText(v any) string {
	if v == nil {
		return "null"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return shorten(string(b), 60)
}

// parseJSONValue decodes JSON text into a generic value.
func parseJSONValue(b []byte) (any, error) {
	var v any
	if len(b) == 0 {
		return nil, nil
	}
	err := json.Unmarshal(b, &v)
	return v, err
}

// closest returns the candidate nearest to s by edit distance, and whether
// it is near enough to be a plausible typo.
func closest(s string, candidates []string) (string, bool) {
	limit := utf8.RuneCountInString(s)/2 + 1
	best, d := suggest.Nearest(s, candidates, limit)
	if d < 0 {
		return "", false
	}
	return best, d <= limit
}

// didYouMean returns `; did you mean "x"?` naming the candidate closest to
// s, or "" when none is close.
func didYouMean(s string, candidates []string) string {
	if c, near := closest(s, candidates); near {
		return fmt.Sprintf("; did you mean %q?", c)
	}
	return ""
}
