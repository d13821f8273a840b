/**
 * Security lint of the contract (openapi.yaml) with Spectral's OWASP API Security Top 10 2023 ruleset:
 *   npm run lint:security   (spectral lint openapi.yaml --ruleset .spectral.mjs --fail-severity=info)
 * Part of `npm test`: any finding, warnings and infos included, fails the run.
 *
 * Every OWASP rule is either met by the contract or excepted below, each exception next to its justification.
 * Exceptions are JSON-pointer overrides for the exact schema, parameter or response they concern (a pointer covers
 * that node and what is under it), never a rule turned off for the whole document; the one rule turned off
 * globally (owasp:api4:2023-rate-limit) is replaced by an equivalent rule (`rate-limit-headers`).
 *
 * Met by the contract itself (no exception): api1 no-numeric-ids; every api2 authentication rule except
 * no-credentials-in-url (one apiKey scheme, in a header); api4 rate-limit-retry-after and rate-limit-responses-429;
 * api5 admin-security-unique; api7 concerning-url-parameter; api8 define-error-validation, define-error-responses-401
 * and -500; api9 inventory-access (`x-internal: false` on both servers) and inventory-environment. Met where the
 * contract can state it truly, excepted below elsewhere: api8 define-cors-origin (`Access-Control-Allow-Origin`
 * on the answers of the operations that work without a key), api4 integer-format, integer-limit-legacy,
 * string-limit, string-restricted and array-limit (a bound that is true of the service and does not narrow a
 * request), api3 no-additionalProperties and constrained-additionalProperties. Not applicable to OpenAPI 3.0:
 * api3 no-unevaluatedProperties and constrained-unevaluatedProperties, api4 integer-limit (3.1), api8
 * no-scheme-http (2.0).
 *
 * Why request-side limits are excepted rather than added: the contract may only change additively for clients
 * (the breaking-change gate, `npm run contract:diff`, compares it with contract-tests/released/openapi.yaml), and
 * adding maxLength / maxItems / maximum / format to a request parameter or body narrows what a request may
 * contain. What bounds a request instead is the transport: a URL (path and query) over MAX_URL_BYTES (8 KiB by
 * default) is answered 414, a body over MAX_BODY_BYTES (1 MiB by default) 413, a request head over 16 KiB 431
 * (openapi.yaml info.description "Errors"; src/server/hardening.ts, src/server/jsonBody.ts).
 *
 * Why some response bounds are excepted: a response bound is only declared where the service can never exceed it
 * (the HTTP tests validate every answer against the contract). Lists and texts that come from the catalog, the
 * chains or the configuration have no such bound; guessing one would make the contract untrue or turn every
 * catalog update into a breaking change (widening a response bound breaks clients that trust it).
 */
import owasp from '@stoplight/spectral-owasp-ruleset';

const CONTRACT = 'openapi.yaml';
/** `openapi.yaml#<pointer>`: an override for that node of the contract (and what is under it). */
const at = (...pointers) => pointers.map((pointer) => `${CONTRACT}#${pointer}`);
const schema = (name) => `/components/schemas/${name}`;

const RATE_LIMIT_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];

/** The `headers` of a response lack one of the rate-limit headers (HTTP header names are case-insensitive). */
function rateLimitHeaders(headers) {
  const declared = new Set(Object.keys(headers ?? {}).map((name) => name.toLowerCase()));
  const missing = RATE_LIMIT_HEADERS.filter((name) => !declared.has(name));
  return missing.length === 0 ? [] : [{ message: `The response does not declare the rate-limit headers ${missing.join(', ')}.` }];
}

