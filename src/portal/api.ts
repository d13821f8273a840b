/**
 * The partner portal's JSON API, as shapes: what `/portal/api/...` answers and accepts. The router (router.ts)
 * answers these and the page's script (client/portal.mts and its modules) reads them, so both are checked against one
 * declaration. Types only, importing nothing: the page's script is compiled for the browser and pulls this file in.
 *
 * Every error answer is `{ message, code }` (the service's error codes: 1010 not signed in or refused, 1011 invalid
 * input, 1003 not found, 1005 too many attempts, 1000 a conflict, 1006 a server failure).
 */

export interface PortalErrorBody {
  readonly message: string;
  readonly code: number;
  /** Details for the page (e.g. the allowlist entries refused). */
  readonly errors?: unknown;
}

/** GET /portal/api/nonce */
export interface NonceAnswer {
  /** Put it in the SIWE message's `Nonce:` line; usable once, until `expiresAt`. */
  readonly nonce: string;
  /** ISO 8601. */
  readonly expiresAt: string;
  /** The chain ids a message may name (EVM chains of the catalog). */
  readonly chainIds: readonly number[];
  /** The longest a signed message may live (expirationTime − issuedAt), in seconds. */
  readonly maxMessageSeconds: number;
}

/** POST /portal/api/session */
export interface SignInRequest {
  /** The EIP-4361 message as signed. */
  readonly message: string;
  /** The wallet's personal_sign signature of it (0x + 65 bytes). */
  readonly signature: string;
}

/** GET /portal/api/me (also the answer to a sign-in). */
export type MeAnswer =
  | { readonly signedIn: false }
  | {
      readonly signedIn: true;
      /** The signed-in wallet, EIP-55 checksummed. */
      readonly address: string;
      /** The chain id the sign-in message named. */
      readonly chainId: number;
      /** Send it in `x-csrf-token` with every change. */
      readonly csrfToken: string;
      /** ISO 8601: the session ends then (sign in again). */
      readonly expiresAt: string;
      /** How long a rotated key keeps working by default, in hours. */
      readonly graceHours: number;
    };

export interface IntegratorSummary {
  readonly integratorId: string;
  readonly feeWallet: string;
  readonly createdAt: string;
}

/** GET /portal/api/integrators */
export interface IntegratorsAnswer {
  readonly integrators: readonly IntegratorSummary[];
}

/** POST /portal/api/integrators */
export interface RegisterRequest {
  readonly integratorId: string;
}

export type KeyStatus = 'active' | 'grace' | 'expired' | 'revoked';

export interface BlockInfo {
  readonly rule: string;
  readonly reason: string;
  readonly since: string;
  /** Absent: until an operator lifts it. */
  readonly until?: string;
}

export interface KeyLimitsInfo {
  readonly perMinute: number;
  /** Requests over a rolling two hours for quotes, routes and step transactions. */
  readonly twoHourWindow: number;
}

/** A key as the portal shows it: never the key, never its hash. */
export interface PortalKey {
  readonly id: string;
  readonly name?: string;
  readonly createdAt: string;
  readonly status: KeyStatus;
  readonly ipAllowlist?: readonly string[];
  /** The end of a rotation's grace period. */
  readonly expiresAt?: string;
  readonly revokedAt?: string;
  readonly rotatedTo?: string;
  readonly limits: KeyLimitsInfo;
  /** Blocks in force (newest first); empty when the key is not blocked. */
  readonly blocks: readonly BlockInfo[];
}

/** GET /portal/api/integrators/:integratorId */
export interface IntegratorAnswer extends IntegratorSummary {
  /** Every key of the integrator, newest first: active and in grace ones, then the past ones (revoked, expired). */
  readonly keys: readonly PortalKey[];
}

/** POST .../keys */
export interface CreateKeyRequest {
  readonly name?: string;
  readonly ipAllowlist?: readonly string[] | null;
}

/** POST .../keys and POST .../keys/:keyId/rotate: the key itself is in this answer and never again. */
export interface IssuedKeyAnswer {
  readonly key: string;
  readonly view: PortalKey;
  /** Rotation: the old key, valid until its `expiresAt`. */
  readonly previous?: PortalKey;
}

/** PATCH .../keys/:keyId */
export interface RenameRequest {
  readonly name: string;
}

/** PUT .../keys/:keyId/allowlist: null or an empty list: usable from anywhere. */
export interface AllowlistRequest {
  readonly ipAllowlist: readonly string[] | null;
}

/** POST .../keys/:keyId/rotate */
export interface RotateRequest {
  /** Default: the portal's grace period (24 h unless configured). */
  readonly graceHours?: number;
}

/** The answer to a change of one key (rename, allowlist, revoke). */
export interface KeyAnswer {
  readonly view: PortalKey;
}

export type UsageRange = '1h' | '24h' | '7d';

export interface UsagePointInfo {
  /** The start of the step, ISO 8601. */
  readonly at: string;
  readonly requests: number;
  readonly refused401: number;
  readonly refused403: number;
  readonly refused429: number;
}

export interface OperationUsage {
  readonly operationId: string;
  readonly requests: number;
  readonly refused401: number;
  readonly refused403: number;
  readonly refused429: number;
}

