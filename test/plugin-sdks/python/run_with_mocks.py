"""Runs a Pulumi program under Pulumi's mocks, as the Python language host would run it but without an engine:
`python run_with_mocks.py <program.py> [key=value ...]` (the project's config, each key without its namespace).
Prints the resources the program registered, their types and names, as one JSON array; fails as the program does."""

import json
import runpy
import sys

import pulumi

PROJECT = "example"


class Mocks(pulumi.runtime.Mocks):
    """Answers every registration with its inputs, and every call with nothing, keeping what it was sent."""

    def __init__(self):
        self.registered = []

    def new_resource(self, args: pulumi.runtime.MockResourceArgs):
        self.registered.append({"type": args.typ, "name": args.name})
        return [f"{args.name}-id", dict(args.inputs)]

    def call(self, args: pulumi.runtime.MockCallArgs):
        return {}


def main(program: str, config: dict) -> None:
    pulumi.runtime.set_all_config({f"{PROJECT}:{key}": value for key, value in config.items()})
    mocks = Mocks()
    pulumi.runtime.set_mocks(mocks, project=PROJECT, stack="dev", preview=False)

    # Waits for every registration the program started, and raises what the program raised.
    @pulumi.runtime.test
    def run():
        runpy.run_path(program, run_name="__main__")

    run()
    print(json.dumps(mocks.registered))


if __name__ == "__main__":
    main(sys.argv[1], dict(arg.split("=", 1) for arg in sys.argv[2:]))
