import { chainRefPattern } from '../../../../src/core/catalog/chainRefPattern';

const chains = [{ id: 42161, key: 'arb' }, { id: 10, key: 'opt' }, { id: 1151111081099710, key: 'sol' }, { id: 1, key: 'eth-2' }];

test('ids in decimal (leading zeros too) and keys in any case, nothing else', () => {
  const pattern = chainRefPattern(chains);
  expect(pattern).toBe('^(0*(1|10|42161|1151111081099710)|[aA][rR][bB]|[eE][tT][hH]-2|[oO][pP][tT]|[sS][oO][lL])$');
  const re = new RegExp(pattern);
  for (const ok of ['42161', '042161', '10', '1', 'arb', 'ARB', 'Arb', 'eth-2', 'ETH-2', '1151111081099710']) expect({ ok, matches: re.test(ok) }).toEqual({ ok, matches: true });
  for (const no of ['nochain', '99999', '421610', '4216', 'arbx', 'xarb', 'eth', '', ' arb', '1e1', '-1', '11']) expect({ no, matches: re.test(no) }).toEqual({ no, matches: false });
});

test('the same chains in another order give the same pattern', () => {
  expect(chainRefPattern([...chains].reverse())).toBe(chainRefPattern(chains));
});
