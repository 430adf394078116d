/** The error a promise fails with; fails the test when it resolves instead. */
export function failure(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (err: Error & { code?: string }) => err,
  );
}
