import pino, { type Logger } from 'pino';
import type express from 'express';
import { loadConfig, type Config } from '../../src/config';
import { createApp, type AppOptions } from '../../src/server/app';
import { buildAccessControl, type BuildAccessOptions } from '../../src/server/access/build';
import { buildDependencies, type Dependencies } from '../../src/server/dependencies';
import { handlers } from '../../handlers';
import type { HandlerTable } from '../../src/server/operation';
import { contractValidator, type ContractValidator } from './contract';

export interface TestApp {
  app: express.Express;
  config: Config;
  dependencies: Dependencies;
}

/** Lifts every rate limit so that suites about other things never meet one. */
const RELAXED_LIMIT = '1000000';

export interface TestAppOptions {
  env?: Record<string, string>;
  handlers?: HandlerTable;
  dependencies?: Partial<Dependencies>;
  /** 'relaxed' (default): every limit is 1,000,000 (RATE_LIMIT_OVERRIDE), unless env sets limits itself;
   *  'spec': the limits of the interface specification, as in production. */
  limits?: 'relaxed' | 'spec';
  /** Logger of the app and of its access control (default: silent). */
  logger?: Logger;
  /** Options of the access control built from the environment (fake clock, Redis options). */
  access?: BuildAccessOptions;
  /** The partner portal (src/portal/router.ts), built from the app's dependencies and mounted at /portal. */
  portal?: (dependencies: Dependencies) => express.Router;
  /** Warm the request pipeline (AppOptions.warmUp): `true` before the app is returned, `{ after }` in the background as the service does. */
  warmUp?: AppOptions['warmUp'];
}

/** The real app on the embedded default data, with a silent logger (tests may override parts). */
export async function makeTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const relaxed = (options.limits ?? 'relaxed') === 'relaxed' ? { RATE_LIMIT_OVERRIDE: RELAXED_LIMIT } : {};
  const config = loadConfig({ LOG_LEVEL: 'silent', ...relaxed, ...options.env });
  const logger = options.logger ?? pino({ level: 'silent' });
  const access = options.dependencies?.access ?? buildAccessControl(config, { logger, ...options.access });
  const dependencies = buildDependencies(config, { ...options.dependencies, access });
  const app = await createApp(dependencies, config, {
    handlers: options.handlers ?? handlers,
    logger,
    ...(options.portal ? { portal: options.portal(dependencies) } : {}),
    ...(options.warmUp ? { warmUp: options.warmUp } : {}),
  });
  return { app, config, dependencies };
}

/**
 * The real app of a jest suite (or of a describe block): made in a beforeAll, its access control and chain
 * connections closed in an afterAll. The object returned is filled in by that beforeAll, so that a suite declares
 * it in one line, `const t = useTestApp();`, and its tests use `t.app`, `t.config`, `t.dependencies`. Options that
 * depend on an earlier beforeAll (a CHAINS_FILE written there) are given as a function, called in this one.
 */
export function useTestApp(options: TestAppOptions | (() => TestAppOptions) = {}): TestApp {
  const t = {} as TestApp;
  beforeAll(async () => {
    Object.assign(t, await makeTestApp(typeof options === 'function' ? options() : options));
  });
  afterAll(async () => {
    t.dependencies?.chains?.close();
    await t.dependencies?.access.close();
  });
  return t;
}

/** The contract's validator of a jest suite, filled in by a beforeAll like {@link useTestApp}. */
export function useContract(): ContractValidator {
  const contract = {} as ContractValidator;
  beforeAll(async () => {
    Object.assign(contract, await contractValidator());
  });
  return contract;
}

/** The real app and the contract's validator, as an HTTP suite starts: `const { t, contract } = useAppAndContract();` */
export function useAppAndContract(options: TestAppOptions = {}): { t: TestApp; contract: ContractValidator } {
  return { t: useTestApp(options), contract: useContract() };
}
