// Command mcpmock is the MCP mock server of github.com/mcpmock/mcpmock as a
// process, for MCP clients in any language: it serves the scenario catalog
// (servers that make one classic mistake each) or a server described in a
// JSON file, over stdio or Streamable HTTP, records every message, holds the
// client to the protocol's rules, and writes the verdict.
//
//	go build -o mcpmock ./cmd/mcpmock    # in a clone of the repository
//
//	mcpmock serve [--scenario NAME] [--config FILE] [--report FILE] [--html FILE] [--log FILE] [--journal-keep N] [--journal-spill FILE | --journal-drop] [--http [--listen ADDR] [--allow-remote] [--allow-host NAME]... [--auth] [--auth-client ID:SECRET] [--admin] [--until-signal]]
//	mcpmock run [--scenario NAME]... [--bug ID]... [--http] [--json FILE] [--junit FILE] [--html FILE] [--known-deviation NAME=why]... [--warn KINDS] [--log FILE] [--config FILE] [--startup-timeout DURATION] -- CMD ARGS...
//	mcpmock list [--faults | --rules | --bugs]
//	mcpmock tour [--log FILE] [--name NAME] [--html DIR] [LESSON|SCENARIO]... [-- CMD ARGS...]
//	mcpmock record --out FILE [--append] [--redact PATH]... [--grace DURATION] -- CMD ARGS...
//	mcpmock record --out FILE [--append] [--redact PATH]... --url URL [--listen ADDR]
//
// serve is one mock server: on stdio, stdout carries only MCP and
// everything else goes to stderr (or --log). At exit (the client closes
// stdin, or SIGTERM/SIGINT) it writes the verdict to --report as JSON and
// exits 1 if the client broke a protocol rule or failed the scenario's
// check.
//
// run is the conformance runner for a client program: for each scenario
// it starts the mock and runs CMD, which finds its server in
// MCPMOCK_SERVER_COMMAND (stdio clients spawn their server: the command
// line connects the spawned process to the runner's mock), and judges the
// session. Deadlines count from the client's first byte. The table goes to
// stdout; --json and --junit write the report for CI.
//
// The command is a thin layer over the packages mcptest, scenarios and
// config, where every behaviour is tested.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/mcpmock/mcpmock/internal/suggest"
)

// exit codes
const (
	exitOK      = 0
	exitVerdict = 1 // the client broke a rule or failed a check
	exitUsage   = 2 // a mistake on the command line or in a file
)

func main() {
	os.Exit(mainArgs(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// commands are the command names a user types, for the did-you-mean of an
// unknown one.
var commands = []string{"serve", "run", "list", "tour", "record", "version", "help"}

// version says which mcpmock this is: the module's version (a clone's
// build says "(devel)"), the commit it was built from when Go recorded
// one, and the Go toolchain.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "mcpmock (no build information)"
	}
	v := "mcpmock " + bi.Main.Version
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		}
	}
	if rev != "" {
		v += fmt.Sprintf(" (commit %.12s%s)", rev, modified)
	}
	return v + " " + bi.GoVersion
}

// usageError is a mistake on the command line: exit 2 with the message.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// errVerdict is a run whose verdict is negative: exit 1, the report says why.
var errVerdict = errors.New("the verdict is negative")

// The synopses of the commands, for their -h and the usage.
const (
	serveSynopsis = "[--scenario NAME] [--config FILE] [--report FILE] [--html FILE] [--log FILE] [--journal-keep N] [--journal-spill FILE | --journal-drop] [--http [--listen ADDR] [--allow-remote] [--allow-host NAME]... [--auth] [--auth-client ID:SECRET] [--admin] [--until-signal]]"
	runSynopsis   = "[--scenario NAME]... [--bug ID]... [--http [--auth] [--auth-client ID:SECRET]] [--json FILE] [--junit FILE] [--html FILE] [--known-deviation NAME=why]... [--warn KINDS] [--log FILE] [--config FILE] [--startup-timeout DURATION] -- CMD ARGS..."
)

