/** The page's one state object (every action changes it, then the page is drawn again), and its reset at sign-out. */
import type { FeesAnswer, IntegratorAnswer, IntegratorSummary, MeAnswer, PortalKey, PortalTransfer, UsageAnswer, UsageRange, WebhookAnswer } from '../api';

export interface IssuedKey {
  readonly key: string;
  readonly keyId: string;
  /** Set for a rotation: the old key and the end of its grace period. */
  readonly previous?: PortalKey;
}

/** A webhook secret just made or renewed: shown once, until dismissed. */
export interface IssuedSecret {
  readonly secret: string;
  readonly renewed: boolean;
}

interface WithdrawalProgress {
  readonly chainId: number;
  readonly hash?: string;
  readonly state: 'preparing' | 'switching' | 'confirm in wallet' | 'sent' | 'confirmed' | 'failed';
}

interface State {
  /** The wallet's account, once connected. */
  account?: string;
  /** The wallet's current chain. */
  walletChainId?: number;
  me: MeAnswer;
  integrators: readonly IntegratorSummary[];
  selectedIntegrator?: string;
  integrator?: IntegratorAnswer;
  /** A key just created or rotated: shown once, until dismissed. */
  issued?: IssuedKey;
  selectedKey?: string;
  usageRange: UsageRange;
  usageOperation?: string;
  usage?: UsageAnswer;
  fees?: FeesAnswer;
  withdrawal?: WithdrawalProgress;
  /** The integrator's webhook and its latest deliveries. */
  webhook?: WebhookAnswer;
  /** The webhook's secret, just made or renewed. */
  webhookSecret?: IssuedSecret;
  /** The webhook change that waits for its confirmation. */
  armedWebhook?: 'renew' | 'remove';
  /** The integrator's latest transfers. */
  transfers?: readonly PortalTransfer[];
  /** The key whose edit row is open. */
  editing?: string;
  /** The key whose revoke button waits for its confirmation. */
  armedRevoke?: string;
  /** Hours a rotated key keeps working. */
  graceHours?: number;
  /** An API call or a wallet request is running: buttons wait. */
  busy: boolean;
}

export const state: State = { me: { signedIn: false }, integrators: [], usageRange: '1h', busy: false };

export function resetSession(): void {
  Object.assign(state, {
    me: { signedIn: false }, integrators: [], selectedIntegrator: undefined, integrator: undefined, issued: undefined, selectedKey: undefined, usage: undefined, fees: undefined,
    withdrawal: undefined, editing: undefined, armedRevoke: undefined, webhook: undefined, webhookSecret: undefined, armedWebhook: undefined, transfers: undefined,
  });
}
