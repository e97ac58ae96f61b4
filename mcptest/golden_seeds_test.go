package mcptest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/internal/mcpclient"
)

// goldenSeedsEnv, set to 1, makes TestGoldenFuzzSeeds write the fuzzers'
// seed corpus from the golden client's frames.
const goldenSeedsEnv = "MCPMOCK_UPDATE_GOLDEN_SEEDS"

// goldenSeedVersions are the sessions whose frames seed the fuzzers: a
// version with batches, the newest handshake, and the stateless era.
var goldenSeedVersions = []string{"2025-03-26", "2025-11-25", mcpclient.StatelessVersion}

// TestGoldenFuzzSeeds keeps the golden client's frames (both eras) in the
// seed corpus of FuzzSession, FuzzFrames, FuzzDecode and FuzzScanFrame
// (testdata/fuzz/<Fuzzer>/golden-*): every seed file must exist and be a
// corpus entry of its fuzzer's type. With MCPMOCK_UPDATE_GOLDEN_SEEDS=1 it
// runs the golden sessions over the pipe and writes them:
//
//	MCPMOCK_UPDATE_GOLDEN_SEEDS=1 go test -run TestGoldenFuzzSeeds ./mcptest
func TestGoldenFuzzSeeds(t *testing.T) {
	if os.Getenv(goldenSeedsEnv) == "1" {
		writeGoldenSeeds(t)
	}
	want := map[string]string{"FuzzSession": "[]byte(", "FuzzFrames": "[]byte(", "FuzzDecode": "[]byte(", "FuzzScanFrame": "string("}
	for fuzzer, typ := range want {
		files, _ := filepath.Glob(filepath.Join("testdata", "fuzz", fuzzer, "golden-*"))
		if len(files) == 0 {
			t.Errorf("no golden seeds for %s: run %s=1 go test -run TestGoldenFuzzSeeds ./mcptest", fuzzer, goldenSeedsEnv)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			if len(lines) != 2 || lines[0] != "go test fuzz v1" || !strings.HasPrefix(lines[1], typ) {
				t.Errorf("%s: want a corpus entry of one %s…) value, got %.80q", f, typ, b)
			}
		}
	}
}

func writeGoldenSeeds(t *testing.T) {
	tr := goldenTransports[0] // pipe
	var frames []string
	for _, v := range goldenSeedVersions {
		srv := goldenServer(t)
		c := goldenSession(t, srv, tr, v, true)
		checkGolden(t, srv)
		sent := c.Sent()
		name := "golden-" + strings.ReplaceAll(v, "-", "")
		writeSeed(t, "FuzzSession", name, "[]byte", strings.Join(sent, "\n")+"\n")
		writeSeed(t, "FuzzFrames", name, "[]byte", frameProgram(sent))
		frames = append(frames, sent...)
	}
	// Each kind of frame once: a method, or a response, of each era.
	seen := map[string]bool{}
	n := 0
	for _, f := range frames {
		key := goldenFrameKind(f)
		if seen[key] {
			continue
		}
		seen[key] = true
		n++
		writeSeed(t, "FuzzDecode", fmt.Sprintf("golden-%02d", n), "[]byte", f)
		writeSeed(t, "FuzzScanFrame", fmt.Sprintf("golden-%02d", n), "string", f)
	}
}

// goldenFrameKind is what makes two frames different seeds: the method
// (or response) and the era (a stateless request carries _meta).
func goldenFrameKind(f string) string {
	k := "response"
	if i := strings.Index(f, `"method":"`); i >= 0 {
		k = f[i+10:]
		k = k[:strings.IndexByte(k, '"')]
	}
	if strings.HasPrefix(f, "[") {
		k = "batch"
	}
	if strings.Contains(f, "io.modelcontextprotocol/protocolVersion") {
		k += "/stateless"
	}
	return k
}

// frameProgram encodes frames for FuzzFrames's generator: each frame as
// its op 5 (bytes as they come) with the frame's length; frames of 4096
// bytes or more, which the encoding cannot size exactly, are left out.
func frameProgram(frames []string) string {
	var b []byte
	for _, f := range frames {
		n := len(f)
		switch {
		case n < 16:
			b = append(b, 5, byte(n))
		case n < 4096:
			b = append(b, 5, byte(208+n%16), byte(n>>4))
		default:
			continue
		}
		b = append(b, f...)
	}
	return string(b)
}

func writeSeed(t *testing.T, fuzzer, name, typ, value string) {
	dir := filepath.Join("testdata", "fuzz", fuzzer)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	body := fmt.Sprintf("go test fuzz v1\n%s(%q)\n", typ, value)
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