const usage = `mcpmock: the MCP mock server for clients in any language

usage:
  mcpmock serve [--scenario NAME] [--config FILE] [--report FILE] [--html FILE] [--log FILE]
                [--journal-keep N] [--journal-spill FILE | --journal-drop]
                [--http [--listen ADDR] [--allow-remote] [--allow-host NAME]...
                        [--auth] [--auth-client ID:SECRET] [--admin] [--until-signal]]
  mcpmock run [--scenario NAME]... [--bug ID]... [--http [--auth] [--auth-client ID:SECRET]]
              [--json FILE] [--junit FILE] [--html FILE]
              [--known-deviation NAME=why]... [--warn KINDS] [--log FILE]
              [--config FILE] [--startup-timeout DURATION] -- CMD ARGS...
  mcpmock list [--faults | --rules | --bugs]
  mcpmock tour [--log FILE] [--name NAME] [--html DIR] [LESSON|SCENARIO]... [-- CMD ARGS...]
  mcpmock record --out FILE [--append] [--redact PATH]... [--grace DURATION] -- CMD ARGS...
  mcpmock record --out FILE [--append] [--redact PATH]... --url URL [--listen ADDR]

serve   one mock server on stdio (stdout carries only MCP) or, with --http, on
        Streamable HTTP; the verdict at exit to --report (JSON); exit 1 when the
        client broke a protocol rule or failed the scenario's check
run     run a client program against each scenario of the catalog and judge it:
        the client finds its server in MCPMOCK_SERVER_COMMAND (stdio) or
        MCPMOCK_URL and its last argument (--http)
list    the scenario catalog, one line each (--faults: the faults a config file
        can name, with their parameters; --rules: the client rules, each with
        the spec sentence it enforces; --bugs: the documented client bugs)
tour    the teaching tour of the classic handshake mistakes
record  record a real server (stdio: the command a client spawns; --url: an
        HTTP proxy) into a config file that serve --config replays
version which mcpmock this is

Run "mcpmock COMMAND -h" for what each flag of a command does.
`

// mainArgs runs the command line args and returns the exit code.
func mainArgs(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	var err error
	switch args[0] {
	case "serve":
		err = serveCmd(args[1:], stdin, stdout, stderr)
	case "run":
		err = runCmd(args[1:], stdout, stderr)
	case "list":
		err = listCmd(args[1:], stdout, stderr)
	case "tour":
		err = tourCmd(args[1:], stdout, stderr)
	case "record":
		return recordCmd(args[1:], stdin, stdout, stderr)
	case relayCommand:
		err = relayCmd(args[1:], stdin, stdout)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return exitOK
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, version())
		return exitOK
	default:
		fmt.Fprintf(stderr, "mcpmock: unknown command %q%s\n\n%s", args[0], suggest.DidYouMean(strings.TrimLeft(args[0], "-"), commands), usage)
		return exitUsage
	}
	var ue *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errVerdict):
		return exitVerdict
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "mcpmock %s: %s\n", args[0], strings.TrimRight(ue.msg, "\n"))
		return exitUsage
	default:
		fmt.Fprintf(stderr, "mcpmock %s: %v\n", args[0], err)
		return exitUsage
	}
}

// newFlags returns a flag set that reports its errors as usage errors.
func newFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: mcpmock %s %s\n\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, turning flag errors into usage errors (the flag
// package has already printed the usage).
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return &usageError{err.Error()}
	}
	return swallowed(fs)
}

// swallowed finds a flag that took the next word of the command line as
// its value when that word is a flag itself or the "--" before a command
// ("serve --config --scenario wrong-id-type" sets --config to
// "--scenario" and leaves "wrong-id-type" over), and names both.
func swallowed(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err != nil {
			return
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			return
		}
		for _, v := range valuesOf(f) {
			name, _, _ := strings.Cut(strings.TrimLeft(v, "-"), "=")
			if v == "--" || strings.HasPrefix(v, "-") && fs.Lookup(name) != nil {
				what, _ := flag.UnquoteUsage(f)
				if what == "" {
					what = "value"
				}
				err = usagef("--%s took %q as its %s: a flag's value follows it (--%s %s), so give --%s its %s before %s",
					f.Name, v, what, f.Name, what, f.Name, what, v)
				return
			}
		}
	})
	return err
}

// valuesOf is a flag's values: each one of a repeatable flag.
func valuesOf(f *flag.Flag) []string {
	if m, ok := f.Value.(*multi); ok {
		return *m
	}
	return []string{f.Value.String()}
}

// multi is a repeatable string flag.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

// openLog returns the writer for logs: the file at path (created), or w.
func openLog(path string, w io.Writer) (io.Writer, func(), error) {
	if path == "" {
		return w, func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, usagef("--log: %v", err)
	}
	return f, func() { _ = f.Close() }, nil
}
