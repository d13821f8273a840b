import { keyLimits } from '../src/core/access/policy';
import { operation } from './typedOperation';

/**
 * GET /v1/keys/test. Only keys may call it (the contract's security): the access control has already refused a
 * missing, unknown, blocked or misplaced key (401/403), so the caller here holds a valid key; the answer names its
 * id, never the key.
 */
export const testApiKey = operation('testApiKey', (request) => {
  const record = request.caller.apiKey;
  if (!record) throw new Error('testApiKey reached without an authenticated caller');
  const body: { valid: true; keyId: string; name?: string; limits: { perMinute: number; twoHourWindow: number }; integrators?: string[] } = {
    valid: true,
    keyId: record.id,
    limits: keyLimits(record.perMinute),
  };
  if (record.name !== undefined) body.name = record.name;
  if (record.integrators) body.integrators = [...record.integrators];
  return { status: 200, body };
});
