/** Type-checking is done by `npm run typecheck` (tsc --noEmit) inside `npm test`;
 *  ts-jest only transpiles here so that the suites stay fast. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
    // Kysely 0.29 and eventsource 5 (the tests' EventSource client) ship ES modules only, which jest's module system
    // cannot require() on Node before 24.9: their files are compiled to CommonJS like ours (node itself loads them
    // with require(esm), Node 20.19+)
    '/node_modules/(kysely|eventsource|eventsource-parser)/.+\\.js$': ['ts-jest', { tsconfig: { allowJs: true, isolatedModules: true, module: 'commonjs', target: 'ES2022' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!kysely/|eventsource/|eventsource-parser/)'],
  testTimeout: 30000,
};
