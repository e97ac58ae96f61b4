package mcptest

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// scanSeeds are frames on which scanFrame must agree with gjson (Valid,
// a walk over the members, Get) and with tooDeep.
var scanSeeds = []string{
	``, ` `, `{}`, `[]`, `[ ]`, `{ }`, `1`, `-0`, `-`, `01`, `1.`, `1.5e`, `1e+3`, `-1.25E-7`, `"a"`, `"\u00e9\n"`, `"\u00g1"`, `"a` + "\x01" + `"`,
	`true`, `tru`, `nul`, `null `, "\t{}\r\n", `{"a":1,}`, `[1,]`, `[1 2]`, `{"a" 1}`, `{"a":}`, `{1:2}`, `{"a":1}}`, `[[]`, `[}`, `{]`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"name":"inner"},"name":"outer","_meta":{"progressToken":7}}}`,
	`{"id":1,"id":"two","params":{"name":"a"},"params":{"name":"b","name":"c"}}`,
	`{"params":{"name":"a"},"params":[1,2]}`,
	`{"params":{},"method":"x"}`,
	`{"params":{"_meta":{"a":1},"_meta":{"progressToken":"t"}}}`,
	`{"params":{"n\u0061me":"esc","arguments" : { } , "requestState":"s","inputResponses":{"k":{}}}}`,
	`{"m\u0065thod":"ping","id":null}`,
	`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"params":{"name":"x"}}]`,
	`{"result":{"content":[{"type":"text","text":"a\"b\\c"}]},"id":3,"error":{"code":-1}}`,
	`{"a":"0123456789abcdef\"0123456789\\abcdef` + "\x7f\xff\xc3\xa9" + `"}`,
	strings.Repeat("[", 1000) + strings.Repeat("]", 1000),
	strings.Repeat("[", 1001) + strings.Repeat("]", 1001),
	strings.Repeat(`{"a":`, 1001) + "1" + strings.Repeat("}", 1001),
	strings.Repeat("[", 2000),
	`{"x":` + strings.Repeat("[", 1500),
	`"` + strings.Repeat("[", 1500) + `"`,
	`{"a":1,` + strings.Repeat("[", 1500),
	`x` + strings.Repeat("{", 1001),
	`{"a":"\xff\xfe","b":["\ud800","\u00e9\n",{"k":"x","k":"y"}],"c":-12.5e3,"d":[true,false,null,{}]}`,
	"{\"bad\":\"\xc3\x28\",\"ok\":\"\xc3\xa9\"}",
}

// checkScan compares scanFrame with what decode used to do: gjson.Valid
// behind tooDeep, a walk over the members keeping the last, params.Get.
func checkScan(t *testing.T, raw string) {
	t.Helper()
	sc := scanFrame(raw)
	deep := tooDeep(raw, maxDepth)
	if sc.deep && !deep {
		t.Fatalf("%.80q: scanFrame says too deep, tooDeep does not", raw)
	}
	if deep {
		if sc.valid {
			t.Fatalf("%.80q: tooDeep says too deep, scanFrame says valid", raw)
		}
		return
	}
	if sc.deep {
		t.Fatalf("%.80q: scanFrame deep, tooDeep not", raw)
	}
	if want := gjson.Valid(raw); sc.valid != want {
		t.Fatalf("%.80q: scanFrame valid=%v, gjson.Valid=%v", raw, sc.valid, want)
	}
	// anyValue decodes what encoding/json decodes, as encoding/json does
	v, ok := anyValue(raw)
	if ok != sc.valid {
		t.Fatalf("%.80q: anyValue ok=%v, want %v", raw, ok, sc.valid)
	}
	if ok {
		var want any
		dec := json.NewDecoder(strings.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&want); err != nil || !reflect.DeepEqual(v, want) {
			t.Fatalf("%.80q: anyValue = %#v, encoding/json %#v (%v)", raw, v, want, err)
		}
	}
	if !sc.valid {
		return
	}
	root := gjson.Parse(raw)
	if !root.IsObject() {
		return
	}
	// members walks the same members, unless a key has an escape
	type member struct{ key, value string }
	var walked, walkedGJSON []member
	escaped := false
	root.ForEach(func(k, v gjson.Result) bool {
		walkedGJSON = append(walkedGJSON, member{k.Str, v.Raw})
		escaped = escaped || strings.Contains(k.Raw, `\`)
		return true
	})
	if ok := members(raw, func(k, v string) { walked = append(walked, member{k, v}) }); ok != !escaped || ok && !slices.Equal(walked, walkedGJSON) {
		t.Fatalf("%.80q: members gave %v (%q), gjson's walk %q", raw, ok, walked, walkedGJSON)
	}
	var want [nTop]gjson.Result
	root.ForEach(func(k, v gjson.Result) bool {
		for i, key := range topKeys {
			if k.Str == key {
				want[i] = v
			}
		}
		return true
	})
	for i := range nTop {
		if got := sc.top[i].result(raw); got.Raw != want[i].Raw || got.Type != want[i].Type || got.Str != want[i].Str {
			t.Fatalf("%.80q: member %s is %q, want %q", raw, topKeys[i], got.Raw, want[i].Raw)
		}
	}
	d := decode([]byte(raw))
	for k, key := range paramKeys {
		got, want := d.getParam(k), d.params.Get(key)
		if got.Raw != want.Raw || got.Type != want.Type || got.Str != want.Str {
			t.Fatalf("%.80q: params.%s is %q, want %q", raw, key, got.Raw, want.Raw)
		}
	}
	if got, want := d.paramPath(paramMeta, "progressToken"), d.params.Get("_meta.progressToken"); got.Raw != want.Raw {
		t.Fatalf("%.80q: params._meta.progressToken is %q, want %q", raw, got.Raw, want.Raw)
	}
}

func TestScanFrameAgrees(t *testing.T) {
	for _, s := range scanSeeds {
		checkScan(t, s)
		// every prefix: truncated frames are invalid the same way
		for i := 0; i < len(s) && i < 200; i++ {
			checkScan(t, s[:i])
		}
	}
}

func FuzzScanFrame(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) { checkScan(t, raw) })
}

// TestScanStringWords puts a control character, a backslash (alone or
// starting an escape), a quote or a high byte at every position of strings
// up to 100 bytes, across the boundaries of the 32-byte words noControl
// reads, and checks scanFrame against gjson on each.
func TestScanStringWords(t *testing.T) {
	marks := []string{"\x00", "\x01", "\x1f", " ", "\x7f", "\x80", "\xff", "\xc3\xa9", `\`, `\n`, `\u00e9`, `\x`, `"`}
	for n := 0; n <= 100; n++ {
		for pos := 0; pos <= n; pos++ {
			for _, mark := range marks {
				// the filler mixes bytes just above the control range with high ones
				fill := strings.Repeat("!\xa0", n/2+1)
				checkScan(t, `{"a":"`+fill[:pos]+mark+fill[pos:n]+`","b":1}`)
			}
		}
	}
}
