/**
 * Generated from openapi.yaml by `npm run codegen` (openapi-typescript). Do not edit by hand:
 * edit openapi.yaml and regenerate; `npm test` fails when this file is out of date.
 */
export interface paths {
    "/v1/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List known tokens
         * @description Returns the token catalog as an object keyed by chain id, each value an array of `Token`.
         *     When several filters are given, only tokens satisfying all of them are returned.
         */
        get: operations["getTokens"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one token
         * @description Returns one `Token`, looked up by chain (id or key) and token (address or symbol; symbols are
         *     matched case-insensitively). 400 when the chain is unknown or invalid, 404 (code 1003) when
         *     the chain has no such token.
         */
        get: operations["getToken"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a quote for a transfer (exact input)
         * @description Returns the best `Step` (type `lifi`, with `includedSteps`, an `estimate` and a
         *     `transactionRequest` that can be sent to a wallet as is) for sending `fromAmount` of
         *     `fromToken` on `fromChain` and receiving `toToken` on `toChain`, cross-chain or on one chain.
         *     `estimate.toAmount` is the expected output, `estimate.toAmountMin` the guaranteed minimum
         *     after `slippage`.
         *
         *     Tool lists (`allowBridges`, `denyBridges`, `preferBridges`, `allowExchanges`,
         *     `denyExchanges`, `preferExchanges`) take tool keys from `GET /v1/tools` or the special values
         *     `all` (every tool of that type), `none` or `[]` (no tools), `default` (the deployment's
         *     default tool settings).
         *
         *     404 (code 1002) when no quote is found; its `errors` explains, for every candidate path, why
         *     it was filtered out or failed.
         */
        get: operations["getQuote"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quote/toAmount": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a quote for a transfer (exact output)
         * @description Same as `GET /v1/quote`, but takes the amount to receive (`toAmount`) and computes the
         *     `fromAmount` needed, returned in `estimate.fromAmount` and `action.fromAmount`. It takes
         *     every `/v1/quote` parameter except `fromAmount`, `fromAmountForGas`, `skipSimulation` and
         *     `preset`. 404 (code 1002) when no quote is found.
         */
        get: operations["getQuoteToAmount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quote/contractCalls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get a quote for a transfer followed by destination contract calls (beta)
         * @description **Beta** (`x-beta: true`): the request and response shapes may still change.
         *
         *     Bridges (and swaps) tokens, then performs one or more contract calls on the destination
         *     chain, for example a deposit into a lending pool. Give either `toAmount` (the amount the
         *     contract calls need on the destination chain) or `fromAmount` (the amount to send): exactly
         *     one of them is required, the server answers 400 (code 1011) otherwise. Returns a `Step` of
         *     type `lifi` whose `includedSteps` end in one `custom` step per call.
         *
         *     - An empty `contractCalls` list is a plain transfer to `fromAddress`: with `toAmount` the
         *       answer is the step `GET /v1/quote/toAmount` gives for the same transfer (exact output),
         *       with `fromAmount` the step `GET /v1/quote` gives (exact input), field for field, with no
         *       `custom` step; `allowDestinationCall` then applies as there, and the chains need not be EVM
         *       chains (both take `fromAddress`, the receiver).
         *     - The route delivers `toToken` to the router on `toChain`, which checks that at least the
         *       step's `estimate.toAmountMin` arrived, then runs the calls in order, each with its own
         *       `fromAmount` of `toToken` (its `fromTokenAddress` must be `toToken`); what arrives above the
         *       calls' amounts goes to `fromAddress`. With `toAmount`, `estimate.toAmountMin` is at least
         *       `toAmount` (slippage included) and the calls' amounts add up to at most `toAmount`; with
         *       `fromAmount`, the route must guarantee the calls' amounts (400 naming the call otherwise).
         *     - A call that reverts sends its amount to `toFallbackAddress` (default `fromAddress`); the
         *       next calls still run. The fallback, the approval address and the gas limit travel with
         *       each call in the transaction's call data.
         *     - Each call runs with at most `toContractGasLimit` gas. Across chains that gas (plus the
         *       router's own) is paid to the bridge's relayer in the bridged token, as the fee
         *       `Destination call gas` (included); on one chain it is part of the transaction's gas. The
         *       calls' gas must fit in one transaction (400 otherwise).
         *     - Same chain (`fromChain` = `toChain`) is supported: the transaction is the router's
         *       `swapAndCall` (swaps, then the calls); with the same token on both sides there is no swap
         *       and no slippage. Across chains the calls run in the bridge's destination call
         *       `swapAndCompleteBridgeTokensWithCalls`. `GET /v1/calldata/parse` decodes both.
         *     - Semantic problems (unknown chains or tokens, non-EVM chains, a call taking another token
         *       than `toToken`, amounts that do not add up, gas limits too high, calls of the router
         *       itself) answer 400 code 1011 naming each body field in `errors.issues`; no route answers
         *       404 code 1002 with the reasons.
         */
        post: operations["postContractCallsQuote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quote/contractCall": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get a quote for a transfer followed by one destination contract call (deprecated)
         * @deprecated
         * @description **Deprecated**: use `POST /v1/quote/contractCalls`, which takes a list of calls. This
         *     single-call form is kept for existing clients and answers the same `Step` shape: it is
         *     answered as `POST /v1/quote/contractCalls` with one call that takes the whole `toAmount` of
         *     `toToken` (`contractOutputsToken` as its `toTokenAddress`); 400 answers name this body's
         *     own fields.
         */
        post: operations["postContractCallQuote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the status of a transfer
         * @description Returns the status of a cross-chain transfer, looked up by the hash of its sending or
         *     receiving transaction, or by its step id or transfer id. Answers 200 with
         *     `status: NOT_FOUND` when the transfer is unknown, because a valid hash may not be mined
         *     yet: poll every few seconds until `DONE` or `FAILED`. 400 (code 1011) for malformed input.
         *     Passing `fromChain` speeds up the lookup.
         */
        get: operations["getStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/status/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow a transfer or a wallet (Server-Sent Events)
         * @description The state changes of one transfer (`txHash` or `transactionId`, as `GET /v1/status` takes them)
         *     or of every transfer sent from or to a wallet (`wallet`), pushed as Server-Sent Events
         *     (`text/event-stream`, the browser's `EventSource`) instead of polled. Each change is an event
         *     `status` whose `data` is the transfer's `GET /v1/status` answer (a `StatusResponse`, JSON).
         *     A transfer's stream starts with its current state (`NOT_FOUND` while the transaction is not
         *     mined or not found yet), sends each change after it, and ends after a final state (`DONE`,
         *     `FAILED`, `INVALID`) with an event `end`; a reconnection whose `Last-Event-ID` is that final
         *     state's id is answered 204 (so `EventSource` stops). A wallet's stream sends the changes of its
         *     transfers as the indexer finds them (501, code 1000, on a deployment without a database); event
         *     ids are the index's sequence numbers, and a reconnection with `Last-Event-ID` first receives the
         *     changes it missed. Delivery is at least once, in order per transfer. A comment line
         *     (`: keep-alive`) every 15 seconds keeps proxies from closing a quiet stream. At most 10 streams
         *     per client address (429 beyond) and a bound per instance (503 with `Retry-After` beyond).
         */
        get: operations["getStatusStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/transfers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List transfers (transaction history)
         * @description The transfers the service's indexer found on the connected chains, newest first, each as
         *     `GET /v1/status` answers it: a wallet's (sent from or to it), or an integrator's, filtered by
         *     state and time. At most 1000 (the newest); `GET /v2/analytics/transfers` reads them all, page
         *     by page. The ecosystem SDK's `getTransactionHistory` and the widget's history page call it.
         *     Who may read what: a wallet's own transfers are public, so a request naming `wallet` is answered
         *     to anyone (narrowed to `integrator` when it names one too, as the ecosystem's SDK does); all of an
         *     integrator's transfers (`integrator` without `wallet`) need one of that integrator's API keys
         *     (401 without a key, 403 with another's). 501 (code 1000) on a deployment without a database.
         */
        get: operations["getAnalyticsTransfers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/analytics/transfers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List transfers, page by page
         * @description The same transfers as `GET /v1/analytics/transfers`, a page at a time (`limit`, at most 100,
         *     default 50), in a stable order (newest first, ties in the order they were indexed). `next` of
         *     an answer is the cursor of the following page: pass it back as it is. Transfers indexed while
         *     a client pages (newer ones) neither repeat nor hide a row of the pages that follow.
         *     Who may read what: a wallet's own transfers are public, so a request naming `wallet` is answered
         *     to anyone (narrowed to `integrator` when it names one too, as the ecosystem's SDK does); all of an
         *     integrator's transfers (`integrator` without `wallet`) need one of that integrator's API keys
         *     (401 without a key, 403 with another's). 501 (code 1000) on a deployment without a database.
         */
        get: operations["getAnalyticsTransfersPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/transfers/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Summarize an integrator's transfers
         * @description Counts and USD volumes (the sent amounts at their price when indexed; display only) of an
         *     integrator's transfers over a time range: in all, by state, by sending chain and by tool.
         *     Needs one of the integrator's API keys (401 without a key, 403 with another's): like
         *     `GET /v1/keys/test`, it is for a backend, and browsers get no CORS answer for it. 501 (code
         *     1000) on a deployment without a database.
         */
        get: operations["getAnalyticsTransfersSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrators/{integratorId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an integrator's collected fees
         * @description Returns the integrator id and its collected fee balances on every supported chain.
         *     404 (code 1003) when the integrator is unknown.
         */
        get: operations["getIntegrator"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrators/{integratorId}/withdraw/{chainId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Build a withdrawal of an integrator's collected fees
         * @description Returns a transaction request that withdraws the integrator's collected fees on one chain
         *     from the fee collector contract (`withdrawIntegratorFees(token)` or
         *     `batchWithdrawIntegratorFees(tokens)`). It must be sent from the integrator's fee wallet.
         *     `tokenAddresses` restricts the withdrawal to those tokens. 400 (code 1011) when there are no
         *     collected fees for the given token addresses or the request is invalid; 404 (code 1003) when
         *     the integrator is unknown.
         */
        get: operations["getIntegratorWithdrawal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/advanced/possibilities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * List available chains, tokens, bridges and exchanges (deprecated)
         * @deprecated
         * @description **Deprecated**: use `GET /v1/chains`, `GET /v1/tools`, `GET /v1/connections` and
         *     `GET /v1/tokens`. Returns the services, chains and tokens that match the given chains and
         *     tool preferences.
         */
        post: operations["postPossibilities"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/advanced/routes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Find routes for a transfer
         * @description Returns a set of routes, best first, each tagged (`RECOMMENDED`, `CHEAPEST`, `FASTEST`), and
         *     `unavailableRoutes` explaining why other candidate paths were filtered out or failed. The
         *     steps of a route carry no transaction: execute a route by posting each step in turn to
         *     `POST /v1/advanced/stepTransaction`. 404 (code 1002) when no route is found at all.
         */
        post: operations["postRoutes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/advanced/stepTransaction": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Build the transaction of a route step
         * @description Takes a `Step` of a route (as returned by `POST /v1/advanced/routes`), prices it again and
         *     returns it with a fresh `estimate` and its `transactionRequest`. 409 (code 1007) when the
         *     re-priced output fell below the step's `estimate.toAmountMin` (slippage moved past the
         *     limit): fetch new routes. 404 (code 1002) when the step can no longer be priced at all.
         */
        post: operations["postStepTransaction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/relayer/quote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a gasless quote (the user signs, the service's relayer sends)
         * @description The best single-transaction step for an exact input of an ERC-20 token from a chain where the
         *     service's relayer sends, to be executed by signing messages instead of sending a transaction:
         *     the step has `typedData` and no `transactionRequest`. `typedData` holds, in order, the
         *     token's EIP-2612 `Permit` approving Permit2 (only when `fromAddress` has not approved Permit2
         *     for the amount yet, and the token has such a permit), then Permit2's
         *     `PermitWitnessTransferFrom` whose spender is the chain's `permit2Proxy` and whose witness
         *     (`LiFiCall`) binds the router and the hash of the router call. The relayer's gas is priced in
         *     the sent token as the `Gasless relay fee` of `estimate.feeCosts`, taken from the sent amount,
         *     so the user needs no native coin. Sign each message and post the step with them to
         *     `POST /v1/relayer/relay`. The same as `GET /v1/quote` with `gasless=true`, wrapped as the
         *     ecosystem's relayer answers are (`status` `ok`, `data`).
         *
         *     404 (code 1002) when there is no gasless quote: no route, no relayer on the sending chain, a
         *     token without a price to charge the gas in, or without a permit where Permit2 is not approved.
         *     400 for the native coin (it cannot be permitted) or a missing `fromAddress`. The ecosystem SDK
         *     asks again for a step it executes with `allowBridges` naming the step's tool: an exchange
         *     named there keeps a swap on one chain to that exchange.
         */
        get: operations["getRelayerQuote"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/relayer/relay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Relay a signed gasless step (Permit2 witness)
         * @description Relays a signed gasless step: the service's relayer sends the transaction and pays its gas,
         *     and the step's `Gasless relay fee` (taken from the sent amount) pays the relayer. Everything
         *     is checked before anything is recorded or sent: the step is priced again with the relayer's
         *     fee it carries and its router call must be the one the `PermitWitnessTransferFrom` signs
         *     (another amount, receiver, route or fee changes the call: 409); the signature must be the
         *     step's `fromAddress`'s, with a deadline at least 30 s ahead and at most an hour (400 naming the
         *     field); a signature is relayed once (409, naming the task); the fee must still pay for the
         *     gas at the gas price now (409); a token `Permit` (EIP-2612), when present, must approve
         *     Permit2 for at least the amount (400). Below its balance floor the relayer takes no new task
         *     (503 with `Retry-After`). The answer's `taskId` is followed with
         *     `GET /v1/relayer/status/{taskId}` or `GET /v1/status?taskId=`.
         *     The ecosystem SDK posts here when a message is a `PermitWitnessTransferFrom`.
         */
        post: operations["relayTransaction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/advanced/relay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Relay a signed gasless step
         * @description Relays a signed gasless step: the service's relayer sends the transaction and pays its gas,
         *     and the step's `Gasless relay fee` (taken from the sent amount) pays the relayer. Everything
         *     is checked before anything is recorded or sent: the step is priced again with the relayer's
         *     fee it carries and its router call must be the one the `PermitWitnessTransferFrom` signs
         *     (another amount, receiver, route or fee changes the call: 409); the signature must be the
         *     step's `fromAddress`'s, with a deadline at least 30 s ahead and at most an hour (400 naming the
         *     field); a signature is relayed once (409, naming the task); the fee must still pay for the
         *     gas at the gas price now (409); a token `Permit` (EIP-2612), when present, must approve
         *     Permit2 for at least the amount (400). Below its balance floor the relayer takes no new task
         *     (503 with `Retry-After`). The answer's `taskId` is followed with
         *     `GET /v1/relayer/status/{taskId}` or `GET /v1/status?taskId=`.
         *     The same as `POST /v1/relayer/relay`, where the ecosystem SDK posts steps whose messages hold
         *     no `PermitWitnessTransferFrom` (every gasless step of this service holds one, so such a step is
         *     refused naming `/typedData`).
         */
        post: operations["relayAdvanced"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/relayer/status/{taskId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow a relayed step
         * @description Where a relay task stands: `PENDING` until its transaction is mined, then `DONE` (the transfer
         *     ran: `metadata.txHash` is the relayer's transaction, which `GET /v1/status` follows like any
         *     other) or `FAILED` (mined but reverted, or never sent: its deadline passed first). 404 (code
         *     1003) for a task this service does not hold. The query parameters the ecosystem SDK adds are
         *     accepted without effect.
         */
        get: operations["getRelayerStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/gas/suggestion/{chain}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Suggest a destination gas amount
         * @description Suggests how much of the native gas token to bring to `chain`, based on the average price
         *     of 10 approvals and 10 swaps on that chain. With `fromChain` and `fromToken` (given
         *     together) the answer also says how much `fromToken` to send to obtain it (`fromToken`,
         *     `fromAmount`). When no suggestion is available, `available` is false and `message` says why.
         */
        get: operations["getGasSuggestion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/gas/prices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Gas prices of every EVM chain
         * @description Gas prices in wei of every EVM chain, keyed by chain id: `standard` is the price the quotes
         *     use (in chain mode the chain's `eth_gasPrice`, followed per block; otherwise the embedded
         *     snapshot's), `fast` and `fastest` add a priority margin of 10 % and 25 % (rounded up).
         *     Amounts are JSON numbers, as in the ecosystem's API (exact below 2^53 wei); `lastUpdated`
         *     is the Unix time in milliseconds of the price read (the snapshot's date without chain mode).
         */
        get: operations["getGasPrices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/gas/prices/{chainId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Gas prices of one EVM chain
         * @description The gas prices of one EVM chain (by id or key), as in `GET /v1/gas/prices`. 400 (code 1011)
         *     for an unknown chain or a chain that is not an EVM chain.
         */
        get: operations["getGasPrice"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/gas/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the status of a gas refill
         * @description Returns the status of a gas refill, looked up by the hash of the transaction that started
         *     it. Answers 200 with `status: NOT_FOUND` when the hash is unknown.
         */
        get: operations["getGasStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/calldata/parse": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Parse transaction call data (beta)
         * @description **Beta** (`x-beta: true`): the response shape may still change.
         *
         *     Decodes call data using known ABIs (the router and fee collector contracts, common DEX
         *     routers) and, when `chainId` is given, ABIs verified on that chain. Returns one entry per
         *     decoded function call. Values are strings (numbers as decimal strings, addresses, hex
         *     bytes), booleans, arrays or nested objects; a nested `callData` inside swap data is parsed
         *     recursively when its ABI is known (then it is an array of `{functionName,
         *     functionParameters}`) and left as hex otherwise. 400 (code 1011) when the call data is
         *     malformed or matches no known function.
         */
        get: operations["parseCallData"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Check an API key
         * @description Checks the API key sent in `x-svc-api-key` and describes it: its id (never the secret), its
         *     limits and the integrators it is bound to. Requires a key: 401 (code 1010) when the key is
         *     missing, unknown or malformed, 403 (code 1010) when it is blocked or used from outside its
         *     IP allowlist.
         */
        get: operations["testApiKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/chains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List supported chains
         * @description Returns the supported chains, optionally restricted to some chain types.
         */
        get: operations["getChains"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List bridges and exchanges
         * @description Returns the bridges and exchanges (their keys are the values accepted by the
         *     allow/deny/prefer tool lists), optionally restricted to tools that support the given chains.
         */
        get: operations["getTools"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List possible connections between chains and tokens
         * @description Returns, per pair of chains, the tokens that can be sent and received, given the filters.
         *     Every parameter is optional, but at least one of `fromChain`, `toChain`, `fromToken`,
         *     `toToken` is required: without any of them the server answers 400 (code 1011). Tool lists
         *     accept tool keys and the special values `all`, `none`, `default` and `[]` as on
         *     `GET /v1/quote`.
         */
        get: operations["getConnections"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description Numeric chain id (EVM chain id, or the synthetic id of a non-EVM chain). Some synthetic ids are
         *     above 2^53 (Sui: 9270000000000000), so no `format: int64` is declared: tools that read int64 as
         *     the JavaScript-safe range would refuse them.
         * @example 42161
         */
        ChainId: number;
        /**
         * @description A chain of the catalog (`GET /v1/chains`), by numeric id (`42161`, leading zeros allowed) or chain key
         *     (`arb`, any case). The pattern lists exactly the catalog's chains, so that a chain the service does not
         *     know is refused (400) by any validator of this contract, the staging mock included, as the service
         *     refuses it; it is written from the catalog by `npm run contract:chains`.
         * @example arb
         */
        ChainIdOrKey: string;
        /**
         * @description A chain by numeric id or key, as text in a JSON body; the service answers 400 (code 1011, rule
         *     `supportedChain`) for a chain that is not in the catalog.
         * @example arb
         */
        ChainIdOrKeyText: string;
        /**
         * @description A chain in a JSON body, by numeric id (integer) or as an id or key string.
         * @example 42161
         */
        ChainRef: components["schemas"]["ChainId"] | components["schemas"]["ChainIdOrKeyText"];
        /**
         * @description Chain family: EVM, SVM (Solana), UTXO (Bitcoin), MVM (Sui), TVM (Tron).
         * @example EVM
         * @enum {string}
         */
        ChainType: "EVM" | "SVM" | "UTXO" | "MVM" | "TVM";
        /**
         * @description A chain family to filter by, as the ecosystem's types name them; no chain here is of type `STL` (Stellar).
         * @example EVM
         * @enum {string}
         */
        ChainTypeFilter: "EVM" | "SVM" | "UTXO" | "MVM" | "TVM" | "STL";
        /**
         * @description A token, by address (EVM hex, base58, Sui coin type such as `0x2::sui::SUI`) or by symbol
         *     (case-insensitive). Letters, digits, `.`, `_`, `:`, `$`, `+`, `-` and currency signs
         *     (as in `USD₮0`) only.
         * @example USDC
         */
        TokenIdentifier: string;
        /**
         * @description Token address: EVM hex (`0x0000000000000000000000000000000000000000` is the native coin),
         *     Sui coin type, Solana/Tron base58, or `bitcoin` for native BTC.
         * @example 0xaf88d065e77c8cC2239327C5EDb3A432268e5831
         */
        TokenAddress: string;
        /**
         * @description EVM address, `0x` and 40 hex digits (any letter case).
         * @example 0xaf88d065e77c8cC2239327C5EDb3A432268e5831
         */
        EvmAddress: string;
        /**
         * @description Wallet address: EVM hex (`0x` + 40 hex), Sui (`0x` + 64 hex), Solana or Tron base58
         *     (25 to 44 characters; also legacy Bitcoin), or Bitcoin bech32 (`bc1...`).
         * @example 0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0
         */
        WalletAddress: string;
        /**
         * @description Non-negative integer amount in the token's smallest unit, as a decimal string.
         * @example 10000000
         */
        Amount: string;
        /**
         * @description Non-negative integer as a `0x` hex string or a decimal string.
         * @example 0x989680
         */
        BigNumberish: string;
        /**
         * @description Non-negative decimal number as a string (USD values, prices, fractions).
         * @example 9.9980
         */
        DecimalString: string;
        /**
         * @description Hex-encoded bytes, `0x`-prefixed, an even number of hex digits.
         * @example 0x617ba037
         */
        HexData: string;
        /**
         * @description Transaction hash, `0x` and 64 hex digits.
         * @example 0x0991f754c91240e76304af7d026bd597f23c9f9736ec7dafb4f9c7b2b2a17e7c
         */
        TxHash: string;
        /**
         * @description A transaction hash (EVM `0x` + 64 hex; Bitcoin or Tron 64 hex), a Solana signature or Sui
         *     digest (base58), a step id (UUID) or a transfer id (`0x` + 64 hex).
         * @example 0x0991f754c91240e76304af7d026bd597f23c9f9736ec7dafb4f9c7b2b2a17e7c
         */
        TransferReference: string;
        /**
         * Format: uuid
         * @example b7327287-2093-4437-a099-68a434254463
         */
        Uuid: string;
        /**
         * @description Maximum accepted slippage as a fraction, 0 to 1 inclusive; `0.005` means 0.5%.
         * @example 0.005
         */
        Slippage: number;
        /**
         * @description Integrator fee as a fraction, at least 0 and strictly below 1; `0.0025` means 0.25%.
         * @example 0.0025
         */
        Fee: number;
        /**
         * @description `Slippage` written as a decimal string (`"0.005"`), as the ecosystem's request types allow in
         *     the contract-call bodies: 0 to 1 inclusive, decimal digits only.
         * @example 0.005
         */
        SlippageDecimalString: string;
        /**
         * @description `Fee` written as a decimal string (`"0.0025"`), as the ecosystem's request types allow in the
         *     contract-call bodies: at least 0 and below 1, decimal digits only.
         * @example 0.0025
         */
        FeeDecimalString: string;
        /**
         * @description Routes with a price impact above this fraction are hidden; `0.15` means 15%.
         * @default 0.1
         * @example 0.1
         */
        MaxPriceImpact: number;
        /**
         * @description `FASTEST`: shortest estimated time; `CHEAPEST` (the default): lowest cost. `RECOMMENDED`: the
         *     default ranking (`CHEAPEST`); `SAFEST`: ranked as `RECOMMENDED` (no safety score of tools here).
         * @example CHEAPEST
         * @enum {string}
         */
        Order: "FASTEST" | "CHEAPEST" | "RECOMMENDED" | "SAFEST";
        /**
         * @description Key of a bridge or exchange, as listed by `GET /v1/tools`.
         * @example across
         */
        ToolKey: string;
        /**
         * @description A tool key (see `GET /v1/tools`) or a special value: `all` (every tool of that type),
         *     `none` or `[]` (no tool of that type), `default` (the deployment's default tool settings).
         * @example across
         */
        ToolSelector: string;
        /**
         * @description Tool keys or special values (`all`, `none`, `default`, `[]`). An empty list (`allowBridges=`
         *     in a query, `[]` in a body) restricts nothing, as if absent; the special value `[]` is the
         *     two-character string and means no tool.
         * @example [
         *       "across",
         *       "stargate"
         *     ]
         */
        ToolSelectorList: components["schemas"]["ToolSelector"][];
        /**
         * @description `minWaitTime-<minWaitTimeMs>-<startingExpectedResults>-<reduceEveryMs>`.
         * @example minWaitTime-600-4-300
         */
        TimingStrategyString: string;
        /**
         * @description Named set of defaults; `stablecoin` is the supported value.
         * @example stablecoin
         */
        Preset: string;
        /**
         * @description Priority fee level for SVM (Solana) transactions.
         * @example NORMAL
         * @enum {string}
         */
        SvmPriorityFeeLevel: "NORMAL" | "FAST" | "ULTRA";
        /**
         * @description Integrator id / tracking string.
         * @example example-dapp
         */
        IntegratorString: string;
        /**
         * @description Referrer tracking string, often a wallet address.
         * @example 0x9B2a3D1b4F3a9e6C7d8E0f1A2b3C4d5E6f7A8b9C
         */
        ReferrerString: string;
        /**
         * @description How a route is executed, by a `transaction` the user sends or by signing a `message` that the service's relayer sends (a gasless step, where the relayer runs), or `all`.
         * @default transaction
         * @enum {string}
         */
        ExecutionType: "transaction" | "message" | "all";
        DistributionFee: {
            /** @description Fraction of the sent amount (`0.001` is 0.1 %). */
            percentage: number;
            receiver: components["schemas"]["EvmAddress"];
        };
        DistributionFees: components["schemas"]["DistributionFee"][];
        /** @description A pool address, or a Uniswap V4 pool as `<poolManager address>-<32-byte pool id>`. */
        PoolId: string;
        /** @description Pools by id; an empty list denies none. */
        PoolIdList: components["schemas"]["PoolId"][];
        /** @description A destination-side action (the ecosystem's Smart Deposits); refused here (400). */
        DestinationAction: {
            kind: string;
            vault: string;
        };
        /** @enum {string} */
        TokensOrderBy: "marketCapUSD" | "priceUSD" | "volumeUSD24H" | "fdvUSD";
        /**
         * @description Token tag. `stablecoin` is the only public tag; more may be introduced over time.
         * @example stablecoin
         */
        TokenTag: string;
        /** @description A token on one chain. */
        Token: {
            address: components["schemas"]["TokenAddress"];
            chainId: components["schemas"]["ChainId"];
            /** @description Token symbol. */
            symbol: string;
            /** @description Number of decimals of the smallest unit. */
            decimals: number;
            /** @description Token name. */
            name: string;
            /** @description Identifier of the coin across chains (for example `USDC` on every chain). */
            coinKey?: string;
            /**
             * Format: uri
             * @description Logo address.
             */
            logoURI?: string;
            priceUSD: components["schemas"]["DecimalString"];
            /** @description Tags such as `stablecoin`. */
            tags?: components["schemas"]["TokenTag"][];
            /**
             * @description `unverified`: a token the service found on a chain it follows (a pool of it that a factory created),
             *     not one of its catalog: its symbol and name are what its contract says, it is found by address only,
             *     and it is priced only by its own pools (`priceUSD` is `"0"` when none qualifies; the USD figures of
             *     a route then count it as 0 and its price impact is unknown, see `Estimate.data`). Absent for the
             *     catalog's tokens.
             * @enum {string}
             */
            verificationStatus?: "verified" | "unverified" | "flagged";
        };
        TokensResponse: {
            /** @description Tokens per chain; the keys are decimal chain ids. */
            tokens: {
                [key: string]: components["schemas"]["TokenExtended"][];
            };
        };
        /** @description A `Token`; with `extended=true`, also the reference market figures of its coin. */
        TokenExtended: components["schemas"]["Token"] & {
            /** @description Market capitalisation of the token's coin in USD (reference figure; null when unknown). */
            marketCapUSD?: number | null;
            /** @description 24-hour traded volume of the coin in USD (reference figure; null when unknown). */
            volumeUSD24H?: number | null;
            /** @description Fully diluted valuation of the coin in USD (reference figure; null when unknown). */
            fdvUSD?: number | null;
        };
        /** @description A supported chain. */
        Chain: {
            /** @description Chain key, for example `arb`. */
            key: string;
            chainType: components["schemas"]["ChainType"];
            name: string;
            /** @description Coin key of the native coin, for example `ETH`. */
            coin: string;
            id: components["schemas"]["ChainId"];
            mainnet: boolean;
            /** Format: uri */
            logoURI?: string;
            multicallAddress?: components["schemas"]["EvmAddress"];
            nativeToken: components["schemas"]["Token"];
            /** @description Address of the router ("diamond") contract on this chain; EVM chains only. */
            diamondAddress?: components["schemas"]["EvmAddress"];
            /**
             * @description Address of Uniswap's Permit2 contract on this chain (canonically
             *     `0x000000000022D473030F116dDEE9F6B43aC78BA3`); EVM chains where it is deployed only. With
             *     `permit2Proxy`, the ecosystem SDK (`@lifi/sdk-provider-ethereum`) then has the user approve
             *     `fromToken` to Permit2 once (instead of the router) and, for each transfer, sign a Permit2
             *     `PermitTransferFrom` whose spender is `permit2Proxy`, and sends the router call through the proxy.
             */
            permit2?: components["schemas"]["EvmAddress"];
            /**
             * @description Address of the service's Permit2 proxy on this chain (built for the chain's `diamondAddress` and
             *     `permit2`); EVM chains where the service has one only. The ecosystem SDK signs a Permit2 message
             *     (with `permit2`) or, for a token that supports it, an EIP-2612 `permit` for this proxy instead of
             *     asking for an approval of the router, and sends the router call (the step's
             *     `transactionRequest.data`) to the proxy (`callDiamondWithPermit2`, `callDiamondWithPermit2Witness`,
             *     `callDiamondWithEIP2612Signature`). The proxy pulls exactly the signed amount from the signer
             *     (never more, each signature once and before its deadline), approves the router for exactly that
             *     amount, calls it on the signer's behalf and sends the signer back what it did not use. Absent: the
             *     SDK asks for an approval of `estimate.approvalAddress` as usual; `estimate.approvalAddress` remains
             *     the router either way.
             */
            permit2Proxy?: components["schemas"]["EvmAddress"];
            /**
             * @description The chain's parameters as EIP-3085 `wallet_addEthereumChain` has them, on every chain (the ecosystem
             *     SDK's Solana, Bitcoin and Sui providers take their RPC URLs from `rpcUrls`, as its EVM provider does);
             *     in chain mode the connected chain's RPC URL comes first.
             */
            metamask?: {
                /** @description Chain id in hex. */
                chainId: string;
                chainName: string;
                nativeCurrency: {
                    name: string;
                    symbol: string;
                    /** Format: int32 */
                    decimals: number;
                };
                rpcUrls: string[];
                blockExplorerUrls: string[];
            };
        };
        ChainsResponse: {
            chains: components["schemas"]["Chain"][];
        };
        BridgeTool: {
            key: components["schemas"]["ToolKey"];
            name: string;
            /** Format: uri */
            logoURI: string;
            /** @description Supported directions. */
            supportedChains: {
                fromChainId: components["schemas"]["ChainId"];
                toChainId: components["schemas"]["ChainId"];
            }[];
        };
        ExchangeTool: {
            key: components["schemas"]["ToolKey"];
            name: string;
            /** Format: uri */
            logoURI: string;
            supportedChains: components["schemas"]["ChainId"][];
        };
        ToolsResponse: {
            bridges: components["schemas"]["BridgeTool"][];
            exchanges: components["schemas"]["ExchangeTool"][];
        };
        Connection: {
            fromChainId: components["schemas"]["ChainId"];
            toChainId: components["schemas"]["ChainId"];
            fromTokens: components["schemas"]["Token"][];
            toTokens: components["schemas"]["Token"][];
        };
        ConnectionsResponse: {
            connections: components["schemas"]["Connection"][];
        };
        /**
         * @description The tool of a step. `logoURI` is absent for the service's own steps (`feeCollection`,
         *     `wrapper`), which are not third-party tools.
         */
        ToolDetails: {
            key: components["schemas"]["ToolKey"];
            name: string;
            /** Format: uri */
            logoURI?: string;
        };
        /**
         * @description What a step does: send `fromAmount` of `fromToken` on `fromChainId`, receive `toToken` on
         *     `toChainId`. A `custom` step (contract call) also carries `toContractAddress`,
         *     `toContractCallData`, `toFallbackAddress` and `callDataGasLimit`.
         */
        Action: {
            fromChainId: components["schemas"]["ChainId"];
            fromAmount: components["schemas"]["Amount"];
            fromToken: components["schemas"]["Token"];
            fromAddress?: components["schemas"]["WalletAddress"];
            toChainId: components["schemas"]["ChainId"];
            toToken: components["schemas"]["Token"];
            toAddress?: components["schemas"]["WalletAddress"];
            slippage?: components["schemas"]["Slippage"];
            toContractAddress?: components["schemas"]["EvmAddress"];
            toContractCallData?: components["schemas"]["HexData"];
            toFallbackAddress?: components["schemas"]["EvmAddress"];
            callDataGasLimit?: components["schemas"]["Amount"];
        };
        /**
         * @description A gas cost of the step's transaction. EVM: `estimate` gas units at `price` wei, `limit` the
         *     suggested gas limit, `amount` = estimate × price. Solana: `price` is the compute unit price in
         *     micro-lamports, `estimate` and `limit` the compute unit limit the transaction requests, and
         *     `amount` the fee in lamports: 5,000 per signature + ceil(limit × price / 10⁶).
         */
        GasCost: {
            /** @enum {string} */
            type: "SUM" | "APPROVE" | "SEND" | "FEE";
            /** @description Gas price, in the smallest unit of the gas token. */
            price: components["schemas"]["Amount"];
            /** @description Estimated gas units. */
            estimate: components["schemas"]["Amount"];
            /** @description Suggested gas limit (about estimate + 25%). */
            limit: components["schemas"]["Amount"];
            /** @description estimate x price, in the smallest unit of the gas token. */
            amount: components["schemas"]["Amount"];
            amountUSD: components["schemas"]["DecimalString"];
            token: components["schemas"]["Token"];
        };
        /** @description A fee taken by a tool, the service or the integrator. */
        FeeCost: {
            name: string;
            description: string;
            /** @description Fraction of the sent amount, as a string (`"0.003"` is 0.3%). */
            percentage: components["schemas"]["DecimalString"];
            token: components["schemas"]["Token"];
            amount: components["schemas"]["Amount"];
            amountUSD: components["schemas"]["DecimalString"];
            /** @description true: already taken out of fromAmount; false: paid on top (for example as native value). */
            included: boolean;
            /** @description How the fee is split between the integrator and the service. */
            feeSplit?: {
                integratorFee: components["schemas"]["Amount"];
                serviceFee: components["schemas"]["Amount"];
            };
        };
        /** @description Priced outcome of a step. */
        Estimate: {
            tool: components["schemas"]["ToolKey"];
            fromAmount: components["schemas"]["Amount"];
            fromAmountUSD?: components["schemas"]["DecimalString"];
            /** @description Estimated received amount. */
            toAmount: components["schemas"]["Amount"];
            /** @description Guaranteed minimum received amount, slippage included. */
            toAmountMin: components["schemas"]["Amount"];
            toAmountUSD?: components["schemas"]["DecimalString"];
            /**
             * @description Address to approve `fromToken` to before sending the transaction: the router contract
             *     (the chain's `diamondAddress`) for an ERC-20 token on an EVM chain; the chain's zero address
             *     (`0x0000000000000000000000000000000000000000` on EVM chains) when no approval is needed:
             *     native coins, and non-EVM chains. It is the router also on chains with a `permit2Proxy`
             *     (`GET /v1/chains`), where the ecosystem SDK may sign a permit for the proxy instead of
             *     approving it.
             */
            approvalAddress: components["schemas"]["WalletAddress"];
            /** @description Estimated execution time in seconds. */
            executionDuration: number;
            feeCosts: components["schemas"]["FeeCost"][];
            gasCosts: components["schemas"]["GasCost"][];
            /**
             * @description Explanations of the estimate: on a route step, `priceImpact` (fraction; absent when the step's
             *     from or to token has no USD price), `overallPath` (`chainId:SYMBOL`, `~` a swap, `-tool-` a bridge)
             *     and `unpricedTokens` (the step's from and to tokens without a USD price, as `{chainId, address,
             *     symbol}`: their USD figures are 0); on a swap step, the pool used.
             */
            data?: {
                [key: string]: unknown;
            };
        };
        /**
         * @description An Ethereum transaction request that can be sent to a wallet as is. Numeric fields are hex
         *     (`0x...`, as the service sends them) or decimal strings.
         */
        TransactionRequest: {
            to: components["schemas"]["EvmAddress"];
            from?: components["schemas"]["EvmAddress"];
            data: components["schemas"]["HexData"];
            value?: components["schemas"]["BigNumberish"];
            chainId: components["schemas"]["ChainId"];
            gasPrice?: components["schemas"]["BigNumberish"];
            gasLimit?: components["schemas"]["BigNumberish"];
        };
        /**
         * @description A Solana transaction that a wallet signs and sends as it is (what `@lifi/sdk-provider-solana`
         *     reads): `data` is a versioned (v0) transaction, serialized with its one signature slot empty
         *     (the fee payer, `fromAddress`, signs it) and base64-encoded. It holds, in order: ComputeBudget
         *     SetComputeUnitLimit and SetComputeUnitPrice (the step's `gasCosts[0]`: `limit` compute units at
         *     `price` micro-lamports each, per `svmPriorityFeeLevel`), the deposit into the bridge's escrow
         *     (SPL Token TransferChecked to the escrow's associated token account, or a System transfer of
         *     lamports for SOL) and an SPL Memo
         *     `xchain:v1:<bridge>:<transferId>:<toChainId>:<receiver>:<toAmountMin>[:<pool>,<tokenOut>,<amountIn>]...`
         *     that tells the bridge where the transfer goes and which destination swaps to run. Its recent
         *     blockhash is the cluster's when the service reads the chain (chain mode); on the embedded data a
         *     placeholder that no cluster accepts.
         */
        SvmTransactionRequest: {
            /**
             * @description The serialized v0 transaction, base64 (standard alphabet, padded).
             * @example AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=
             */
            data: string;
            chainId: components["schemas"]["ChainId"];
        };
        /**
         * @description A priced step. `lifi` is the wrapper step returned by quotes and routes, carrying
         *     `includedSteps`; included steps are `swap` (same-chain DEX), `cross` (bridge), `protocol`
         *     (fee collection and other in-contract work) or `custom` (a contract call).
         *     `transactionRequest` is present in quote and stepTransaction responses: from an EVM chain a
         *     call of the router (`swapTokensGeneric` on one chain, `startBridgeTokensVia<Bridge>` /
         *     `swapAndStartBridgeTokensVia<Bridge>` across chains; `swapAndCall` on one chain with contract
         *     calls) that `GET /v1/calldata/parse` decodes; from Solana a bridge deposit
         *     (`SvmTransactionRequest`).
         */
        Step: {
            id: components["schemas"]["Uuid"];
            /** @enum {string} */
            type: "lifi" | "swap" | "cross" | "protocol" | "custom";
            tool: components["schemas"]["ToolKey"];
            toolDetails: components["schemas"]["ToolDetails"];
            action: components["schemas"]["Action"];
            estimate: components["schemas"]["Estimate"];
            integrator?: components["schemas"]["IntegratorString"];
            referrer?: components["schemas"]["ReferrerString"];
            includedSteps?: components["schemas"]["Step"][];
            /**
             * @description The transaction to send for this step: from an EVM chain a `TransactionRequest` (a call of
             *     the router), from Solana an `SvmTransactionRequest` (a bridge deposit, base64). Present in
             *     quote, contract-call quote and stepTransaction answers.
             */
            transactionRequest?: components["schemas"]["TransactionRequest"] | components["schemas"]["SvmTransactionRequest"];
            /** @description Sent back by the ecosystem's clients; accepted without effect. */
            intermediary?: components["schemas"]["IntegratorString"];
            executionType?: components["schemas"]["ExecutionType"];
            /** @description Sent back by the ecosystem's clients; accepted without effect. */
            transactionId?: components["schemas"]["TxHash"];
            /**
             * @description Signable typed data of a gasless step (`GET /v1/relayer/quote`, `GET /v1/quote` with
             *     `gasless=true`): the messages to sign instead of sending a transaction (EIP-712: a token's
             *     `Permit`, then Permit2's `PermitWitnessTransferFrom`). Sent back with their signatures to
             *     `POST /v1/relayer/relay`; elsewhere accepted without effect.
             */
            typedData?: {
                [key: string]: unknown;
            }[];
            /** @description A destination action (the ecosystem's Smart Deposits); accepted without effect (steps of this service carry none). */
            destinationAction?: components["schemas"]["DestinationAction"];
        };
        /** @description A route found by `POST /v1/advanced/routes`; its steps carry no transaction request. */
        Route: {
            id: components["schemas"]["Uuid"];
            fromChainId: components["schemas"]["ChainId"];
            fromAmountUSD: components["schemas"]["DecimalString"];
            fromAmount: components["schemas"]["Amount"];
            fromToken: components["schemas"]["Token"];
            fromAddress?: components["schemas"]["WalletAddress"];
            toChainId: components["schemas"]["ChainId"];
            toAmountUSD: components["schemas"]["DecimalString"];
            toAmount: components["schemas"]["Amount"];
            toAmountMin: components["schemas"]["Amount"];
            toToken: components["schemas"]["Token"];
            toAddress?: components["schemas"]["WalletAddress"];
            gasCostUSD?: components["schemas"]["DecimalString"];
            /** @description The route needs the user to switch chains between steps. */
            containsSwitchChain?: boolean;
            steps: components["schemas"]["Step"][];
            tags?: ("CHEAPEST" | "FASTEST" | "RECOMMENDED")[];
            /**
             * @deprecated
             * @description Deprecated, kept for old clients; the service reports `NOT_INSURABLE`.
             */
            insurance?: {
                /** @enum {string} */
                state: "INSURED" | "INSURABLE" | "NOT_INSURABLE";
                feeAmountUsd: components["schemas"]["DecimalString"];
            };
        };
        /**
         * @description Tool keys (or the special values `all`, `none`, `default`, `[]`) to allow, deny or prefer.
         *     An empty or absent list leaves that dimension unrestricted.
         */
        ToolPreferences: {
            allow?: components["schemas"]["ToolSelectorList"];
            deny?: components["schemas"]["ToolSelectorList"];
            prefer?: components["schemas"]["ToolSelectorList"];
        };
        /**
         * @description Wait at least `minWaitTimeMs` for `startingExpectedResults` tool answers, then accept one
         *     fewer every `reduceEveryMs`.
         */
        TimingStrategy: {
            /** @enum {string} */
            strategy: "minWaitTime";
            minWaitTimeMs: number;
            startingExpectedResults: number;
            reduceEveryMs: number;
        };
        Timing: {
            swapStepTimingStrategies?: components["schemas"]["TimingStrategy"][];
            routeTimingStrategies?: components["schemas"]["TimingStrategy"][];
        };
        RouteOptions: {
            integrator?: components["schemas"]["IntegratorString"];
            referrer?: components["schemas"]["ReferrerString"];
            slippage?: components["schemas"]["Slippage"];
            fee?: components["schemas"]["Fee"];
            bridges?: components["schemas"]["ToolPreferences"];
            exchanges?: components["schemas"]["ToolPreferences"];
            /**
             * @description Allow routes that need the user to switch chains between steps.
             * @default false
             */
            allowSwitchChain: boolean;
            /**
             * @description Allow swaps or contract calls inside the destination transaction of a bridge transfer.
             * @default true
             */
            allowDestinationCall: boolean;
            order?: components["schemas"]["Order"];
            maxPriceImpact?: components["schemas"]["MaxPriceImpact"];
            timing?: components["schemas"]["Timing"];
            /** @description Named preset, as the query parameter of `GET /v1/quote` (`stablecoin`). */
            preset?: components["schemas"]["Preset"];
            executionType?: components["schemas"]["ExecutionType"];
            /**
             * @description Gasless execution (as `executionType` `message` asks too). Where the service's relayer sends from `fromChainId`, `true` answers one route whose single step is the gasless step of `GET /v1/relayer/quote` (`typedData` to sign, the relayer's gas as the `Gasless relay fee`); elsewhere it finds none (404, code 1002).
             * @default false
             */
            gasless: boolean;
            /** @description Protocols to allow, deny or prefer. Accepted without effect (see `allowProtocols` of `GET /v1/quote`). */
            protocols?: components["schemas"]["ToolPreferences"];
            /** @description Pools that must not be used (as `denyPools` of `GET /v1/quote`). */
            pools?: {
                deny?: components["schemas"]["PoolIdList"];
            };
            /** @description Accepted without effect (see `intermediary` of `GET /v1/quote`). */
            intermediary?: components["schemas"]["IntegratorString"];
            /** @description Accepted without effect (see `distributionFees` of `GET /v1/quote`). */
            distributionFees?: components["schemas"]["DistributionFees"];
            /** @description Accepted without effect (see `disableFees` of `GET /v1/quote`). */
            disableFees?: boolean;
            /** @description Solana only. Accepted without effect. */
            jitoBundle?: boolean;
            /** @description Solana only. Accepted without effect. */
            svmSponsor?: components["schemas"]["WalletAddress"];
            svmPriorityFeeLevel?: components["schemas"]["SvmPriorityFeeLevel"];
            /** @description Mayan bridge only (not offered here). Accepted without effect. */
            mayanNonEvmPermitSignature?: boolean;
            /** @description Amount-flexible routing (deposit-address routes, not offered here). Accepted without effect. */
            amountFlexible?: boolean;
            /** @description A destination action; no tool here executes one, so a request naming one is answered 400. */
            destinationAction?: components["schemas"]["DestinationAction"];
            /** @description Deprecated in the ecosystem. Accepted without effect. */
            insurance?: boolean;
        };
        RoutesRequest: {
            fromChainId: components["schemas"]["ChainId"];
            fromAmount: components["schemas"]["Amount"];
            fromTokenAddress: components["schemas"]["TokenAddress"];
            fromAddress?: components["schemas"]["WalletAddress"];
            toChainId: components["schemas"]["ChainId"];
            toTokenAddress: components["schemas"]["TokenAddress"];
            toAddress?: components["schemas"]["WalletAddress"];
            fromAmountForGas?: components["schemas"]["Amount"];
            options?: components["schemas"]["RouteOptions"];
        };
        /** @description A candidate path left out before pricing, and why. */
        FilteredResult: {
            /** @description `chainId:SYMBOL` hops; `~` is a swap, `-tool-` a bridge, e.g. `8453:USDC~8453:ETH-across-137:WETH~137:USDC`. */
            overallPath: string;
            reason: string;
        };
        /** @description Why one tool could not price one part of a path. */
        ToolError: {
            /** @enum {string} */
            errorType: "NO_QUOTE";
            /** @enum {string} */
            code: "NO_POSSIBLE_ROUTE" | "INSUFFICIENT_LIQUIDITY" | "TOOL_TIMEOUT" | "UNKNOWN_ERROR" | "RPC_ERROR" | "AMOUNT_TOO_LOW" | "AMOUNT_TOO_HIGH" | "FEES_HIGHER_THAN_AMOUNT" | "DIFFERENT_RECIPIENT_NOT_SUPPORTED" | "TOOL_SPECIFIC_ERROR" | "CANNOT_GUARANTEE_MIN_AMOUNT";
            action: components["schemas"]["Action"];
            tool: components["schemas"]["ToolKey"];
            /** @description Specific, human-readable reason (amounts, limits, tool). */
            message: string;
        };
        /** @description A candidate path whose pricing failed, with the tool errors per sub-path. */
        ErroredRoute: {
            overallPath: string;
            /** @description Tool errors keyed by sub-path (same notation as overallPath). */
            subpaths: {
                [key: string]: components["schemas"]["ToolError"][];
            };
        };
        UnavailableRoutes: {
            filteredOut: components["schemas"]["FilteredResult"][];
            failed: components["schemas"]["ErroredRoute"][];
            /**
             * Format: int32
             * @description Number of filtered-out paths before capping the list.
             */
            filteredOutTotal?: number;
            /**
             * Format: int32
             * @description Number of failed paths before capping the list.
             */
            failedTotal?: number;
        };
        RoutesResponse: {
            routes: components["schemas"]["Route"][];
            unavailableRoutes: components["schemas"]["UnavailableRoutes"];
        };
        /** @description The body of every error response. */
        Error: {
            /** @description Human-readable explanation; for 400, names the parameter (JSON pointer) and the broken rule. */
            message: string;
            /**
             * @description Stable machine-readable code:
             *
             *     | code | name | used for |
             *     |---|---|---|
             *     | 1000 | DefaultError | anything else, including 501 not implemented |
             *     | 1001 | FailedToBuildTransactionError | a step was priced but its transaction could not be built |
             *     | 1002 | NoQuoteError | 404: no quote or route found (`errors` explains) |
             *     | 1003 | NotFoundError | 404: unknown token or integrator |
             *     | 1004 | NotProcessableError | the request is valid but cannot be processed |
             *     | 1005 | RateLimitError | 429: rate limit exceeded |
             *     | 1006 | ServerError | 500: unexpected failure |
             *     | 1007 | SlippageError | 409: price moved past the slippage |
             *     | 1008 | ThirdPartyError | a bridge, exchange or data provider failed |
             *     | 1009 | TimeoutError | an upstream call timed out |
             *     | 1010 | UnauthorizedError | 401/403: API key problems |
             *     | 1011 | ValidationError | 400: invalid parameter or body |
             *     | 1012 | RpcFailure | a chain RPC call failed |
             *     | 1013 | MalformedSchema | the request body is not valid JSON or not an object |
             * @enum {integer}
             */
            code: 1000 | 1001 | 1002 | 1003 | 1004 | 1005 | 1006 | 1007 | 1008 | 1009 | 1010 | 1011 | 1012 | 1013;
            /** @description Structured details, depending on the error (see `NoQuoteError`). */
            errors?: {
                [key: string]: unknown;
            };
            /** @description Identifier of the request in the service logs; always present on 500. */
            requestId?: string;
        };
        /**
         * @description 404 body when no quote or route is found (code 1002). The lists are capped at 20 entries
         *     each; `filteredOutTotal` and `failedTotal` give the full counts.
         */
        NoQuoteError: components["schemas"]["Error"] & {
            /** @enum {integer} */
            code?: 1002;
            errors: {
                filteredOut: components["schemas"]["FilteredResult"][];
                failed: components["schemas"]["ErroredRoute"][];
                /** @description Number of filtered-out paths before capping the list. */
                filteredOutTotal?: number;
                /** @description Number of failed paths before capping the list. */
                failedTotal?: number;
            };
        };
        StatusIncludedStep: {
            fromAmount: components["schemas"]["Amount"];
            fromToken: components["schemas"]["Token"];
            toAmount: components["schemas"]["Amount"];
            toToken: components["schemas"]["Token"];
            bridgedAmount?: components["schemas"]["Amount"];
            tool: components["schemas"]["ToolKey"];
            toolDetails: components["schemas"]["ToolDetails"];
        };
        /**
         * @description A transaction of a transfer. While the transfer is pending, `receiving` may carry only
         *     `chainId`.
         */
        TransactionInfo: {
            /** @description Transaction hash (format of the chain). */
            txHash?: string;
            /**
             * Format: uri
             * @description Block explorer link.
             */
            txLink?: string;
            chainId: components["schemas"]["ChainId"];
            amount?: components["schemas"]["Amount"];
            amountUSD?: components["schemas"]["DecimalString"];
            token?: components["schemas"]["Token"];
            gasPrice?: components["schemas"]["Amount"];
            gasUsed?: components["schemas"]["Amount"];
            gasToken?: components["schemas"]["Token"];
            gasAmount?: components["schemas"]["Amount"];
            gasAmountUSD?: components["schemas"]["DecimalString"];
            value?: components["schemas"]["Amount"];
            /**
             * Format: int64
             * @description Block time, unix seconds.
             */
            timestamp?: number;
            includedSteps?: components["schemas"]["StatusIncludedStep"][];
        };
        /** @description Transfers, newest first, each as `GET /v1/status` answers it. */
        TransferHistory: {
            transfers: components["schemas"]["StatusResponse"][];
        };
        /** @description One page of transfers, newest first. */
        TransferHistoryPage: {
            data: components["schemas"]["StatusResponse"][];
            /** @description Whether a page follows. */
            hasNext: boolean;
            /** @description The cursor of the next page (absent on the last). */
            next?: string;
        };
        TransferSummaryGroup: {
            /** @enum {string} */
            status?: "PENDING" | "DONE" | "FAILED" | "INVALID";
            /** Format: int64 */
            chainId?: number;
            /** @description The tool's key, or `unknown`. */
            tool?: string;
            /** Format: int64 */
            count: number;
            volumeUsd: components["schemas"]["DecimalString"];
        };
        /** @description Counts and USD volumes of an integrator's transfers over a time range. */
        TransferSummary: {
            integrator: components["schemas"]["IntegratorString"];
            /** Format: int64 */
            fromTimestamp?: number;
            /** Format: int64 */
            toTimestamp?: number;
            /** Format: int64 */
            count: number;
            volumeUsd: components["schemas"]["DecimalString"];
            byStatus: components["schemas"]["TransferSummaryGroup"][];
            byChain: components["schemas"]["TransferSummaryGroup"][];
            byTool: components["schemas"]["TransferSummaryGroup"][];
        };
        /** @description A gasless step, wrapped as the ecosystem's relayer answers are. */
        RelayerQuoteResponse: {
            /** @enum {string} */
            status: "ok";
            data: components["schemas"]["Step"];
        };
        /** @description A gasless step with its messages signed (`typedData`, each with its `signature`). */
        RelayRequest: components["schemas"]["Step"] & {
            typedData: ({
                primaryType: string;
                domain: {
                    [key: string]: unknown;
                };
                types: {
                    [key: string]: unknown;
                };
                message: {
                    [key: string]: unknown;
                };
                signature: string;
            } & {
                [key: string]: unknown;
            })[];
        };
        /** @description An accepted relay, wrapped as the ecosystem's relayer answers are. */
        RelayResponse: {
            /** @enum {string} */
            status: "ok";
            data: {
                /** @description The task's id, one per signature; follow it with `GET /v1/relayer/status/{taskId}`. */
                taskId: components["schemas"]["TxHash"];
                /**
                 * Format: uri
                 * @description A link to the relayer's transaction, once it is sent (absent until then).
                 */
                txLink?: string;
            };
        };
        /** @description A relay task's state, wrapped as the ecosystem's relayer answers are. */
        RelayStatusResponse: {
            /** @enum {string} */
            status: "ok";
            data: {
                /** @enum {string} */
                status: "PENDING" | "DONE" | "FAILED";
                /** @description What the relayer did, in a sentence. */
                message?: string;
                metadata: {
                    chainId: components["schemas"]["ChainId"];
                    /** @description The relayer's transaction (the last one sent while PENDING; the mined one after). */
                    txHash?: components["schemas"]["TxHash"];
                };
            };
        };
        /**
         * @description Status of a transfer. `NOT_FOUND`: unknown (maybe not mined yet); `INVALID`: the hash is not
         *     a transfer of this service; `PENDING`, then `DONE` or `FAILED`. Substatus values:
         *     PENDING: `WAIT_SOURCE_CONFIRMATIONS`, `WAIT_DESTINATION_TRANSACTION`,
         *     `BRIDGE_NOT_AVAILABLE`, `CHAIN_NOT_AVAILABLE`, `REFUND_IN_PROGRESS`, `UNKNOWN_ERROR`;
         *     DONE: `COMPLETED`, `PARTIAL` (a different token arrived), `REFUNDED`;
         *     FAILED: `INSUFFICIENT_ALLOWANCE`, `INSUFFICIENT_BALANCE`, `OUT_OF_GAS`, `EXPIRED`,
         *     `SLIPPAGE_EXCEEDED`, `UNKNOWN_FAILED_ERROR`. Fields other than `status` are present once
         *     the transfer is known.
         */
        StatusResponse: {
            /** @description Transfer id (`0x` + 64 hex), as in the router's BridgeData. */
            transactionId?: string;
            sending?: components["schemas"]["TransactionInfo"];
            receiving?: components["schemas"]["TransactionInfo"];
            /**
             * Format: uri
             * @description The transfer's page in the service's explorer (`<PUBLIC_URL>/explorer/tx/<sending hash>`): what
             *     happened on each chain, live while pending. Present once the sending transaction is known.
             */
            explorerLink?: string;
            /**
             * Format: uri
             * @description The same page, under the name the ecosystem's clients read (`@lifi/types` `FullStatusData`).
             */
            lifiExplorerLink?: string;
            fromAddress?: components["schemas"]["WalletAddress"];
            toAddress?: components["schemas"]["WalletAddress"];
            tool?: components["schemas"]["ToolKey"];
            /** @enum {string} */
            status: "NOT_FOUND" | "INVALID" | "PENDING" | "DONE" | "FAILED";
            /** @enum {string} */
            substatus?: "WAIT_SOURCE_CONFIRMATIONS" | "WAIT_DESTINATION_TRANSACTION" | "BRIDGE_NOT_AVAILABLE" | "CHAIN_NOT_AVAILABLE" | "REFUND_IN_PROGRESS" | "UNKNOWN_ERROR" | "COMPLETED" | "PARTIAL" | "REFUNDED" | "INSUFFICIENT_ALLOWANCE" | "INSUFFICIENT_BALANCE" | "OUT_OF_GAS" | "EXPIRED" | "SLIPPAGE_EXCEEDED" | "UNKNOWN_FAILED_ERROR";
            /** @description Human-readable explanation of the substatus. */
            substatusMessage?: string;
            metadata?: {
                integrator: string;
            };
            feeCosts?: components["schemas"]["FeeCost"][];
        };
        /** @description An amount of a token with its USD value. */
        TokenAmount: {
            token: components["schemas"]["Token"];
            amount: components["schemas"]["Amount"];
            amountUsd: components["schemas"]["DecimalString"];
        };
        /**
         * @description Suggested amount of native gas to bring to a chain, based on the average price of 10
         *     approvals and 10 swaps there. `recommended` and `limit` are present when `available` is
         *     true; `message` says why not otherwise. `fromToken` and `fromAmount` are present when
         *     `fromChain` and `fromToken` were given.
         */
        GasSuggestion: {
            available: boolean;
            message?: string;
            recommended?: components["schemas"]["TokenAmount"];
            limit?: components["schemas"]["TokenAmount"];
            serviceFee?: components["schemas"]["TokenAmount"];
            fromToken?: components["schemas"]["Token"];
            /** @description Amount of fromToken to send to obtain the recommended gas amount. */
            fromAmount?: components["schemas"]["Amount"];
        };
        GasPrices: {
            /** @description The gas price the quotes use, in wei. */
            standard: number;
            /** @description standard plus 10 % (rounded up), in wei. */
            fast: number;
            /** @description standard plus 25 % (rounded up), in wei. */
            fastest: number;
            /**
             * Format: int64
             * @description Unix time in milliseconds of the price read.
             */
            lastUpdated: number;
        };
        GasTransactionInfo: {
            txHash: components["schemas"]["TxHash"];
            /** Format: uri */
            txLink?: string;
            amount?: components["schemas"]["Amount"];
            token?: components["schemas"]["Token"];
            chainId: components["schemas"]["ChainId"];
            /** Format: int64 */
            block?: number;
        };
        /** @description Status of a gas refill; `sending` and `receiving` appear as the refill progresses. */
        GasStatus: {
            /** @enum {string} */
            status: "NOT_FOUND" | "PENDING" | "DONE";
            sending?: components["schemas"]["GasTransactionInfo"];
            receiving?: components["schemas"]["GasTransactionInfo"];
        };
        ParsedCall: {
            functionName: string;
            /**
             * @description Parameter name to value: strings (numbers as decimal strings, addresses, hex), booleans,
             *     arrays or nested objects. A nested call-data value is an array of ParsedCall when its ABI
             *     is known and a hex string otherwise.
             */
            functionParameters: {
                [key: string]: unknown;
            };
        };
        ParsedCallData: components["schemas"]["ParsedCall"][];
        FeeBalance: {
            chainId: components["schemas"]["ChainId"];
            tokenBalances: components["schemas"]["TokenAmount"][];
        };
        Integrator: {
            integratorId: components["schemas"]["IntegratorString"];
            /** @description Collected fees per supported chain. */
            feeBalances: components["schemas"]["FeeBalance"][];
        };
        WithdrawResponse: {
            /** @description Call to the fee collector on that chain; send it from the integrator's fee wallet. */
            transactionRequest: components["schemas"]["TransactionRequest"];
        };
        /** @description The key is valid; describes it without revealing the secret. */
        KeyTestResponse: {
            /** @enum {boolean} */
            valid: true;
            /** @description Public identifier of the key (never the secret). */
            keyId: string;
            /** @description Label given to the key in the partner portal. */
            name?: string;
            limits: {
                /**
                 * Format: int32
                 * @description Requests per minute on the per-minute endpoints.
                 */
                perMinute: number;
                /**
                 * Format: int32
                 * @description Requests per two-hour window on the quote, routes and stepTransaction buckets (perMinute x 120).
                 */
                twoHourWindow: number;
            };
            /** @description Integrator ids this key is bound to, when it is restricted. */
            integrators?: components["schemas"]["IntegratorString"][];
        };
        ContractCall: {
            /**
             * @description Amount of fromTokenAddress the call receives on the destination chain (approved to
             *     toApprovalAddress, or sent as value for the native coin).
             */
            fromAmount: components["schemas"]["Amount"];
            /** @description The token the route delivers, the request's `toToken` (400 otherwise). */
            fromTokenAddress: components["schemas"]["EvmAddress"];
            /**
             * @description Token the call outputs, if any: a token of `GET /v1/tokens` on `toChain` (400 otherwise);
             *     it describes the `custom` step only.
             */
            toTokenAddress?: components["schemas"]["EvmAddress"];
            /** @description The contract to call (neither the zero address nor the service's router or fee collector). */
            toContractAddress: components["schemas"]["EvmAddress"];
            toContractCallData: components["schemas"]["HexData"];
            /**
             * @description Gas limit of the call (greater than 0); priced into the quote at this limit. The calls'
             *     limits, with 40000 of the router's own gas each, may add up to at most 12421772.
             */
            toContractGasLimit: components["schemas"]["Amount"];
            /** @description Address to approve fromTokenAddress to, when different from toContractAddress. */
            toApprovalAddress?: components["schemas"]["EvmAddress"];
            /** @description Receives the call's amount if the call fails (default `fromAddress`). */
            toFallbackAddress?: components["schemas"]["EvmAddress"];
        };
        /** @description Give exactly one of `toAmount` and `fromAmount` (enforced by the server with a 400, code 1011). */
        ContractCallsRequest: {
            fromChain: components["schemas"]["ChainRef"];
            fromToken: components["schemas"]["TokenIdentifier"];
            fromAddress: components["schemas"]["WalletAddress"];
            toChain: components["schemas"]["ChainRef"];
            toToken: components["schemas"]["TokenIdentifier"];
            /**
             * @description Amount of toToken the contract calls need on the destination chain: the step's
             *     `estimate.toAmountMin` is at least this amount (exact output). With an empty
             *     `contractCalls` list, the amount to receive as `toAmount` of `GET /v1/quote/toAmount`
             *     (`estimate.toAmount` at least this amount, `estimate.toAmountMin` after slippage).
             */
            toAmount?: components["schemas"]["Amount"];
            /** @description Amount of fromToken to send (exact input). */
            fromAmount?: components["schemas"]["Amount"];
            /**
             * @description The calls, run in order after the transfer. Empty: a plain transfer (exact output with
             *     `toAmount`, as `GET /v1/quote/toAmount`; exact input with `fromAmount`, as `GET /v1/quote`).
             */
            contractCalls: components["schemas"]["ContractCall"][];
            integrator?: components["schemas"]["IntegratorString"];
            referrer?: components["schemas"]["ReferrerString"];
            /** @description Maximum accepted slippage as a fraction (see `Slippage`), as a number or a decimal string. */
            slippage?: components["schemas"]["Slippage"] | components["schemas"]["SlippageDecimalString"];
            /** @description Integrator fee as a fraction (see `Fee`), as a number or a decimal string; requires `integrator`. */
            fee?: components["schemas"]["Fee"] | components["schemas"]["FeeDecimalString"];
            allowBridges?: components["schemas"]["ToolSelectorList"];
            denyBridges?: components["schemas"]["ToolSelectorList"];
            preferBridges?: components["schemas"]["ToolSelectorList"];
            allowExchanges?: components["schemas"]["ToolSelectorList"];
            denyExchanges?: components["schemas"]["ToolSelectorList"];
            preferExchanges?: components["schemas"]["ToolSelectorList"];
            /** @description Accepted without effect (see `allowProtocols` of `GET /v1/quote`). */
            allowProtocols?: components["schemas"]["ToolSelectorList"];
            /** @description Accepted without effect (see `allowProtocols` of `GET /v1/quote`). */
            denyProtocols?: components["schemas"]["ToolSelectorList"];
            /** @description Pools that must not be used (as `denyPools` of `GET /v1/quote`). */
            denyPools?: components["schemas"]["PoolIdList"];
            /**
             * @description Receiver of the bridged tokens if the destination calls fail. Accepted without effect: the
             *     router pays them to `fromAddress` then (status `DONE PARTIAL`).
             */
            toFallbackAddress?: components["schemas"]["WalletAddress"];
            /** @description Token the contract calls output, if any. Accepted without effect. */
            contractOutputsToken?: components["schemas"]["EvmAddress"];
            /**
             * @description Accepted without effect when there are contract calls (they run in the destination call);
             *     with an empty `contractCalls` list, as `allowDestinationCall` of `GET /v1/quote`.
             * @default true
             */
            allowDestinationCall: boolean;
            /** @description Accepted without effect (see `disableFees` of `GET /v1/quote`). */
            disableFees?: boolean;
        };
        /** @description Deprecated single-call request of `POST /v1/quote/contractCall`. */
        ContractCallRequest: {
            fromChain: components["schemas"]["ChainRef"];
            fromToken: components["schemas"]["TokenIdentifier"];
            fromAddress: components["schemas"]["WalletAddress"];
            toChain: components["schemas"]["ChainRef"];
            toToken: components["schemas"]["TokenIdentifier"];
            toAmount: components["schemas"]["Amount"];
            toContractAddress: components["schemas"]["EvmAddress"];
            /** @description Token the contract call outputs, if any. */
            contractOutputsToken?: components["schemas"]["EvmAddress"];
            toContractCallData: components["schemas"]["HexData"];
            toContractGasLimit: components["schemas"]["Amount"];
            /** @description Address the call needs an allowance for (default `toContractAddress`). */
            toApprovalAddress?: components["schemas"]["EvmAddress"];
            /** @description Accepted without effect (see `POST /v1/quote/contractCalls`). */
            toFallbackAddress?: components["schemas"]["WalletAddress"];
            /** @description Maximum accepted slippage as a fraction (see `Slippage`), as a number or a decimal string. */
            slippage?: components["schemas"]["Slippage"] | components["schemas"]["SlippageDecimalString"];
            integrator?: components["schemas"]["IntegratorString"];
            referrer?: components["schemas"]["ReferrerString"];
            /** @description Integrator fee as a fraction (see `Fee`), as a number or a decimal string; requires `integrator`. */
            fee?: components["schemas"]["Fee"] | components["schemas"]["FeeDecimalString"];
            /**
             * @description Accepted without effect (see `POST /v1/quote/contractCalls`).
             * @default true
             */
            allowDestinationCall: boolean;
            allowBridges?: components["schemas"]["ToolSelectorList"];
            denyBridges?: components["schemas"]["ToolSelectorList"];
            preferBridges?: components["schemas"]["ToolSelectorList"];
            allowExchanges?: components["schemas"]["ToolSelectorList"];
            denyExchanges?: components["schemas"]["ToolSelectorList"];
            preferExchanges?: components["schemas"]["ToolSelectorList"];
            /** @description Accepted without effect (see `allowProtocols` of `GET /v1/quote`). */
            allowProtocols?: components["schemas"]["ToolSelectorList"];
            /** @description Accepted without effect (see `allowProtocols` of `GET /v1/quote`). */
            denyProtocols?: components["schemas"]["ToolSelectorList"];
            /** @description Pools that must not be used (as `denyPools` of `GET /v1/quote`). */
            denyPools?: components["schemas"]["PoolIdList"];
        };
        PossibilitiesRequest: {
            chains?: components["schemas"]["ChainId"][];
            bridges?: components["schemas"]["ToolPreferences"];
            exchanges?: components["schemas"]["ToolPreferences"];
        };
        BridgeDefinition: {
            tool: components["schemas"]["ToolKey"];
            fromChainId: components["schemas"]["ChainId"];
            fromToken: components["schemas"]["Token"];
            toChainId: components["schemas"]["ChainId"];
            toToken: components["schemas"]["Token"];
            maximumTransfer: components["schemas"]["Amount"];
            minimumTransfer: components["schemas"]["Amount"];
            swapFeeRate: components["schemas"]["DecimalString"];
            swapFeeMinimum: components["schemas"]["Amount"];
            swapFeeMaximum: components["schemas"]["Amount"];
        };
        ExchangeDefinition: {
            tool: components["schemas"]["ToolKey"];
            chains: components["schemas"]["ChainId"][];
        };
        PossibilitiesResponse: {
            chains?: components["schemas"]["Chain"][];
            tokens?: components["schemas"]["Token"][];
            bridges?: components["schemas"]["BridgeDefinition"][];
            exchanges?: components["schemas"]["ExchangeDefinition"][];
        };
    };
    responses: {
        /**
         * @description Invalid request (code 1011, ValidationError). The message names the offending parameter or
         *     body field as a JSON pointer and the rule it breaks.
         */
        BadRequest: {
            headers: {
                "ratelimit-limit": components["headers"]["RateLimitLimit"];
                "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                "ratelimit-reset": components["headers"]["RateLimitReset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Unknown or malformed API key, or no key where one is required (code 1010, UnauthorizedError). */
        Unauthorized: {
            headers: {
                "ratelimit-limit": components["headers"]["RateLimitLimit"];
                "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                "ratelimit-reset": components["headers"]["RateLimitReset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description Blocked API key or client address, key used from outside its IP allowlist, integrator the key is not bound to, or key or integrator that this dedicated instance does not accept (code 1010, UnauthorizedError).
         *     A block is refused before anything is counted: its message says who is blocked, until when, why and by which rule.
         *     A block with an end also carries `Retry-After` (the seconds until it ends: not declared as a header here, as
         *     the other refusals do not send it), and `ratelimit-remaining` is 0 until then.
         */
        Forbidden: {
            headers: {
                "ratelimit-limit": components["headers"]["RateLimitLimit"];
                "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                "ratelimit-reset": components["headers"]["RateLimitReset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The token or integrator does not exist (code 1003, NotFoundError). */
        NotFound: {
            headers: {
                "ratelimit-limit": components["headers"]["RateLimitLimit"];
                "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                "ratelimit-reset": components["headers"]["RateLimitReset"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description No quote or route found (code 1002, NoQuoteError). `errors` gives, for every candidate path,
         *     why it was filtered out (`filteredOut`) or why its tools failed to price it (`failed`).
         */
        NoQuote: {
            headers: {
                "ratelimit-limit": components["headers"]["RateLimitLimit"];
                "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                "ratelimit-reset": components["headers"]["RateLimitReset"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["NoQuoteError"];
            };
        };
        /**
         * @description The re-priced step would return less than its `estimate.toAmountMin`: the price moved past
         *     the step's slippage since the route was found (code 1007, SlippageError). Request new routes.
         */
        SlippageConflict: {
            headers: {
                "ratelimit-limit": components["headers"]["RateLimitLimit"];
                "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                "ratelimit-reset": components["headers"]["RateLimitReset"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The signed step cannot be relayed as it stands (code 1004, NotProcessableError): its
         *     signature was relayed already (the message names the task), its Permit2 nonce was spent
         *     elsewhere, its router call is not the one signed (the step was changed, or the prices moved
         *     since it was quoted), its relayer's fee no longer pays for the gas, or its transaction would
         *     revert on the chain as it is now (run first, never sent: the owner no longer holds the amount,
         *     say). Ask for a new quote.
         */
        RelayConflict: {
            headers: {
                "ratelimit-limit": components["headers"]["RateLimitLimit"];
                "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                "ratelimit-reset": components["headers"]["RateLimitReset"];
                "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description Rate limit exceeded (code 1005, RateLimitError). `Retry-After` and `ratelimit-reset` say
         *     when the window resets; the message names the bucket and its limit.
         */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                "ratelimit-limit": components["headers"]["RateLimitLimit"];
                "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                "ratelimit-reset": components["headers"]["RateLimitReset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Unexpected server failure (code 1006, ServerError); `requestId` identifies the request in the logs. */
        ServerError: {
            headers: {
                "ratelimit-limit": components["headers"]["RateLimitLimit"];
                "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                "ratelimit-reset": components["headers"]["RateLimitReset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The request carries an API key and the key store (the service's database) does not answer right now, so the
         *     key can be neither accepted nor refused (code 1006, ServerError). Nothing was done; send the request again
         *     after `Retry-After` seconds. Requests without a key are not affected.
         */
        ServiceUnavailable: {
            headers: {
                "Retry-After": components["headers"]["RetryAfterUnavailable"];
                "ratelimit-limit": components["headers"]["RateLimitLimit"];
                "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                "ratelimit-reset": components["headers"]["RateLimitReset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The operation is part of the contract but not implemented by this deployment (code 1000). */
        NotImplemented: {
            headers: {
                "ratelimit-limit": components["headers"]["RateLimitLimit"];
                "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                "ratelimit-reset": components["headers"]["RateLimitReset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /**
         * @description The wallet whose transfers are listed (sent from it or to it). Required unless `integrator`
         *     is given with that integrator's API key.
         * @example 0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9
         */
        HistoryWallet: components["schemas"]["WalletAddress"];
        /**
         * @description Only this integrator's transfers. Without `wallet`, all of the integrator's transfers, for one
         *     of its API keys only.
         * @example example-dapp
         */
        HistoryIntegrator: components["schemas"]["IntegratorString"];
        /**
         * @description Only transfers in this state (`ALL`, the default, for every one).
         * @example DONE
         */
        HistoryStatus: "ALL" | "DONE" | "PENDING" | "FAILED";
        /**
         * @description Only transfers sent at or after this time (unix seconds).
         * @example 1764374400
         */
        FromTimestamp: number;
        /**
         * @description Only transfers sent at or before this time (unix seconds; not before `fromTimestamp`).
         * @example 1764979200
         */
        ToTimestamp: number;
        /**
         * @description Restrict to these chains (comma-separated chain ids or keys). Empty (`chains=`) restricts nothing.
         * @example [
         *       "arb",
         *       "opt"
         *     ]
         */
        ChainsFilter: components["schemas"]["ChainIdOrKey"][];
        /**
         * @description Only tokens carrying all these tags (comma-separated). `stablecoin` is the only public tag; more may be introduced over time. Empty (`tags=`) restricts nothing.
         * @example [
         *       "stablecoin"
         *     ]
         */
        TokenTags: components["schemas"]["TokenTag"][];
        /**
         * @description Restrict to chains of these types (comma-separated). `STL` (Stellar) is accepted and matches
         *     no chain here. Empty (`chainTypes=`) restricts nothing.
         * @example [
         *       "EVM"
         *     ]
         */
        ChainTypes: components["schemas"]["ChainTypeFilter"][];
        /**
         * @description Minimum token price in USD; tokens priced below it are left out. A listed token whose price is unknown has `priceUSD` "0" and is listed whatever the minimum (it is not known to be below it); a token chain mode discovered from a pool and no pool prices yet is left out unless `minPriceUSD=0`.
         * @example 0.0001
         */
        MinPriceUSD: number;
        /**
         * @description Sending chain, id or key.
         * @example arb
         */
        FromChain: components["schemas"]["ChainIdOrKey"];
        /**
         * @description Receiving chain, id or key.
         * @example opt
         */
        ToChain: components["schemas"]["ChainIdOrKey"];
        /**
         * @description Token to send, address or symbol.
         * @example USDC
         */
        FromToken: components["schemas"]["TokenIdentifier"];
        /**
         * @description Token to receive, address or symbol.
         * @example USDC
         */
        ToToken: components["schemas"]["TokenIdentifier"];
        /**
         * @description Sending chain, id or key.
         * @example arb
         */
        OptionalFromChain: components["schemas"]["ChainIdOrKey"];
        /**
         * @description Receiving chain, id or key.
         * @example opt
         */
        OptionalToChain: components["schemas"]["ChainIdOrKey"];
        /**
         * @description Sending token, address or symbol.
         * @example USDC
         */
        OptionalFromToken: components["schemas"]["TokenIdentifier"];
        /**
         * @description Receiving token, address or symbol.
         * @example USDC
         */
        OptionalToToken: components["schemas"]["TokenIdentifier"];
        /**
         * @description Sending wallet address (EVM hex, Sui 32-byte hex, Solana/Tron base58 or Bitcoin bech32).
         * @example 0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0
         */
        FromAddress: components["schemas"]["WalletAddress"];
        /**
         * @description Receiving wallet address; defaults to `fromAddress`. Required (400 otherwise) when the two chains are of different types, for example EVM to Solana.
         * @example 0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0
         */
        ToAddress: components["schemas"]["WalletAddress"];
        /**
         * @description Amount to send, an integer string in the token's smallest unit (all decimals included).
         * @example 10000000
         */
        FromAmount: components["schemas"]["Amount"];
        /**
         * @description Amount to receive, an integer string in the token's smallest unit (all decimals included).
         * @example 10000000
         */
        ToAmount: components["schemas"]["Amount"];
        /**
         * @description `FASTEST`: shortest estimated execution time; `CHEAPEST` (the default): lowest cost (highest
         *     output after fees and gas). `RECOMMENDED` is the default ranking, `CHEAPEST`; `SAFEST` ranks as
         *     `RECOMMENDED` too (the service keeps no safety score of its tools).
         * @example CHEAPEST
         */
        Order: components["schemas"]["Order"];
        /**
         * @description Maximum accepted slippage as a fraction from 0 to 1 inclusive; `0.005` means 0.5%.
         * @example 0.005
         */
        Slippage: components["schemas"]["Slippage"];
        /**
         * @description Integrator tracking string (the integrator id), used for analytics and fee collection.
         * @example example-dapp
         */
        Integrator: components["schemas"]["IntegratorString"];
        /**
         * @description Integrator fee as a fraction of the sent amount, at least 0 and strictly below 1; `0.0025` means 0.25%. Requires `integrator`.
         * @example 0.0025
         */
        Fee: components["schemas"]["Fee"];
        /**
         * @description Referrer tracking string (often the referrer's wallet address).
         * @example 0x9B2a3D1b4F3a9e6C7d8E0f1A2b3C4d5E6f7A8b9C
         */
        Referrer: components["schemas"]["ReferrerString"];
        /**
         * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
         *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
         *     settings). Repeated keys are accepted too.
         * @example [
         *       "across",
         *       "stargate"
         *     ]
         */
        AllowBridges: components["schemas"]["ToolSelectorList"];
        /**
         * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
         *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
         *     settings). Repeated keys are accepted too.
         * @example [
         *       "hop"
         *     ]
         */
        DenyBridges: components["schemas"]["ToolSelectorList"];
        /**
         * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
         *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
         *     settings). Repeated keys are accepted too.
         * @example [
         *       "across"
         *     ]
         */
        PreferBridges: components["schemas"]["ToolSelectorList"];
        /**
         * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
         *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
         *     settings). Repeated keys are accepted too.
         * @example [
         *       "all"
         *     ]
         */
        AllowExchanges: components["schemas"]["ToolSelectorList"];
        /**
         * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
         *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
         *     settings). Repeated keys are accepted too.
         * @example [
         *       "sushiswap"
         *     ]
         */
        DenyExchanges: components["schemas"]["ToolSelectorList"];
        /**
         * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
         *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
         *     settings). Repeated keys are accepted too.
         * @example [
         *       "uniswap"
         *     ]
         */
        PreferExchanges: components["schemas"]["ToolSelectorList"];
        /**
         * @description Allow swaps or contract calls inside the destination transaction of a bridge transfer.
         *     Separate destination-chain swap transactions are unaffected.
         * @example true
         */
        AllowDestinationCall: boolean;
        /**
         * @description Allow connections that need the user to switch chains in the middle (more than one signed transaction on different chains).
         * @example false
         */
        AllowSwitchChain: boolean;
        /**
         * @description Part of `fromAmount` (integer string, smallest unit) to convert to native gas on the destination
         *     chain (cross-chain transfers to EVM chains, exact input only). It is routed to the destination's
         *     native coin in the same transaction (its steps are among `includedSteps`, its figures under
         *     `estimate.data.gasRefuel`); the integrator fee applies to the rest of `fromAmount` only.
         * @example 5000000
         */
        FromAmountForGas: components["schemas"]["Amount"];
        /**
         * @description Routes with a price impact above this fraction are hidden; `0.15` means 15%.
         * @example 0.1
         */
        MaxPriceImpact: components["schemas"]["MaxPriceImpact"];
        /**
         * @description Timing strategies as `minWaitTime-<minWaitTimeMs>-<startingExpectedResults>-<reduceEveryMs>`:
         *     wait at least `minWaitTimeMs` for `startingExpectedResults` tool answers, then accept one
         *     fewer every `reduceEveryMs`. Comma-separated; empty: none.
         * @example [
         *       "minWaitTime-600-4-300"
         *     ]
         */
        SwapStepTimingStrategies: components["schemas"]["TimingStrategyString"][];
        /**
         * @description Timing strategies as `minWaitTime-<minWaitTimeMs>-<startingExpectedResults>-<reduceEveryMs>`:
         *     wait at least `minWaitTimeMs` for `startingExpectedResults` tool answers, then accept one
         *     fewer every `reduceEveryMs`. Comma-separated; empty: none.
         * @example [
         *       "minWaitTime-1500-6-500"
         *     ]
         */
        RouteTimingStrategies: components["schemas"]["TimingStrategyString"][];
        /**
         * @description Skip the transaction simulation; faster, but the gas limit is an estimate rather than a simulated value.
         * @example false
         */
        SkipSimulation: boolean;
        /**
         * @description Named preset supplying default slippage, price impact and tool preferences; explicitly given
         *     parameters override it. `stablecoin` is the supported value.
         * @example stablecoin
         */
        Preset: components["schemas"]["Preset"];
        /**
         * @description Priority fee level of a transaction sent from Solana: its compute unit price, and so its fee.
         *     On the embedded data NORMAL, FAST and ULTRA pay 10,000, 100,000 and 1,000,000 micro-lamports
         *     per compute unit; when the service reads the cluster (chain mode), the 50th, 75th and 95th
         *     percentile of its recent prioritization fees (at least a tenth of those figures, at most
         *     10,000,000). Default NORMAL. Ignored for other chains.
         * @example NORMAL
         */
        SvmPriorityFeeLevel: components["schemas"]["SvmPriorityFeeLevel"];
        /**
         * @description Intermediary of a multi-party integrator fee split. Accepted without effect: this service
         *     takes the integrator fee (`fee`) for the `integrator` alone.
         * @example partner-wallet
         */
        Intermediary: components["schemas"]["IntegratorString"];
        /**
         * @description Extra fee recipients carved out of the integrator fee, sent in qs's indexed form
         *     (`distributionFees[0][percentage]=0.001&distributionFees[0][receiver]=0x…`), as the
         *     ecosystem's SDK sends them. Validated; accepted without effect: this service pays the
         *     integrator fee to the integrator's fee balance only.
         * @example [
         *       {
         *         "percentage": 0.001,
         *         "receiver": "0x9B2a3D1b4F3a9e6C7d8E0f1A2b3C4d5E6f7A8b9C"
         *       }
         *     ]
         */
        DistributionFees: components["schemas"]["DistributionFees"];
        /**
         * @description Suppress the service's own fee for allowlisted integrations. Accepted without effect: this
         *     service charges no fee of its own (only the integrator's `fee`, which this does not disable).
         * @example false
         */
        DisableFees: boolean;
        /**
         * @description Kind of a destination-side action after the bridge leg (the ecosystem's Smart Deposits).
         *     No tool of this service executes destination actions, and a route must not be served
         *     without the action it was asked for: a request that names one is answered 400 (code 1011).
         */
        DestinationActionKind: string;
        /** @description Vault of the destination action (see `destinationActionKind`, refused likewise). */
        DestinationActionVault: components["schemas"]["EvmAddress"];
        /**
         * @description Which routes to consider: executed by a `transaction` (default), by signing a `message`
         *     (gasless), or `all`. On `GET /v1/quote` (and in the options of `POST /v1/advanced/routes`),
         *     `message` asks for a gasless step, as `gasless=true` does; elsewhere, and where the service
         *     runs no relayer, every route is executed by a transaction, so `message` finds no route (404,
         *     code 1002, saying so); `transaction` and `all` are the same.
         * @example transaction
         */
        ExecutionType: components["schemas"]["ExecutionType"];
        /**
         * @description Ask for gasless execution (signable typed data instead of a transaction). On `GET /v1/quote`,
         *     where the service's relayer sends from `fromChain`, `true` answers the step of
         *     `GET /v1/relayer/quote` (without its `status`/`data` wrapper): `typedData` to sign, no
         *     `transactionRequest`, the relayer's gas as the `Gasless relay fee`. Elsewhere, and where no
         *     relayer sends, `true` finds no route (404, code 1002, saying so).
         * @example false
         */
        Gasless: boolean;
        /**
         * @description Solana only (Jito bundles). Accepted without effect (this service builds no Solana transactions).
         * @example false
         */
        JitoBundle: boolean;
        /**
         * @description Solana only (wallet sponsoring transaction costs). Accepted without effect.
         * @example 7v91N7iZ9mNicL8WfG6cgSCKyRXydQjLh6UYBWwm6y1Q
         */
        SvmSponsor: components["schemas"]["WalletAddress"];
        /**
         * @description Deprecated in the ecosystem (transfer insurance). Accepted without effect. (Not marked
         *     `deprecated` here: the staging mock would refuse a request that uses it.)
         * @example false
         */
        Insurance: boolean;
        /**
         * @description Protocols (in-contract work such as fee collection) that may be used. Accepted without
         *     effect: the only protocol step of this service is the integrator fee collection, which
         *     follows `fee`.
         * @example [
         *       "all"
         *     ]
         */
        AllowProtocols: components["schemas"]["ToolSelectorList"];
        /**
         * @description Protocols that must not be used. Accepted without effect (see `allowProtocols`).
         * @example [
         *       "none"
         *     ]
         */
        DenyProtocols: components["schemas"]["ToolSelectorList"];
        /**
         * @description Pools that must not be used, by address (`0x` + 40 hex; a Uniswap V4 id
         *     `<poolManager>-<poolId>` is accepted too and matches no pool here, which has no V4 pools).
         *     Comma-separated; routes through a denied pool are not considered. Empty: none denied.
         * @example [
         *       "0x88e6A0c2dDD26FEEb64F039a2c41296FcB3f5640"
         *     ]
         */
        DenyPools: components["schemas"]["PoolIdList"];
        /**
         * @description The integrator id (its tracking string).
         * @example example-dapp
         */
        IntegratorIdPath: components["schemas"]["IntegratorString"];
    };
    requestBodies: never;
    headers: {
        /**
         * @description Requests allowed in the current window of the bucket the request counted against. Two-hour
         *     buckets (`/v1/quote*`, `/v1/advanced/routes`, `/v1/advanced/stepTransaction`): 75, 75 and
         *     50 without a key; the key's per-minute limit x 120 with a key (12000 by default). Every
         *     other endpoint: per-minute window, 100.
         * @example 12000
         */
        RateLimitLimit: number;
        /**
         * @description Requests left in the current window until it resets.
         * @example 11873
         */
        RateLimitRemaining: number;
        /**
         * @description Seconds until the current window resets: at most 7200 for the two-hour buckets, at most 60
         *     for the per-minute ones. Average requests per minute so far in a two-hour window =
         *     `(ratelimit-limit - ratelimit-remaining) / ((7200 - ratelimit-reset) / 60)`.
         * @example 5412
         */
        RateLimitReset: number;
        /**
         * @description On every answer of a deprecated operation (RFC 9745): when it was deprecated, as a
         *     structured-field date (`@` and Unix seconds). The operation keeps working as documented
         *     until its `Sunset` and is removed only in a later major version of the contract (see
         *     "Compatibility").
         * @example @1795564800
         */
        Deprecation: string;
        /**
         * @description On every answer of a deprecated operation (RFC 8594): the HTTP date after which it may
         *     be removed, at least six months after its `Deprecation`.
         * @example Tue, 01 Jun 2027 00:00:00 GMT
         */
        Sunset: string;
        /**
         * @description On every answer of a deprecated operation: its successor (`rel="successor-version"`,
         *     the path of the operation to use instead) and the documentation of the deprecation
         *     (`rel="deprecation"`, the interactive reference).
         * @example </v1/quote/contractCalls>; rel="successor-version", </docs>; rel="deprecation"; type="text/html"
         */
        DeprecationLink: string;
        /**
         * @description Seconds to wait before retrying (equal to `ratelimit-reset`).
         * @example 5412
         */
        RetryAfter: number;
        /**
         * @description Seconds to wait before sending the request again.
         * @example 5
         */
        RetryAfterUnavailable: number;
        /**
         * @description CORS: the browser origins that may read this answer. `*` (any origin) by default; when the
         *     deployment allows a list of origins (`CORS_ORIGINS`), the request's `Origin` if it is one of
         *     them, and no header otherwise (none at all with `CORS_ORIGINS=none`). Sent on every answer,
         *     errors included, of every operation that works without a key; never on `GET /v1/keys/test`
         *     (keys stay server-side), so it is not declared on the error answers that operation shares
         *     with the others (400, 401, 403, 429, 500, 501). `Access-Control-Allow-Credentials` is never
         *     sent.
         * @example *
         */
        AccessControlAllowOrigin: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getTokens: {
        parameters: {
            query?: {
                /**
                 * @description Restrict to these chains (comma-separated chain ids or keys). Empty (`chains=`) restricts nothing.
                 * @example [
                 *       "arb",
                 *       "opt"
                 *     ]
                 */
                chains?: components["parameters"]["ChainsFilter"];
                /**
                 * @description Only tokens carrying all these tags (comma-separated). `stablecoin` is the only public tag; more may be introduced over time. Empty (`tags=`) restricts nothing.
                 * @example [
                 *       "stablecoin"
                 *     ]
                 */
                tags?: components["parameters"]["TokenTags"];
                /**
                 * @description Restrict to chains of these types (comma-separated). `STL` (Stellar) is accepted and matches
                 *     no chain here. Empty (`chainTypes=`) restricts nothing.
                 * @example [
                 *       "EVM"
                 *     ]
                 */
                chainTypes?: components["parameters"]["ChainTypes"];
                /**
                 * @description Minimum token price in USD; tokens priced below it are left out. A listed token whose price is unknown has `priceUSD` "0" and is listed whatever the minimum (it is not known to be below it); a token chain mode discovered from a pool and no pool prices yet is left out unless `minPriceUSD=0`.
                 * @example 0.0001
                 */
                minPriceUSD?: components["parameters"]["MinPriceUSD"];
                /**
                 * @description Order of each chain's list, largest first. `priceUSD` sorts by the token's price;
                 *     `marketCapUSD`, `volumeUSD24H` and `fdvUSD` by the reference market figures of the token's
                 *     coin (`data/sources/markets.json`, fixed for the embedded snapshot, not live); tokens
                 *     without the figure come last. Without it, each list is in catalog order (by symbol).
                 * @example volumeUSD24H
                 */
                orderBy?: components["schemas"]["TokensOrderBy"];
                /**
                 * @description At most this many tokens per chain (after filtering, searching and ordering).
                 * @example 1000
                 */
                limit?: number;
                /**
                 * @description Each token also carries `marketCapUSD`, `volumeUSD24H` and `fdvUSD` (numbers, or null when
                 *     the coin has no reference figure).
                 * @example true
                 */
                extended?: boolean;
                /**
                 * @description Only tokens whose symbol or name contains this text (case-insensitive), or whose address
                 *     is this address (any case).
                 * @example usd
                 */
                search?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tokens per chain id. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokensResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getToken: {
        parameters: {
            query: {
                /**
                 * @description Chain of the token, id or key.
                 * @example arb
                 */
                chain: components["schemas"]["ChainIdOrKey"];
                /**
                 * @description Token address or symbol.
                 * @example USDC
                 */
                token: components["schemas"]["TokenIdentifier"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The token. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Token"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getQuote: {
        parameters: {
            query: {
                /**
                 * @description Sending chain, id or key.
                 * @example arb
                 */
                fromChain: components["parameters"]["FromChain"];
                /**
                 * @description Receiving chain, id or key.
                 * @example opt
                 */
                toChain: components["parameters"]["ToChain"];
                /**
                 * @description Token to send, address or symbol.
                 * @example USDC
                 */
                fromToken: components["parameters"]["FromToken"];
                /**
                 * @description Token to receive, address or symbol.
                 * @example USDC
                 */
                toToken: components["parameters"]["ToToken"];
                /**
                 * @description Sending wallet address (EVM hex, Sui 32-byte hex, Solana/Tron base58 or Bitcoin bech32).
                 * @example 0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0
                 */
                fromAddress: components["parameters"]["FromAddress"];
                /**
                 * @description Receiving wallet address; defaults to `fromAddress`. Required (400 otherwise) when the two chains are of different types, for example EVM to Solana.
                 * @example 0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0
                 */
                toAddress?: components["parameters"]["ToAddress"];
                /**
                 * @description Amount to send, an integer string in the token's smallest unit (all decimals included).
                 * @example 10000000
                 */
                fromAmount: components["parameters"]["FromAmount"];
                /**
                 * @description `FASTEST`: shortest estimated execution time; `CHEAPEST` (the default): lowest cost (highest
                 *     output after fees and gas). `RECOMMENDED` is the default ranking, `CHEAPEST`; `SAFEST` ranks as
                 *     `RECOMMENDED` too (the service keeps no safety score of its tools).
                 * @example CHEAPEST
                 */
                order?: components["parameters"]["Order"];
                /**
                 * @description Maximum accepted slippage as a fraction from 0 to 1 inclusive; `0.005` means 0.5%.
                 * @example 0.005
                 */
                slippage?: components["parameters"]["Slippage"];
                /**
                 * @description Integrator tracking string (the integrator id), used for analytics and fee collection.
                 * @example example-dapp
                 */
                integrator?: components["parameters"]["Integrator"];
                /**
                 * @description Integrator fee as a fraction of the sent amount, at least 0 and strictly below 1; `0.0025` means 0.25%. Requires `integrator`.
                 * @example 0.0025
                 */
                fee?: components["parameters"]["Fee"];
                /**
                 * @description Referrer tracking string (often the referrer's wallet address).
                 * @example 0x9B2a3D1b4F3a9e6C7d8E0f1A2b3C4d5E6f7A8b9C
                 */
                referrer?: components["parameters"]["Referrer"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "across",
                 *       "stargate"
                 *     ]
                 */
                allowBridges?: components["parameters"]["AllowBridges"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "hop"
                 *     ]
                 */
                denyBridges?: components["parameters"]["DenyBridges"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "across"
                 *     ]
                 */
                preferBridges?: components["parameters"]["PreferBridges"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "all"
                 *     ]
                 */
                allowExchanges?: components["parameters"]["AllowExchanges"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "sushiswap"
                 *     ]
                 */
                denyExchanges?: components["parameters"]["DenyExchanges"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "uniswap"
                 *     ]
                 */
                preferExchanges?: components["parameters"]["PreferExchanges"];
                /**
                 * @description Allow swaps or contract calls inside the destination transaction of a bridge transfer.
                 *     Separate destination-chain swap transactions are unaffected.
                 * @example true
                 */
                allowDestinationCall?: components["parameters"]["AllowDestinationCall"];
                /**
                 * @description Part of `fromAmount` (integer string, smallest unit) to convert to native gas on the destination
                 *     chain (cross-chain transfers to EVM chains, exact input only). It is routed to the destination's
                 *     native coin in the same transaction (its steps are among `includedSteps`, its figures under
                 *     `estimate.data.gasRefuel`); the integrator fee applies to the rest of `fromAmount` only.
                 * @example 5000000
                 */
                fromAmountForGas?: components["parameters"]["FromAmountForGas"];
                /**
                 * @description Routes with a price impact above this fraction are hidden; `0.15` means 15%.
                 * @example 0.1
                 */
                maxPriceImpact?: components["parameters"]["MaxPriceImpact"];
                /**
                 * @description Timing strategies as `minWaitTime-<minWaitTimeMs>-<startingExpectedResults>-<reduceEveryMs>`:
                 *     wait at least `minWaitTimeMs` for `startingExpectedResults` tool answers, then accept one
                 *     fewer every `reduceEveryMs`. Comma-separated; empty: none.
                 * @example [
                 *       "minWaitTime-600-4-300"
                 *     ]
                 */
                swapStepTimingStrategies?: components["parameters"]["SwapStepTimingStrategies"];
                /**
                 * @description Timing strategies as `minWaitTime-<minWaitTimeMs>-<startingExpectedResults>-<reduceEveryMs>`:
                 *     wait at least `minWaitTimeMs` for `startingExpectedResults` tool answers, then accept one
                 *     fewer every `reduceEveryMs`. Comma-separated; empty: none.
                 * @example [
                 *       "minWaitTime-1500-6-500"
                 *     ]
                 */
                routeTimingStrategies?: components["parameters"]["RouteTimingStrategies"];
                /**
                 * @description Skip the transaction simulation; faster, but the gas limit is an estimate rather than a simulated value.
                 * @example false
                 */
                skipSimulation?: components["parameters"]["SkipSimulation"];
                /**
                 * @description Named preset supplying default slippage, price impact and tool preferences; explicitly given
                 *     parameters override it. `stablecoin` is the supported value.
                 * @example stablecoin
                 */
                preset?: components["parameters"]["Preset"];
                /**
                 * @description Priority fee level of a transaction sent from Solana: its compute unit price, and so its fee.
                 *     On the embedded data NORMAL, FAST and ULTRA pay 10,000, 100,000 and 1,000,000 micro-lamports
                 *     per compute unit; when the service reads the cluster (chain mode), the 50th, 75th and 95th
                 *     percentile of its recent prioritization fees (at least a tenth of those figures, at most
                 *     10,000,000). Default NORMAL. Ignored for other chains.
                 * @example NORMAL
                 */
                svmPriorityFeeLevel?: components["parameters"]["SvmPriorityFeeLevel"];
                /**
                 * @description Intermediary of a multi-party integrator fee split. Accepted without effect: this service
                 *     takes the integrator fee (`fee`) for the `integrator` alone.
                 * @example partner-wallet
                 */
                intermediary?: components["parameters"]["Intermediary"];
                /**
                 * @description Extra fee recipients carved out of the integrator fee, sent in qs's indexed form
                 *     (`distributionFees[0][percentage]=0.001&distributionFees[0][receiver]=0x…`), as the
                 *     ecosystem's SDK sends them. Validated; accepted without effect: this service pays the
                 *     integrator fee to the integrator's fee balance only.
                 * @example [
                 *       {
                 *         "percentage": 0.001,
                 *         "receiver": "0x9B2a3D1b4F3a9e6C7d8E0f1A2b3C4d5E6f7A8b9C"
                 *       }
                 *     ]
                 */
                distributionFees?: components["parameters"]["DistributionFees"];
                /**
                 * @description Suppress the service's own fee for allowlisted integrations. Accepted without effect: this
                 *     service charges no fee of its own (only the integrator's `fee`, which this does not disable).
                 * @example false
                 */
                disableFees?: components["parameters"]["DisableFees"];
                /**
                 * @description Which routes to consider: executed by a `transaction` (default), by signing a `message`
                 *     (gasless), or `all`. On `GET /v1/quote` (and in the options of `POST /v1/advanced/routes`),
                 *     `message` asks for a gasless step, as `gasless=true` does; elsewhere, and where the service
                 *     runs no relayer, every route is executed by a transaction, so `message` finds no route (404,
                 *     code 1002, saying so); `transaction` and `all` are the same.
                 * @example transaction
                 */
                executionType?: components["parameters"]["ExecutionType"];
                /**
                 * @description Ask for gasless execution (signable typed data instead of a transaction). On `GET /v1/quote`,
                 *     where the service's relayer sends from `fromChain`, `true` answers the step of
                 *     `GET /v1/relayer/quote` (without its `status`/`data` wrapper): `typedData` to sign, no
                 *     `transactionRequest`, the relayer's gas as the `Gasless relay fee`. Elsewhere, and where no
                 *     relayer sends, `true` finds no route (404, code 1002, saying so).
                 * @example false
                 */
                gasless?: components["parameters"]["Gasless"];
                /**
                 * @description Solana only (Jito bundles). Accepted without effect (this service builds no Solana transactions).
                 * @example false
                 */
                jitoBundle?: components["parameters"]["JitoBundle"];
                /**
                 * @description Solana only (wallet sponsoring transaction costs). Accepted without effect.
                 * @example 7v91N7iZ9mNicL8WfG6cgSCKyRXydQjLh6UYBWwm6y1Q
                 */
                svmSponsor?: components["parameters"]["SvmSponsor"];
                /**
                 * @description Protocols (in-contract work such as fee collection) that may be used. Accepted without
                 *     effect: the only protocol step of this service is the integrator fee collection, which
                 *     follows `fee`.
                 * @example [
                 *       "all"
                 *     ]
                 */
                allowProtocols?: components["parameters"]["AllowProtocols"];
                /**
                 * @description Protocols that must not be used. Accepted without effect (see `allowProtocols`).
                 * @example [
                 *       "none"
                 *     ]
                 */
                denyProtocols?: components["parameters"]["DenyProtocols"];
                /**
                 * @description Pools that must not be used, by address (`0x` + 40 hex; a Uniswap V4 id
                 *     `<poolManager>-<poolId>` is accepted too and matches no pool here, which has no V4 pools).
                 *     Comma-separated; routes through a denied pool are not considered. Empty: none denied.
                 * @example [
                 *       "0x88e6A0c2dDD26FEEb64F039a2c41296FcB3f5640"
                 *     ]
                 */
                denyPools?: components["parameters"]["DenyPools"];
                /**
                 * @description Kind of a destination-side action after the bridge leg (the ecosystem's Smart Deposits).
                 *     No tool of this service executes destination actions, and a route must not be served
                 *     without the action it was asked for: a request that names one is answered 400 (code 1011).
                 */
                destinationActionKind?: components["parameters"]["DestinationActionKind"];
                /** @description Vault of the destination action (see `destinationActionKind`, refused likewise). */
                destinationActionVault?: components["parameters"]["DestinationActionVault"];
                /**
                 * @description Deprecated in the ecosystem (transfer insurance). Accepted without effect. (Not marked
                 *     `deprecated` here: the staging mock would refuse a request that uses it.)
                 * @example false
                 */
                insurance?: components["parameters"]["Insurance"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The best step found, with its transaction request. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Step"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NoQuote"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getQuoteToAmount: {
        parameters: {
            query: {
                /**
                 * @description Sending chain, id or key.
                 * @example arb
                 */
                fromChain: components["parameters"]["FromChain"];
                /**
                 * @description Receiving chain, id or key.
                 * @example opt
                 */
                toChain: components["parameters"]["ToChain"];
                /**
                 * @description Token to send, address or symbol.
                 * @example USDC
                 */
                fromToken: components["parameters"]["FromToken"];
                /**
                 * @description Token to receive, address or symbol.
                 * @example USDC
                 */
                toToken: components["parameters"]["ToToken"];
                /**
                 * @description Sending wallet address (EVM hex, Sui 32-byte hex, Solana/Tron base58 or Bitcoin bech32).
                 * @example 0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0
                 */
                fromAddress: components["parameters"]["FromAddress"];
                /**
                 * @description Receiving wallet address; defaults to `fromAddress`. Required (400 otherwise) when the two chains are of different types, for example EVM to Solana.
                 * @example 0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0
                 */
                toAddress?: components["parameters"]["ToAddress"];
                /**
                 * @description Amount to receive, an integer string in the token's smallest unit (all decimals included).
                 * @example 10000000
                 */
                toAmount: components["parameters"]["ToAmount"];
                /**
                 * @description `FASTEST`: shortest estimated execution time; `CHEAPEST` (the default): lowest cost (highest
                 *     output after fees and gas). `RECOMMENDED` is the default ranking, `CHEAPEST`; `SAFEST` ranks as
                 *     `RECOMMENDED` too (the service keeps no safety score of its tools).
                 * @example CHEAPEST
                 */
                order?: components["parameters"]["Order"];
                /**
                 * @description Maximum accepted slippage as a fraction from 0 to 1 inclusive; `0.005` means 0.5%.
                 * @example 0.005
                 */
                slippage?: components["parameters"]["Slippage"];
                /**
                 * @description Integrator tracking string (the integrator id), used for analytics and fee collection.
                 * @example example-dapp
                 */
                integrator?: components["parameters"]["Integrator"];
                /**
                 * @description Integrator fee as a fraction of the sent amount, at least 0 and strictly below 1; `0.0025` means 0.25%. Requires `integrator`.
                 * @example 0.0025
                 */
                fee?: components["parameters"]["Fee"];
                /**
                 * @description Referrer tracking string (often the referrer's wallet address).
                 * @example 0x9B2a3D1b4F3a9e6C7d8E0f1A2b3C4d5E6f7A8b9C
                 */
                referrer?: components["parameters"]["Referrer"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "across",
                 *       "stargate"
                 *     ]
                 */
                allowBridges?: components["parameters"]["AllowBridges"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "hop"
                 *     ]
                 */
                denyBridges?: components["parameters"]["DenyBridges"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "across"
                 *     ]
                 */
                preferBridges?: components["parameters"]["PreferBridges"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "all"
                 *     ]
                 */
                allowExchanges?: components["parameters"]["AllowExchanges"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "sushiswap"
                 *     ]
                 */
                denyExchanges?: components["parameters"]["DenyExchanges"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "uniswap"
                 *     ]
                 */
                preferExchanges?: components["parameters"]["PreferExchanges"];
                /**
                 * @description Allow swaps or contract calls inside the destination transaction of a bridge transfer.
                 *     Separate destination-chain swap transactions are unaffected.
                 * @example true
                 */
                allowDestinationCall?: components["parameters"]["AllowDestinationCall"];
                /**
                 * @description Routes with a price impact above this fraction are hidden; `0.15` means 15%.
                 * @example 0.1
                 */
                maxPriceImpact?: components["parameters"]["MaxPriceImpact"];
                /**
                 * @description Timing strategies as `minWaitTime-<minWaitTimeMs>-<startingExpectedResults>-<reduceEveryMs>`:
                 *     wait at least `minWaitTimeMs` for `startingExpectedResults` tool answers, then accept one
                 *     fewer every `reduceEveryMs`. Comma-separated; empty: none.
                 * @example [
                 *       "minWaitTime-600-4-300"
                 *     ]
                 */
                swapStepTimingStrategies?: components["parameters"]["SwapStepTimingStrategies"];
                /**
                 * @description Timing strategies as `minWaitTime-<minWaitTimeMs>-<startingExpectedResults>-<reduceEveryMs>`:
                 *     wait at least `minWaitTimeMs` for `startingExpectedResults` tool answers, then accept one
                 *     fewer every `reduceEveryMs`. Comma-separated; empty: none.
                 * @example [
                 *       "minWaitTime-1500-6-500"
                 *     ]
                 */
                routeTimingStrategies?: components["parameters"]["RouteTimingStrategies"];
                /**
                 * @description Priority fee level of a transaction sent from Solana: its compute unit price, and so its fee.
                 *     On the embedded data NORMAL, FAST and ULTRA pay 10,000, 100,000 and 1,000,000 micro-lamports
                 *     per compute unit; when the service reads the cluster (chain mode), the 50th, 75th and 95th
                 *     percentile of its recent prioritization fees (at least a tenth of those figures, at most
                 *     10,000,000). Default NORMAL. Ignored for other chains.
                 * @example NORMAL
                 */
                svmPriorityFeeLevel?: components["parameters"]["SvmPriorityFeeLevel"];
                /**
                 * @description Skip the transaction simulation; faster, but the gas limit is an estimate rather than a simulated value.
                 * @example false
                 */
                skipSimulation?: components["parameters"]["SkipSimulation"];
                /**
                 * @description Named preset supplying default slippage, price impact and tool preferences; explicitly given
                 *     parameters override it. `stablecoin` is the supported value.
                 * @example stablecoin
                 */
                preset?: components["parameters"]["Preset"];
                /**
                 * @description Intermediary of a multi-party integrator fee split. Accepted without effect: this service
                 *     takes the integrator fee (`fee`) for the `integrator` alone.
                 * @example partner-wallet
                 */
                intermediary?: components["parameters"]["Intermediary"];
                /**
                 * @description Extra fee recipients carved out of the integrator fee, sent in qs's indexed form
                 *     (`distributionFees[0][percentage]=0.001&distributionFees[0][receiver]=0x…`), as the
                 *     ecosystem's SDK sends them. Validated; accepted without effect: this service pays the
                 *     integrator fee to the integrator's fee balance only.
                 * @example [
                 *       {
                 *         "percentage": 0.001,
                 *         "receiver": "0x9B2a3D1b4F3a9e6C7d8E0f1A2b3C4d5E6f7A8b9C"
                 *       }
                 *     ]
                 */
                distributionFees?: components["parameters"]["DistributionFees"];
                /**
                 * @description Suppress the service's own fee for allowlisted integrations. Accepted without effect: this
                 *     service charges no fee of its own (only the integrator's `fee`, which this does not disable).
                 * @example false
                 */
                disableFees?: components["parameters"]["DisableFees"];
                /**
                 * @description Which routes to consider: executed by a `transaction` (default), by signing a `message`
                 *     (gasless), or `all`. On `GET /v1/quote` (and in the options of `POST /v1/advanced/routes`),
                 *     `message` asks for a gasless step, as `gasless=true` does; elsewhere, and where the service
                 *     runs no relayer, every route is executed by a transaction, so `message` finds no route (404,
                 *     code 1002, saying so); `transaction` and `all` are the same.
                 * @example transaction
                 */
                executionType?: components["parameters"]["ExecutionType"];
                /**
                 * @description Ask for gasless execution (signable typed data instead of a transaction). On `GET /v1/quote`,
                 *     where the service's relayer sends from `fromChain`, `true` answers the step of
                 *     `GET /v1/relayer/quote` (without its `status`/`data` wrapper): `typedData` to sign, no
                 *     `transactionRequest`, the relayer's gas as the `Gasless relay fee`. Elsewhere, and where no
                 *     relayer sends, `true` finds no route (404, code 1002, saying so).
                 * @example false
                 */
                gasless?: components["parameters"]["Gasless"];
                /**
                 * @description Solana only (Jito bundles). Accepted without effect (this service builds no Solana transactions).
                 * @example false
                 */
                jitoBundle?: components["parameters"]["JitoBundle"];
                /**
                 * @description Solana only (wallet sponsoring transaction costs). Accepted without effect.
                 * @example 7v91N7iZ9mNicL8WfG6cgSCKyRXydQjLh6UYBWwm6y1Q
                 */
                svmSponsor?: components["parameters"]["SvmSponsor"];
                /**
                 * @description Protocols (in-contract work such as fee collection) that may be used. Accepted without
                 *     effect: the only protocol step of this service is the integrator fee collection, which
                 *     follows `fee`.
                 * @example [
                 *       "all"
                 *     ]
                 */
                allowProtocols?: components["parameters"]["AllowProtocols"];
                /**
                 * @description Protocols that must not be used. Accepted without effect (see `allowProtocols`).
                 * @example [
                 *       "none"
                 *     ]
                 */
                denyProtocols?: components["parameters"]["DenyProtocols"];
                /**
                 * @description Pools that must not be used, by address (`0x` + 40 hex; a Uniswap V4 id
                 *     `<poolManager>-<poolId>` is accepted too and matches no pool here, which has no V4 pools).
                 *     Comma-separated; routes through a denied pool are not considered. Empty: none denied.
                 * @example [
                 *       "0x88e6A0c2dDD26FEEb64F039a2c41296FcB3f5640"
                 *     ]
                 */
                denyPools?: components["parameters"]["DenyPools"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The best step found for the requested output, with its transaction request. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Step"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NoQuote"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postContractCallsQuote: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "fromChain": 42161,
                 *       "fromToken": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
                 *       "fromAddress": "0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0",
                 *       "toChain": 8453,
                 *       "toToken": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
                 *       "toAmount": "9985000",
                 *       "contractCalls": [
                 *         {
                 *           "fromAmount": "9985000",
                 *           "fromTokenAddress": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
                 *           "toContractAddress": "0xA238Dd80C259a72e81d7e4664a9801593F98d1c5",
                 *           "toContractCallData": "0x617ba037000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda029130000000000000000000000000000000000000000000000000000000000985be8000000000000000000000000552008c0f6870c2f77e5cc1d2eb9bdff03e30ea00000000000000000000000000000000000000000000000000000000000000000",
                 *           "toContractGasLimit": "300000",
                 *           "toFallbackAddress": "0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0"
                 *         }
                 *       ],
                 *       "integrator": "example-dapp",
                 *       "slippage": 0.005,
                 *       "allowBridges": [
                 *         "across"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["ContractCallsRequest"];
            };
        };
        responses: {
            /**
             * @description The step, ending in a `custom` step that performs the contract calls; for an empty
             *     `contractCalls` list, the plain transfer's step (as `GET /v1/quote` or `GET /v1/quote/toAmount`).
             */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Step"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NoQuote"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postContractCallQuote: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "fromChain": 42161,
                 *       "fromToken": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
                 *       "fromAddress": "0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0",
                 *       "toChain": 8453,
                 *       "toToken": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
                 *       "toAmount": "9985000",
                 *       "toContractAddress": "0xA238Dd80C259a72e81d7e4664a9801593F98d1c5",
                 *       "toContractCallData": "0x617ba037000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda029130000000000000000000000000000000000000000000000000000000000985be8000000000000000000000000552008c0f6870c2f77e5cc1d2eb9bdff03e30ea00000000000000000000000000000000000000000000000000000000000000000",
                 *       "toContractGasLimit": "300000",
                 *       "allowBridges": [
                 *         "across"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["ContractCallRequest"];
            };
        };
        responses: {
            /** @description The step, ending in a `custom` step that performs the contract call. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["DeprecationLink"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Step"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NoQuote"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getStatus: {
        parameters: {
            query?: {
                /**
                 * @description Hash of the sending or receiving transaction (EVM `0x` + 64 hex, Bitcoin/Tron 64 hex,
                 *     Solana/Sui base58 signature or digest), or the step id (UUID) or transfer id (`0x` + 64 hex).
                 *     Required unless `taskId` or `transactionId` is given (400, code 1011, naming it).
                 * @example 0x0991f754c91240e76304af7d026bd597f23c9f9736ec7dafb4f9c7b2b2a17e7c
                 */
                txHash?: components["schemas"]["TransferReference"];
                /**
                 * @description Key of the bridging tool used (from `GET /v1/tools`).
                 * @example across
                 */
                bridge?: components["schemas"]["ToolKey"];
                /**
                 * @description Sending chain, id or key.
                 * @example arb
                 */
                fromChain?: components["parameters"]["OptionalFromChain"];
                /**
                 * @description Receiving chain, id or key.
                 * @example opt
                 */
                toChain?: components["parameters"]["OptionalToChain"];
                /**
                 * @description The transfer id (`0x` + 64 hex, the step's `transactionId`), as the ecosystem's SDK sends it
                 *     next to `txHash`. Without `txHash`, the transfer is looked up by it; with it, `txHash` is used.
                 * @example 0x5f4a37c3e0d5a2b5f1c1a4f1e9f4d6c0b2a1e3d5c7b9a8f6e4d2c0b1a3e5d7f9
                 */
                transactionId?: components["schemas"]["TxHash"];
                /**
                 * @description The sending wallet, as the ecosystem's SDK sends it while polling. Accepted without effect.
                 * @example 0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9
                 */
                fromAddress?: components["schemas"]["WalletAddress"];
                /**
                 * @description Deposit address of a deposit-address transfer. Accepted without effect (this service has none).
                 * @example 0x9B2a3D1b4F3a9e6C7d8E0f1A2b3C4d5E6f7A8b9C
                 */
                depositAddress?: components["schemas"]["WalletAddress"];
                /**
                 * @description Relayer task of a gasless transfer (`POST /v1/relayer/relay`'s `taskId`): `PENDING` until the
                 *     relayer's transaction is mined, then that transaction's transfer; `NOT_FOUND` for a task the
                 *     service does not hold, or where it runs no relayer, saying so.
                 * @example relay-task-6b1a2f0e
                 */
                taskId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The transfer status (`NOT_FOUND` when unknown). */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatusResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getStatusStream: {
        parameters: {
            query?: {
                /**
                 * @description Hash of the transfer's sending transaction, or its transfer id, as `GET /v1/status` takes it.
                 *     One of `txHash`, `transactionId` or `wallet` is required (400, code 1011, naming them).
                 * @example 0x0991f754c91240e76304af7d026bd597f23c9f9736ec7dafb4f9c7b2b2a17e7c
                 */
                txHash?: components["schemas"]["TransferReference"];
                /**
                 * @description The transfer id (`0x` + 64 hex), when `txHash` is not given.
                 * @example 0x5f4a37c3e0d5a2b5f1c1a4f1e9f4d6c0b2a1e3d5c7b9a8f6e4d2c0b1a3e5d7f9
                 */
                transactionId?: components["schemas"]["TxHash"];
                /**
                 * @description A wallet whose transfers (sent from it or to it) are followed, instead of one transfer.
                 * @example 0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9
                 */
                wallet?: components["schemas"]["WalletAddress"];
            };
            header?: {
                /**
                 * @description The id of the last event received, sent by `EventSource` when it reconnects.
                 * @example 1042
                 */
                "Last-Event-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /**
             * @description The event stream. Each event: `id:` (resume point), `event: status` or `event: end`, and for
             *     `status` a `data:` line holding a `StatusResponse` as JSON.
             */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example id: PENDING:WAIT_DESTINATION_TRANSACTION
                     *     event: status
                     *     data: {"status":"PENDING","substatus":"WAIT_DESTINATION_TRANSACTION","transactionId":"0x5f4a37c3e0d5a2b5f1c1a4f1e9f4d6c0b2a1e3d5c7b9a8f6e4d2c0b1a3e5d7f9"}
                     *
                     *     id: DONE:COMPLETED
                     *     event: status
                     *     data: {"status":"DONE","substatus":"COMPLETED","transactionId":"0x5f4a37c3e0d5a2b5f1c1a4f1e9f4d6c0b2a1e3d5c7b9a8f6e4d2c0b1a3e5d7f9"}
                     *
                     *     event: end
                     *     data: {}
                     */
                    "text/event-stream": string;
                };
            };
            /** @description The transfer is final and the client has its final state (`Last-Event-ID`); nothing more will come. */
            204: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAnalyticsTransfers: {
        parameters: {
            query?: {
                /**
                 * @description The wallet whose transfers are listed (sent from it or to it). Required unless `integrator`
                 *     is given with that integrator's API key.
                 * @example 0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9
                 */
                wallet?: components["parameters"]["HistoryWallet"];
                /**
                 * @description Only this integrator's transfers. Without `wallet`, all of the integrator's transfers, for one
                 *     of its API keys only.
                 * @example example-dapp
                 */
                integrator?: components["parameters"]["HistoryIntegrator"];
                /**
                 * @description Only transfers in this state (`ALL`, the default, for every one).
                 * @example DONE
                 */
                status?: components["parameters"]["HistoryStatus"];
                /**
                 * @description Only transfers sent at or after this time (unix seconds).
                 * @example 1764374400
                 */
                fromTimestamp?: components["parameters"]["FromTimestamp"];
                /**
                 * @description Only transfers sent at or before this time (unix seconds; not before `fromTimestamp`).
                 * @example 1764979200
                 */
                toTimestamp?: components["parameters"]["ToTimestamp"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The transfers, newest first. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransferHistory"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAnalyticsTransfersPage: {
        parameters: {
            query?: {
                /**
                 * @description The wallet whose transfers are listed (sent from it or to it). Required unless `integrator`
                 *     is given with that integrator's API key.
                 * @example 0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9
                 */
                wallet?: components["parameters"]["HistoryWallet"];
                /**
                 * @description Only this integrator's transfers. Without `wallet`, all of the integrator's transfers, for one
                 *     of its API keys only.
                 * @example example-dapp
                 */
                integrator?: components["parameters"]["HistoryIntegrator"];
                /**
                 * @description Only transfers in this state (`ALL`, the default, for every one).
                 * @example DONE
                 */
                status?: components["parameters"]["HistoryStatus"];
                /**
                 * @description Only transfers sent at or after this time (unix seconds).
                 * @example 1764374400
                 */
                fromTimestamp?: components["parameters"]["FromTimestamp"];
                /**
                 * @description Only transfers sent at or before this time (unix seconds; not before `fromTimestamp`).
                 * @example 1764979200
                 */
                toTimestamp?: components["parameters"]["ToTimestamp"];
                /**
                 * @description Transfers per page, 1 to 100 (default 50).
                 * @example 20
                 */
                limit?: number;
                /**
                 * @description The `next` cursor of the previous page (400, code 1011, for anything else).
                 * @example MTc2NDM3NDQwMDAwMC40Mg
                 */
                next?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of transfers, newest first, and the cursor of the next one. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransferHistoryPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAnalyticsTransfersSummary: {
        parameters: {
            query: {
                /**
                 * @description The integrator whose transfers are summarized (its API key must be presented).
                 * @example example-dapp
                 */
                integrator: components["schemas"]["IntegratorString"];
                /**
                 * @description Only transfers sent at or after this time (unix seconds).
                 * @example 1764374400
                 */
                fromTimestamp?: components["parameters"]["FromTimestamp"];
                /**
                 * @description Only transfers sent at or before this time (unix seconds; not before `fromTimestamp`).
                 * @example 1764979200
                 */
                toTimestamp?: components["parameters"]["ToTimestamp"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The integrator's counts and volumes. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransferSummary"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getIntegrator: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The integrator id (its tracking string).
                 * @example example-dapp
                 */
                integratorId: components["parameters"]["IntegratorIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The integrator and its fee balances. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Integrator"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getIntegratorWithdrawal: {
        parameters: {
            query?: {
                /**
                 * @description Withdraw only these tokens (comma-separated EVM addresses; the native coin is `0x0000000000000000000000000000000000000000`).
                 * @example [
                 *       "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
                 *       "0x0000000000000000000000000000000000000000"
                 *     ]
                 */
                tokenAddresses?: components["schemas"]["EvmAddress"][];
            };
            header?: never;
            path: {
                /**
                 * @description The integrator id (its tracking string).
                 * @example example-dapp
                 */
                integratorId: components["parameters"]["IntegratorIdPath"];
                /**
                 * @description Chain to withdraw on, id or key.
                 * @example 42161
                 */
                chainId: components["schemas"]["ChainIdOrKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The withdrawal transaction request. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WithdrawResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postPossibilities: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "chains": [
                 *         42161,
                 *         10
                 *       ],
                 *       "bridges": {
                 *         "allow": [
                 *           "across"
                 *         ]
                 *       },
                 *       "exchanges": {
                 *         "deny": [
                 *           "sushiswap"
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["PossibilitiesRequest"];
            };
        };
        responses: {
            /** @description Matching tokens, bridges and exchanges. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["DeprecationLink"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PossibilitiesResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postRoutes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "fromChainId": 42161,
                 *       "fromAmount": "10000000",
                 *       "fromTokenAddress": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
                 *       "fromAddress": "0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0",
                 *       "toChainId": 10,
                 *       "toTokenAddress": "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85",
                 *       "toAddress": "0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0",
                 *       "options": {
                 *         "integrator": "example-dapp",
                 *         "slippage": 0.005,
                 *         "order": "CHEAPEST",
                 *         "maxPriceImpact": 0.1,
                 *         "allowSwitchChain": false,
                 *         "allowDestinationCall": true,
                 *         "bridges": {
                 *           "allow": [
                 *             "across",
                 *             "stargate",
                 *             "hop"
                 *           ]
                 *         },
                 *         "exchanges": {
                 *           "allow": [
                 *             "all"
                 *           ]
                 *         },
                 *         "timing": {
                 *           "swapStepTimingStrategies": [
                 *             {
                 *               "strategy": "minWaitTime",
                 *               "minWaitTimeMs": 600,
                 *               "startingExpectedResults": 4,
                 *               "reduceEveryMs": 300
                 *             }
                 *           ]
                 *         }
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["RoutesRequest"];
            };
        };
        responses: {
            /** @description Routes found, and the reasons other paths are unavailable. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoutesResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NoQuote"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postStepTransaction: {
        parameters: {
            query?: {
                /**
                 * @description Priority fee level of a transaction sent from Solana: its compute unit price, and so its fee.
                 *     On the embedded data NORMAL, FAST and ULTRA pay 10,000, 100,000 and 1,000,000 micro-lamports
                 *     per compute unit; when the service reads the cluster (chain mode), the 50th, 75th and 95th
                 *     percentile of its recent prioritization fees (at least a tenth of those figures, at most
                 *     10,000,000). Default NORMAL. Ignored for other chains.
                 * @example NORMAL
                 */
                svmPriorityFeeLevel?: components["parameters"]["SvmPriorityFeeLevel"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "beaa526e-2296-45cc-9867-a481fa9095ed",
                 *       "type": "lifi",
                 *       "tool": "across",
                 *       "toolDetails": {
                 *         "key": "across",
                 *         "name": "Across",
                 *         "logoURI": "https://raw.githubusercontent.com/lifinance/types/main/src/assets/icons/bridges/acrossv2.png"
                 *       },
                 *       "action": {
                 *         "fromChainId": 42161,
                 *         "fromAmount": "10000000",
                 *         "fromToken": {
                 *           "address": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
                 *           "chainId": 42161,
                 *           "symbol": "USDC",
                 *           "decimals": 6,
                 *           "name": "USD Coin",
                 *           "coinKey": "USDC",
                 *           "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xA0b86991c6218b36c1D19D4a2e9Eb0cE3606eB48/logo.png",
                 *           "priceUSD": "0.9998",
                 *           "tags": [
                 *             "stablecoin"
                 *           ]
                 *         },
                 *         "fromAddress": "0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0",
                 *         "toChainId": 10,
                 *         "toToken": {
                 *           "address": "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85",
                 *           "chainId": 10,
                 *           "symbol": "USDC",
                 *           "decimals": 6,
                 *           "name": "USD Coin",
                 *           "coinKey": "USDC",
                 *           "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xA0b86991c6218b36c1D19D4a2e9Eb0cE3606eB48/logo.png",
                 *           "priceUSD": "0.9998",
                 *           "tags": [
                 *             "stablecoin"
                 *           ]
                 *         },
                 *         "toAddress": "0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0",
                 *         "slippage": 0.005
                 *       },
                 *       "estimate": {
                 *         "tool": "across",
                 *         "approvalAddress": "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
                 *         "fromAmount": "10000000",
                 *         "fromAmountUSD": "9.9980",
                 *         "toAmount": "9896000",
                 *         "toAmountMin": "9846520",
                 *         "toAmountUSD": "9.8960",
                 *         "executionDuration": 6,
                 *         "feeCosts": [
                 *           {
                 *             "name": "Relayer fee",
                 *             "description": "Fee and destination gas kept by the Across relayer that fills the transfer on OP Mainnet.",
                 *             "percentage": "0.0104",
                 *             "token": {
                 *               "address": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
                 *               "chainId": 42161,
                 *               "symbol": "USDC",
                 *               "decimals": 6,
                 *               "name": "USD Coin",
                 *               "coinKey": "USDC",
                 *               "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xA0b86991c6218b36c1D19D4a2e9Eb0cE3606eB48/logo.png",
                 *               "priceUSD": "0.9998",
                 *               "tags": [
                 *                 "stablecoin"
                 *               ]
                 *             },
                 *             "amount": "104000",
                 *             "amountUSD": "0.1040",
                 *             "included": true
                 *           }
                 *         ],
                 *         "gasCosts": [
                 *           {
                 *             "type": "SEND",
                 *             "price": "10000000",
                 *             "estimate": "180000",
                 *             "limit": "225000",
                 *             "amount": "1800000000000",
                 *             "amountUSD": "0.0061",
                 *             "token": {
                 *               "address": "0x0000000000000000000000000000000000000000",
                 *               "chainId": 42161,
                 *               "symbol": "ETH",
                 *               "decimals": 18,
                 *               "name": "ETH",
                 *               "coinKey": "ETH",
                 *               "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2/logo.png",
                 *               "priceUSD": "3412.57"
                 *             }
                 *           }
                 *         ]
                 *       },
                 *       "integrator": "example-dapp",
                 *       "includedSteps": [
                 *         {
                 *           "id": "2656de3e-0426-4477-935e-7b480617db12",
                 *           "type": "cross",
                 *           "tool": "across",
                 *           "toolDetails": {
                 *             "key": "across",
                 *             "name": "Across",
                 *             "logoURI": "https://raw.githubusercontent.com/lifinance/types/main/src/assets/icons/bridges/acrossv2.png"
                 *           },
                 *           "action": {
                 *             "fromChainId": 42161,
                 *             "fromAmount": "10000000",
                 *             "fromToken": {
                 *               "address": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
                 *               "chainId": 42161,
                 *               "symbol": "USDC",
                 *               "decimals": 6,
                 *               "name": "USD Coin",
                 *               "coinKey": "USDC",
                 *               "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xA0b86991c6218b36c1D19D4a2e9Eb0cE3606eB48/logo.png",
                 *               "priceUSD": "0.9998",
                 *               "tags": [
                 *                 "stablecoin"
                 *               ]
                 *             },
                 *             "fromAddress": "0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0",
                 *             "toChainId": 10,
                 *             "toToken": {
                 *               "address": "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85",
                 *               "chainId": 10,
                 *               "symbol": "USDC",
                 *               "decimals": 6,
                 *               "name": "USD Coin",
                 *               "coinKey": "USDC",
                 *               "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xA0b86991c6218b36c1D19D4a2e9Eb0cE3606eB48/logo.png",
                 *               "priceUSD": "0.9998",
                 *               "tags": [
                 *                 "stablecoin"
                 *               ]
                 *             },
                 *             "toAddress": "0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0",
                 *             "slippage": 0.005
                 *           },
                 *           "estimate": {
                 *             "tool": "across",
                 *             "approvalAddress": "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
                 *             "fromAmount": "10000000",
                 *             "fromAmountUSD": "9.9980",
                 *             "toAmount": "9896000",
                 *             "toAmountMin": "9846520",
                 *             "toAmountUSD": "9.8960",
                 *             "executionDuration": 6,
                 *             "feeCosts": [
                 *               {
                 *                 "name": "Relayer fee",
                 *                 "description": "Fee and destination gas kept by the Across relayer that fills the transfer on OP Mainnet.",
                 *                 "percentage": "0.0104",
                 *                 "token": {
                 *                   "address": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
                 *                   "chainId": 42161,
                 *                   "symbol": "USDC",
                 *                   "decimals": 6,
                 *                   "name": "USD Coin",
                 *                   "coinKey": "USDC",
                 *                   "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xA0b86991c6218b36c1D19D4a2e9Eb0cE3606eB48/logo.png",
                 *                   "priceUSD": "0.9998",
                 *                   "tags": [
                 *                     "stablecoin"
                 *                   ]
                 *                 },
                 *                 "amount": "104000",
                 *                 "amountUSD": "0.1040",
                 *                 "included": true
                 *               }
                 *             ],
                 *             "gasCosts": [
                 *               {
                 *                 "type": "SEND",
                 *                 "price": "10000000",
                 *                 "estimate": "180000",
                 *                 "limit": "225000",
                 *                 "amount": "1800000000000",
                 *                 "amountUSD": "0.0061",
                 *                 "token": {
                 *                   "address": "0x0000000000000000000000000000000000000000",
                 *                   "chainId": 42161,
                 *                   "symbol": "ETH",
                 *                   "decimals": 18,
                 *                   "name": "ETH",
                 *                   "coinKey": "ETH",
                 *                   "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2/logo.png",
                 *                   "priceUSD": "3412.57"
                 *                 }
                 *               }
                 *             ]
                 *           }
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Step"];
            };
        };
        responses: {
            /** @description The step with its transaction request. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Step"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NoQuote"];
            409: components["responses"]["SlippageConflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getRelayerQuote: {
        parameters: {
            query: {
                /**
                 * @description Sending chain, id or key.
                 * @example arb
                 */
                fromChain: components["parameters"]["FromChain"];
                /**
                 * @description Receiving chain, id or key.
                 * @example opt
                 */
                toChain: components["parameters"]["ToChain"];
                /**
                 * @description Token to send, address or symbol.
                 * @example USDC
                 */
                fromToken: components["parameters"]["FromToken"];
                /**
                 * @description Token to receive, address or symbol.
                 * @example USDC
                 */
                toToken: components["parameters"]["ToToken"];
                /**
                 * @description Sending wallet address (EVM hex, Sui 32-byte hex, Solana/Tron base58 or Bitcoin bech32).
                 * @example 0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0
                 */
                fromAddress: components["parameters"]["FromAddress"];
                /**
                 * @description Receiving wallet address; defaults to `fromAddress`. Required (400 otherwise) when the two chains are of different types, for example EVM to Solana.
                 * @example 0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0
                 */
                toAddress?: components["parameters"]["ToAddress"];
                /**
                 * @description Amount to send, an integer string in the token's smallest unit (all decimals included).
                 * @example 10000000
                 */
                fromAmount: components["parameters"]["FromAmount"];
                /**
                 * @description `FASTEST`: shortest estimated execution time; `CHEAPEST` (the default): lowest cost (highest
                 *     output after fees and gas). `RECOMMENDED` is the default ranking, `CHEAPEST`; `SAFEST` ranks as
                 *     `RECOMMENDED` too (the service keeps no safety score of its tools).
                 * @example CHEAPEST
                 */
                order?: components["parameters"]["Order"];
                /**
                 * @description Maximum accepted slippage as a fraction from 0 to 1 inclusive; `0.005` means 0.5%.
                 * @example 0.005
                 */
                slippage?: components["parameters"]["Slippage"];
                /**
                 * @description Integrator tracking string (the integrator id), used for analytics and fee collection.
                 * @example example-dapp
                 */
                integrator?: components["parameters"]["Integrator"];
                /**
                 * @description Integrator fee as a fraction of the sent amount, at least 0 and strictly below 1; `0.0025` means 0.25%. Requires `integrator`.
                 * @example 0.0025
                 */
                fee?: components["parameters"]["Fee"];
                /**
                 * @description Referrer tracking string (often the referrer's wallet address).
                 * @example 0x9B2a3D1b4F3a9e6C7d8E0f1A2b3C4d5E6f7A8b9C
                 */
                referrer?: components["parameters"]["Referrer"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "across",
                 *       "stargate"
                 *     ]
                 */
                allowBridges?: components["parameters"]["AllowBridges"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "hop"
                 *     ]
                 */
                denyBridges?: components["parameters"]["DenyBridges"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "across"
                 *     ]
                 */
                preferBridges?: components["parameters"]["PreferBridges"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "all"
                 *     ]
                 */
                allowExchanges?: components["parameters"]["AllowExchanges"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "sushiswap"
                 *     ]
                 */
                denyExchanges?: components["parameters"]["DenyExchanges"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "uniswap"
                 *     ]
                 */
                preferExchanges?: components["parameters"]["PreferExchanges"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The gasless step, with its messages to sign. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RelayerQuoteResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NoQuote"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    relayTransaction: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * @description The step of a gasless quote (`GET /v1/relayer/quote`) as it was answered, with `typedData`
         *     holding each message signed: every element carries its `signature` (65 bytes, `0x` and 130
         *     hex digits). The ecosystem SDK posts the step without its `execution`.
         */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "f21c46f3-34fc-4d13-aa88-5ccd2e5ebd12",
                 *       "type": "lifi",
                 *       "tool": "uniswap",
                 *       "toolDetails": {
                 *         "key": "uniswap",
                 *         "name": "Uniswap",
                 *         "logoURI": "https://raw.githubusercontent.com/lifinance/types/main/src/assets/icons/exchanges/uniswap.png"
                 *       },
                 *       "action": {
                 *         "fromChainId": 42161,
                 *         "toChainId": 42161,
                 *         "fromToken": {
                 *           "address": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
                 *           "chainId": 42161,
                 *           "symbol": "USDC",
                 *           "decimals": 6,
                 *           "name": "USD Coin",
                 *           "coinKey": "USDC",
                 *           "priceUSD": "1.00",
                 *           "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48/logo.png",
                 *           "tags": [
                 *             "stablecoin"
                 *           ]
                 *         },
                 *         "toToken": {
                 *           "address": "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1",
                 *           "chainId": 42161,
                 *           "symbol": "WETH",
                 *           "decimals": 18,
                 *           "name": "WETH",
                 *           "coinKey": "WETH",
                 *           "priceUSD": "3250.00",
                 *           "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2/logo.png"
                 *         },
                 *         "fromAmount": "100000000",
                 *         "slippage": 0.005,
                 *         "fromAddress": "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
                 *         "toAddress": "0x90F79bf6EB2c4f870365E785982E1f101E93b906"
                 *       },
                 *       "estimate": {
                 *         "tool": "uniswap",
                 *         "fromAmount": "100000000",
                 *         "fromAmountUSD": "100",
                 *         "toAmount": "30072908366875790",
                 *         "toAmountMin": "29922543825041411",
                 *         "toAmountUSD": "97.736952",
                 *         "approvalAddress": "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
                 *         "executionDuration": 0.25,
                 *         "feeCosts": [
                 *           {
                 *             "name": "Gasless relay fee",
                 *             "description": "The relayer's gas for sending the transaction on Arbitrum, paid in USDC, taken from the sent amount",
                 *             "percentage": "0.02214",
                 *             "token": {
                 *               "address": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
                 *               "chainId": 42161,
                 *               "symbol": "USDC",
                 *               "decimals": 6,
                 *               "name": "USD Coin",
                 *               "coinKey": "USDC",
                 *               "priceUSD": "1.00",
                 *               "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48/logo.png",
                 *               "tags": [
                 *                 "stablecoin"
                 *               ]
                 *             },
                 *             "amount": "2214063",
                 *             "amountUSD": "2.214063",
                 *             "included": true
                 *           }
                 *         ],
                 *         "gasCosts": [
                 *           {
                 *             "type": "SEND",
                 *             "price": "20000000",
                 *             "estimate": "375000",
                 *             "limit": "468750",
                 *             "amount": "7500000000000",
                 *             "amountUSD": "0.024375",
                 *             "token": {
                 *               "address": "0x0000000000000000000000000000000000000000",
                 *               "chainId": 42161,
                 *               "symbol": "ETH",
                 *               "decimals": 18,
                 *               "name": "ETH",
                 *               "coinKey": "ETH",
                 *               "priceUSD": "3250.00",
                 *               "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2/logo.png"
                 *             }
                 *           }
                 *         ],
                 *         "data": {
                 *           "priceImpact": "0.000501",
                 *           "overallPath": "42161:USDC~42161:WETH"
                 *         }
                 *       },
                 *       "includedSteps": [
                 *         {
                 *           "id": "b7d91ce1-2907-475e-a6b6-e9ce0f5c92a4",
                 *           "type": "protocol",
                 *           "tool": "feeCollection",
                 *           "toolDetails": {
                 *             "key": "feeCollection",
                 *             "name": "Integrator fee collection"
                 *           },
                 *           "action": {
                 *             "fromChainId": 42161,
                 *             "toChainId": 42161,
                 *             "fromToken": {
                 *               "address": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
                 *               "chainId": 42161,
                 *               "symbol": "USDC",
                 *               "decimals": 6,
                 *               "name": "USD Coin",
                 *               "coinKey": "USDC",
                 *               "priceUSD": "1.00",
                 *               "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48/logo.png",
                 *               "tags": [
                 *                 "stablecoin"
                 *               ]
                 *             },
                 *             "toToken": {
                 *               "address": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
                 *               "chainId": 42161,
                 *               "symbol": "USDC",
                 *               "decimals": 6,
                 *               "name": "USD Coin",
                 *               "coinKey": "USDC",
                 *               "priceUSD": "1.00",
                 *               "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48/logo.png",
                 *               "tags": [
                 *                 "stablecoin"
                 *               ]
                 *             },
                 *             "fromAmount": "100000000",
                 *             "slippage": 0.005,
                 *             "fromAddress": "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
                 *             "toAddress": "0x90F79bf6EB2c4f870365E785982E1f101E93b906"
                 *           },
                 *           "estimate": {
                 *             "tool": "feeCollection",
                 *             "fromAmount": "100000000",
                 *             "toAmount": "97785937",
                 *             "toAmountMin": "97785937",
                 *             "approvalAddress": "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
                 *             "executionDuration": 0,
                 *             "feeCosts": [
                 *               {
                 *                 "name": "Gasless relay fee",
                 *                 "description": "The relayer's gas for sending the transaction on Arbitrum, paid in USDC, taken from the sent amount",
                 *                 "percentage": "0.02214",
                 *                 "token": {
                 *                   "address": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
                 *                   "chainId": 42161,
                 *                   "symbol": "USDC",
                 *                   "decimals": 6,
                 *                   "name": "USD Coin",
                 *                   "coinKey": "USDC",
                 *                   "priceUSD": "1.00",
                 *                   "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48/logo.png",
                 *                   "tags": [
                 *                     "stablecoin"
                 *                   ]
                 *                 },
                 *                 "amount": "2214063",
                 *                 "amountUSD": "2.214063",
                 *                 "included": true
                 *               }
                 *             ],
                 *             "gasCosts": []
                 *           }
                 *         },
                 *         {
                 *           "id": "60d9d02e-7615-4b73-aedd-f477e4acda4a",
                 *           "type": "swap",
                 *           "tool": "uniswap",
                 *           "toolDetails": {
                 *             "key": "uniswap",
                 *             "name": "Uniswap",
                 *             "logoURI": "https://raw.githubusercontent.com/lifinance/types/main/src/assets/icons/exchanges/uniswap.png"
                 *           },
                 *           "action": {
                 *             "fromChainId": 42161,
                 *             "toChainId": 42161,
                 *             "fromToken": {
                 *               "address": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
                 *               "chainId": 42161,
                 *               "symbol": "USDC",
                 *               "decimals": 6,
                 *               "name": "USD Coin",
                 *               "coinKey": "USDC",
                 *               "priceUSD": "1.00",
                 *               "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48/logo.png",
                 *               "tags": [
                 *                 "stablecoin"
                 *               ]
                 *             },
                 *             "toToken": {
                 *               "address": "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1",
                 *               "chainId": 42161,
                 *               "symbol": "WETH",
                 *               "decimals": 18,
                 *               "name": "WETH",
                 *               "coinKey": "WETH",
                 *               "priceUSD": "3250.00",
                 *               "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2/logo.png"
                 *             },
                 *             "fromAmount": "97785937",
                 *             "slippage": 0.005,
                 *             "fromAddress": "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
                 *             "toAddress": "0x90F79bf6EB2c4f870365E785982E1f101E93b906"
                 *           },
                 *           "estimate": {
                 *             "tool": "uniswap",
                 *             "fromAmount": "97785937",
                 *             "toAmount": "30072908366875790",
                 *             "toAmountMin": "30072908366875790",
                 *             "approvalAddress": "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
                 *             "executionDuration": 0.25,
                 *             "feeCosts": [],
                 *             "gasCosts": [],
                 *             "data": {
                 *               "pool": "0xC6962004f452bE9203591991D15f6b388e09E8D0",
                 *               "poolId": "42161:uniswap:concentrated:WETH-USDC:500",
                 *               "poolKind": "concentrated"
                 *             }
                 *           }
                 *         }
                 *       ],
                 *       "typedData": [
                 *         {
                 *           "primaryType": "Permit",
                 *           "domain": {
                 *             "name": "USD Coin",
                 *             "version": "2",
                 *             "chainId": 42161,
                 *             "verifyingContract": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"
                 *           },
                 *           "types": {
                 *             "Permit": [
                 *               {
                 *                 "name": "owner",
                 *                 "type": "address"
                 *               },
                 *               {
                 *                 "name": "spender",
                 *                 "type": "address"
                 *               },
                 *               {
                 *                 "name": "value",
                 *                 "type": "uint256"
                 *               },
                 *               {
                 *                 "name": "nonce",
                 *                 "type": "uint256"
                 *               },
                 *               {
                 *                 "name": "deadline",
                 *                 "type": "uint256"
                 *               }
                 *             ]
                 *           },
                 *           "message": {
                 *             "owner": "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
                 *             "spender": "0x000000000022D473030F116dDEE9F6B43aC78BA3",
                 *             "value": "100000000",
                 *             "nonce": "0",
                 *             "deadline": "1795975342"
                 *           },
                 *           "signature": "0xaf62577f0a6073b52b31299b85a1fef1bf0779ab2896302288777ff9b2c1a7a67ee6c1f20ded7f9978ba1d20e2a0ccaad9d2b533135a47fb7cd521d77fb5e7871b"
                 *         },
                 *         {
                 *           "primaryType": "PermitWitnessTransferFrom",
                 *           "domain": {
                 *             "name": "Permit2",
                 *             "chainId": 42161,
                 *             "verifyingContract": "0x000000000022D473030F116dDEE9F6B43aC78BA3"
                 *           },
                 *           "types": {
                 *             "PermitWitnessTransferFrom": [
                 *               {
                 *                 "name": "permitted",
                 *                 "type": "TokenPermissions"
                 *               },
                 *               {
                 *                 "name": "spender",
                 *                 "type": "address"
                 *               },
                 *               {
                 *                 "name": "nonce",
                 *                 "type": "uint256"
                 *               },
                 *               {
                 *                 "name": "deadline",
                 *                 "type": "uint256"
                 *               },
                 *               {
                 *                 "name": "witness",
                 *                 "type": "LiFiCall"
                 *               }
                 *             ],
                 *             "TokenPermissions": [
                 *               {
                 *                 "name": "token",
                 *                 "type": "address"
                 *               },
                 *               {
                 *                 "name": "amount",
                 *                 "type": "uint256"
                 *               }
                 *             ],
                 *             "LiFiCall": [
                 *               {
                 *                 "name": "diamondAddress",
                 *                 "type": "address"
                 *               },
                 *               {
                 *                 "name": "diamondCalldataHash",
                 *                 "type": "bytes32"
                 *               }
                 *             ]
                 *           },
                 *           "message": {
                 *             "permitted": {
                 *               "token": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
                 *               "amount": "100000000"
                 *             },
                 *             "spender": "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9",
                 *             "nonce": "106092141560201367998842568431046985700766706962580136533619096298186688487734",
                 *             "deadline": "1795975342",
                 *             "witness": {
                 *               "diamondAddress": "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
                 *               "diamondCalldataHash": "0x1ccac6edf746b3e233f2125852390a910eadf9e5bc4413fc37dee5188ee06a9c"
                 *             }
                 *           },
                 *           "signature": "0x31b2e8c20974e62ccb1fb6e89549fa3dab644e1a07e6e0e289a96a6043fe3a310da8c17ae05c77e02157968d2b117ca6c7faf6b34f6e21f3d55a47657ec62fe31c"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["RelayRequest"];
            };
        };
        responses: {
            /** @description The task the relayer sends, wrapped as the ecosystem's relayer answers are (`status` `ok`). */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RelayResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NoQuote"];
            409: components["responses"]["RelayConflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    relayAdvanced: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * @description The step of a gasless quote (`GET /v1/relayer/quote`) as it was answered, with `typedData`
         *     holding each message signed: every element carries its `signature` (65 bytes, `0x` and 130
         *     hex digits). The ecosystem SDK posts the step without its `execution`.
         */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": "f21c46f3-34fc-4d13-aa88-5ccd2e5ebd12",
                 *       "type": "lifi",
                 *       "tool": "uniswap",
                 *       "toolDetails": {
                 *         "key": "uniswap",
                 *         "name": "Uniswap",
                 *         "logoURI": "https://raw.githubusercontent.com/lifinance/types/main/src/assets/icons/exchanges/uniswap.png"
                 *       },
                 *       "action": {
                 *         "fromChainId": 42161,
                 *         "toChainId": 42161,
                 *         "fromToken": {
                 *           "address": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
                 *           "chainId": 42161,
                 *           "symbol": "USDC",
                 *           "decimals": 6,
                 *           "name": "USD Coin",
                 *           "coinKey": "USDC",
                 *           "priceUSD": "1.00",
                 *           "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48/logo.png",
                 *           "tags": [
                 *             "stablecoin"
                 *           ]
                 *         },
                 *         "toToken": {
                 *           "address": "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1",
                 *           "chainId": 42161,
                 *           "symbol": "WETH",
                 *           "decimals": 18,
                 *           "name": "WETH",
                 *           "coinKey": "WETH",
                 *           "priceUSD": "3250.00",
                 *           "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2/logo.png"
                 *         },
                 *         "fromAmount": "100000000",
                 *         "slippage": 0.005,
                 *         "fromAddress": "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
                 *         "toAddress": "0x90F79bf6EB2c4f870365E785982E1f101E93b906"
                 *       },
                 *       "estimate": {
                 *         "tool": "uniswap",
                 *         "fromAmount": "100000000",
                 *         "fromAmountUSD": "100",
                 *         "toAmount": "30072908366875790",
                 *         "toAmountMin": "29922543825041411",
                 *         "toAmountUSD": "97.736952",
                 *         "approvalAddress": "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
                 *         "executionDuration": 0.25,
                 *         "feeCosts": [
                 *           {
                 *             "name": "Gasless relay fee",
                 *             "description": "The relayer's gas for sending the transaction on Arbitrum, paid in USDC, taken from the sent amount",
                 *             "percentage": "0.02214",
                 *             "token": {
                 *               "address": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
                 *               "chainId": 42161,
                 *               "symbol": "USDC",
                 *               "decimals": 6,
                 *               "name": "USD Coin",
                 *               "coinKey": "USDC",
                 *               "priceUSD": "1.00",
                 *               "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48/logo.png",
                 *               "tags": [
                 *                 "stablecoin"
                 *               ]
                 *             },
                 *             "amount": "2214063",
                 *             "amountUSD": "2.214063",
                 *             "included": true
                 *           }
                 *         ],
                 *         "gasCosts": [
                 *           {
                 *             "type": "SEND",
                 *             "price": "20000000",
                 *             "estimate": "375000",
                 *             "limit": "468750",
                 *             "amount": "7500000000000",
                 *             "amountUSD": "0.024375",
                 *             "token": {
                 *               "address": "0x0000000000000000000000000000000000000000",
                 *               "chainId": 42161,
                 *               "symbol": "ETH",
                 *               "decimals": 18,
                 *               "name": "ETH",
                 *               "coinKey": "ETH",
                 *               "priceUSD": "3250.00",
                 *               "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2/logo.png"
                 *             }
                 *           }
                 *         ],
                 *         "data": {
                 *           "priceImpact": "0.000501",
                 *           "overallPath": "42161:USDC~42161:WETH"
                 *         }
                 *       },
                 *       "includedSteps": [
                 *         {
                 *           "id": "b7d91ce1-2907-475e-a6b6-e9ce0f5c92a4",
                 *           "type": "protocol",
                 *           "tool": "feeCollection",
                 *           "toolDetails": {
                 *             "key": "feeCollection",
                 *             "name": "Integrator fee collection"
                 *           },
                 *           "action": {
                 *             "fromChainId": 42161,
                 *             "toChainId": 42161,
                 *             "fromToken": {
                 *               "address": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
                 *               "chainId": 42161,
                 *               "symbol": "USDC",
                 *               "decimals": 6,
                 *               "name": "USD Coin",
                 *               "coinKey": "USDC",
                 *               "priceUSD": "1.00",
                 *               "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48/logo.png",
                 *               "tags": [
                 *                 "stablecoin"
                 *               ]
                 *             },
                 *             "toToken": {
                 *               "address": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
                 *               "chainId": 42161,
                 *               "symbol": "USDC",
                 *               "decimals": 6,
                 *               "name": "USD Coin",
                 *               "coinKey": "USDC",
                 *               "priceUSD": "1.00",
                 *               "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48/logo.png",
                 *               "tags": [
                 *                 "stablecoin"
                 *               ]
                 *             },
                 *             "fromAmount": "100000000",
                 *             "slippage": 0.005,
                 *             "fromAddress": "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
                 *             "toAddress": "0x90F79bf6EB2c4f870365E785982E1f101E93b906"
                 *           },
                 *           "estimate": {
                 *             "tool": "feeCollection",
                 *             "fromAmount": "100000000",
                 *             "toAmount": "97785937",
                 *             "toAmountMin": "97785937",
                 *             "approvalAddress": "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
                 *             "executionDuration": 0,
                 *             "feeCosts": [
                 *               {
                 *                 "name": "Gasless relay fee",
                 *                 "description": "The relayer's gas for sending the transaction on Arbitrum, paid in USDC, taken from the sent amount",
                 *                 "percentage": "0.02214",
                 *                 "token": {
                 *                   "address": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
                 *                   "chainId": 42161,
                 *                   "symbol": "USDC",
                 *                   "decimals": 6,
                 *                   "name": "USD Coin",
                 *                   "coinKey": "USDC",
                 *                   "priceUSD": "1.00",
                 *                   "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48/logo.png",
                 *                   "tags": [
                 *                     "stablecoin"
                 *                   ]
                 *                 },
                 *                 "amount": "2214063",
                 *                 "amountUSD": "2.214063",
                 *                 "included": true
                 *               }
                 *             ],
                 *             "gasCosts": []
                 *           }
                 *         },
                 *         {
                 *           "id": "60d9d02e-7615-4b73-aedd-f477e4acda4a",
                 *           "type": "swap",
                 *           "tool": "uniswap",
                 *           "toolDetails": {
                 *             "key": "uniswap",
                 *             "name": "Uniswap",
                 *             "logoURI": "https://raw.githubusercontent.com/lifinance/types/main/src/assets/icons/exchanges/uniswap.png"
                 *           },
                 *           "action": {
                 *             "fromChainId": 42161,
                 *             "toChainId": 42161,
                 *             "fromToken": {
                 *               "address": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
                 *               "chainId": 42161,
                 *               "symbol": "USDC",
                 *               "decimals": 6,
                 *               "name": "USD Coin",
                 *               "coinKey": "USDC",
                 *               "priceUSD": "1.00",
                 *               "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48/logo.png",
                 *               "tags": [
                 *                 "stablecoin"
                 *               ]
                 *             },
                 *             "toToken": {
                 *               "address": "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1",
                 *               "chainId": 42161,
                 *               "symbol": "WETH",
                 *               "decimals": 18,
                 *               "name": "WETH",
                 *               "coinKey": "WETH",
                 *               "priceUSD": "3250.00",
                 *               "logoURI": "https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2/logo.png"
                 *             },
                 *             "fromAmount": "97785937",
                 *             "slippage": 0.005,
                 *             "fromAddress": "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
                 *             "toAddress": "0x90F79bf6EB2c4f870365E785982E1f101E93b906"
                 *           },
                 *           "estimate": {
                 *             "tool": "uniswap",
                 *             "fromAmount": "97785937",
                 *             "toAmount": "30072908366875790",
                 *             "toAmountMin": "30072908366875790",
                 *             "approvalAddress": "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
                 *             "executionDuration": 0.25,
                 *             "feeCosts": [],
                 *             "gasCosts": [],
                 *             "data": {
                 *               "pool": "0xC6962004f452bE9203591991D15f6b388e09E8D0",
                 *               "poolId": "42161:uniswap:concentrated:WETH-USDC:500",
                 *               "poolKind": "concentrated"
                 *             }
                 *           }
                 *         }
                 *       ],
                 *       "typedData": [
                 *         {
                 *           "primaryType": "Permit",
                 *           "domain": {
                 *             "name": "USD Coin",
                 *             "version": "2",
                 *             "chainId": 42161,
                 *             "verifyingContract": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"
                 *           },
                 *           "types": {
                 *             "Permit": [
                 *               {
                 *                 "name": "owner",
                 *                 "type": "address"
                 *               },
                 *               {
                 *                 "name": "spender",
                 *                 "type": "address"
                 *               },
                 *               {
                 *                 "name": "value",
                 *                 "type": "uint256"
                 *               },
                 *               {
                 *                 "name": "nonce",
                 *                 "type": "uint256"
                 *               },
                 *               {
                 *                 "name": "deadline",
                 *                 "type": "uint256"
                 *               }
                 *             ]
                 *           },
                 *           "message": {
                 *             "owner": "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
                 *             "spender": "0x000000000022D473030F116dDEE9F6B43aC78BA3",
                 *             "value": "100000000",
                 *             "nonce": "0",
                 *             "deadline": "1795975342"
                 *           },
                 *           "signature": "0xaf62577f0a6073b52b31299b85a1fef1bf0779ab2896302288777ff9b2c1a7a67ee6c1f20ded7f9978ba1d20e2a0ccaad9d2b533135a47fb7cd521d77fb5e7871b"
                 *         },
                 *         {
                 *           "primaryType": "PermitWitnessTransferFrom",
                 *           "domain": {
                 *             "name": "Permit2",
                 *             "chainId": 42161,
                 *             "verifyingContract": "0x000000000022D473030F116dDEE9F6B43aC78BA3"
                 *           },
                 *           "types": {
                 *             "PermitWitnessTransferFrom": [
                 *               {
                 *                 "name": "permitted",
                 *                 "type": "TokenPermissions"
                 *               },
                 *               {
                 *                 "name": "spender",
                 *                 "type": "address"
                 *               },
                 *               {
                 *                 "name": "nonce",
                 *                 "type": "uint256"
                 *               },
                 *               {
                 *                 "name": "deadline",
                 *                 "type": "uint256"
                 *               },
                 *               {
                 *                 "name": "witness",
                 *                 "type": "LiFiCall"
                 *               }
                 *             ],
                 *             "TokenPermissions": [
                 *               {
                 *                 "name": "token",
                 *                 "type": "address"
                 *               },
                 *               {
                 *                 "name": "amount",
                 *                 "type": "uint256"
                 *               }
                 *             ],
                 *             "LiFiCall": [
                 *               {
                 *                 "name": "diamondAddress",
                 *                 "type": "address"
                 *               },
                 *               {
                 *                 "name": "diamondCalldataHash",
                 *                 "type": "bytes32"
                 *               }
                 *             ]
                 *           },
                 *           "message": {
                 *             "permitted": {
                 *               "token": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
                 *               "amount": "100000000"
                 *             },
                 *             "spender": "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9",
                 *             "nonce": "106092141560201367998842568431046985700766706962580136533619096298186688487734",
                 *             "deadline": "1795975342",
                 *             "witness": {
                 *               "diamondAddress": "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
                 *               "diamondCalldataHash": "0x1ccac6edf746b3e233f2125852390a910eadf9e5bc4413fc37dee5188ee06a9c"
                 *             }
                 *           },
                 *           "signature": "0x31b2e8c20974e62ccb1fb6e89549fa3dab644e1a07e6e0e289a96a6043fe3a310da8c17ae05c77e02157968d2b117ca6c7faf6b34f6e21f3d55a47657ec62fe31c"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["RelayRequest"];
            };
        };
        responses: {
            /** @description The task the relayer sends, wrapped as the ecosystem's relayer answers are (`status` `ok`). */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RelayResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NoQuote"];
            409: components["responses"]["RelayConflict"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getRelayerStatus: {
        parameters: {
            query?: {
                /**
                 * @description The step's sending chain (sent by the ecosystem SDK); accepted without effect.
                 * @example 42161
                 */
                fromChain?: string;
                /**
                 * @description The step's receiving chain (sent by the ecosystem SDK); accepted without effect.
                 * @example 8453
                 */
                toChain?: string;
                /**
                 * @description The step's tool (sent by the ecosystem SDK); accepted without effect.
                 * @example across
                 */
                bridge?: string;
            };
            header?: never;
            path: {
                /**
                 * @description The task id of the relay answer.
                 * @example 0x4f6c6b3d0e0f3d8a3c1b8f1b7e6f8f2b1e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b
                 */
                taskId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The task's state. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RelayStatusResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getGasSuggestion: {
        parameters: {
            query?: {
                /**
                 * @description Sending chain, id or key.
                 * @example arb
                 */
                fromChain?: components["parameters"]["OptionalFromChain"];
                /**
                 * @description Sending token, address or symbol.
                 * @example USDC
                 */
                fromToken?: components["parameters"]["OptionalFromToken"];
            };
            header?: never;
            path: {
                /**
                 * @description Chain that needs gas, id or key.
                 * @example opt
                 */
                chain: components["schemas"]["ChainIdOrKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The gas suggestion. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GasSuggestion"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getGasPrices: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Gas prices per chain id. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: components["schemas"]["GasPrices"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getGasPrice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Chain id or key.
                 * @example 42161
                 */
                chainId: components["schemas"]["ChainIdOrKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The chain's gas prices. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GasPrices"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getGasStatus: {
        parameters: {
            query: {
                /**
                 * @description Hash of the transaction that started the gas refill.
                 * @example 0x782ea4722b166e8ba4d3fe329f5ecba81715ff7088c3cafa80b9ee8c3ae32c13
                 */
                txHash: components["schemas"]["TxHash"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The gas-refill status. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GasStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    parseCallData: {
        parameters: {
            query: {
                /**
                 * @description The call data to parse, `0x`-prefixed hex.
                 * @example 0x4630a0d88a4c2e0f6b8d1a3c5e7f9b0d2a4c6e8f1b3d5a7c9e0f2b4d6a8c1e3f5b7d9a0c00000000000000000000000000000000000000000000000000000000000000c00000000000000000000000000000000000000000000000000000000000000100000000000000000000000000552008c0f6870c2f77e5cc1d2eb9bdff03e30ea0000000000000000000000000000000000000000000000000000a5c16282a40000000000000000000000000000000000000000000000000000000000000000120000000000000000000000000000000000000000000000000000000000000000c6578616d706c652d64617070000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000004000000000000000000000000000000000000000000000000000000000000001e0000000000000000000000000bd6c7b0d2f68c2b7805d88388319cfb6ecb50ea9000000000000000000000000bd6c7b0d2f68c2b7805d88388319cfb6ecb50ea9000000000000000000000000af88d065e77c8cc2239327c5edb3a432268e5831000000000000000000000000af88d065e77c8cc2239327c5edb3a432268e5831000000000000000000000000000000000000000000000000000000000098968000000000000000000000000000000000000000000000000000000000000000e000000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000084eedd56e1000000000000000000000000af88d065e77c8cc2239327c5edb3a432268e583100000000000000000000000000000000000000000000000000000000000061a8000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000068b3465833fb72a70ecdf485e0e4c7bd8665fc4500000000000000000000000068b3465833fb72a70ecdf485e0e4c7bd8665fc45000000000000000000000000af88d065e77c8cc2239327c5edb3a432268e583100000000000000000000000082af49447d8a07e3bd95bd0d56f35241523fbab100000000000000000000000000000000000000000000000000000000009834d800000000000000000000000000000000000000000000000000000000000000e0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000e404e45aaf000000000000000000000000af88d065e77c8cc2239327c5edb3a432268e583100000000000000000000000082af49447d8a07e3bd95bd0d56f35241523fbab100000000000000000000000000000000000000000000000000000000000001f40000000000000000000000001231deb6f5749ef6ce6943a275a1d3e7486f4eae00000000000000000000000000000000000000000000000000000000009834d8000000000000000000000000000000000000000000000000000a5c16282a4000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000
                 */
                callData: components["schemas"]["HexData"];
                /**
                 * @description Chain the transaction is built for or was sent on, id or key.
                 * @example 42161
                 */
                chainId?: components["schemas"]["ChainIdOrKey"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The decoded function calls. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ParsedCallData"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    testApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key is valid. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeyTestResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getChains: {
        parameters: {
            query?: {
                /**
                 * @description Restrict to chains of these types (comma-separated). `STL` (Stellar) is accepted and matches
                 *     no chain here. Empty (`chainTypes=`) restricts nothing.
                 * @example [
                 *       "EVM"
                 *     ]
                 */
                chainTypes?: components["parameters"]["ChainTypes"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The supported chains. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChainsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getTools: {
        parameters: {
            query?: {
                /**
                 * @description Restrict to these chains (comma-separated chain ids or keys). Empty (`chains=`) restricts nothing.
                 * @example [
                 *       "arb",
                 *       "opt"
                 *     ]
                 */
                chains?: components["parameters"]["ChainsFilter"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bridges and exchanges. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getConnections: {
        parameters: {
            query?: {
                /**
                 * @description Sending chain, id or key.
                 * @example arb
                 */
                fromChain?: components["parameters"]["OptionalFromChain"];
                /**
                 * @description Receiving chain, id or key.
                 * @example opt
                 */
                toChain?: components["parameters"]["OptionalToChain"];
                /**
                 * @description Sending token, address or symbol.
                 * @example USDC
                 */
                fromToken?: components["parameters"]["OptionalFromToken"];
                /**
                 * @description Receiving token, address or symbol.
                 * @example USDC
                 */
                toToken?: components["parameters"]["OptionalToToken"];
                /**
                 * @description Restrict to chains of these types (comma-separated). `STL` (Stellar) is accepted and matches
                 *     no chain here. Empty (`chainTypes=`) restricts nothing.
                 * @example [
                 *       "EVM"
                 *     ]
                 */
                chainTypes?: components["parameters"]["ChainTypes"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "across",
                 *       "stargate"
                 *     ]
                 */
                allowBridges?: components["parameters"]["AllowBridges"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "hop"
                 *     ]
                 */
                denyBridges?: components["parameters"]["DenyBridges"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "across"
                 *     ]
                 */
                preferBridges?: components["parameters"]["PreferBridges"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "all"
                 *     ]
                 */
                allowExchanges?: components["parameters"]["AllowExchanges"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "sushiswap"
                 *     ]
                 */
                denyExchanges?: components["parameters"]["DenyExchanges"];
                /**
                 * @description Comma-separated tool keys (see `GET /v1/tools`), or a special value: `all` (every tool of
                 *     that type), `none` or `[]` (no tool of that type), `default` (the deployment's default tool
                 *     settings). Repeated keys are accepted too.
                 * @example [
                 *       "uniswap"
                 *     ]
                 */
                preferExchanges?: components["parameters"]["PreferExchanges"];
                /**
                 * @description Allow connections that need the user to switch chains in the middle (more than one signed transaction on different chains).
                 * @example false
                 */
                allowSwitchChain?: components["parameters"]["AllowSwitchChain"];
                /**
                 * @description Allow swaps or contract calls inside the destination transaction of a bridge transfer.
                 *     Separate destination-chain swap transactions are unaffected.
                 * @example true
                 */
                allowDestinationCall?: components["parameters"]["AllowDestinationCall"];
                /**
                 * @description Protocols (in-contract work such as fee collection) that may be used. Accepted without
                 *     effect: the only protocol step of this service is the integrator fee collection, which
                 *     follows `fee`.
                 * @example [
                 *       "all"
                 *     ]
                 */
                allowProtocols?: components["parameters"]["AllowProtocols"];
                /**
                 * @description Protocols that must not be used. Accepted without effect (see `allowProtocols`).
                 * @example [
                 *       "none"
                 *     ]
                 */
                denyProtocols?: components["parameters"]["DenyProtocols"];
                /**
                 * @description Pools that must not be used, by address (`0x` + 40 hex; a Uniswap V4 id
                 *     `<poolManager>-<poolId>` is accepted too and matches no pool here, which has no V4 pools).
                 *     Comma-separated; routes through a denied pool are not considered. Empty: none denied.
                 * @example [
                 *       "0x88e6A0c2dDD26FEEb64F039a2c41296FcB3f5640"
                 *     ]
                 */
                denyPools?: components["parameters"]["DenyPools"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The connections. */
            200: {
                headers: {
                    "ratelimit-limit": components["headers"]["RateLimitLimit"];
                    "ratelimit-remaining": components["headers"]["RateLimitRemaining"];
                    "ratelimit-reset": components["headers"]["RateLimitReset"];
                    "Access-Control-Allow-Origin": components["headers"]["AccessControlAllowOrigin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectionsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
