import * as pulumi from "@pulumi/pulumi";
import * as runtask from "pulumi-snapshot-runtask-runtask";

const config = new pulumi.Config();

// A task the service calls at the stages of the workspaces it is attached to, signing each call with a key kept secret.
const scanner = new runtask.RunTask("scanner", {
  url: "https://hooks.example.com/scan",
  description: "Policy scan of every plan",
  hmacKey: config.requireSecret("scannerHmacKey"),
});

export const scannerId = scanner.id;
