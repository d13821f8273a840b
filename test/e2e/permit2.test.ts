/**
 * Signature approvals on the sandbox's chains: the genuine Permit2 at its canonical address, and the service's Permit2
 * proxy (contracts/router/Permit2Proxy.sol) executing the service's own quotes with a Permit2 signature (with and
 * without the witness that binds the router call data) and with USDC's EIP-2612 permit — and every way a signature
 * could be misused, tried as an attacker would: by another caller, with other call data, twice, after its deadline,
 * and with a permit that someone else submitted first. After each use: the user has no allowance to the router, the
 * proxy and the router hold nothing of it, and what the router returns goes to the user, not the proxy.
 */
import pino from 'pino';
import {
  AbiCoder, Contract, getAddress, Interface, keccak256, MaxUint256, Signature, toUtf8Bytes, Wallet, type JsonRpcProvider,
} from 'ethers';
import { privateKeyToAccount } from 'viem/accounts';
import { checkSignedWitness } from '../../src/core/relay/check';
import { permitWitnessTypedData, relayNonce } from '../../src/core/relay/permitWitness';
import { relayCallData } from '../../src/core/relay/relayCall';
import { PERMIT2_ADDRESS, PERMIT2_RUNTIME_CODE_HASH } from '../../sandbox/permit2';
import { waitForReceipt } from '../../sandbox/rpc';
import { startSandbox, type Sandbox } from '../../sandbox/service';

jest.setTimeout(60_000);

const ARB = 42161;
const ERC20 = [
  'function balanceOf(address) view returns (uint256)',
  'function allowance(address,address) view returns (uint256)',
  'function approve(address,uint256) returns (bool)',
  'function transfer(address,uint256) returns (bool)',
  'function nonces(address) view returns (uint256)',
  'function name() view returns (string)',
  'function permit(address,address,uint256,uint256,uint8,bytes32,bytes32)',
];
const PERMIT2 = [
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
  'function nonceBitmap(address,uint256) view returns (uint256)',
];

let sandbox: Sandbox;
let provider: JsonRpcProvider;
let proxy: Contract;
let router: string;
let user: Wallet;
let attacker: Wallet;
let restore: (() => Promise<void>) | undefined;

beforeAll(async () => {
  sandbox = await startSandbox({ chains: [ARB], port: 0, host: '127.0.0.1', logger: pino({ level: 'silent' }) });
  const chain = sandbox.devnet.chain(ARB);
  provider = chain.provider;
  router = chain.deployment.router;
  proxy = new Contract(chain.deployment.permit2Proxy, sandbox.devnet.artifacts.Permit2Proxy.abi as never, provider);
  user = sandbox.devnet.wallet(ARB, 0);
  // the attacker: a fresh key holding gas only
  attacker = new Wallet(Wallet.createRandom().privateKey, provider);
  await provider.send('anvil_setBalance', [attacker.address, '0xde0b6b3a7640000']);
}, 120_000);

afterAll(async () => {
  await sandbox?.stop();
});

beforeEach(async () => {
  restore = await sandbox.devnet.checkpoint();
});

afterEach(async () => {
  await restore?.();
});

const token = (symbol: string) => {
  const t = sandbox.dependencies.catalog.findToken(ARB, symbol);
  if (!t) throw new Error(`no ${symbol} on Arbitrum`);
  return new Contract(t.address, ERC20, provider);
};

/** The service's quote for `from`: its router call data is what the user signs for. */
async function quote(fromSymbol: string, toSymbol: string, amount: bigint, from: string): Promise<{ data: string; toAmountMin: bigint; to: string }> {
  const q = new URLSearchParams({ fromChain: String(ARB), toChain: String(ARB), fromToken: fromSymbol, toToken: toSymbol, fromAmount: amount.toString(), fromAddress: from });
  const response = await fetch(`${sandbox.url}/v1/quote?${q}`);
  const body = await response.json() as { estimate: { toAmountMin: string }; transactionRequest: { data: string; to: string } };
  if (response.status !== 200) throw new Error(`quote ${response.status}: ${JSON.stringify(body)}`);
  return { data: body.transactionRequest.data, to: body.transactionRequest.to, toAmountMin: BigInt(body.estimate.toAmountMin) };
}

