import type { ResourceProvider } from "./resource";
import type { CheckContext, CheckResult } from "./table/check";
import { outcomeOf, type DiffDetail } from "./table/diff";

type Props = Record<string, unknown>;

/**
 * The members of a provider that its table answers: check and diff, which change nothing. A diff that keeps the
 * object claims it for the deployment (`claim`, takeover/heldObjects.ts); `afterCheck` runs on a check that passed (the
 * adopt notice, which reads).
 */
export function checkAndDiff(
  check: (olds: Props, news: Props, context?: CheckContext) => CheckResult,
  diffDetail: (olds: Props, news: Props) => DiffDetail,
  claim: (id: string, olds: Props) => void,
  afterCheck?: (olds: Props, inputs: Props) => Promise<void>,
): Pick<ResourceProvider, "check" | "diff" | "diffDetail" | "claim"> {
  return {
    check: async (olds, news, context) => {
      const result = check(olds, news, context);
      if (afterCheck && result.failures.length === 0) await afterCheck(olds, result.inputs);
      return result;
    },
    diff: async (id, olds, news) => {
      const detail = diffDetail(olds, news);
      if (detail.replaces.length === 0) claim(id, olds);
      return outcomeOf(detail);
    },
    diffDetail,
    claim,
  };
}
