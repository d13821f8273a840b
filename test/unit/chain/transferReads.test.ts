/**
 * The interfaces the service reads transfers with are the Solidity's own (contracts/, compiled by sandbox/compile.ts):
 * - the bridge endpoint's ABI is generated from contracts/router/BridgeEndpoint.sol into
 *   src/chain/bridgeEndpoint.abi.json; after a change of the contract, write it again with
 *     CONTRACT_ABI=update npx jest test/unit/chain/transferReads.test.ts
 * - the router's and the fee collector's events are those of src/core/transactions/abi.ts (the ABI the transactions
 *   are built with): each must be the compiled contract's event, indexed parameters and names included.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Interface } from 'ethers';
import { compileContracts } from '../../../sandbox/compile';
import { FEE_COLLECTOR_ABI, ROUTER_ABI } from '../../../src/core/transactions/abi';

const FILE = path.resolve(__dirname, '../../../src/chain/bridgeEndpoint.abi.json');

describe('the contract interfaces of transfer tracking', () => {
  it('src/chain/bridgeEndpoint.abi.json is the compiled BridgeEndpoint\'s ABI', async () => {
    const compiled = new Interface((await compileContracts()).BridgeEndpoint.abi as never).format();
    if (process.env.CONTRACT_ABI === 'update') fs.writeFileSync(FILE, `${JSON.stringify(compiled, null, 2)}\n`);
    expect(JSON.parse(fs.readFileSync(FILE, 'utf8'))).toEqual(compiled);
  });

  it.each([
    ['Router', ROUTER_ABI],
    ['FeeCollector', FEE_COLLECTOR_ABI],
  ])('the events of %s in src/core/transactions/abi.ts are the compiled contract\'s', async (name, abi) => {
    const compiled = new Interface((await compileContracts())[name].abi as never);
    const ours = new Interface(abi as string[]);
    let events = 0;
    ours.forEachEvent((event) => {
      events++;
      expect(compiled.getEvent(event.topicHash)?.format('full')).toBe(event.format('full'));
    });
    expect(events).toBeGreaterThan(0);
  });
});
