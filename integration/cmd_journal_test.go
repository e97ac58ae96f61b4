package integration_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// TestCommandServeJournalKeepGoSDK: a long go-sdk session against
// `mcpmock serve --http --journal-keep 50` gets the same verdict as
// without a limit — the same violations, problems, scenario status and
// message count — while the oldest messages left memory: the report names
// the journal file, which holds every message, one a line, in order; a
// rule broken on every call is listed 100 times, the last one counting the
// others. Once
// on a healthy server (pass), once on a scenario whose check and rules
// fire on every call (tools-capability-missing: go-sdk calls tools it was
// not offered), whose check reads the whole journal back from the file.
func TestCommandServeJournalKeepGoSDK(t *testing.T) {
	bin := mcpmockBinary(t)
	const calls = 150 // 300 messages and more: six windows of 50, and a rule broken more often than the 100 times a window lists
	run := func(t *testing.T, limit int, args ...string) gjson.Result {
		t.Helper()
		rep := filepath.Join(t.TempDir(), "report.json")
		cmd, url := serveHTTP(t, bin, append(args, "--report", rep, "--journal-keep", strconv.Itoa(limit))...)
		ctx := testContext(t)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "gosdk-app", Version: "1.0.0"}, nil).
			Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		require.NoError(t, err)
		for i := range calls {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "suggest_gifts", Arguments: map[string]any{"age": 20 + i%10}})
			if len(args) == 0 { // GiftGen answers every call
				require.NoError(t, err)
				require.Equal(t, "a board game", text(t, res.Content[0]))
			}
		}
		require.NoError(t, cs.Close())
		_ = cmd.Wait() // exit 1 on a failing verdict
		return report(t, rep)
	}
	for _, tc := range []struct {
		name, verdict string
		args          []string
	}{
		{"giftgen", "pass", nil},
		{"tools-capability-missing", "fail", []string{"--scenario", "tools-capability-missing"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			whole, windowed := run(t, 0, tc.args...), run(t, 50, tc.args...)
			require.Equal(t, tc.verdict, whole.Get("verdict").String(), whole.Raw)
			assert.Empty(t, whole.Get("journal_file").String(), "no limit: memory held every message")
			for _, field := range []string{"verdict", "messages", "problems.#", "scenario.status", "scenario.observed"} {
				assert.Equal(t, whole.Get(field).Raw, windowed.Get(field).Raw, "%s: the same without and with --journal-keep 50", field)
			}
			assert.Equal(t, violationTally(whole), violationTally(windowed), "the same rules broken as often, without and with --journal-keep 50")
			for i, p := range whole.Get("problems").Array() { // the same first line: what, and how many times
				first, _, _ := strings.Cut(p.String(), "\n")
				assert.True(t, strings.HasPrefix(windowed.Get("problems."+strconv.Itoa(i)).String(), first), "problem %d: %q, the same without and with --journal-keep 50", i, first)
			}
			n := int(windowed.Get("messages").Int())
			require.Greater(t, n, 2*calls)
			file := windowed.Get("journal_file").String()
			require.NotEmpty(t, file, "more than 50 messages: the report names the file\n%s", windowed.Raw)
			f, err := os.Open(file)
			require.NoError(t, err)
			defer f.Close()
			sc := bufio.NewScanner(f)
			seq := 0
			for sc.Scan() {
				seq++
				require.Equal(t, int64(seq), gjson.GetBytes(sc.Bytes(), "seq").Int(), "line %d of %s", seq, file)
			}
			assert.Equal(t, n, seq, "the file holds every message")
			assert.NotContains(t, windowed.Get("transcript").String(), "\n  1 →", "the transcript holds the messages still in memory")
		})
	}
}

// violationTally counts a report's violations by rule and severity, with
// their repeats (a journal window lists 100 of a rule a session).
func violationTally(r gjson.Result) map[string]int {
	out := map[string]int{}
	for _, v := range r.Get("violations").Array() {
		out[v.Get("rule").String()+" "+v.Get("severity").String()] += 1 + int(v.Get("repeats").Int())
	}
	return out
}
