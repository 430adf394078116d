import type { ResourceProvider } from "../../provider/resource";

type Props = Record<string, any>;

/** The inputs the provider's check makes of `news` (against `olds`), failing the test where the check refuses them. */
export async function checkedInputs(provider: ResourceProvider, news: Props, olds: Props = {}): Promise<Props> {
  const r = await provider.check(olds, news);
  expect(r.failures).toEqual([]);
  return r.inputs as Props;
}
