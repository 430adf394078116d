package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"

	"github.com/pulumi-snapshot-runtask/pulumi-snapshot-runtask/plugin/sdks/go/runtask"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")

		// A task the service calls at the stages of the workspaces it is attached to, signing each call with a key kept secret.
		scanner, err := runtask.NewRunTask(ctx, "scanner", &runtask.RunTaskArgs{
			Url:         pulumi.String("https://hooks.example.com/scan"),
			Description: pulumi.String("Policy scan of every plan"),
			HmacKey:     cfg.RequireSecret("scannerHmacKey"),
		})
		if err != nil {
			return err
		}
		ctx.Export("scannerId", scanner.ID())
		return nil
	})
}
