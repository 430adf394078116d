// Command vendor-clients drives the services' vendors' own Go clients, go-tfe and Vault's api, against the emulator,
// for the suite in test/vendor-clients. Each subcommand prints one JSON document on stdout:
//
//	runtask-calls    every run task and association call of go-tfe, each checked (a Report)
//	snapshot-calls   every call Vault's client makes of the automated snapshot endpoints, each checked (a Report)
//	make             makes, through the clients, the objects a plan on stdin describes, and prints their ids
//	read             reads, through the clients, the objects stdin names, and prints what the clients see
//
// -reading says how the emulator answers: "service" (its default, as the real services answer) or "letter" (its
// letterOfSpec option, the specs' letter), where the checks expect the calls the letter breaks to fail as they do.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"
)

type settings struct {
	runTaskAddr, runTaskToken, organization  string
	workspaces                               []string
	snapshotAddr, snapshotToken, snapshotDir string
	letter                                   bool
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: vendor-clients runtask-calls|snapshot-calls|make|read [flags]")
		os.Exit(2)
	}
	var s settings
	var workspaces, reading string
	flags := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	flags.StringVar(&s.runTaskAddr, "runtask-addr", "", "the run task service's base address")
	flags.StringVar(&s.runTaskToken, "runtask-token", "", "a run task token that owns the organization")
	flags.StringVar(&s.organization, "organization", "", "the organization")
	flags.StringVar(&workspaces, "workspaces", "", "ids of three workspaces of the organization, comma-separated")
	flags.StringVar(&s.snapshotAddr, "snapshot-addr", "", "the snapshot service's base address")
	flags.StringVar(&s.snapshotToken, "snapshot-token", "", "a snapshot token with the sudo capability")
	flags.StringVar(&s.snapshotDir, "snapshot-dir", "", "a directory for local snapshots")
	flags.StringVar(&reading, "reading", "service", `how the emulator answers: "service" or "letter"`)
	_ = flags.Parse(os.Args[2:])
	if workspaces != "" {
		s.workspaces = strings.Split(workspaces, ",")
	}
	s.letter = reading == "letter"

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out any
	var err error
	switch os.Args[1] {
	case "runtask-calls":
		out, err = runTaskCalls(ctx, s)
	case "snapshot-calls":
		out, err = snapshotCalls(ctx, s)
	case "make":
		var plan Plan
		if err = json.NewDecoder(os.Stdin).Decode(&plan); err == nil {
			out, err = makeObjects(ctx, s, plan)
		}
	case "read":
		var names Names
		if err = json.NewDecoder(os.Stdin).Decode(&names); err == nil {
			out, err = readObjects(ctx, s, names)
		}
	default:
		err = fmt.Errorf("unknown subcommand %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "vendor-clients %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintf(os.Stderr, "vendor-clients %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}
