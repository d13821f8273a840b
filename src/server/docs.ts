import fs from 'node:fs';
import path from 'node:path';
import express, { type Request, type Response } from 'express';
import helmet from 'helmet';
import type { ContractSource } from './contract';

/**
 * The interactive API reference and the contract, outside /v1 (mounted before the API, so they never
 * reach openapi-backend's notFound, and before access control, so they are not rate limited):
 *
 * - `GET /docs`: Scalar's API reference for openapi.yaml, its standalone bundle served from
 *   node_modules (nothing is fetched from the internet: no CDN, no web fonts, no telemetry), with
 *   "Test Request" sending to this server's own origin;
 * - `GET /openapi.yaml`: the contract as written; `GET /openapi.json`: the same document as JSON.
 *
 * The page's Content-Security-Policy lets it run only scripts from this origin (the bundle and a
 * small init script, no inline script), connect only to this origin, and never be framed.
 */
export function docsRouter(contract: ContractSource): express.Router {
  const contractYaml = contract.text;
  let contractJson: string | undefined; // written on the first request for it
  const bundle = scalarBundlePath();
  const title = escapeHtml(String((contract.document as { info?: { title?: string } }).info?.title ?? 'API reference'));

  const router = express.Router();
  const docsCsp = helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      // the bundle injects its stylesheet and sets style attributes
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      workerSrc: ["'self'", 'blob:'],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  });

  router.get(['/docs', '/docs/'], docsCsp, (_req: Request, res: Response) => {
    res.type('html').set('cache-control', 'no-cache').send(page(title));
  });
  router.get('/docs/init.js', (_req: Request, res: Response) => {
    res.type('application/javascript').set('cache-control', 'no-cache').send(INIT_SCRIPT);
  });
  router.get('/docs/standalone.js', (_req: Request, res: Response) => {
    res.sendFile(bundle, { headers: { 'content-type': 'application/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' } });
  });
  router.get('/openapi.yaml', (_req: Request, res: Response) => {
    res.type('application/yaml; charset=utf-8').set('cache-control', 'no-cache').send(contractYaml);
  });
  router.get('/openapi.json', (_req: Request, res: Response) => {
    res.type('application/json; charset=utf-8').set('cache-control', 'no-cache').send((contractJson ??= JSON.stringify(contract.document)));
  });
  return router;
}

/** The Scalar standalone bundle installed with @scalar/api-reference. */
export function scalarBundlePath(): string {
  // the package's "exports" expose only its ESM entry point (dist/index.js), next to dist/browser/
  const entry = require.resolve('@scalar/api-reference');
  const bundle = path.join(path.dirname(entry), 'browser', 'standalone.js');
  if (!fs.existsSync(bundle)) throw new Error(`the Scalar bundle is missing at ${bundle}: run npm install`);
  return bundle;
}

function page(title: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <link rel="icon" href="data:," />
    <title>${title}: API reference</title>
  </head>
  <body>
    <div id="app"></div>
    <script src="/docs/standalone.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;
}

/** Runs the reference on /openapi.json; requests go to this origin, whatever the contract's `servers` list. */
const INIT_SCRIPT = `'use strict';
window.Scalar.createApiReference('#app', {
  url: '/openapi.json',
  servers: [{ url: window.location.origin, description: 'This service' }],
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  persistAuth: false,
  hideClientButton: false,
  defaultOpenAllTags: true,
});
`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
