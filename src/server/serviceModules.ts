/**
 * The modules the service is composed of (src/main.ts), in one place, so that main.ts loads them in one step once it
 * has started opening the embedded database: evaluating them (express, openapi-backend, ajv, ethers, the handlers,
 * the chain readers...) takes ~0.3-0.5 s of a start, which the database's opening (~1 s, in a thread of its own:
 * src/persistence/pgliteThread.ts) then overlaps instead of following. main.ts imports only its types statically.
 */
import type * as Portal from '../portal/router';

export { createApp } from './app';
export { buildDependencies, buildFollowerParts, loadDependencies } from './dependencies';
export { buildAccessControl } from './access/build';
export { Metrics } from './metrics';
export { expensiveOperationsOf } from './access/operationAccess';
export { readinessChecks } from './operations';
export { explorerRouter } from './explorer';
export { IntegratorDirectory, seedIntegrators } from '../persistence/integrators';
export { databaseHistory } from '../persistence/transfers';
export { TransferEventFeed } from '../persistence/transferEvents';
export { DatabaseRelayTaskStore } from '../persistence/relayTasks';
export { WebhookWorker } from '../webhooks/worker';
export { TransferIndexer } from '../chain/transferIndexer';
export { solanaFollowersOf } from '../chain/solanaTransferIndexer';
export { makeChainProvider } from '../chain/rpc';
export { startChainMode } from '../chain/mode';
export { applyUpdate, decodeUpdate, encodeUpdate, LiquidityFeed } from '../chain/liquidityFeed';
export { loadFeeLedger } from '../files/feeLedger';
export { statusToWire } from '../../handlers/wire/status';
export { handlers } from '../../handlers';

/** The partner portal's router (src/portal/router.ts), loaded only with a database: its modules take ~40 ms to load. */
export function portalRouter(options: Portal.PortalOptions): ReturnType<typeof Portal.portalRouter> {
  return (require('../portal/router') as typeof Portal).portalRouter(options);
}
