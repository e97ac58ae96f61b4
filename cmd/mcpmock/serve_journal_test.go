package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServeJournalKeep: serve on stdio with a small --journal-keep
// writes the oldest messages to the file next to --report, which holds
// every message at exit, names it in the report and the log; with
// --journal-drop the report counts the dropped ones instead; the flags'
// mistakes are usage errors.
func TestServeJournalKeep(t *testing.T) {
	var in strings.Builder
	in.WriteString(initialize + "\n" + initialized + "\n")
	for i := range 100 {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", i+2)
	}
	serve := func(t *testing.T, flags ...string) (Report, string, string) {
		t.Helper()
		dir := t.TempDir()
		rep := filepath.Join(dir, "report.json")
		var logs bytes.Buffer
		err := serveCmd(append([]string{"--report", rep}, flags...), strings.NewReader(in.String()), io.Discard, &logs)
		require.NoError(t, err, logs.String())
		var r Report
		b, err := os.ReadFile(rep)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &r))
		assert.Equal(t, "pass", r.Verdict)
		return r, dir, logs.String()
	}
	t.Run("spill", func(t *testing.T) {
		r, dir, logs := serve(t, "--journal-keep", "20")
		want := filepath.Join(dir, "report.journal.jsonl")
		require.Equal(t, want, r.JournalFile)
		assert.Contains(t, logs, want+" holds every message")
		f, err := os.Open(want)
		require.NoError(t, err)
		defer f.Close()
		sc := bufio.NewScanner(f)
		n := 0
		for sc.Scan() {
			n++
			var l struct {
				Seq int    `json:"seq"`
				Raw string `json:"raw"`
			}
			require.NoError(t, json.Unmarshal(sc.Bytes(), &l))
			require.Equal(t, n, l.Seq)
		}
		assert.Equal(t, r.Messages, n, "the file holds every message")
		assert.GreaterOrEqual(t, n, 102)
		assert.NotContains(t, r.Transcript, `"method":"initialize"`, "the transcript holds the last messages")
		assert.Contains(t, r.Transcript, "are not shown: the journal keeps its last messages in memory, and "+want+" holds the older ones")
	})
	t.Run("drop", func(t *testing.T) {
		r, dir, logs := serve(t, "--journal-keep", "20", "--journal-drop")
		assert.Empty(t, r.JournalFile)
		assert.Greater(t, r.JournalDropped, 70)
		assert.Contains(t, logs, "were dropped (--journal-drop)")
		_, err := os.Stat(filepath.Join(dir, "report.journal.jsonl"))
		assert.True(t, os.IsNotExist(err), "no file when dropping")
	})
	t.Run("short session: no file", func(t *testing.T) {
		r, dir, _ := serve(t)
		assert.Empty(t, r.JournalFile)
		_, err := os.Stat(filepath.Join(dir, "report.journal.jsonl"))
		assert.True(t, os.IsNotExist(err), "a session shorter than the limit makes no file")
	})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--journal-keep", "-1"}, "--journal-keep -1 is negative"},
		{[]string{"--journal-drop", "--journal-spill", "x.jsonl"}, "exclude each other"},
		{[]string{"--journal-keep", "0", "--journal-drop"}, "need a --journal-keep above 0"},
	} {
		err := serveCmd(tc.args, strings.NewReader(""), io.Discard, io.Discard)
		var u *usageError
		require.ErrorAs(t, err, &u, "%v", tc.args)
		assert.Contains(t, err.Error(), tc.want)
	}
}
