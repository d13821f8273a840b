import pino, { type Logger } from 'pino';
import type express from 'express';
import { loadConfig, type Config } from '../../src/config';
import { createApp } from '../../src/server/app';
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
  });
  return { app, config, dependencies };
}

/** The real app and the contract's validator, as an HTTP suite starts: `beforeAll(async () => ({ t, contract } = await appAndContract()));` */
export async function appAndContract(options: TestAppOptions = {}): Promise<{ t: TestApp; contract: ContractValidator }> {
  const [t, contract] = await Promise.all([makeTestApp(options), contractValidator()]);
  return { t, contract };
}
