/**
 * The interactive API reference (/docs) and the contract (/openapi.yaml, /openapi.json), served
 * outside /v1 from local files only. The browser test (test/browser/docs.ts) drives the page itself.
 */
import fs from 'node:fs';
import yaml from 'js-yaml';
import request from 'supertest';
import { scalarBundlePath } from '../../src/server/docs';
import { useAppAndContract } from '../support/app';
import { OPENAPI_PATH } from '../support/contract';

const { t, contract } = useAppAndContract({ limits: 'spec' });

describe('GET /docs', () => {
  it('serves the reference page, which loads only scripts of this origin', async () => {
    const res = await request(t.app).get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const scripts = [...res.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((m) => m[1]!.trim())).toEqual(['src="/docs/standalone.js"', 'src="/docs/init.js"']);
    expect(scripts.every((m) => m[2]!.trim() === '')).toBe(true);
    expect(res.text).not.toMatch(/https?:\/\//);
    expect(res.text).toMatch(/<title>Cross-chain Transfer Routing Service API: API reference<\/title>/);
    expect((await request(t.app).get('/docs/')).status).toBe(200);
  });

  it('has a Content-Security-Policy that lets the page run its own scripts and nothing else', async () => {
    const res = await request(t.app).get('/docs');
    const csp = Object.fromEntries(
      String(res.headers['content-security-policy'])
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );
    expect(csp['default-src']).toEqual(["'none'"]);
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['connect-src']).toEqual(["'self'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves the Scalar standalone bundle from node_modules and the init script', async () => {
    const bundle = await request(t.app).get('/docs/standalone.js').buffer(true).parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => done(null, Buffer.concat(chunks)));
    });
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/^application\/javascript/);
    expect((bundle.body as Buffer).equals(fs.readFileSync(scalarBundlePath()))).toBe(true);
    const init = await request(t.app).get('/docs/init.js');
    expect(init.status).toBe(200);
    expect(init.headers['content-type']).toMatch(/^application\/javascript/);
    expect(init.text).toMatch(/createApiReference\('#app'/);
    expect(init.text).toMatch(/url: '\/openapi\.json'/);
    expect(init.text).toMatch(/withDefaultFonts: false/);
    expect(init.text).toMatch(/telemetry: false/);
  });

  it('is not rate limited and ignores API keys (it is not part of /v1)', async () => {
    const res = await request(t.app).get('/docs').set('x-svc-api-key', 'not-a-key');
    expect(res.status).toBe(200);
    expect(res.headers['ratelimit-limit']).toBeUndefined();
  });

  it('leaves other methods and paths under /docs to the API error path (404 JSON)', async () => {
    for (const res of [await request(t.app).post('/docs'), await request(t.app).get('/docs/nothing.js'), await request(t.app).get('/docs/standalone.js.map')]) {
      expect(res.status).toBe(404);
      contract.expectErrorBody(res.body);
      expect(res.body.code).toBe(1003);
    }
  });
});

describe('the contract', () => {
  it('GET /openapi.yaml serves openapi.yaml as written', async () => {
    const res = await request(t.app).get('/openapi.yaml');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/yaml/);
    expect(res.text).toBe(fs.readFileSync(OPENAPI_PATH, 'utf8'));
  });

  it('GET /openapi.json serves the same document as JSON', async () => {
    const res = await request(t.app).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(yaml.load(fs.readFileSync(OPENAPI_PATH, 'utf8')));
    expect(Object.keys(res.body.paths)).toContain('/v1/chains');
  });
});