const permit2Domain = () => ({ name: 'Permit2', chainId: ARB, verifyingContract: PERMIT2_ADDRESS });
const TOKEN_PERMISSIONS = [{ name: 'token', type: 'address' }, { name: 'amount', type: 'uint256' }];

/** A Permit2 PermitTransferFrom for the proxy, signed by `signer` (as the SDK's signPermit2Message signs it). */
async function signPermit(signer: Wallet, tokenAddress: string, amount: bigint, nonce: bigint, deadline: bigint) {
  const signature = await signer.signTypedData(permit2Domain(), {
    TokenPermissions: TOKEN_PERMISSIONS,
    PermitTransferFrom: [{ name: 'permitted', type: 'TokenPermissions' }, { name: 'spender', type: 'address' }, { name: 'nonce', type: 'uint256' }, { name: 'deadline', type: 'uint256' }],
  }, { permitted: { token: tokenAddress, amount }, spender: await proxy.getAddress(), nonce, deadline });
  return { permit: [[tokenAddress, amount], nonce, deadline] as const, signature };
}

/** The same with the witness LiFiCall(router, keccak256(calldata)). */
async function signWitnessPermit(signer: Wallet, tokenAddress: string, amount: bigint, nonce: bigint, deadline: bigint, calldata: string) {
  const signature = await signer.signTypedData(permit2Domain(), {
    TokenPermissions: TOKEN_PERMISSIONS,
    LiFiCall: [{ name: 'diamondAddress', type: 'address' }, { name: 'diamondCalldataHash', type: 'bytes32' }],
    PermitWitnessTransferFrom: [
      { name: 'permitted', type: 'TokenPermissions' }, { name: 'spender', type: 'address' }, { name: 'nonce', type: 'uint256' },
      { name: 'deadline', type: 'uint256' }, { name: 'witness', type: 'LiFiCall' },
    ],
  }, { permitted: { token: tokenAddress, amount }, spender: await proxy.getAddress(), nonce, deadline, witness: { diamondAddress: router, diamondCalldataHash: keccak256(calldata) } });
  return { permit: [[tokenAddress, amount], nonce, deadline] as const, signature };
}

/** USDC's EIP-2612 permit of `amount` for the proxy. */
async function signNativePermit(signer: Wallet, usdc: Contract, amount: bigint, deadline: bigint) {
  const signature = await signer.signTypedData(
    { name: await usdc.name(), version: '2', chainId: ARB, verifyingContract: await usdc.getAddress() },
    { Permit: [{ name: 'owner', type: 'address' }, { name: 'spender', type: 'address' }, { name: 'value', type: 'uint256' }, { name: 'nonce', type: 'uint256' }, { name: 'deadline', type: 'uint256' }] },
    { owner: signer.address, spender: await proxy.getAddress(), value: amount, nonce: await usdc.nonces(signer.address), deadline },
  );
  return Signature.from(signature);
}

/** A transaction's receipt, polled (ethers' wait() can miss the block on an automining devnet). */
const mined = async (sending: Promise<{ hash: string }>) => waitForReceipt(provider, (await sending).hash);

const later = async () => BigInt((await provider.getBlock('latest'))!.timestamp + 1800);

/** Sends and expects a revert: refused at estimation, or mined with status 0 (its receipt polled, not ethers' wait()). */
async function expectRevert(send: () => Promise<{ hash: string }>): Promise<void> {
  let sent: { hash: string };
  try {
    sent = await send();
  } catch {
    return; // refused before it was sent
  }
  expect((await waitForReceipt(provider, sent.hash)).status).toBe(0);
}

async function holdings(address: string, tokens: readonly Contract[]): Promise<bigint[]> {
  return [await provider.getBalance(address), ...await Promise.all(tokens.map((t) => t.balanceOf(address) as Promise<bigint>))];
}