/** GET .../keys/:keyId/usage?range=1h|24h|7d[&operationId=...] */
export interface UsageAnswer {
  readonly keyId: string;
  readonly range: UsageRange;
  readonly from: string;
  readonly to: string;
  readonly stepMinutes: number;
  /** Only this operation's counts in `series` (absent: every operation). */
  readonly operationId?: string;
  readonly series: readonly UsagePointInfo[];
  /** Every operation's counts over the range, most requested first. */
  readonly byOperation: readonly OperationUsage[];
  readonly limits: KeyLimitsInfo;
  readonly blocks: readonly BlockInfo[];
}

export interface TokenBalanceInfo {
  readonly address: string;
  readonly symbol: string;
  readonly decimals: number;
  /** Raw units (the token's smallest unit), decimal. */
  readonly amount: string;
  readonly amountUsd: string;
}

export interface ChainFeesInfo {
  readonly chainId: number;
  readonly chainName: string;
  readonly tokenBalances: readonly TokenBalanceInfo[];
  /** Whether the service builds a withdrawal on this chain (EVM chains with a fee collector). */
  readonly withdrawable: boolean;
}

/** GET .../fees */
export interface FeesAnswer {
  readonly integratorId: string;
  /** The wallet the fee collectors book this integrator's fees under (absent: not recorded: nobody can withdraw them). */
  readonly bookedTo?: string;
  /** Only chains with a balance. */
  readonly chains: readonly ChainFeesInfo[];
  /** Chains whose figures are the last known ones (their fee collector did not answer). */
  readonly staleChains: readonly number[];
}

/** An EVM transaction as wallets take it (eth_sendTransaction): quantities as 0x hex. */
export interface WalletTransaction {
  readonly from?: string;
  readonly to: string;
  readonly data: string;
  readonly value: string;
  readonly gas: string;
  readonly gasPrice: string;
  /** 0x hex. */
  readonly chainId: string;
}

/** What `wallet_addEthereumChain` needs when the wallet does not know the chain (EIP-3085). */
export interface AddChainParameters {
  readonly chainId: string;
  readonly chainName: string;
  readonly nativeCurrency: { readonly name: string; readonly symbol: string; readonly decimals: number };
  readonly rpcUrls: readonly string[];
  readonly blockExplorerUrls?: readonly string[];
}

/** GET .../fees/:chainId/withdrawal */
export interface WithdrawalAnswer {
  readonly chainId: number;
  readonly chainName: string;
  /** The tokens withdrawn, by symbol. */
  readonly tokens: readonly string[];
  readonly transaction: WalletTransaction;
  readonly addChain: AddChainParameters;
}

/** An integrator's webhook as the portal shows it: never its secret. */
export interface PortalWebhook {
  readonly url: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601: the last change of its URL or secret. */
  readonly updatedAt: string;
}

/** One delivery of a transfer's state to the webhook (the newest first). */
export interface WebhookDeliveryInfo {
  readonly id: string;
  /** The sending transaction of the transfer whose state was delivered. */
  readonly txHash: string;
  /** The transfer's state delivered (PENDING, DONE, FAILED...). */
  readonly status: string;
  /** pending: not delivered yet (retried at nextAttemptAt); delivered; failed: out of attempts. */
  readonly state: 'pending' | 'delivered' | 'failed';
  readonly attempts: number;
  /** The HTTP status the receiver last answered. */
  readonly lastStatus?: number;
  /** Why the last attempt failed. */
  readonly lastError?: string;
  readonly createdAt: string;
  readonly deliveredAt?: string;
  readonly nextAttemptAt?: string;
}

/** GET .../webhook */
export interface WebhookAnswer {
  /** null: no webhook set. */
  readonly webhook: PortalWebhook | null;
  /** Its latest deliveries, newest first (at most 20). */
  readonly deliveries: readonly WebhookDeliveryInfo[];
}

/** PUT .../webhook: the URL deliveries are posted to (https; checked where it resolves to). */
export interface SetWebhookRequest {
  readonly url: string;
}

/**
 * PUT .../webhook and POST .../webhook/secret. `secret` is in the answer that made it (a first webhook, a renewal)
 * and never again: a change of URL keeps the secret and has none.
 */
export interface IssuedWebhookAnswer {
  readonly webhook: PortalWebhook;
  /** `whsec_...`: the HMAC key of X-Webhook-Signature, shown once. */
  readonly secret?: string;
}

/** A transfer of the integrator, as the portal lists it, with the link to its page. */
export interface PortalTransfer {
  /** The sending transaction's hash: the transfer's key. */
  readonly txHash: string;
  readonly status: string;
  readonly substatus?: string;
  readonly tool?: string;
  readonly fromChainId: number;
  readonly toChainId?: number;
  /** ISO 8601: the sending transaction's block time. */
  readonly startedAt?: string;
  /** The transfer's explorer page on this service: /explorer/tx/<txHash>. */
  readonly explorerUrl: string;
}

/** GET .../transfers?limit= (newest first; at most 50, 20 by default) */
export interface TransfersAnswer {
  readonly transfers: readonly PortalTransfer[];
}
