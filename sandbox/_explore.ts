import request from 'supertest';
import { Interface } from 'ethers';
import { startDevnet } from './devnet';
import { makeTestApp } from '../test/support/app';
import { approveIfNeeded, balanceOf, replayRevert, sendTransactionRequest } from './execute';
import { BRIDGE_FACETS, routerInterface } from '../src/core/transactions/abi';

async function main() {
  const [devnet, { app }] = await Promise.all([startDevnet({}), makeTestApp()]);
  const errors = new Interface(Object.values(devnet.artifacts).flatMap((a) => (a.abi as any[]).filter((x) => x.type === 'error')) as any);
  const routerI = routerInterface(Object.keys(BRIDGE_FACETS));
  try {
    const cases = JSON.parse(process.argv[2]);
    for (const q of cases) {
      const restore = await devnet.checkpoint();
      const chainId = Number(q.query.fromChain);
      const wallet = devnet.wallet(chainId, 0);
      const path = q.path ?? '/v1/quote';
      const res = await request(app).get(path).query({ ...q.query, fromAddress: wallet.address });
      if (res.status !== 200) { console.log(JSON.stringify(q.query), res.status, JSON.stringify(res.body).slice(0, 300)); await restore(); continue; }
      const quote = res.body;
      const provider = devnet.chain(chainId).provider;
      await approveIfNeeded(wallet, quote.action.fromToken.address, quote.estimate.approvalAddress, BigInt(quote.action.fromAmount));
      const toChain = devnet.chain(quote.action.toChainId);
      const receiver = q.query.toAddress ?? wallet.address;
      const before = await balanceOf(toChain.provider, quote.action.toToken.address, receiver);
      const nativeBefore = await toChain.provider.getBalance(receiver);
      const receipt = await sendTransactionRequest(wallet, quote.transactionRequest);
      const label = `${JSON.stringify(q.query)} [${quote.includedSteps.map((s: any) => s.type + ':' + s.tool).join(' ')}] gas ${receipt.gasUsed}/${BigInt(quote.transactionRequest.gasLimit)}`;
      if (receipt.status !== 1) { console.log('REVERT', label, await replayRevert(provider, receipt, errors)); await restore(); continue; }
      if (quote.action.fromChainId !== quote.action.toChainId) {
        const started = receipt.logs.map((l) => { try { return routerI.parseLog(l); } catch { return null; } }).filter((e) => e?.name === 'LiFiTransferStarted');
        for (const s of started) {
          const c = await devnet.relayer!.waitFor(s!.args.bridgeData.transactionId);
          if (c.kind !== 'released') console.log('  refunded', c.reason);
        }
        // several transfers may share one transactionId (refuel): wait a little for all
        await new Promise((r) => setTimeout(r, 300));
      }
      const after = await balanceOf(toChain.provider, quote.action.toToken.address, receiver);
      const gasPaid = quote.action.toToken.address === '0x0000000000000000000000000000000000000000' && quote.action.fromChainId === quote.action.toChainId && receiver === wallet.address ? receipt.gasUsed * receipt.gasPrice : 0n;
      const got = after - before + gasPaid;
      const want = BigInt(quote.estimate.toAmount);
      console.log(got === want ? 'EXACT' : `MISMATCH got ${got} want ${want} diff ${got - want}`, label);
      if (quote.estimate.data?.gasRefuel || q.showNative) console.log('  native on destination +', (await toChain.provider.getBalance(receiver)) - nativeBefore, JSON.stringify(quote.estimate.data?.gasRefuel ?? {}));
      await restore();
    }
  } finally {
    await devnet.stop();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
