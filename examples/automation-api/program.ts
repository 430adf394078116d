// The description as a Pulumi program, for `pulumi preview` and `pulumi up` in this directory.
import { provisioningProgram } from "pulumi-snapshot-runtask/automation";
import { platformDescription, workspaceIds } from "./description";

export = provisioningProgram(platformDescription(workspaceIds()));
