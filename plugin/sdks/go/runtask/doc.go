// Run tasks of an infrastructure-run orchestration service, and their association to workspaces.
package runtask
