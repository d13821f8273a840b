/**
 * The portal's key routes under /integrators/:integratorId/keys: create, rename, set the IP allowlist, rotate,
 * revoke, and a key's usage (requests and refusals over time and by operation, its limits and blocks).
 */
import type { Request, Response, Router } from 'express';
import { keyLimits } from '../../core/access/policy';
import { activeBlocks } from '../../persistence/blocks';
import { createKey, renameKey, revokeKey, rotateKey, setKeyAllowlist } from '../../persistence/keys';
import { usageByOperation, usageSeries } from '../../persistence/usage';
import type { IssuedKeyAnswer, KeyAnswer, UsageAnswer } from '../api';
import { InputError, allowlist, graceMs, keyName, portalKey, usageWindow } from '../views';
import { logOf, type PortalContext } from './context';

/** An integrator has at most this many keys that work (active or in a rotation's grace period). */
export const MAX_WORKING_KEYS = 20;

/** Adds the key routes to the portal's API router. */
export function keyRoutes(api: Router, context: PortalContext): void {
  const { logger, clock, defaultGraceMs, database, signedIn, ownIntegrator, ownKey, shown, actor } = context;

  api.post('/integrators/:integratorId/keys', signedIn, async (req: Request, res: Response) => {
    const body = (req.body ?? {}) as { name?: unknown; ipAllowlist?: unknown };
    const name = body.name === undefined || body.name === '' ? undefined : keyName(body.name);
    const ipAllowlist = allowlist(body.ipAllowlist);
    const { db } = await database();
    const integrator = await ownIntegrator(db, req, res);
    // refused while a key of the integrator is blocked (403, IntegratorBlockedError); counted and inserted under a
    // lock on the integrator's row, so that parallel creations never pass the cap (409)
    const issued = await createKey(db, { integratorId: integrator.integratorId, ...(name ? { name } : {}), ...(ipAllowlist ? { ipAllowlist } : {}) }, actor(res), { maxWorkingKeys: MAX_WORKING_KEYS });
    logOf(req, logger).info({ integratorId: integrator.integratorId, keyId: issued.view.id }, 'portal: key created');
    res.status(201).json({ key: issued.key, view: await shown(db, issued.view) } satisfies IssuedKeyAnswer);
  });

  api.patch('/integrators/:integratorId/keys/:keyId', signedIn, async (req: Request, res: Response) => {
    const name = keyName((req.body as { name?: unknown } | undefined)?.name);
    const { db } = await database();
    const key = await ownKey(db, await ownIntegrator(db, req, res), req);
    const view = await renameKey(db, key.id, name, actor(res));
    res.json({ view: await shown(db, view) } satisfies KeyAnswer);
  });

  api.put('/integrators/:integratorId/keys/:keyId/allowlist', signedIn, async (req: Request, res: Response) => {
    const body = req.body as { ipAllowlist?: unknown } | undefined;
    if (!body || !('ipAllowlist' in body)) throw new InputError('send { "ipAllowlist": [addresses and CIDR ranges] } (or null: from anywhere)');
    const entries = allowlist(body.ipAllowlist);
    const { db } = await database();
    const key = await ownKey(db, await ownIntegrator(db, req, res), req);
    const view = await setKeyAllowlist(db, key.id, entries, actor(res));
    logOf(req, logger).info({ keyId: key.id, entries: entries?.length ?? 0 }, 'portal: key allowlist set');
    res.json({ view: await shown(db, view) } satisfies KeyAnswer);
  });

  api.post('/integrators/:integratorId/keys/:keyId/rotate', signedIn, async (req: Request, res: Response) => {
    const grace = graceMs((req.body as { graceHours?: unknown } | undefined)?.graceHours, defaultGraceMs);
    const { db } = await database();
    const key = await ownKey(db, await ownIntegrator(db, req, res), req);
    const rotation = await rotateKey(db, key.id, grace, actor(res));
    logOf(req, logger).info({ keyId: key.id, newKeyId: rotation.view.id, graceHours: grace / 3_600_000 }, 'portal: key rotated');
    res.status(201).json({ key: rotation.key, view: await shown(db, rotation.view), previous: await shown(db, rotation.previous) } satisfies IssuedKeyAnswer);
  });

  api.post('/integrators/:integratorId/keys/:keyId/revoke', signedIn, async (req: Request, res: Response) => {
    const { db } = await database();
    const key = await ownKey(db, await ownIntegrator(db, req, res), req);
    const view = await revokeKey(db, key.id, { ...actor(res), reason: 'revoked in the partner portal' });
    logOf(req, logger).info({ keyId: key.id }, 'portal: key revoked');
    res.json({ view: await shown(db, view) } satisfies KeyAnswer);
  });

  api.get('/integrators/:integratorId/keys/:keyId/usage', signedIn, async (req: Request, res: Response) => {
    const window = usageWindow(req.query.range, clock());
    const operationId = req.query.operationId;
    if (operationId !== undefined && (typeof operationId !== 'string' || !/^[A-Za-z0-9_]{1,100}$/.test(operationId))) throw new InputError('operationId must be an operation id (letters, digits, _)');
    const { db } = await database();
    const key = await ownKey(db, await ownIntegrator(db, req, res), req);
    const subject = { kind: 'key' as const, id: key.id };
    const [series, byOperation, blocks] = await Promise.all([
      usageSeries(db, { subject, from: window.from, to: window.to, stepMinutes: window.stepMinutes, ...(operationId ? { operationId } : {}) }),
      usageByOperation(db, { subject, from: window.from, to: window.to }),
      activeBlocks(db, subject, new Date(clock())),
    ]);
    const answer: UsageAnswer = {
      keyId: key.id,
      range: window.range,
      from: window.from.toISOString(),
      to: window.to.toISOString(),
      stepMinutes: window.stepMinutes,
      ...(operationId ? { operationId } : {}),
      series,
      byOperation,
      limits: keyLimits(key.perMinute),
      blocks: portalKey(key, blocks, clock()).blocks,
    };
    res.json(answer);
  });
}
