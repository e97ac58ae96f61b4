package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/mcpmock/mcpmock/mcptest"
)

// FromJournal turns what a mock server saw into a recording: the same
// file `mcpmock record` writes, for a bug report ("here is the server my
// client failed against"). ms is a journal, e.g. srv.Journal().All();
// redact are JSON paths into results whose values are replaced (see
// NewRecorder). Replayed, the file answers the calls the journal holds as
// they were answered; its Notes say what it could not keep.
func FromJournal(ms mcptest.Messages, redact ...string) *Config {
	r := NewRecorder(redact...)
	seen := map[int]bool{}
	var order []int
	for _, m := range ms {
		if !seen[m.SessionNumber] {
			seen[m.SessionNumber] = true
			order = append(order, m.SessionNumber)
		}
		switch {
		case m.Kind == mcptest.KindBatch:
			// Its messages follow, each journaled on its own.
		case m.Kind == mcptest.KindInvalid && m.Direction == mcptest.FromServer:
			r.NonJSON(m.SessionNumber, []byte(m.Raw()))
		default:
			r.Message(m.SessionNumber, m.Direction == mcptest.FromClient, []byte(m.Raw()))
			if m.IsResponse() && m.Direction == mcptest.FromServer && m.HTTP != nil && m.HTTP.ContentType == "text/event-stream" && m.Method != "" {
				r.mu.Lock()
				r.sseReply(m.Method)
				r.mu.Unlock()
			}
		}
		if n := m.Truncated(); n > 0 {
			r.mu.Lock()
			r.note("the journal left out %d bytes of message %d (Options.JournalLimit): its reply may be cut", n, m.Seq)
			r.mu.Unlock()
		}
	}
	for _, s := range order {
		r.mu.Lock()
		if st := r.sessions[s]; st != nil && len(st.banner) > 0 {
			r.flushBanner(s, st)
		}
		r.mu.Unlock()
	}
	return r.Config()
}

// FromServer is FromJournal of everything srv's journal holds.
func FromServer(srv *mcptest.Server, redact ...string) *Config {
	return FromJournal(srv.Journal().All(), redact...)
}

// JSON returns the file's text: indented by two spaces, members in the
// order of the Go types (the same for every run, so that recordings
// diff), ending with a newline. Parse reads it back.
func (c *Config) JSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(c); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return b.Bytes(), nil
}

// Save writes the file's text (JSON) to path.
func (c *Config) Save(path string) error {
	b, err := c.JSON()
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	return nil
}

// LoadServer is Load then NewServer, in one line: a mock server for t
// described by the file at path (a recording of `mcpmock record`, or one
// written by hand). A file that does not load fails t with every problem,
// each at its line.
func LoadServer(t mcptest.TB, path string) *mcptest.Server {
	t.Helper()
	c, err := Load(path)
	if err != nil {
		t.Fatalf("config.LoadServer(%q):\n%v", path, err)
		return nil
	}
	return c.NewServer(t)
}
