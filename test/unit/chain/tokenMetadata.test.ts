/**
 * ERC-20 metadata of discovered tokens, from answers encoded as contracts give them: ABI strings, bytes32 symbols
 * (MKR's kind), a token without decimals() or with absurd ones (refused), text with control characters, no name.
 */
import { AbiCoder, encodeBytes32String, getAddress, id } from 'ethers';
import { decodeText, discoveredCoinKey, readTokenMetadata } from '../../../src/chain/tokenMetadata';

const abi = AbiCoder.defaultAbiCoder();
const selector = (signature: string) => id(signature).slice(0, 10);
const SYMBOL = selector('symbol()');
const NAME = selector('name()');
const DECIMALS = selector('decimals()');

/** A node whose contracts answer `answers[address][selector]`; anything else reverts (as eth_call does). */
function node(answers: Record<string, Record<string, string>>) {
  const calls: { to: string; data: string; tag: unknown }[] = [];
  return {
    calls,
    async send(method: string, params: unknown[]): Promise<unknown> {
      expect(method).toBe('eth_call');
      const [{ to, data }, tag] = params as [{ to: string; data: string }, unknown];
      calls.push({ to, data, tag });
      const answer = answers[to.toLowerCase()]?.[data];
      if (answer === undefined) throw new Error('execution reverted');
      return answer;
    },
  };
}

const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';
const C = '0x00000000000000000000000000000000000000cc';
const D = '0x00000000000000000000000000000000000000dd';
const str = (text: string) => abi.encode(['string'], [text]);
const u8 = (n: number) => abi.encode(['uint256'], [n]);

test('string and bytes32 answers; a missing name is the symbol; no decimals or more than 36 is refused', async () => {
  const rpc = node({
    [A]: { [SYMBOL]: str('PEPE'), [NAME]: str('Pepe'), [DECIMALS]: u8(18) },
    [B]: { [SYMBOL]: encodeBytes32String('MKR'), [NAME]: encodeBytes32String('Maker'), [DECIMALS]: u8(18) },
    [C]: { [SYMBOL]: str('NODEC'), [NAME]: str('No decimals') },
    [D]: { [SYMBOL]: str('BIG'), [DECIMALS]: u8(77) },
  });
  const E = '0x00000000000000000000000000000000000000ee';
  const outcomes = await readTokenMetadata(rpc, 1, [A, B, C, D, E], 123);
  expect(outcomes[0]).toEqual({
    kind: 'read',
    token: { chainId: 1, address: getAddress(A), symbol: 'PEPE', name: 'Pepe', decimals: 18, coinKey: `1:${getAddress(A)}`, priceUSD: '0', tags: [], verificationStatus: 'unverified' },
  });
  expect(outcomes[1]).toMatchObject({ kind: 'read', token: { symbol: 'MKR', name: 'Maker' } });
  expect(outcomes[2]).toEqual({ kind: 'refused', address: getAddress(C), reason: 'decimals() does not answer a number from 0 to 36' });
  expect(outcomes[3]).toMatchObject({ kind: 'refused', address: getAddress(D) });
  expect(outcomes[4]).toMatchObject({ kind: 'refused', address: getAddress(E) });
  // every call at the block asked for
  expect(new Set(rpc.calls.map((c) => c.tag))).toEqual(new Set(['0x7b']));
});

test('a token without a symbol is refused; its name alone is not enough', async () => {
  const rpc = node({ [A]: { [NAME]: str('Nameless'), [DECIMALS]: u8(6) } });
  expect(await readTokenMetadata(rpc, 1, [A], 'latest')).toEqual([{ kind: 'refused', address: getAddress(A), reason: 'symbol() does not answer a text' }]);
});

test('text: control characters out, spaces collapsed, cut at NUL, bounded; not an answer of either shape is empty', () => {
  expect(decodeText(str('A\u0000B'), 100)).toBe('A');
  expect(decodeText(str(' Evil\n\u001b[31mToken\u0085 '), 100)).toBe('Evil [31mToken');
  expect(decodeText(str('x'.repeat(500)), 100)).toBe('x'.repeat(100));
  expect(decodeText('0x', 100)).toBe('');
  expect(decodeText('0x1234', 100)).toBe('');
  expect(decodeText(`0x${'ff'.repeat(32)}`, 100)).toBe('');
  expect(decodeText(`${str('ok').slice(0, 100)}`, 100)).toBe('');
});

test('the coinKey of a discovered token is its chain and checksummed address: never a catalog coin\'s', () => {
  expect(discoveredCoinKey(42161, A)).toBe(`42161:${getAddress(A)}`);
});
