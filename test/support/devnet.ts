/**
 * What the end-to-end suites on a devnet (sandbox/devnet.ts: anvil chains seeded with the snapshot's state, the
 * router deployed) share: each test starting from the seeded state, and the errors of every devnet contract for
 * reading a revert.
 */
import { Interface } from 'ethers';
import type { Devnet } from '../../sandbox/devnet';

/**
 * Each test of the suite starts from the devnet's seeded state (quotes price that state): a checkpoint
 * (evm_snapshot on every chain) before each test, reverted after it. `devnet` is read when the tests run.
 */
export function revertAfterEach(devnet: () => Devnet): void {
  let restore: (() => Promise<void>) | undefined;
  beforeEach(async () => {
    restore = await devnet().checkpoint();
  });
  afterEach(async () => {
    await restore?.();
    restore = undefined;
  });
}

/** The custom errors of every contract deployed on the devnet, for decoding a revert (replayRevert). */
export function devnetErrors(devnet: Devnet): Interface {
  const errors = Object.values(devnet.artifacts).flatMap((a) => (a.abi as { type: string }[]).filter((x) => x.type === 'error'));
  return new Interface(errors as never);
}
