package scenarios

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// nearest answers the word of known nearest to word, when it is near
// enough to be what was meant: a few letters apart (a typo, a swap, one
// left out), or the same word in another case or with _ for -.
func nearest(word string, known []string) (string, bool) {
	best, bestD := "", 0
	fold := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "-", "_") }
	for _, k := range known {
		if k == word {
			return "", false
		}
		if fold(k) == fold(word) {
			return k, true
		}
		d := distance(fold(word), fold(k))
		if best == "" || d < bestD {
			best, bestD = k, d
		}
	}
	limit := max(1, min(utf8.RuneCountInString(word), utf8.RuneCountInString(best))/3)
	return best, best != "" && bestD <= limit
}

// suggestion words nearest as "; did you mean X?" (or ""), and then more.
func suggestion(word string, known []string, more string) string {
	if k, ok := nearest(word, known); ok {
		return fmt.Sprintf("; did you mean %s?%s", k, more)
	}
	return more
}

// distance is the optimal string alignment distance: insertions,
// deletions, substitutions and swaps of neighbours, one each.
func distance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}
