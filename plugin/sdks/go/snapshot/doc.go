// Named automated snapshot configurations of a clustered storage service, and their status.
package snapshot
