import pino from 'pino';
import type express from 'express';
import { loadConfig, type Config } from '../../src/config';
import { createApp } from '../../src/server/app';
import { buildDependencies, type Dependencies } from '../../src/server/dependencies';
import { handlers } from '../../handlers';
import type { HandlerTable } from '../../src/server/operation';

export interface TestApp {
  app: express.Express;
  config: Config;
  dependencies: Dependencies;
}

/** The real app on the embedded default data, with a silent logger (tests may override parts). */
export async function makeTestApp(
  options: { env?: Record<string, string>; handlers?: HandlerTable; dependencies?: Partial<Dependencies> } = {},
): Promise<TestApp> {
  const config = loadConfig({ LOG_LEVEL: 'silent', ...options.env });
  const dependencies = buildDependencies(config, options.dependencies);
  const app = await createApp(dependencies, config, {
    handlers: options.handlers ?? handlers,
    logger: pino({ level: 'silent' }),
  });
  return { app, config, dependencies };
}
