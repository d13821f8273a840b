import { isDatabaseUnavailable } from '../../../src/persistence/errors';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

test('a database that stopped answering, as each engine reports it, is unavailable (503), not a fault (500)', () => {
  const unavailable = [
    withCode('terminating connection due to administrator command', '57P01'),
    withCode('the database system is shutting down', '57P03'),
    withCode('sorry, too many clients already', '53300'),
    withCode('connection failure', '08006'),
    withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
    new Error('Connection terminated unexpectedly'),
    new Error('timeout exceeded when trying to connect'),
    new Error('Cannot use a pool after calling end on the pool'),
    new Error('the database thread ended (exit code 1)'), // PGlite's thread (pgliteThread.ts)
    new Error('the database is closed'),
    new Error('PGlite is closed'),
    new Error('driver has already been destroyed'), // Kysely, the database closed under it
  ];
  for (const error of unavailable) expect({ message: error.message, unavailable: isDatabaseUnavailable(error) }).toEqual({ message: error.message, unavailable: true });
  const faults = [
    withCode('duplicate key value violates unique constraint', '23505'),
    withCode('relation "nothing" does not exist', '42P01'),
    new Error('Cannot read properties of undefined'),
    'a string',
    undefined,
  ];
  for (const fault of faults) expect(isDatabaseUnavailable(fault)).toBe(false);
});
