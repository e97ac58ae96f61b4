package mcptest

import (
	"encoding/binary"
	"encoding/json"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/tidwall/gjson"
)

// The members decode reads of a frame's top-level object, and of its
// params object, found by scanFrame in the same pass that validates.
const (
	topJSONRPC = iota
	topID
	topMethod
	topParams
	topResult
	topError
	nTop
)

var topKeys = [nTop]string{"jsonrpc", "id", "method", "params", "result", "error"}

// paramKeys are the members of params that the per-message path reads
// (tools/call, prompts/get, the request checks, the stateless era).
var paramKeys = [...]string{"name", "arguments", "_meta", "inputResponses", "requestState"}

const nParam = len(paramKeys)

// span is where a value lies in the frame: raw[start:end]; end 0 is none.
type span struct{ start, end int }

// frameScan is what one pass over a frame learns: whether it is JSON,
// whether it nests too deep, and where the members decode needs are.
type frameScan struct {
	valid bool
	deep  bool
	// top holds the last occurrence of each member of a top-level object
	// (what a walk over its members that keeps the last one finds).
	top [nTop]span
	// param holds the first occurrence of each of paramKeys in the params
	// object that top[topParams] holds (what gjson's Get finds), when
	// paramIndexed; a key seen twice is marked in paramDup, and is looked
	// up by gjson (a dotted path may then resolve in the later one).
	param        [nParam]span
	paramDup     [nParam]bool
	paramIndexed bool
}

// scanFrame validates raw as JSON (the grammar gjson.Valid accepts: RFC
// 8259, UTF-8 not checked) and measures its nesting in one pass, without
// recursion: an explicit bit stack of at most maxDepth levels says
// whether each open container is an object. A frame nested deeper than
// maxDepth stops the scan with deep set. On a valid frame, the members
// of the top-level object and of its params object are indexed.
func scanFrame(raw string) (sc frameScan) {
	var stack [maxDepth/64 + 1]uint64 // bit set: the container at that level is an object
	depth := 0
	n := len(raw)
	i := skipSpace(raw, 0)
	rootKey, paramKey := -1, -1 // the member whose value is being read at level 1, 2
	inParams := false           // the level-1 container open is the params object
	var start1, start2 int      // where the value at level 1, 2 began

	// key reads the key of an object member at raw[i] (a '"') and the
	// colon after it, and notes which member it is at levels 1 and 2.
	key := func() bool {
		if i >= n || raw[i] != '"' {
			return false
		}
		s := i
		esc := false
		if i, esc = scanString(raw, i+1); i < 0 {
			return false
		}
		if i = skipSpace(raw, i); i >= n || raw[i] != ':' {
			return false
		}
		i++
		switch {
		case depth == 1:
			rootKey = lookupKey(topKeys[:], raw[s:i], esc)
		case depth == 2 && inParams:
			paramKey = lookupKey(paramKeys[:], raw[s:i], esc)
		}
		return true
	}
	// done records the value that ends at i, begun at level depth.
	done := func(level, from int) {
		switch {
		case level == 1:
			if rootKey >= 0 {
				sc.top[rootKey] = span{from, i}
			}
			inParams = false // the params object, if it was, is done
		case level == 2 && inParams && paramKey >= 0:
			if sc.param[paramKey].end == 0 {
				sc.param[paramKey] = span{from, i}
			} else {
				sc.paramDup[paramKey] = true
			}
		}
	}

value:
	for {
		i = skipSpace(raw, i)
		if i >= n {
			return sc
		}
		from := i
		switch c := raw[i]; c {
		case '{', '[':
			if depth == maxDepth {
				sc.deep = true
				return sc
			}
			switch depth {
			case 1:
				start1 = from
				if c == '{' && rootKey == topParams {
					inParams = true
					sc.param, sc.paramDup = [nParam]span{}, [nParam]bool{}
				}
			case 2:
				start2 = from
			}
			if c == '{' {
				stack[depth/64] |= 1 << (depth % 64)
			} else {
				stack[depth/64] &^= 1 << (depth % 64)
			}
			depth++
			i = skipSpace(raw, i+1)
			if i < n && (raw[i] == '}' && c == '{' || raw[i] == ']' && c == '[') {
				i++
				depth--
				break // an empty container: the value is done
			}
			if c == '{' && !key() {
				return sc
			}
			continue value
		case '"':
			if i, _ = scanString(raw, i+1); i < 0 {
				return sc
			}
		case 't':
			if !hasWord(raw, i, "true") {
				return sc
			}
			i += 4
		case 'f':
			if !hasWord(raw, i, "false") {
				return sc
			}
			i += 5
		case 'n':
			if !hasWord(raw, i, "null") {
				return sc
			}
			i += 4
		default:
			if i = scanNumber(raw, i); i < 0 {
				return sc
			}
		}
		// A value at level depth ended at i: close the containers it ends.
		level, begun := depth, from
		for {
			if level <= 2 {
				done(level, begun)
			}
			if depth == 0 {
				sc.valid = skipSpace(raw, i) == n
				if sc.valid && sc.top[topParams].end != 0 && raw[sc.top[topParams].start] == '{' {
					sc.paramIndexed = true
				}
				return sc
			}
			i = skipSpace(raw, i)
			if i >= n {
				return sc
			}
			obj := stack[(depth-1)/64]&(1<<((depth-1)%64)) != 0
			switch raw[i] {
			case ',':
				i = skipSpace(raw, i+1)
				if obj && !key() {
					return sc
				}
				continue value
			case '}', ']':
				if (raw[i] == '}') != obj {
					return sc
				}
				i++
				depth--
				level = depth
				switch depth {
				case 1:
					begun = start1
				case 2:
					begun = start2
				}
			default:
				return sc
			}
		}
	}
}

