import { API_KEY_HEADER } from '../src/core/access/access';
import { keyLimits } from '../src/core/access/policy';
import { operation } from './typedOperation';

/**
 * GET /v1/keys/test. The access middleware has already refused a missing, unknown, blocked or
 * misplaced key (401/403), so the key here is valid; the answer names its id, never the key.
 */
export const testApiKey = operation('testApiKey', (request, { access }) => {
  const record = access.keyRecord(request.headers[API_KEY_HEADER]);
  // only reachable if the key file dropped the key between the middleware and here
  if (!record) throw new Error('testApiKey reached without an authenticated key');
  const body: { valid: true; keyId: string; name?: string; limits: { perMinute: number; twoHourWindow: number }; integrators?: string[] } = {
    valid: true,
    keyId: record.id,
    limits: keyLimits(record.perMinute),
  };
  if (record.name !== undefined) body.name = record.name;
  if (record.integrators) body.integrators = [...record.integrators];
  return { status: 200, body };
});
