/**
 * The request log never holds a secret, as a reader of the logs would try to find one: API keys in headers or in the
 * URL, credentials, cookies, the portal's session cookie (set-cookie) and CSRF token (in either direction) — on the
 * "request completed" line (info) and on a line a handler logs through req.log when info is off.
 */
import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { redactUrl, requestLogging } from '../../../src/server/requestLogging';

const SECRETS = {
  apiKey: 'svc_live_0123456789abcdef',
  lifiKey: 'lifi-key-fedcba9876543210',
  queryKey: 'query-key-aaaabbbbccccdddd',
  token: 'tok_eeeeffff00001111',
  csrfIn: 'csrf-in-2222333344445555',
  csrfOut: 'csrf-out-6666777788889999',
  session: 'sess-aaaa1111bbbb2222cccc',
  cookie: 'portal_session=cookie-dddd3333eeee4444',
  bearer: 'Bearer eyJhbGciOiJub25lIn0.secret-part',
};

function appLogging(level: 'info' | 'warn'): { app: express.Express; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
  const app = express();
  app.use(requestLogging(pino({ level }, stream)));
  app.get('/sign-in', (req, res) => {
    req.log.warn('handler line');
    res.setHeader('set-cookie', `portal_session=${SECRETS.session}; HttpOnly; Secure`);
    res.setHeader('x-csrf-token', SECRETS.csrfOut);
    res.json({ ok: true });
  });
  return { app, lines };
}

async function signIn(app: express.Express) {
  return request(app)
    .get(`/sign-in?chain=42161&apiKey=${SECRETS.queryKey}&x-lifi-api-key=${SECRETS.lifiKey}&access_token=${SECRETS.token}`)
    .set('x-svc-api-key', SECRETS.apiKey)
    .set('x-csrf-token', SECRETS.csrfIn)
    .set('cookie', SECRETS.cookie)
    .set('authorization', SECRETS.bearer);
}

describe('request logging keeps secrets out of the log', () => {
  it.each(['info', 'warn'] as const)('at level %s: no key, token, cookie or CSRF token in any line; what is not secret stays', async (level) => {
    const { app, lines } = appLogging(level);
    expect((await signIn(app)).status).toBe(200);
    const text = lines.join('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret.replace(/^Bearer /, '').replace(/^portal_session=/, ''));
    expect(text).toContain('[redacted]');
    expect(text).toContain('chain=42161'); // the rest of the URL as sent
  });

  it('on the completed line: request headers, response headers and the parsed query are redacted by name', async () => {
    const { app, lines } = appLogging('info');
    await signIn(app);
    const completed = lines.map((l) => JSON.parse(l) as { msg: string; req: { url: string; query?: Record<string, string>; headers: Record<string, string> }; res: { headers: Record<string, string> } })
      .find((r) => r.msg === 'request completed')!;
    expect(completed.req.headers).toMatchObject({ 'x-svc-api-key': '[redacted]', 'x-csrf-token': '[redacted]', cookie: '[redacted]', authorization: '[redacted]' });
    expect(completed.res.headers).toMatchObject({ 'set-cookie': '[redacted]', 'x-csrf-token': '[redacted]' });
    expect(completed.req.url).toBe('/sign-in?chain=42161&apiKey=[redacted]&x-lifi-api-key=[redacted]&access_token=[redacted]');
  });

  it('redactUrl: secret-looking names (also percent-encoded) lose their values; others, and URLs without a query, are kept', () => {
    expect(redactUrl('/v1/chains')).toBe('/v1/chains');
    expect(redactUrl('/v1/quote?fromChain=1&fromToken=USDC&toToken=WETH&fromAmountForGas=1')).toBe('/v1/quote?fromChain=1&fromToken=USDC&toToken=WETH&fromAmountForGas=1');
    expect(redactUrl('/v1/x?api%5Fkey=abc&SIGNATURE=0xdef&flag')).toBe('/v1/x?api%5Fkey=[redacted]&SIGNATURE=[redacted]&flag');
    expect(redactUrl('/v1/x?%E0%A4%A=1')).toBe('/v1/x?%E0%A4%A=1'); // a malformed name is kept as sent, not a crash
  });
});
