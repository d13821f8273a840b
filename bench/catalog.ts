/**
 * npm run bench:catalog — the token catalog at the published lists' size (3,802 tokens), as integrators ask for it:
 * `GET /v1/tokens` with every filter, ordering and limit the SDK and widget send, and `GET /v1/token` by symbol and by
 * address, over HTTP against the real app (every answer validated against the contract, as in production). Each
 * request is new: the response cache is keyed by the query, and every query here differs (a search text, a chain set
 * or a limit of its own), so the figures are the catalog's own work plus JSON, not cache hits. Prints p50/p99/max
 * per kind and the answers' sizes.
 *
 *   npm run bench:catalog -- [--requests=200]
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeTestApp } from '../test/support/app';

const args = Object.fromEntries(process.argv.slice(2).map((a) => /^--([^=]+)(?:=(.*))?$/s.exec(a)?.slice(1) ?? [a, undefined])) as Record<string, string | undefined>;
const REQUESTS = Number(args.requests ?? 200);

async function main(): Promise<void> {
  const t = await makeTestApp({ warmUp: true });
  const server = http.createServer(t.app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const catalog = t.dependencies.catalog;
  const tokens = catalog.chains.flatMap((c) => catalog.tokensOf(c.id));
  const evm = catalog.chains.filter((c) => c.chainType === 'EVM').map((c) => c.key);
  console.log(`catalog: ${catalog.chains.length} chains, ${tokens.length} tokens (${tokens.filter((x) => x.priceUSD === '0').length} without a price)`);

  // k-th request of each kind: a query no other request of the run repeats
  const kinds: Record<string, (k: number) => string> = {
    'every token (minPriceUSD=0, limit varies)': (k) => `/v1/tokens?minPriceUSD=0&limit=${5000 - k}`,
    'default minPriceUSD, chain sets': (k) => `/v1/tokens?chains=${evm.filter((_, i) => (k >> i) & 1 || i === k % evm.length).join(',')}`,
    'widget: orderBy volume, extended, limit 1000': (k) => `/v1/tokens?chainTypes=EVM,SVM&orderBy=volumeUSD24H&extended=true&limit=${1000 - k}&minPriceUSD=0`,
    'search by text': (k) => `/v1/tokens?minPriceUSD=0&search=${encodeURIComponent(Array.from(tokens[(k * 16) % tokens.length].symbol).slice(0, 3).join(''))}&limit=${100 + k}`,
    'one token by symbol': (k) => `/v1/token?chain=${tokens[(k * 13) % tokens.length].chainId}&token=${encodeURIComponent(tokens[(k * 13) % tokens.length].symbol)}`,
    'one token by address': (k) => `/v1/token?chain=${tokens[(k * 17) % tokens.length].chainId}&token=${tokens[(k * 17) % tokens.length].address}`,
  };
  console.log(`${REQUESTS} new requests of each kind, one at a time:`);
  for (const [name, path] of Object.entries(kinds)) {
    const times: number[] = [];
    let bytes = 0;
    for (let k = 0; k < REQUESTS; k += 1) {
      const started = process.hrtime.bigint();
      const response = await fetch(base + path(k));
      const body = await response.arrayBuffer();
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (response.status !== 200) throw new Error(`${path(k)} answered ${response.status}: ${Buffer.from(body).toString().slice(0, 300)}`);
      bytes += body.byteLength;
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
    console.log(`  ${name.padEnd(46)} p50 ${at(0.5)} ms  p99 ${at(0.99)} ms  max ${times[times.length - 1].toFixed(1)} ms  ~${Math.round(bytes / REQUESTS / 1024)} KB`);
  }
  server.close();
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
