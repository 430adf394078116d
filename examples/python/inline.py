"""Runs __main__.py through the Pulumi engine where no Python language host is installed: `python inline.py up`
(or preview, refresh, destroy; a stack name may follow, default dev). The Automation API runs the program in this
process, with this folder's Pulumi.yaml and stack config, as `pulumi up` would; it needs the `pulumi` CLI, and the
provider plugins on PATH."""

import json
import os
import runpy
import sys

from pulumi import automation as auto

HERE = os.path.dirname(os.path.abspath(__file__))
COMMANDS = ("up", "preview", "refresh", "destroy")


def program() -> None:
    runpy.run_path(os.path.join(HERE, "__main__.py"), run_name="__main__")


def main(command: str, stack_name: str) -> None:
    stack = auto.create_or_select_stack(
        stack_name=stack_name,
        project_name="run-tasks-python",
        program=program,
        opts=auto.LocalWorkspaceOptions(work_dir=HERE),
    )
    result = getattr(stack, command)(on_output=print)
    # What the engine did, and the stack's outputs, each on a line of its own.
    changes = result.change_summary if command == "preview" else result.summary.resource_changes
    print("changes:", json.dumps(changes or {}, sort_keys=True))
    if command == "up":
        outputs = {name: "[secret]" if out.secret else out.value for name, out in result.outputs.items()}
        print("outputs:", json.dumps(outputs, sort_keys=True))


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3) or sys.argv[1] not in COMMANDS:
        sys.exit(f"usage: python inline.py {'|'.join(COMMANDS)} [stack]")
    main(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else "dev")
