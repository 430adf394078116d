import type { ResourceProvider } from "./resource";
import type { CheckContext, CheckResult } from "./table/check";
import { outcomeOf, type DiffDetail } from "./table/diff";

type Props = Record<string, unknown>;

/** The members of a provider that its table answers alone: check and diff, which send nothing. */
export function checkAndDiff(
  check: (olds: Props, news: Props, context?: CheckContext) => CheckResult,
  diffDetail: (olds: Props, news: Props) => DiffDetail,
): Pick<ResourceProvider, "check" | "diff" | "diffDetail"> {
  return {
    check: async (olds, news, context) => check(olds, news, context),
    diff: async (_id, olds, news) => outcomeOf(diffDetail(olds, news)),
    diffDetail,
  };
}
