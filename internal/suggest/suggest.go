// Package suggest finds the nearest of a set of names, for the
// did-you-mean hints of mcptest and config.
package suggest

import (
	"strings"
	"unicode/utf8"
)

// Nearest returns the candidate nearest to s by case-insensitive edit
// distance, and that distance; "" and -1 when there is no candidate.
// Distances past limit are only estimated (from the difference in
// length), so a huge s costs no quadratic comparison: callers compare the
// distance with a limit of their own no larger than limit.
func Nearest(s string, candidates []string, limit int) (string, int) {
	best, bestD := "", -1
	n := utf8.RuneCountInString(s)
	lower := strings.ToLower(s)
	for _, c := range candidates {
		d := abs(n - utf8.RuneCountInString(c))
		if d <= limit {
			d = EditDistance(lower, strings.ToLower(c))
		}
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	return best, bestD
}

// EditDistance is the Levenshtein distance between a and b, in runes.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// DidYouMean returns `; did you mean "x"?` naming the candidate nearest
// to s, when it is near enough to be a typo (at most half the length of
// s, plus one, edits away); "" otherwise.
func DidYouMean(s string, candidates []string) string {
	limit := utf8.RuneCountInString(s)/2 + 1
	if best, d := Nearest(s, candidates, limit); d >= 0 && d <= limit {
		return `; did you mean "` + best + `"?`
	}
	return ""
}