// lookupKey returns the index in keys of the quoted key raw (escaped when
// esc), -1 when it is none of them.
func lookupKey(keys []string, raw string, esc bool) int {
	raw = raw[:len(raw)-1] // the colon
	for j := len(raw) - 1; j > 0 && raw[j] != '"'; j-- {
		raw = raw[:j] // spaces before the colon
	}
	k := raw[1 : len(raw)-1]
	if esc {
		k = gjson.Parse(raw).Str
	}
	for j, want := range keys {
		if k == want {
			return j
		}
	}
	return -1
}

func skipSpace(raw string, i int) int {
	for i < len(raw) {
		switch raw[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

func hasWord(raw string, i int, w string) bool {
	return len(raw)-i >= len(w) && raw[i:i+len(w)] == w
}

// scanString reads a string whose opening quote is before raw[i]: it
// returns the index after the closing quote and whether the string has
// escapes, or -1 when the string is not valid JSON. The next quote and the
// next backslash are found with strings.IndexByte, and the bytes before
// them are checked for control characters 32 at a time (noControl); the
// quote found is kept until the scan passes it (an escaped quote), so a
// string with many escapes is still read once.
func scanString(raw string, i int) (int, bool) {
	esc := false
	q := -1 // the index of a quote at or after i, -1 not known
	for {
		if q < i {
			j := strings.IndexByte(raw[i:], '"')
			if j < 0 {
				return -1, esc
			}
			q = i + j
		}
		// the next backslash before the quote; the bytes before it must
		// not be control characters
		b := q
		if j := strings.IndexByte(raw[i:q], '\\'); j >= 0 {
			b = i + j
		}
		if noControl(raw[i:b]) < b-i {
			return -1, esc
		}
		if i = b; i == q {
			return q + 1, esc
		}
		// a backslash: an escape
		esc = true
		if i++; i >= len(raw) {
			return -1, esc
		}
		switch raw[i] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i++
		case 'u':
			if len(raw)-i < 5 || !isHex(raw[i+1]) || !isHex(raw[i+2]) || !isHex(raw[i+3]) || !isHex(raw[i+4]) {
				return -1, esc
			}
			i += 5
		default:
			return -1, esc
		}
	}
}

// noControl returns how many bytes s begins with that are not control
// characters (below 0x20). The search for a backslash or a quote is
// strings.IndexByte's; this is the one test it has no instruction for,
// made on 32 bytes at a time: (w - 0x20 in every byte) &^ w has a byte's
// high bit set only when some byte of w is below 0x20 (a borrow starts
// only there).
func noControl(s string) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	const t = ones * 0x20
	i := 0
	bs := unsafe.Slice(unsafe.StringData(s), len(s)) // read only: the bytes of s, for word loads
	for ; i+32 <= len(bs); i += 32 {
		c := bs[i : i+32 : i+32]
		w0, w1 := binary.LittleEndian.Uint64(c[0:8]), binary.LittleEndian.Uint64(c[8:16])
		w2, w3 := binary.LittleEndian.Uint64(c[16:24]), binary.LittleEndian.Uint64(c[24:32])
		if ((w0-t)&^w0|(w1-t)&^w1|(w2-t)&^w2|(w3-t)&^w3)&highs != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if s[i] < 0x20 {
			return i
		}
	}
	return i
}

// members calls visit with the key and the raw value of each member of
// the JSON object obj, in order, skipping over the values with the string
// scan of scanFrame (a long string is passed over at memory speed). It
// reports false when it cannot vouch for what it visited: obj is not an
// object it can walk, or a key has an escape; the caller then reads obj
// another way (gjson). It does not validate the values it skips.
func members(obj string, visit func(key, value string)) bool {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return false
	}
	if i = skipSpace(obj, i+1); i < len(obj) && obj[i] == '}' {
		return skipSpace(obj, i+1) == len(obj)
	}
	for {
		if i >= len(obj) || obj[i] != '"' {
			return false
		}
		end, esc := scanString(obj, i+1)
		if end < 0 || esc {
			return false
		}
		key := obj[i+1 : end-1]
		if i = skipSpace(obj, end); i >= len(obj) || obj[i] != ':' {
			return false
		}
		from := skipSpace(obj, i+1)
		if i = skipValue(obj, from); i < 0 {
			return false
		}
		visit(key, obj[from:i])
		more := false
		if i, more = afterMember(obj, i, '}'); i < 0 || !more {
			return i >= 0 && skipSpace(obj, i) == len(obj)
		}
	}
}

