package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/pulumi-snapshot-runtask/pulumi-snapshot-runtask/plugin/sdks/go/runtask"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		scanner, err := runtask.NewRunTask(ctx, "scanner", &runtask.RunTaskArgs{
			Url: pulumi.String("https://hooks.example.com/scan"),
		})
		if err != nil {
			return err
		}

		// The task on a workspace before and after each plan; a failure, or no answer, stops the run.
		onProduction, err := runtask.NewWorkspaceRunTask(ctx, "scanner-on-production", &runtask.WorkspaceRunTaskArgs{
			WorkspaceId:      pulumi.String("ws-1A2b3C4d5E6f7G8h"),
			TaskId:           scanner.ID(),
			EnforcementLevel: pulumi.String("mandatory"),
			Stages:           pulumi.StringArray{pulumi.String("pre_plan"), pulumi.String("post_plan")},
		})
		if err != nil {
			return err
		}
		ctx.Export("associationId", onProduction.WorkspaceTaskId)
		return nil
	})
}
