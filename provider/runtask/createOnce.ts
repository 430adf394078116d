import { ServiceError } from "../http/serviceError";

/**
 * Creates through a non-idempotent POST without ever making a duplicate. When the answer is lost (the
 * connection dropped or timed out after the request was sent, or a gateway failed), the request may or may
 * not have been carried out: `find` looks for what it would have created, which is then taken as the result;
 * only when nothing is found is the POST sent again.
 */
export async function createOnce<T>(create: () => Promise<T>, find: () => Promise<T | undefined>, maxAttempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await create();
    } catch (err) {
      if (!(err instanceof ServiceError && err.ambiguous) || attempt >= maxAttempts) throw err;
      const found = await find();
      if (found) return found;
    }
  }
}
