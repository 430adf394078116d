"""The Python SDKs of the provider plugins under Pulumi's mocks: what a program writes reaches the engine under the
schemas' tokens and property names (`hmac_key` as `hmacKey`, `global_` as `global`, `cloud_as3_bucket` as
`cloudAS3Bucket`), secrets are marked, and function results come back under their Python names. Run with
`python -m unittest` in a virtual environment where `pulumi` and both SDKs are installed."""

import unittest

import pulumi


def secret(value):
    """A value as the engine receives a secret (the signature of pulumi's rpc.py)."""
    return {"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", "value": value}


class RecordingMocks(pulumi.runtime.Mocks):
    """Answers every registration with its inputs and every call with a canned result, and keeps what it was sent."""

    def __init__(self):
        self.resources = {}
        self.calls = []

    def new_resource(self, args: pulumi.runtime.MockResourceArgs):
        self.resources[args.name] = args
        outputs = dict(args.inputs)
        if args.typ == "runtask:index:RunTask":
            outputs.update(taskId=f"task-{args.name}", organization="acme")
        return [f"{args.name}-id", outputs]

    def call(self, args: pulumi.runtime.MockCallArgs):
        self.calls.append(args)
        if args.token == "runtask:index:getRunTask":
            return {"id": "task-abc", "name": args.args["name"], "organization": "acme", "url": "https://hooks.example.com/scan",
                    "category": "task", "enabled": True, "global": {"enabled": False}, "workspaceTaskIds": ["wstask-1"]}
        if args.token == "snapshot:index:getSnapshotStatus":
            return {"lastSnapshotUrl": "file:///var/snapshots/service-snapshot-1.snap"}
        return {}


mocks = RecordingMocks()
pulumi.runtime.set_mocks(mocks, preview=False)

# Imported after the mocks are set, as Pulumi's own mock tests do.
import pulumi_snapshot_runtask_runtask as runtask  # noqa: E402
import pulumi_snapshot_runtask_snapshot as snapshot  # noqa: E402


class RunTaskPackage(unittest.TestCase):
    @pulumi.runtime.test
    def test_a_run_task_and_its_association_reach_the_engine_under_the_schema_names(self):
        scanner = runtask.RunTask(
            "scanner",
            url="https://hooks.example.com/scan",
            hmac_key="signing-key",
            global_=runtask.RunTaskGlobalArgs(enabled=True, stages=["post_plan"], enforcement_level="advisory"),
        )
        on_app = runtask.WorkspaceRunTask("on-app", workspace_id="ws-app", task_id=scanner.id, enforcement_level="mandatory")

        def check(values):
            task_id, hmac_key_secret, organization = values
            task = mocks.resources["scanner"]
            self.assertEqual(task.typ, "runtask:index:RunTask")
            self.assertEqual(
                task.inputs,
                {"url": "https://hooks.example.com/scan", "hmacKey": secret("signing-key"),
                 "global": {"enabled": True, "stages": ["post_plan"], "enforcementLevel": "advisory"}},
            )
            association = mocks.resources["on-app"]
            self.assertEqual(association.typ, "runtask:index:WorkspaceRunTask")
            self.assertEqual(association.inputs, {"workspaceId": "ws-app", "taskId": "scanner-id", "enforcementLevel": "mandatory"})
            self.assertEqual(task_id, "task-scanner")
            self.assertTrue(hmac_key_secret, "hmac_key is a secret output")
            self.assertEqual(organization, "acme")

        return pulumi.Output.all(scanner.task_id, pulumi.Output.from_input(scanner.hmac_key.is_secret()), scanner.organization).apply(
            lambda values: on_app.urn.apply(lambda _: check(values))
        )

    @pulumi.runtime.test
    def test_functions_send_the_schema_names_and_answer_with_python_names(self):
        found = runtask.get_run_task_output(name="scanner")

        def check(result):
            call = next(c for c in mocks.calls if c.token == "runtask:index:getRunTask")
            self.assertEqual({k: v for k, v in call.args.items() if v is not None}, {"name": "scanner"})
            self.assertEqual(result.id, "task-abc")
            self.assertEqual(result.workspace_task_ids, ["wstask-1"])
            self.assertEqual(result.global_["enabled"], False)

        return found.apply(check)

    @pulumi.runtime.test
    def test_an_explicit_provider_carries_its_settings_and_serves_its_resources(self):
        acme = runtask.Provider("acme", address="https://runs.example.com", token="acme-token", organization="acme")
        task = runtask.RunTask("acme-scanner", url="https://hooks.example.com/scan", opts=pulumi.ResourceOptions(provider=acme))

        def check(_):
            provider = mocks.resources["acme"]
            self.assertEqual(provider.typ, "pulumi:providers:runtask")
            self.assertEqual(provider.inputs["organization"], "acme")
            self.assertEqual(provider.inputs["token"], secret("acme-token"))
            self.assertIn("pulumi:providers:runtask::acme", mocks.resources["acme-scanner"].provider)

        return task.urn.apply(check)


class SnapshotPackage(unittest.TestCase):
    @pulumi.runtime.test
    def test_a_cloud_configuration_reaches_the_engine_under_the_schema_names_with_its_credentials_secret(self):
        nightly = snapshot.SnapshotAutoConfig(
            "nightly",
            interval="24h",
            storage_type="cloudA-s3",
            path_prefix="cluster-a/",
            cloud_as3_bucket="snapshots",
            cloud_as3_region="eu-west-1",
            cloud_a_access_key_id="AKIAEXAMPLE",
            cloud_a_secret_access_key="example-secret",
        )
        status = snapshot.get_snapshot_status_output(name=nightly.name)

        def check(values):
            key_secret, last_url = values
            config = mocks.resources["nightly"]
            self.assertEqual(config.typ, "snapshot:index:SnapshotAutoConfig")
            self.assertEqual(
                config.inputs,
                {"interval": "24h", "storageType": "cloudA-s3", "pathPrefix": "cluster-a/", "cloudAS3Bucket": "snapshots",
                 "cloudAS3Region": "eu-west-1", "cloudAAccessKeyId": secret("AKIAEXAMPLE"),
                 "cloudASecretAccessKey": secret("example-secret")},
            )
            self.assertTrue(key_secret, "cloud_a_access_key_id is a secret output")
            self.assertEqual(last_url, "file:///var/snapshots/service-snapshot-1.snap")

        return pulumi.Output.all(pulumi.Output.from_input(nightly.cloud_a_access_key_id.is_secret()), status.last_snapshot_url).apply(check)


if __name__ == "__main__":
    unittest.main()
