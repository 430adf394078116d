// A run task attached to the workspaces listed in stack config, and a daily snapshot configuration.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"

	"github.com/pulumi-snapshot-runtask/pulumi-snapshot-runtask/plugin/sdks/go/runtask"
	"github.com/pulumi-snapshot-runtask/pulumi-snapshot-runtask/plugin/sdks/go/snapshot"
)

func program(ctx *pulumi.Context) error {
	cfg := config.New(ctx, "")

	scanner, err := runtask.NewRunTask(ctx, "scanner", &runtask.RunTaskArgs{
		Url:         pulumi.String("https://hooks.example.com/scan"),
		Description: pulumi.String("Policy scan of every plan"),
		HmacKey:     cfg.RequireSecret("scannerHmacKey"),
	})
	if err != nil {
		return err
	}

	var workspaces []string
	cfg.RequireObject("workspaces", &workspaces)
	for _, workspaceID := range workspaces {
		_, err := runtask.NewWorkspaceRunTask(ctx, "scanner-on-"+workspaceID, &runtask.WorkspaceRunTaskArgs{
			WorkspaceId:      pulumi.String(workspaceID),
			TaskId:           scanner.ID(),
			EnforcementLevel: pulumi.String("mandatory"),
			Stages:           pulumi.StringArray{pulumi.String("post_plan")},
		})
		if err != nil {
			return err
		}
	}

	daily, err := snapshot.NewSnapshotAutoConfig(ctx, "daily", &snapshot.SnapshotAutoConfigArgs{
		Interval:      pulumi.String("24h"),
		Retain:        pulumi.Int(7),
		StorageType:   pulumi.String("local"),
		PathPrefix:    pulumi.String("/var/snapshots"),
		LocalMaxSpace: pulumi.Int(10 << 30),
	})
	if err != nil {
		return err
	}

	status := snapshot.GetSnapshotStatusOutput(ctx, snapshot.GetSnapshotStatusOutputArgs{Name: daily.Name})

	ctx.Export("scannerId", scanner.ID())
	ctx.Export("dailyIntervalSeconds", daily.Interval)
	ctx.Export("lastDailySnapshot", status.LastSnapshotUrl())
	return nil
}
