/** Type-checking is done by `npm run typecheck` (tsc --noEmit) inside `npm test`;
 *  ts-jest only transpiles here so that the suites stay fast. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  testTimeout: 30000,
};