describe('Uniswap\'s Permit2 on the devnet', () => {
  it('is the published code at the canonical address, with the EIP-712 domain of this chain and address', async () => {
    expect(keccak256(await provider.getCode(PERMIT2_ADDRESS))).toBe(PERMIT2_RUNTIME_CODE_HASH);
    const expected = keccak256(AbiCoder.defaultAbiCoder().encode(['bytes32', 'bytes32', 'uint256', 'address'], [
      keccak256(toUtf8Bytes('EIP712Domain(string name,uint256 chainId,address verifyingContract)')), keccak256(toUtf8Bytes('Permit2')), ARB, PERMIT2_ADDRESS,
    ]));
    expect(await new Contract(PERMIT2_ADDRESS, PERMIT2, provider).DOMAIN_SEPARATOR()).toBe(expected);
  });

  it('the router refunds the proxy\'s user and the proxy calls this router', async () => {
    const routerC = new Contract(router, sandbox.devnet.artifacts.Router.abi as never, provider);
    expect(getAddress(await routerC.permit2Proxy())).toBe(getAddress(await proxy.getAddress()));
    expect(getAddress(await proxy.LIFI_DIAMOND())).toBe(getAddress(router));
  });
});

describe('the Permit2 proxy executes the service\'s quotes with a signature instead of an approval', () => {
  it('callDiamondWithPermit2: WETH → USDC, exactly the signed amount, no approval of the router left, nothing left in the proxy or router', async () => {
    const weth = token('WETH');
    const usdc = token('USDC');
    const amount = 10n ** 17n;
    await mined(weth.connect(user).getFunction('approve')(PERMIT2_ADDRESS, MaxUint256)); // the one-time Permit2 approval
    const q = await quote('WETH', 'USDC', amount, user.address);
    const nonce = (await proxy.nextNonce(user.address)) as bigint;
    const { permit, signature } = await signPermit(user, await weth.getAddress(), amount, nonce, await later());
    const [routerBefore, proxyBefore] = await Promise.all([holdings(router, [weth, usdc]), holdings(await proxy.getAddress(), [weth, usdc])]);
    const wethBefore = (await weth.balanceOf(user.address)) as bigint;
    const usdcBefore = (await usdc.balanceOf(user.address)) as bigint;
    await mined(proxy.connect(user).getFunction('callDiamondWithPermit2')(q.data, permit, signature));
    expect(wethBefore - ((await weth.balanceOf(user.address)) as bigint)).toBe(amount);
    expect(((await usdc.balanceOf(user.address)) as bigint) - usdcBefore >= q.toAmountMin).toBe(true);
    expect(await weth.allowance(user.address, router)).toBe(0n);
    expect(await weth.allowance(await proxy.getAddress(), router)).toBe(0n);
    expect(await holdings(router, [weth, usdc])).toEqual(routerBefore);
    expect(await holdings(await proxy.getAddress(), [weth, usdc])).toEqual(proxyBefore);
    // the nonce is used: the next one is offered
    expect(await proxy.nextNonce(user.address)).toBe(nonce + 1n);
  });

  it('callDiamondWithEIP2612Signature: USDC → WETH with USDC\'s own permit, no allowance left anywhere', async () => {
    const usdc = token('USDC');
    const weth = token('WETH');
    const amount = 1_000_000_000n;
    const q = await quote('USDC', 'WETH', amount, user.address);
    const deadline = await later();
    const sig = await signNativePermit(user, usdc, amount, deadline);
    const usdcBefore = (await usdc.balanceOf(user.address)) as bigint;
    await mined(proxy.connect(user).getFunction('callDiamondWithEIP2612Signature')(await usdc.getAddress(), amount, deadline, sig.v, sig.r, sig.s, q.data));
    expect(usdcBefore - ((await usdc.balanceOf(user.address)) as bigint)).toBe(amount);
    expect(await usdc.allowance(user.address, await proxy.getAddress())).toBe(0n);
    expect(await usdc.allowance(user.address, router)).toBe(0n);
    expect(await usdc.balanceOf(await proxy.getAddress())).toBe(0n);
    expect(await weth.balanceOf(await proxy.getAddress())).toBe(0n);
  });

  it('callDiamondWithPermit2Witness: a relayer (anyone) sends the user\'s signed call; the user pays, the relayer gains nothing', async () => {
    const weth = token('WETH');
    const usdc = token('USDC');
    const amount = 10n ** 17n;
    await mined(weth.connect(user).getFunction('approve')(PERMIT2_ADDRESS, MaxUint256));
    const q = await quote('WETH', 'USDC', amount, user.address);
    const nonce = (await proxy.nextNonce(user.address)) as bigint;
    const { permit, signature } = await signWitnessPermit(user, await weth.getAddress(), amount, nonce, await later(), q.data);
    const usdcBefore = (await usdc.balanceOf(user.address)) as bigint;
    const attackerBefore = await holdings(attacker.address, [weth, usdc]);
    await mined(proxy.connect(attacker).getFunction('callDiamondWithPermit2Witness')(q.data, user.address, permit, signature));
    expect(((await usdc.balanceOf(user.address)) as bigint) - usdcBefore >= q.toAmountMin).toBe(true);
    const attackerAfter = await holdings(attacker.address, [weth, usdc]);
    expect(attackerAfter.slice(1)).toEqual(attackerBefore.slice(1));
  });
});

