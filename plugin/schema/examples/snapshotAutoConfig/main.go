package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/pulumi-snapshot-runtask/pulumi-snapshot-runtask/plugin/sdks/go/snapshot"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// A snapshot every day into a local directory, the last seven kept within 10 GiB.
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
		ctx.Export("intervalSeconds", daily.Interval)
		return nil
	})
}
