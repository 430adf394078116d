import pulumi
import pulumi_snapshot_runtask_runtask as runtask

config = pulumi.Config()

# A task the service calls at the stages of the workspaces it is attached to, signing each call with a key kept secret.
scanner = runtask.RunTask(
    "scanner",
    url="https://hooks.example.com/scan",
    description="Policy scan of every plan",
    hmac_key=config.require_secret("scannerHmacKey"),
)

pulumi.export("scanner_id", scanner.id)