describe('the relay core (src/core/relay) on the genuine Permit2 and the proxy', () => {
  it('its typed data, signed with viem as the SDK signs it, passes its check; its relay call moves exactly the signed amount into the signed router call, once', async () => {
    const weth = token('WETH');
    const usdc = token('USDC');
    const amount = 10n ** 17n;
    await mined(weth.connect(user).getFunction('approve')(PERMIT2_ADDRESS, MaxUint256));
    const q = await quote('WETH', 'USDC', amount, user.address);
    const deadline = await later();
    const expected = { chainId: ARB, permit2: PERMIT2_ADDRESS, proxy: await proxy.getAddress(), router, token: await weth.getAddress(), amount, routerCalldata: q.data, owner: user.address };
    const typed = permitWitnessTypedData({ ...expected, nonce: relayNonce(ARB, user.address, 'e2e-step', deadline), deadline });
    const wire = JSON.parse(JSON.stringify(typed)) as Record<string, unknown>;
    const signature = await privateKeyToAccount(user.privateKey as `0x${string}`).signTypedData(wire as never);
    const now = BigInt((await provider.getBlock('latest'))!.timestamp);
    const checked = checkSignedWitness({ ...wire, signature }, expected, { now, minRemainingSeconds: 60n, maxRemainingSeconds: 3600n }, '/typedData/0');
    if (!checked.ok) throw new Error(`refused: ${checked.field} ${checked.message}`);

    const wethBefore = (await weth.balanceOf(user.address)) as bigint;
    const usdcBefore = (await usdc.balanceOf(user.address)) as bigint;
    const relayerBefore = await holdings(attacker.address, [weth, usdc]);
    const send = () => attacker.sendTransaction({ to: expected.proxy, data: relayCallData(q.data, checked.permit) });
    await mined(send());
    expect(wethBefore - ((await weth.balanceOf(user.address)) as bigint)).toBe(amount);
    expect(((await usdc.balanceOf(user.address)) as bigint) - usdcBefore >= q.toAmountMin).toBe(true);
    // the relayer paid gas and gained no token
    expect((await holdings(attacker.address, [weth, usdc])).slice(1)).toEqual(relayerBefore.slice(1));
    // the same signed call again: Permit2's nonce is spent
    await expectRevert(send);
    expect(wethBefore - ((await weth.balanceOf(user.address)) as bigint)).toBe(amount);
  });
});

