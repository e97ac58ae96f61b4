package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcpmock/mcpmock/config"
	"github.com/mcpmock/mcpmock/scenarios"
)

func listCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("list", "[--faults] [--bugs]", stderr)
	faults := fs.Bool("faults", false, "list the faults a config file can name, with their parameters")
	bugList := fs.Bool("bugs", false, "list the catalog of documented client bugs (mcpmock run --bug ID plays one)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if *bugList {
		listBugs(stdout)
		return nil
	}
	if *faults {
		for _, f := range config.Faults() {
			fmt.Fprintln(stdout, f)
		}
		var refs []string
		for _, r := range config.Refinements() {
			refs = append(refs, fmt.Sprintf("%s (%s): %s", r.Name, r.Type, r.Doc))
		}
		fmt.Fprintf(stdout, "\nEvery fault also takes:\n  %s\n", strings.Join(refs, "\n  "))
		return nil
	}
	for _, s := range scenarios.All() {
		fmt.Fprintln(stdout, s)
	}
	return nil
}
