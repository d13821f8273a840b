/**
 * The deprecation headers (src/server/deprecation.ts), and the policy they carry: every deprecated operation of
 * openapi.yaml has an x-deprecation whose sunset is at least six months after its announcement, names a successor
 * operation of the contract, and declares the three headers on its success answer.
 */
import fs from 'node:fs';
import yaml from 'js-yaml';
import { deprecationHeaders } from '../../../src/server/deprecation';
import { OPENAPI_PATH } from '../../support/contract';

test('the headers of a notice: RFC 9745 date, RFC 8594 HTTP date, successor and documentation links', () => {
  expect(deprecationHeaders({ announced: '2026-11-25', sunset: '2027-06-01', successor: '/v1/quote/contractCalls' })).toEqual({
    Deprecation: '@1795564800',
    Sunset: 'Tue, 01 Jun 2027 00:00:00 GMT',
    Link: '</v1/quote/contractCalls>; rel="successor-version", </docs>; rel="deprecation"; type="text/html"',
  });
  expect(() => deprecationHeaders({ announced: '25.11.2026', sunset: '2027-06-01', successor: '/v1/x' })).toThrow(/x-deprecation.announced must be a date/);
  expect(() => deprecationHeaders({ announced: '2026-11-25', sunset: '2027-13-01', successor: '/v1/x' })).toThrow(/x-deprecation.sunset/);
});

test('every deprecated operation of the contract follows the compatibility policy', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const spec = yaml.load(fs.readFileSync(OPENAPI_PATH, 'utf8')) as any;
  const deprecated: string[] = [];
  for (const [path, item] of Object.entries<Record<string, Record<string, unknown>>>(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op.deprecated) continue;
      deprecated.push(`${method.toUpperCase()} ${path}`);
      const notice = op['x-deprecation'] as { announced: string; sunset: string; successor: string };
      expect(notice).toEqual({ announced: expect.any(String), sunset: expect.any(String), successor: expect.any(String) });
      const sixMonthsLater = new Date(`${notice.announced}T00:00:00Z`);
      sixMonthsLater.setUTCMonth(sixMonthsLater.getUTCMonth() + 6);
      expect(Date.parse(`${notice.sunset}T00:00:00Z`)).toBeGreaterThanOrEqual(sixMonthsLater.getTime());
      expect(spec.paths[notice.successor]).toBeDefined();
      const success = (op.responses as Record<string, { headers?: Record<string, { $ref: string }> }>)['200'];
      expect(success.headers).toMatchObject({
        Deprecation: { $ref: '#/components/headers/Deprecation' },
        Sunset: { $ref: '#/components/headers/Sunset' },
        Link: { $ref: '#/components/headers/DeprecationLink' },
      });
    }
  }
  expect(deprecated.sort()).toEqual(['POST /v1/advanced/possibilities', 'POST /v1/quote/contractCall']);
});
