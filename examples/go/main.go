// Runs program through the Pulumi engine: `pulumi up` where a Go language host is installed (it starts this
// program without arguments), or `go run . up` (or preview, refresh, destroy; a stack name may follow, default dev)
// anywhere the `pulumi` CLI is: the Automation API then runs program in this process, with the Pulumi.yaml and stack
// config of the current folder. Either way the provider plugins must be on PATH.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	if len(os.Args) == 1 {
		pulumi.Run(program)
		return
	}
	stackName := "dev"
	if len(os.Args) == 3 {
		stackName = os.Args[2]
	}
	if err := runInline(context.Background(), os.Args[1], stackName); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func runInline(ctx context.Context, command, stackName string) error {
	dir, err := os.Getwd()
	if err != nil {
		return err
	}
	stack, err := auto.UpsertStackInlineSource(ctx, stackName, "run-tasks-go", program, auto.WorkDir(dir))
	if err != nil {
		return err
	}
	// What the engine did, and the stack's outputs, each on a line of its own after its progress.
	var changes any
	var outputs auto.OutputMap
	switch command {
	case "up":
		result, err := stack.Up(ctx, optup.ProgressStreams(os.Stdout))
		if err != nil {
			return err
		}
		changes, outputs = result.Summary.ResourceChanges, result.Outputs
	case "preview":
		result, err := stack.Preview(ctx, optpreview.ProgressStreams(os.Stdout))
		if err != nil {
			return err
		}
		changes = result.ChangeSummary
	case "refresh":
		result, err := stack.Refresh(ctx, optrefresh.ProgressStreams(os.Stdout))
		if err != nil {
			return err
		}
		changes = result.Summary.ResourceChanges
	case "destroy":
		result, err := stack.Destroy(ctx, optdestroy.ProgressStreams(os.Stdout))
		if err != nil {
			return err
		}
		changes = result.Summary.ResourceChanges
	default:
		return fmt.Errorf("usage: go run . up|preview|refresh|destroy [stack]")
	}
	text, _ := json.Marshal(changes)
	fmt.Printf("changes: %s\n", text)
	if outputs != nil {
		shown := map[string]any{}
		for name, output := range outputs {
			shown[name] = output.Value
			if output.Secret {
				shown[name] = "[secret]"
			}
		}
		text, _ := json.Marshal(shown)
		fmt.Printf("outputs: %s\n", text)
	}
	return nil
}