// afterMember reads what follows a member of a container at raw[i]: a
// comma (more is true, and i is where the next member begins) or the
// container's closing byte (i is after it); i is -1 for anything else.
func afterMember(raw string, i int, closing byte) (next int, more bool) {
	switch i = skipSpace(raw, i); {
	case i < len(raw) && raw[i] == ',':
		return skipSpace(raw, i+1), true
	case i < len(raw) && raw[i] == closing:
		return i + 1, false
	}
	return -1, false
}

// skipValue returns the index after the JSON value at raw[i], or -1: the
// strings in it are passed over by skipString, the rest byte by byte,
// counting the containers it opens.
func skipValue(raw string, i int) int {
	depth := 0
	for i < len(raw) {
		switch c := raw[i]; {
		case c == '"':
			if i = skipString(raw, i+1); i < 0 {
				return -1
			}
			if depth == 0 {
				return i
			}
			continue
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			if depth == 0 {
				return i // the end of a number or a literal in a container
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case depth == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			return i // the end of a number or a literal
		}
		i++
	}
	if depth == 0 {
		return i
	}
	return -1
}

// skipString returns the index after the closing quote of a string whose
// opening quote is before raw[i], or -1: the quotes are found with
// strings.IndexByte, and one after an odd run of backslashes is escaped.
// It does not check what is between them (scanString does).
func skipString(raw string, i int) int {
	for {
		j := strings.IndexByte(raw[i:], '"')
		if j < 0 {
			return -1
		}
		q, bs := i+j, 0
		for k := q - 1; k >= i && raw[k] == '\\'; k-- {
			bs++
		}
		if bs%2 == 0 {
			return q + 1
		}
		i = q + 1
	}
}

// anyValue decodes the JSON text raw as encoding/json does into an any
// with UseNumber (map[string]any, []any, json.Number, string, bool, nil):
// the value the schema validator checks. A string without escapes that is
// valid UTF-8 is a substring of raw, not a copy, and is read at the speed
// of the string scan; others are decoded by encoding/json, for its exact
// answer. ok is false when raw is not one JSON value.
func anyValue(raw string) (v any, ok bool) {
	var i int
	if v, i = anyAt(raw, skipSpace(raw, 0), 0); i < 0 || skipSpace(raw, i) != len(raw) {
		return nil, false
	}
	return v, true
}

// anyAt decodes the value at raw[i], depth containers deep, returning it
// and the index after it (-1: not JSON).
func anyAt(raw string, i, depth int) (any, int) {
	if i >= len(raw) || depth > maxDepth {
		return nil, -1
	}
	switch c := raw[i]; {
	case c == '{':
		obj := map[string]any{}
		if i = skipSpace(raw, i+1); i < len(raw) && raw[i] == '}' {
			return obj, i + 1
		}
		for {
			k, end := stringAt(raw, i)
			if end < 0 {
				return nil, -1
			}
			if i = skipSpace(raw, end); i >= len(raw) || raw[i] != ':' {
				return nil, -1
			}
			var v any
			if v, i = anyAt(raw, skipSpace(raw, i+1), depth+1); i < 0 {
				return nil, -1
			}
			obj[k] = v // the last of a repeated key, as encoding/json keeps it
			more := false
			if i, more = afterMember(raw, i, '}'); i < 0 || !more {
				return obj, i
			}
		}
	case c == '[':
		arr := []any{}
		if i = skipSpace(raw, i+1); i < len(raw) && raw[i] == ']' {
			return arr, i + 1
		}
		for {
			var v any
			if v, i = anyAt(raw, i, depth+1); i < 0 {
				return nil, -1
			}
			arr = append(arr, v)
			more := false
			if i, more = afterMember(raw, i, ']'); i < 0 || !more {
				return arr, i
			}
		}
	case c == '"':
		s, end := stringAt(raw, i)
		return s, end
	case hasWord(raw, i, "true"):
		return true, i + 4
	case hasWord(raw, i, "false"):
		return false, i + 5
	case hasWord(raw, i, "null"):
		return nil, i + 4
	}
	end := scanNumber(raw, i)
	if end < 0 {
		return nil, -1
	}
	return json.Number(raw[i:end]), end
}

// stringAt decodes the JSON string at raw[i] (a quote), returning it and
// the index after it (-1: not a string).
func stringAt(raw string, i int) (string, int) {
	if i >= len(raw) || raw[i] != '"' {
		return "", -1
	}
	end, esc := scanString(raw, i+1)
	if end < 0 {
		return "", -1
	}
	if s := raw[i+1 : end-1]; !esc && utf8.ValidString(s) {
		return s, end
	}
	var s string // escapes, or bytes that are not UTF-8 (encoding/json replaces them)
	if json.Unmarshal([]byte(raw[i:end]), &s) != nil {
		return "", -1
	}
	return s, end
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// scanNumber reads a JSON number at raw[i]: the index after it, or -1.
func scanNumber(raw string, i int) int {
	digits := func() bool {
		s := i
		for i < len(raw) && raw[i] >= '0' && raw[i] <= '9' {
			i++
		}
		return i > s
	}
	if i < len(raw) && raw[i] == '-' {
		i++
	}
	if i < len(raw) && raw[i] == '0' {
		i++
	} else if !digits() {
		return -1
	}
	if i < len(raw) && raw[i] == '.' {
		i++
		if !digits() {
			return -1
		}
	}
	if i < len(raw) && (raw[i] == 'e' || raw[i] == 'E') {
		i++
		if i < len(raw) && (raw[i] == '+' || raw[i] == '-') {
			i++
		}
		if !digits() {
			return -1
		}
	}
	return i
}

// result is the gjson value at s in raw, with Index s.start.
func (s span) result(raw string) gjson.Result {
	if s.end == 0 {
		return gjson.Result{}
	}
	v := raw[s.start:s.end]
	var r gjson.Result
	switch v[0] {
	case '{', '[':
		r = gjson.Result{Type: gjson.JSON, Raw: v}
	default:
		r = gjson.Parse(v)
	}
	r.Index = s.start
	return r
}
