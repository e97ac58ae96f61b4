package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLoadRefusesWhatWouldFailAtStart: every mistake mcptest would refuse
// when the server is built (a fault on a method of no protocol version, an
// argument a fault's constructor cannot take, a method of sseReplies or
// resultFields, a URI template, a structured reply that is no object) is
// refused by Load, at the line and column of the field, in the file's
// terms. Before, each of these files loaded, and the server failed at its
// start with mcptest's Go message (mcpmock serve --config: exit 1).
func TestLoadRefusesWhatWouldFailAtStart(t *testing.T) {
	const head = "{\n  \"server\": {\"name\": \"weather\", \"version\": \"1.0.0\"},\n"
	cases := []struct {
		name, body, want string
	}{
		{"misspelled method", `  "faults": [
    {"fault": "Delay", "method": "tools/cal", "duration": "2s"}
  ]`, `weather.json:4:24: faults[0].method: "tools/cal" is no method of any protocol version; did you mean "tools/call"?`},
		{"misspelled method of another fault", `  "faults": [
    {"fault": "Hang",
     "method": "resource/read"}
  ]`, `weather.json:5:6: faults[0].method: "resource/read" is no method of any protocol version; did you mean "resources/read"?`},
		{"a method only a Handle could serve (a file has none)", `  "faults": [{"fault": "Drop", "method": "x/custom"}]`,
			`weather.json:3:32: faults[0].method: "x/custom" is no method of any protocol version; name one of the protocol's methods, e.g. "tools/call"`},
		{"misspelled method with nth", `  "faults": [{"fault": "WrongID", "method": "tool/list", "nth": 2}]`,
			`weather.json:3:35: faults[0].method: "tool/list" is no method of any protocol version; did you mean "tools/list"?`},
		{"probability zero", `  "faults": [{"fault": "Drop", "method": "ping", "probability": 0}]`,
			`weather.json:3:50: faults[0].probability: got 0, want more than 0`},
		{"HTTP status that is no error", `  "faults": [{"fault": "HTTPStatus", "method": "tools/call", "code": 200}]`,
			`weather.json:3:62: faults[0].code: status 200 is not an HTTP error (400-599)`},
		{"token status, an argument named otherwise in Go", `  "faults": [{"fault": "TokenStatus", "code": 302}]`,
			`weather.json:3:39: faults[0].code: status 302 is not an HTTP error (400-599)`},
		{"OAuth error code", `  "faults": [{"fault": "TokenError", "error": "bad grant"}]`,
			`weather.json:3:38: faults[0].error: error code "bad grant": want an OAuth error code such as invalid_grant`},
		{"scope with quotes", `  "faults": [{"fault": "InsufficientScope", "method": "tools/call", "scope": "\"admin\""}]`,
			`weather.json:3:69: faults[0].scope: scope "\"admin\"": want space-separated scope tokens without quotes`},
		{"zero token delay", `  "faults": [{"fault": "SlowToken", "duration": "0s"}]`,
			`weather.json:3:37: faults[0].duration: delay 0s is not positive`},
		{"empty path", `  "faults": [{"fault": "SetField", "method": "tools/list", "path": "", "value": 1}]`,
			`weather.json:3:60: faults[0].path: an empty path; name the field, e.g. "result.protocolVersion"`},
		{"params that are no object", `  "faults": [{"fault": "NotifyBeforeInitializeResult", "method": "notifications/message", "params": 5}]`,
			`weather.json:3:91: faults[0].params: want a JSON object, got 5`},
		{"request id of the wrong type", `  "faults": [{"fault": "RequestWithID", "method": "tools/call", "request": "ping", "id": true}]`,
			`weather.json:3:84: faults[0].id: id true: a request id is a string or an integer`},
		{"sseReplies method", `  "sseReplies": ["tools/list", "tools/cal"]`,
			`weather.json:3:32: sseReplies[1]: "tools/cal" is no method of any protocol version; did you mean "tools/call"?`},
		{"resultFields method", `  "resultFields": {
    "tool/list": {"cacheScope": "public"}
  }`, `weather.json:4:5: resultFields.tool/list: "tool/list" is no method of any protocol version; did you mean "tools/list"?`},
		{"URI template", `  "resourceTemplates": [{"uriTemplate": "file:///{path", "name": "files"}]`,
			`weather.json:3:26: resourceTemplates[0].uriTemplate: unbalanced braces in URI template "file:///{path"`},
		{"structured reply that is no object", `  "tools": [{"name": "get_forecast", "replies": [{"structured": [1, 2]}]}]`,
			`weather.json:3:51: tools[0].replies[0].structured: got array, want object`},
		{"every mistake at once", `  "sseReplies": ["tools/cal"],
  "faults": [
    {"fault": "Delay", "method": "tools/cal", "duration": "2s"},
    {"fault": "TokenStatus", "code": 200}
  ]`, `weather.json:3:18: sseReplies[0]: "tools/cal" is no method of any protocol version; did you mean "tools/call"?
weather.json:5:24: faults[0].method: "tools/cal" is no method of any protocol version; did you mean "tools/call"?
weather.json:6:30: faults[1].code: status 200 is not an HTTP error (400-599)`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "weather.json")
			require.NoError(t, os.WriteFile(path, []byte(head+tc.body+"\n}\n"), 0o644))
			_, err := Load(path)
			require.Error(t, err, "the file loaded; it must be refused at load")
			assert.Equal(t, tc.want, err.Error())
		})
	}
}

// TestFaultParamsNameTheConstructorsArguments: a fault's parameters are
// its constructor's arguments (package fault's, or mcptest's), in order, each naming the argument
// it is given to (its name, or the one "as" gives). A reason mcptest gives
// about an argument (precheck.ArgError) is placed at the file's
// parameter by that name, so a parameter that names no argument would
// leave its mistakes at the fault instead.
func TestFaultParamsNameTheConstructorsArguments(t *testing.T) {
	args := faultConstructors(t)
	for _, s := range Faults() {
		var got []string
		for _, p := range s.Params {
			got = append(got, p.goName())
		}
		assert.Equal(t, args[s.Name], got, "fault %s: its parameters must name the constructor's arguments, in order (FaultParam.as)", s.Name)
	}
	for _, p := range refinements {
		assert.Contains(t, []string{"Nth", "InSession", "WithProbability", "Optional"}, p.goName(), "refinement %s", p.Name)
	}
}