describe('a signature cannot be misused', () => {
  it('by another caller: the attacker sends the user\'s Permit2 signature (with its own call data paying itself): refused', async () => {
    const weth = token('WETH');
    const amount = 10n ** 17n;
    await mined(weth.connect(user).getFunction('approve')(PERMIT2_ADDRESS, MaxUint256));
    const { permit, signature } = await signPermit(user, await weth.getAddress(), amount, await proxy.nextNonce(user.address), await later());
    const theirs = await quote('WETH', 'USDC', amount, attacker.address);
    const before = (await weth.balanceOf(user.address)) as bigint;
    await expectRevert(() => proxy.connect(attacker).getFunction('callDiamondWithPermit2')(theirs.data, permit, signature));
    // the witness variant names the signer, but the signature binds the call data: other call data is refused
    const ours = await quote('WETH', 'USDC', amount, user.address);
    const witnessed = await signWitnessPermit(user, await weth.getAddress(), amount, await proxy.nextNonce(user.address), await later(), ours.data);
    await expectRevert(() => proxy.connect(attacker).getFunction('callDiamondWithPermit2Witness')(theirs.data, user.address, witnessed.permit, witnessed.signature));
    expect(await weth.balanceOf(user.address)).toBe(before);
  });

  it('twice: the same signature again is refused (Permit2\'s nonce)', async () => {
    const weth = token('WETH');
    const amount = 10n ** 16n;
    await mined(weth.connect(user).getFunction('approve')(PERMIT2_ADDRESS, MaxUint256));
    const q = await quote('WETH', 'USDC', amount, user.address);
    const { permit, signature } = await signPermit(user, await weth.getAddress(), amount, await proxy.nextNonce(user.address), await later());
    await mined(proxy.connect(user).getFunction('callDiamondWithPermit2')(q.data, permit, signature));
    await expectRevert(() => proxy.connect(user).getFunction('callDiamondWithPermit2')(q.data, permit, signature));
  });

  it('after its deadline: refused', async () => {
    const weth = token('WETH');
    const amount = 10n ** 16n;
    await mined(weth.connect(user).getFunction('approve')(PERMIT2_ADDRESS, MaxUint256));
    const q = await quote('WETH', 'USDC', amount, user.address);
    const deadline = BigInt((await provider.getBlock('latest'))!.timestamp + 60);
    const { permit, signature } = await signPermit(user, await weth.getAddress(), amount, await proxy.nextNonce(user.address), deadline);
    await provider.send('evm_increaseTime', [120]);
    await provider.send('evm_mine', []);
    await expectRevert(() => proxy.connect(user).getFunction('callDiamondWithPermit2')(q.data, permit, signature));
    const usdc = token('USDC');
    const sig = await signNativePermit(user, usdc, 10n ** 6n, deadline);
    const q2 = await quote('USDC', 'WETH', 10n ** 6n, user.address);
    await expectRevert(() => proxy.connect(user).getFunction('callDiamondWithEIP2612Signature')(usdc.getAddress(), 10n ** 6n, deadline, sig.v, sig.r, sig.s, q2.data));
  });

  it('a permit someone else submitted first: only its signer can use the allowance it gave, through the proxy', async () => {
    const usdc = token('USDC');
    const amount = 1_000_000n;
    const deadline = await later();
    const sig = await signNativePermit(user, usdc, amount, deadline);
    // the attacker front-runs the permit itself (it is public once sent) …
    await mined(usdc.connect(attacker).getFunction('permit')(user.address, await proxy.getAddress(), amount, deadline, sig.v, sig.r, sig.s));
    expect(await usdc.allowance(user.address, await proxy.getAddress())).toBe(amount);
    // … then tries to have the proxy spend it, with call data paying itself: the proxy pulls from msg.sender only
    const theirs = await quote('USDC', 'WETH', amount, attacker.address);
    const before = (await usdc.balanceOf(user.address)) as bigint;
    await expectRevert(() => proxy.connect(attacker).getFunction('callDiamondWithEIP2612Signature')(usdc.getAddress(), amount, deadline, sig.v, sig.r, sig.s, theirs.data));
    expect(await usdc.balanceOf(user.address)).toBe(before);
    // the user still completes its own transfer with the same signature (the proxy accepts the allowance already there)
    const ours = await quote('USDC', 'WETH', amount, user.address);
    await mined(proxy.connect(user).getFunction('callDiamondWithEIP2612Signature')(usdc.getAddress(), amount, deadline, sig.v, sig.r, sig.s, ours.data));
    expect(before - ((await usdc.balanceOf(user.address)) as bigint)).toBe(amount);
    expect(await usdc.allowance(user.address, await proxy.getAddress())).toBe(0n);
  });

  it('the proxy cannot be used to call the router\'s admin functions', async () => {
    const weth = token('WETH');
    const routerI = new Interface(sandbox.devnet.artifacts.Router.abi as never);
    const admin = routerI.encodeFunctionData('setPermit2Proxy', [attacker.address]);
    await mined(token('WETH').connect(sandbox.devnet.wallet(ARB, 1)).getFunction('transfer')(attacker.address, 10n ** 16n));
    await mined(weth.connect(attacker).getFunction('approve')(PERMIT2_ADDRESS, MaxUint256));
    const { permit, signature } = await signPermit(attacker, await weth.getAddress(), 10n ** 16n, await proxy.nextNonce(attacker.address), await later());
    await expectRevert(() => proxy.connect(attacker).getFunction('callDiamondWithPermit2')(admin, permit, signature));
    const routerC = new Contract(router, sandbox.devnet.artifacts.Router.abi as never, provider);
    expect(getAddress(await routerC.permit2Proxy())).toBe(getAddress(await proxy.getAddress()));
  });
});