export default {
  extends: [owasp],
  rules: {
    // Replaced by `rate-limit-headers`. The OWASP rule looks for the header names `RateLimit-Limit` and
    // `RateLimit-Reset` (or `X-RateLimit-Limit`...) with their case, but HTTP header names are case-insensitive and
    // the contract declares them as the service sends them, `ratelimit-limit`, `ratelimit-remaining` and
    // `ratelimit-reset` (IETF draft-ietf-httpapi-ratelimit-headers, lower case as node writes them); renaming them in
    // the contract would change the generated types and the released contract for nothing.
    'owasp:api4:2023-rate-limit': 'off',
    'rate-limit-headers': {
      description: 'Every 2XX and 4XX response declares ratelimit-limit, ratelimit-remaining and ratelimit-reset (any case): owasp:api4:2023-rate-limit without its case sensitivity.',
      message: '{{error}}',
      severity: 'error',
      given: '$.paths[*]..responses[?(@property.match(/^(2|4)/))]',
      then: { field: 'headers', function: rateLimitHeaders },
    },
  },
  overrides: [
    {
      // The contract's two servers are the service on http://localhost:8080 and the Prism staging mock on
      // http://localhost:4010 (pinned by test/unit/contract/openapiExamples.test.ts; redocly.yaml says the same):
      // loopback development endpoints, with no public host to describe. TLS belongs to the deployment in front of
      // the service; a public server added to the contract must be https:// and gets no exception.
      files: at('/servers/0/url', '/servers/1/url'),
      rules: { 'owasp:api8:2023-no-server-http': 'off' },
    },
    {
      // False positive: the rule's `$..headers` also matches `components.headers`, the map of reusable header
      // definitions, which is not a response. Access-Control-Allow-Origin is defined there (AccessControlAllowOrigin).
      files: at('/components/headers'),
      rules: { 'owasp:api8:2023-define-cors-origin': 'off' },
    },
    {
      // GET /v1/keys/test (and GET /v1/analytics/transfers/summary) require a key, and the service sends no CORS
      // headers at all on operations that require a
      // key (src/server/hardening.ts, README "Security headers and CORS"), so that a browser cannot use a key across
      // origins: declaring Access-Control-Allow-Origin on its answers would be untrue. That covers its 200 and the
      // error answers it shares with the public operations through components.responses: the HTTP tests require
      // every header a response declares (openapi-backend, SetMatchType.Superset), and OpenAPI 3.0 cannot declare a
      // header of a shared response for some of its operations only. The header's description says that the public
      // operations send it on these errors too. (Declaring it would need a copy of each of these seven responses
      // for GET /v1/keys/test.)
      files: at(
        '/paths/~1v1~1keys~1test/get/responses/200/headers',
        '/paths/~1v1~1analytics~1transfers~1summary/get/responses/200/headers',
        '/components/responses/BadRequest/headers',
        '/components/responses/Unauthorized/headers',
        '/components/responses/Forbidden/headers',
        '/components/responses/TooManyRequests/headers',
        '/components/responses/ServerError/headers',
        '/components/responses/ServiceUnavailable/headers',
        '/components/responses/NotImplemented/headers',
      ),
      rules: { 'owasp:api8:2023-define-cors-origin': 'off' },
    },
    {
      // GET /v1/status/stream answers a Server-Sent Events stream (text/event-stream): a sequence of events whose
      // grammar is the WHATWG "event stream" one, not a value a pattern or format can describe; each event's data is
      // a StatusResponse, which the contract bounds as every other answer's (the HTTP tests validate each event's data
      // against it).
      files: at('/paths/~1v1~1status~1stream/get/responses/200/content/text~1event-stream/schema'),
      rules: { 'owasp:api4:2023-string-restricted': 'off' },
    },
    {
      // These parameters name crypto tokens (an ERC-20 address or a symbol such as USDC), not credentials: the
      // rule matches "token" in the name. The only credential, the API key, travels in the x-svc-api-key header
      // (owasp:api2:2023-no-api-keys-in-url passes).
      files: at(
        '/paths/~1v1~1token/get/parameters/1/name', // token
        '/paths/~1v1~1integrators~1%7BintegratorId%7D~1withdraw~1%7BchainId%7D/get/parameters/2/name', // tokenAddresses
        '/components/parameters/FromToken/name',
        '/components/parameters/ToToken/name',
        '/components/parameters/OptionalFromToken/name',
        '/components/parameters/OptionalToToken/name',
      ),
      rules: { 'owasp:api2:2023-no-credentials-in-url': 'off' },
    },
    {
      // Maps keyed by data, in answers only: chain id → tokens (TokensResponse.tokens), chain id → gas prices
      // (GET /v1/gas/prices), sub-path → tool errors (ErroredRoute.subpaths), ABI parameter name → value
      // (ParsedCall.functionParameters). Here additionalProperties is the schema of the map's values, not a door for
      // mass assignment (API3 is about properties a client writes); the number of keys follows the catalog or the
      // decoded call data, so a maxProperties would be a guess.
      files: at(
        `${schema('TokensResponse')}/properties/tokens`,
        `${schema('ErroredRoute')}/properties/subpaths`,
        `${schema('ParsedCall')}/properties/functionParameters`,
      ),
      rules: { 'owasp:api3:2023-no-additionalProperties': 'off', 'owasp:api3:2023-constrained-additionalProperties': 'off' },
    },
    {
      // The same for GET /v1/gas/prices (chain id → GasPrices): the rules report the map where it is declared
      // (inline in the operation) and its values' schema where the $ref leads (components.schemas.GasPrices).
      files: at('/paths/~1v1~1gas~1prices/get/responses/200/content/application~1json/schema'),
      rules: { 'owasp:api3:2023-constrained-additionalProperties': 'off' },
    },
    {
      files: at(schema('GasPrices')),
      rules: { 'owasp:api3:2023-no-additionalProperties': 'off' },
    },
    {
      // Open objects on purpose: Error.errors carries structured details that depend on the error (NoQuoteError
      // narrows it), in answers only. Estimate.data (explanations of an estimate) and Step.typedData (signable data
      // of a message step, none here) belong to the ecosystem's step shape: clients send a step back to
      // POST /v1/advanced/stepTransaction, where these fields are accepted without effect (never read nor stored, so
      // nothing can be mass-assigned through them); the body is bounded by MAX_BODY_BYTES (413).
      files: at(
        `${schema('Error')}/properties/errors`,
        `${schema('Estimate')}/properties/data`,
        `${schema('Step')}/properties/typedData/items`,
      ),
      rules: { 'owasp:api3:2023-no-additionalProperties': 'off' },
    },
    {
      // The signed messages of a relayed step (RelayRequest.typedData): EIP-712 typed data, whose domain, types and
      // message are open by EIP-712's design (each primary type has its own fields). The relay operations check each
      // one field by field against the message the service asked for, and refuse anything else (400 naming the field);
      // nothing is stored from them but the accepted signature's parts. The body is bounded by MAX_BODY_BYTES (413).
      files: at(`${schema('RelayRequest')}/allOf/1/properties/typedData/items`),
      rules: { 'owasp:api3:2023-no-additionalProperties': 'off' },
    },
    {
      // Answer lists whose length is the embedded catalog's or the liquidity graph's (chains, tools, the chains a
      // tool supports, connections, tokens per chain, a chain's RPC and explorer URLs, an integrator's balances per
      // chain). Clients receive these lists and never send them; a maxItems would be a guess that a catalog update
      // can falsify, and raising it later is a breaking change.
      files: at(
        `${schema('ChainsResponse')}/properties/chains`,
        `${schema('Chain')}/properties/metamask/properties/rpcUrls`,
        `${schema('Chain')}/properties/metamask/properties/blockExplorerUrls`,
        `${schema('ToolsResponse')}/properties/bridges`,
        `${schema('ToolsResponse')}/properties/exchanges`,
        `${schema('BridgeTool')}/properties/supportedChains`,
        `${schema('ExchangeTool')}/properties/supportedChains`,
        `${schema('ExchangeDefinition')}/properties/chains`,
        `${schema('PossibilitiesResponse')}/properties/chains`,
        `${schema('PossibilitiesResponse')}/properties/tokens`,
        `${schema('PossibilitiesResponse')}/properties/bridges`,
        `${schema('PossibilitiesResponse')}/properties/exchanges`,
        `${schema('ConnectionsResponse')}/properties/connections`,
        `${schema('Connection')}/properties/fromTokens`,
        `${schema('Connection')}/properties/toTokens`,
        `${schema('TokensResponse')}/properties/tokens/additionalProperties`,
        `${schema('Integrator')}/properties/feeBalances`,
      ),
      rules: { 'owasp:api4:2023-array-limit': 'off' },
    },
    {
      // Answer lists whose length comes from data the service does not control: a transfer's steps and fees as read
      // on chain (TransactionInfo.includedSteps, StatusResponse.feeCosts), the fee ledger (FeeBalance.tokenBalances),
      // the key file (KeyTestResponse.integrators), the calls nested in decoded call data (ParsedCallData; the call
      // data itself is bounded by the URL limit, 414) and the tool errors of one sub-path (ErroredRoute.subpaths).
      // Bounded answers are declared where the service caps them: routes (5), route steps (2), route tags (3), the
      // no-route reasons (20).
      files: at(
        `${schema('TransactionInfo')}/properties/includedSteps`,
        `${schema('StatusResponse')}/properties/feeCosts`,
        `${schema('FeeBalance')}/properties/tokenBalances`,
        `${schema('KeyTestResponse')}/properties/integrators`,
        schema('ParsedCallData'),
        `${schema('ErroredRoute')}/properties/subpaths/additionalProperties`,
      ),
      rules: { 'owasp:api4:2023-array-limit': 'off' },
    },
    {
      // Lists in request bodies as well as in answers: a step's fee and gas costs and included steps (clients send a
      // step back to POST /v1/advanced/stepTransaction) and a token's tags (tokens in request bodies). A maxItems
      // would narrow requests; a body is bounded as a whole by MAX_BODY_BYTES (413).
      files: at(
        `${schema('Estimate')}/properties/feeCosts`,
        `${schema('Estimate')}/properties/gasCosts`,
        `${schema('Step')}/properties/includedSteps`,
        `${schema('Token')}/properties/tags`,
      ),
      rules: { 'owasp:api4:2023-array-limit': 'off' },
    },
    {
      // Request-side strings whose anchored pattern already bounds their length (the most characters it admits is
      // noted): a maxLength would only restate it, and added to a request schema the breaking-change gate counts it
      // as a narrowing. Several are in answers too (addresses, hashes, amounts), with the same bound.
      files: at(
        schema('ChainIdOrKey'), // 20 (the catalog's chains: npm run contract:chains)
        schema('ChainIdOrKeyText'), // 32
        schema('EvmAddress'), // 42
        schema('WalletAddress'), // 92 (bech32: bcrt1 + 87)
        schema('BigNumberish'), // 78
        schema('TxHash'), // 66
        schema('TransferReference'), // 90
        schema('Uuid'), // 36 (also format: uuid)
        schema('ToolKey'), // 64
        schema('ToolSelector'), // 64
        schema('PoolId'), // 109
        schema('TokenTag'), // 32
        schema('SlippageDecimalString'), // 20
        schema('FeeDecimalString'), // 20
      ),
      rules: { 'owasp:api4:2023-string-limit': 'off' },
    },
    {
      // Call data, unbounded by nature: in requests (GET /v1/calldata/parse, contract-call bodies) it is bounded by
      // the URL and body limits (414, 413); in answers it is the transaction data the service builds.
      files: at(schema('HexData')),
      rules: { 'owasp:api4:2023-string-limit': 'off' },
    },
    {
      // Human-readable texts of tokens, tools and fees, in answers and in the steps and tokens clients send back in
      // request bodies (names, symbols such as `USD₮0`, coin keys, logo URLs): a maxLength or pattern would narrow
      // requests (symbol already has maxLength 100); bodies are bounded by MAX_BODY_BYTES (413).
      files: at(
        `${schema('Token')}/properties/name`,
        `${schema('Token')}/properties/coinKey`,
        `${schema('Token')}/properties/logoURI`,
        `${schema('ToolDetails')}/properties/name`,
        `${schema('ToolDetails')}/properties/logoURI`,
        `${schema('FeeCost')}/properties/name`,
        `${schema('FeeCost')}/properties/description`,
      ),
      rules: { 'owasp:api4:2023-string-limit': 'off' },
    },
    {
      // The same texts have no format, pattern or enum to state: free text (Token.symbol has maxLength 100).
      files: at(
        `${schema('Token')}/properties/name`,
        `${schema('Token')}/properties/symbol`,
        `${schema('Token')}/properties/coinKey`,
        `${schema('ToolDetails')}/properties/name`,
        `${schema('FeeCost')}/properties/name`,
        `${schema('FeeCost')}/properties/description`,
      ),
      rules: { 'owasp:api4:2023-string-restricted': 'off' },
    },
    {
      // Free-text request parameters and fields that already have a maxLength: `search` of GET /v1/tokens (symbol,
      // name or address text, 100), `transactionId` of GET /v1/status (any chain's transfer reference, 100), and the
      // destination-action fields (DestinationAction.kind/vault, the `destinationActionKind` parameter), which are
      // declared only so that the ecosystem's requests validate and are refused with 400 whenever present
      // (x-refused). A pattern or enum would narrow requests.
      files: at(
        '/paths/~1v1~1tokens/get/parameters/7/schema', // search
        '/paths/~1v1~1status/get/parameters/7/schema', // transactionId
        `${schema('DestinationAction')}/properties/kind`,
        `${schema('DestinationAction')}/properties/vault`,
        '/components/parameters/DestinationActionKind/schema',
      ),
      rules: { 'owasp:api4:2023-string-restricted': 'off' },
    },
    {
      // Answer URLs and ids that have a format or pattern but no length the service can promise: logo URLs of the
      // catalog's chains and tools, RPC and explorer URLs (chain mode puts the connected RPC URL first), explorer
      // links built from the catalog's explorer URL (all `format: uri`), and EIP-3085's hex chain id of a catalog
      // chain (`^0x[0-9a-fA-F]+$`).
      files: at(
        `${schema('Chain')}/properties/logoURI`,
        `${schema('Chain')}/properties/metamask/properties/chainId`,
        `${schema('Chain')}/properties/metamask/properties/rpcUrls/items`,
        `${schema('Chain')}/properties/metamask/properties/blockExplorerUrls/items`,
        `${schema('BridgeTool')}/properties/logoURI`,
        `${schema('ExchangeTool')}/properties/logoURI`,
        `${schema('GasTransactionInfo')}/properties/txLink`,
        `${schema('TransactionInfo')}/properties/txLink`,
        `${schema('StatusResponse')}/properties/explorerLink`,
      ),
      rules: { 'owasp:api4:2023-string-limit': 'off' },
    },
    {
      // Answer texts without a bound or a format the service can promise: names and coins of the catalog's chains
      // and tools, messages the service writes (errors, no-route reasons, gas suggestions), route paths
      // (`chainId:SYMBOL` hops), decoded function names, the label of a key (key file) and a transfer's integrator as
      // its sender wrote it on chain. Error.requestId is in fact bounded (^[A-Za-z0-9._-]{1,64}$, src/server/requestLogging.ts), but Error
      // is answered through components.responses, which api-smart-diff (the breaking-change gate) compares with its
      // request-side rules, so any keyword added there is reported as breaking; it stays an exception until the gate
      // tells responses reached through $ref apart.
      files: at(
        `${schema('Chain')}/properties/name`,
        `${schema('Chain')}/properties/coin`,
        `${schema('Chain')}/properties/metamask/properties/chainName`,
        `${schema('Chain')}/properties/metamask/properties/nativeCurrency/properties/name`,
        `${schema('Chain')}/properties/metamask/properties/nativeCurrency/properties/symbol`,
        `${schema('BridgeTool')}/properties/name`,
        `${schema('ExchangeTool')}/properties/name`,
        `${schema('Error')}/properties/message`,
        `${schema('Error')}/properties/requestId`,
        `${schema('FilteredResult')}/properties/overallPath`,
        `${schema('FilteredResult')}/properties/reason`,
        `${schema('ErroredRoute')}/properties/overallPath`,
        `${schema('ToolError')}/properties/message`,
        `${schema('GasSuggestion')}/properties/message`,
        `${schema('StatusResponse')}/properties/substatusMessage`,
        `${schema('RelayStatusResponse')}/properties/data/properties/message`,
        `${schema('StatusResponse')}/properties/metadata/properties/integrator`,
        `${schema('ParsedCall')}/properties/functionName`,
        `${schema('KeyTestResponse')}/properties/name`,
      ),
      rules: { 'owasp:api4:2023-string-limit': 'off', 'owasp:api4:2023-string-restricted': 'off' },
    },
    {
      // A transaction hash "in the format of the chain" (EVM hex, base58 signatures, Bitcoin hex...), as read on
      // chain; it has maxLength 100, and no single pattern covers every chain's format.
      files: at(`${schema('TransactionInfo')}/properties/txHash`),
      rules: { 'owasp:api4:2023-string-restricted': 'off' },
    },
    {
      // ChainId is in requests and answers. The contract says why it has no `format: int64`: some synthetic ids are
      // above 2^53 (Sui: 9270000000000000) and tools that read int64 as the JavaScript-safe range would refuse them.
      // It has no maximum either: ids are whatever the chains (or this service, for non-EVM chains) chose; an
      // unknown id is refused with 400, and a maximum would narrow requests.
      files: at(schema('ChainId')),
      rules: { 'owasp:api4:2023-integer-format': 'off', 'owasp:api4:2023-integer-limit-legacy': 'off' },
    },
    {
      // Request-side integers already bounded by minimum and maximum (`limit` of GET /v1/tokens: 1 to 10000;
      // Token.decimals: 0 to 255, in bodies too): `format: int32` would only restate the range, and added to a
      // request schema the breaking-change gate counts it as a narrowing.
      files: at('/paths/~1v1~1tokens/get/parameters/5/schema', `${schema('Token')}/properties/decimals`),
      rules: { 'owasp:api4:2023-integer-format': 'off' },
    },
    {
      // A timing strategy in a request body (minWaitTimeMs, startingExpectedResults, reduceEveryMs, minimum 0) only
      // lets the route search stop early (src/core/routing/plans.ts, overBudget): a large value never makes the
      // service wait or work more, and the request time limit (REQUEST_TIMEOUT_MS, 503) bounds every request. A
      // maximum or format would narrow requests.
      files: at(
        `${schema('TimingStrategy')}/properties/minWaitTimeMs`,
        `${schema('TimingStrategy')}/properties/startingExpectedResults`,
        `${schema('TimingStrategy')}/properties/reduceEveryMs`,
      ),
      rules: { 'owasp:api4:2023-integer-format': 'off', 'owasp:api4:2023-integer-limit-legacy': 'off' },
    },
    {
      // Error codes and no-route counts, in error answers only. The codes are enums (1000 to 1013; 1002), a tighter
      // bound than minimum/maximum, which is all the limit rule looks for; the totals count the candidate paths of
      // one search (minimum 0, no fixed maximum). `format: int32` would be true of all four, but these schemas are
      // answered through components.responses, which api-smart-diff (the breaking-change gate) compares with its
      // request-side rules, so adding it is reported as breaking.
      files: at(
        `${schema('Error')}/properties/code`,
        `${schema('NoQuoteError')}/allOf/1/properties/code`,
        `${schema('NoQuoteError')}/allOf/1/properties/errors/properties/filteredOutTotal`,
        `${schema('NoQuoteError')}/allOf/1/properties/errors/properties/failedTotal`,
      ),
      rules: { 'owasp:api4:2023-integer-format': 'off', 'owasp:api4:2023-integer-limit-legacy': 'off' },
    },
    {
      // Answer integers with no maximum to promise (their format states the range): time and block height
      // (GasPrices.lastUpdated in Unix ms, TransactionInfo.timestamp in Unix s, GasTransactionInfo.block, int64) and
      // the number of candidate paths of one route search left out before the lists are capped at 20
      // (UnavailableRoutes.filteredOutTotal / failedTotal, int32).
      files: at(
        `${schema('GasPrices')}/properties/lastUpdated`,
        `${schema('TransactionInfo')}/properties/timestamp`,
        `${schema('GasTransactionInfo')}/properties/block`,
        `${schema('UnavailableRoutes')}/properties/filteredOutTotal`,
        `${schema('UnavailableRoutes')}/properties/failedTotal`,
      ),
      rules: { 'owasp:api4:2023-integer-limit-legacy': 'off' },
    },
    {
      // The headers of a deprecated operation's answers (Deprecation, Sunset, Link) are derived by
      // src/server/deprecation.ts from the contract's own `x-deprecation`, never from a request: `@` and Unix
      // seconds, an HTTP date, a Link to a path of this contract. Their formats could be stated (for example Sunset:
      // an IMF-fixdate of 29 characters); they are left to the deprecation work that owns these schemas.
      files: at('/components/headers/Deprecation/schema', '/components/headers/Sunset/schema', '/components/headers/DeprecationLink/schema'),
      rules: { 'owasp:api4:2023-string-limit': 'off', 'owasp:api4:2023-string-restricted': 'off' },
    },
    {
      // Examples are data, not responses: the rule's `$..headers` also matches the `x-request` of an example (the
      // request that produced it), whose `headers` are request headers. The responses the examples illustrate
      // declare Access-Control-Allow-Origin where they are defined.
      files: at('/components/examples'),
      rules: { 'owasp:api8:2023-define-cors-origin': 'off' },
    },
  ],
};
