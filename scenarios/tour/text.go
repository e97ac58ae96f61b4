package tour

import (
	"io"
	"strings"
)

// errWriter keeps the first error of a run of writes, and then writes no more.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// indent indents every line of a transcript by two spaces.
func indent(s string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		if line != "" {
			b.WriteString("  " + line)
		}
	}
	return b.String()
}

// width is where wrap breaks lines.
const width = 80

// wrap breaks a paragraph into lines of at most width runes where it can,
// the lines after the first indented by prefix.
func wrap(p, prefix string) string {
	var b strings.Builder
	n := 0
	for i, word := range strings.Fields(p) {
		l := len([]rune(word))
		switch {
		case i == 0:
		case n+1+l > width:
			b.WriteString("\n" + prefix)
			n = len(prefix)
		default:
			b.WriteString(" ")
			n++
		}
		b.WriteString(word)
		n += l
	}
	return b.String()
}
