/**
 * The family of each chain (src/core/chains/families.ts) and the EVM family: what the rest of the core asks instead of
 * branching on chainType.
 */
import { getAddress, keccak256, toUtf8Bytes } from 'ethers';
import { evm } from '../../../../src/core/chains/evm';
import { FAMILIES, familyOf } from '../../../../src/core/chains/families';
import { loadConfig } from '../../../../src/config';
import { buildDependencies } from '../../../../src/server/dependencies';

test('every chain of the catalog has its family, and only EVM and Solana chains send', async () => {
  const { catalog, access } = buildDependencies(loadConfig({ LOG_LEVEL: 'silent' }));
  try {
    for (const chain of catalog.chains) {
      expect(familyOf(chain).type).toBe(chain.chainType);
      expect({ chain: chain.key, sends: familyOf(chain).sending.supported }).toEqual({ chain: chain.key, sends: chain.chainType === 'EVM' || chain.chainType === 'SVM' });
      // the chain's zero address and native coin are addresses of its own family, where the native coin is one
      expect(familyOf(chain).parseAddress(familyOf(chain).zeroAddress)).toBe(familyOf(chain).zeroAddress);
    }
    expect(Object.keys(FAMILIES).sort()).toEqual(['EVM', 'MVM', 'SVM', 'TVM', 'UTXO']);
  } finally {
    await access.close();
  }
});

test('EVM addresses: 0x and 40 hex digits in any case, written checksummed', () => {
  expect(evm.parseAddress('0x552008c0f6870c2f77e5cc1d2eb9bdff03e30ea9')).toBe('0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9');
  expect(evm.parseAddress('0x552008C0F6870C2F77E5CC1D2EB9BDFF03E30EA9')).toBe('0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9');
  // a wrongly mixed case is taken as its bytes, not refused
  expect(evm.parseAddress('0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30EA9')).toBe('0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9');
  for (const bad of ['', '0x', '552008c0f6870c2f77e5cc1d2eb9bdff03e30ea9', '0x552008c0f6870c2f77e5cc1d2eb9bdff03e30ea', '0x552008c0f6870c2f77e5cc1d2eb9bdff03e30ea9a', '0xZ52008c0f6870c2f77e5cc1d2eb9bdff03e30ea9', `0x${'0'.repeat(64)}`, '7v91N7iZ9mNicL8WfG6cgSCKyRXydQjLh6UYBWwm6y1Q', ' 0x552008c0f6870c2f77e5cc1d2eb9bdff03e30ea9']) {
    expect({ bad, parsed: evm.parseAddress(bad) }).toEqual({ bad, parsed: undefined });
  }
  // EIP-55 as ethers writes it (the reference), for 500 addresses drawn from a hash chain, in upper and lower case
  for (let k = 0, seed = keccak256(toUtf8Bytes('evm addresses')); k < 500; k++, seed = keccak256(seed)) {
    const address = `0x${seed.slice(26)}`;
    expect(evm.parseAddress(address.toUpperCase().replace('0X', '0x'))).toBe(getAddress(address));
    expect(evm.parseAddress(address)).toBe(getAddress(address));
  }
  expect(evm.receiverBytes(evm.parseAddress('0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9')!)).toBe('0x552008c0f6870c2f77e5cc1d2eb9bdff03e30ea9');
  expect(evm.sending).toEqual({ supported: true, transaction: 'evmRouterCall' });
  expect(evm.approvals).toBe(true);
});
