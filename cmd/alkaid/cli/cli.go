package cli

import (
	"fmt"
	"sort"
	"strings"

	"github.com/alkaid-go/alkaid/internal/quote"
)

// commands maps each subcommand to its entry point, which takes the
// arguments after the subcommand's name and returns the exit code. Add a
// line here (and to about) for a new subcommand.
var commands = map[string]func(args []string) int{
	"cat":         runCat,
	"convert":     runConvert,
	"export":      runExport,
	"gen":         runGen,
	"import":      runImport,
	"info":        runInfo,
	"integration": runIntegration,
	"join":        runJoin,
	"schema":      runSchema,
	"validate":    runValidate,
}

// about gives each subcommand's one-line description for "alkaid help".
var about = map[string]command{
	"cat":         catCmd,
	"convert":     convertCmd,
	"export":      exportCmd,
	"gen":         genCmd,
	"import":      importCmd,
	"info":        infoCmd,
	"integration": integrationCmd,
	"join":        joinCmd,
	"schema":      schemaCmd,
	"validate":    validateCmd,
}

// Main runs the alkaid command with args, the arguments after the
// program's name, and returns its exit code. Options add URL schemes
// ([WithFS]) or replace the standard streams ([WithStdio]). Main is not
// safe for concurrent use: a process runs one command.
func Main(args []string, opts ...Option) int {
	var c config
	for _, o := range opts {
		o(&c)
	}
	defer c.apply()()
	return run(args)
}

// run dispatches to the subcommand named by args[0].
func run(args []string) int {
	if len(args) == 0 {
		usage()
		return exitUsage
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(rest) > 0 {
			if fn, ok := commands[rest[0]]; ok {
				return fn([]string{"-h"})
			}
			fmt.Fprintf(cmdStderr, "alkaid help: unknown command %s; see alkaid help\n", quote.String(rest[0]))
			return exitUsage
		}
		help()
		return exitOK
	}
	fn, ok := commands[name]
	if !ok {
		fmt.Fprintf(cmdStderr, "alkaid: unknown command %s; see alkaid help\n", quote.String(name))
		return exitUsage
	}
	runningCmd = name
	return fn(rest)
}

func usage() {
	fmt.Fprintln(cmdStderr, "usage: alkaid COMMAND [flags] [arguments]; see alkaid help")
}

func help() {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintf(cmdStdout, "usage: alkaid COMMAND [flags] [arguments]\n\ncommands:\n")
	for _, n := range names {
		fmt.Fprintf(cmdStdout, "  %-12s %s\n", n, about[n].short)
	}
	if len(schemes) > 0 {
		var names []string
		for s := range schemes {
			names = append(names, s+"://")
		}
		sort.Strings(names)
		fmt.Fprintf(cmdStdout, "\nEvery command but integration also takes %s locations wherever it takes a file, a\n"+
			"directory or a pattern (a prefix is read as a dataset); an output is written there whole or not\n"+
			"at all, and convert writes a dataset to one (-partition-by, or OUT ending with /).\n",
			strings.Join(names, ", "))
	}
	fmt.Fprintf(cmdStdout, "\nalkaid help COMMAND (or alkaid COMMAND -h) describes a command's flags.\n"+
		"Exit codes: 0 success, 1 invalid data or a difference, 2 bad usage.\n")
}