describe('GET /v1/status follows transactions sent through the proxy as router calls', () => {
  const status = async (txHash: string) => {
    const response = await fetch(`${sandbox.url}/v1/status?${new URLSearchParams({ txHash, fromChain: String(ARB), toChain: String(ARB) })}`);
    return await response.json() as { status: string; substatus?: string; tool?: string; sending?: { txHash?: string; amount?: string } };
  };

  it('DONE with the swap\'s tool for a Permit2 swap; FAILED SLIPPAGE_EXCEEDED (not INVALID) when the router call reverts', async () => {
    const weth = token('WETH');
    await mined(weth.connect(user).getFunction('approve')(PERMIT2_ADDRESS, MaxUint256));
    const amount = 10n ** 17n;
    const q = await quote('WETH', 'USDC', amount, user.address);
    const { permit, signature } = await signPermit(user, await weth.getAddress(), amount, await proxy.nextNonce(user.address), await later());
    const done = await mined(proxy.connect(user).getFunction('callDiamondWithPermit2')(q.data, permit, signature));
    const body = await status(done.hash);
    expect(body).toMatchObject({ status: 'DONE', substatus: 'COMPLETED', sending: { txHash: done.hash } });
    expect(body.tool).not.toBe('lifi');

    // a quote with a tight slippage, then someone moves the price: the router call reverts inside the proxy's
    const tight = await fetch(`${sandbox.url}/v1/quote?${new URLSearchParams({ fromChain: String(ARB), toChain: String(ARB), fromToken: 'WETH', toToken: 'USDC', fromAmount: amount.toString(), fromAddress: user.address, slippage: '0.001' })}`);
    const tq = await tight.json() as { transactionRequest: { data: string }; includedSteps: { tool: string }[] };
    const mover = sandbox.devnet.wallet(ARB, 1);
    await mined(weth.connect(mover).getFunction('approve')(router, MaxUint256));
    const late = await signPermit(user, await weth.getAddress(), amount, await proxy.nextNonce(user.address), await later());
    const wouldRun = () => proxy.connect(user).getFunction('callDiamondWithPermit2').staticCall(tq.transactionRequest.data, late.permit, late.signature, { gasLimit: 3_000_000n }).then(() => true, () => false);
    // the mover swaps 30 WETH on the exchanges of the tight quote's route, again if the service's view of the pools
    // then lagged the chain and its route left the tight route's pool as it was (seen on a loaded machine)
    const exchanges = [...new Set(tq.includedSteps.map((step) => step.tool))].join(',');
    expect(await wouldRun()).toBe(true); // before the move, the user's signed call runs
    for (let moves = 0; moves < 3 && await wouldRun(); moves++) {
      const moving = await fetch(`${sandbox.url}/v1/quote?${new URLSearchParams({ fromChain: String(ARB), toChain: String(ARB), fromToken: 'WETH', toToken: 'USDC', fromAmount: (3n * 10n ** 19n).toString(), fromAddress: mover.address, slippage: '0.5', maxPriceImpact: '0.9', allowExchanges: exchanges })}`);
      const big = await moving.json() as { transactionRequest: { to: string; data: string } };
      expect((await mined(mover.sendTransaction({ to: big.transactionRequest.to, data: big.transactionRequest.data, gasLimit: 3_000_000n })))!.status).toBe(1);
    }
    expect(await wouldRun()).toBe(false);
    const sent = await proxy.connect(user).getFunction('callDiamondWithPermit2')(tq.transactionRequest.data, late.permit, late.signature, { gasLimit: 3_000_000n });
    const failed = await waitForReceipt(provider, sent.hash);
    expect(failed.status).toBe(0);
    const failedStatus = await status(sent.hash);
    expect(failedStatus).toMatchObject({ status: 'FAILED', substatus: 'SLIPPAGE_EXCEEDED' });
  });
});
