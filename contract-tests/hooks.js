/**
 * Dredd hooks (Node.js, loaded inside Dredd's process) for the contract tests; started by
 * contract-tests/run.ts, which provides the environment variables read below.
 *
 * Dredd turns every documented response of openapi.yaml into one transaction named
 * "<path template> > <operation summary> > <status> > application/json" and sends the request
 * built from the parameter examples. For each transaction, the `beforeEach` hook:
 *   - when its operation has no handler yet (IMPLEMENTED_OPERATIONS), runs its 501 transaction as it
 *     is (the example request must get the contract's 501) and skips the others;
 *   - leaves 2xx requests as they are (with the contract key when the operation requires one);
 *   - drives every error status with a real bad input (BAD_INPUTS in badInputs.js, a generic one for 400, an unknown,
 *     blocked or exhausted API key for 401, 403 and 429);
 *   - skips, with the reason printed, the statuses no real input can produce (500, 503 without a database
 *     outage, and 501 of an
 *     implemented operation) and those for which no bad input is known yet.
 * The `beforeEachValidation` hook validates the real status, body and headers against the schema of
 * the operation and status with openapi-backend (Dredd itself compares only the keys of the example),
 * and fails the transaction on any violation. `afterAll` writes the summary that run.ts prints.
 */
const hooks = require('hooks');
const fs = require('fs');
const http = require('http');
const path = require('path');
const addFormats = require('ajv-formats');
const { OpenAPIBackend, SetMatchType } = require('openapi-backend');
const { BAD_INPUTS, GENERIC_400 } = require('./badInputs');

const TRANSLATED = process.env.CONTRACT_TRANSLATED || path.join(__dirname, 'artifacts', 'openapi.translated.json');
const SUMMARY = process.env.CONTRACT_SUMMARY || path.join(__dirname, 'artifacts', 'summary.json');
const IMPLEMENTED = new Set((process.env.IMPLEMENTED_OPERATIONS || '').split(',').filter(Boolean));
const API_KEY_HEADER = 'x-svc-api-key';
const KEYS = {
  valid: process.env.CONTRACT_API_KEY,
  blocked: process.env.CONTRACT_BLOCKED_KEY,
  limited: process.env.CONTRACT_LIMITED_KEY,
  unknown: 'svc_ThisKeyIsNotKnownToTheServerContractTests00000',
};
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * Example parameters that this server refuses on purpose (documented in the contract but not yet
 * supported): removed from the success transactions, with the reason printed.
 */
const UNSUPPORTED_EXAMPLE_PARAMETERS = {};

const SKIP = {
  notImplemented: 'not implemented yet (answers 501)',
  serverError: '500 needs a server bug, no real input produces it',
  keysUnavailable: '503 needs the key store\'s database down (test/http/keysUnavailable.test.ts)',
  implemented501: '501 cannot be produced by an implemented operation',
  noInput: 'no real input known yet for this status (add one to BAD_INPUTS in contract-tests/badInputs.js)',
  noKeys: 'the run provided no API keys (CONTRACT_*_KEY)',
  relayer:
    'needs the gasless relayer sending on chains, which this hermetic server has not: test/e2e/gasless.test.ts and test/e2e/relayerExamples.test.ts validate these answers against the contract on the sandbox',
  eventStream:
    'an event stream (text/event-stream) lasts while its transfer is under way, and Dredd waits for the end of an answer: test/http/statusStream.test.ts validates its 200 and 204 against the contract',
};
/** Operations whose 200 is an event stream: their success answers are not sent by Dredd (SKIP.eventStream). */
const EVENT_STREAMS = new Set(['getStatusStream']);
/** The gasless relayer's operations: their 200 and 409 need the relayer on chains (SKIP.relayer). */
const RELAYER_OPERATIONS = new Set(['getRelayerQuote', 'relayTransaction', 'relayAdvanced', 'getRelayerStatus']);

const document = JSON.parse(fs.readFileSync(TRANSLATED, 'utf8'));
// quick: validators are compiled on first use (compiling all of them up front takes ~10 s);
// formats (uri, uuid...) are checked as in the server
const api = new OpenAPIBackend({
  definition: document,
  strict: false,
  quick: true,
  validate: true,
  ajvOpts: { strict: false, allErrors: true },
  customizeAjv: (ajv) => {
    addFormats(ajv);
    return ajv;
  },
});
const outcomes = new Map(); // transaction name -> { status: 'skip' | 'run', reason?, failure? }
const skipCounts = {};

hooks.beforeAll((transactions, done) => {
  api.init().then(
    () => done(),
    (error) => {
      console.log(`contract hooks: cannot load ${TRANSLATED}: ${error.message}`);
      for (const transaction of transactions) transaction.fail = `contract hooks could not load the contract: ${error.message}`;
      done();
    },
  );
});

/** Prepares a transaction's request (see the file's comment); calls done once it may be sent, or skipped. */
function prepare(transaction, done) {
  const operation = operationOf(transaction);
  if (!operation) {
    transaction.fail = `no operation of openapi.yaml matches ${transaction.request.method} ${templateOf(transaction)}`;
    outcomes.set(transaction.name, { status: 'run' });
    return done();
  }
  const status = Number(transaction.expected.statusCode);
  const skip = (reason, detail) => {
    transaction.skip = true;
    skipCounts[reason] = (skipCounts[reason] || 0) + 1;
    outcomes.set(transaction.name, { status: 'skip', reason });
    console.log(`skipped: ${transaction.name}: ${detail || reason}`);
    done();
  };

  const implemented = IMPLEMENTED.has(operation.operationId);
  // an operation without a handler is only checked to answer 501 (to the example request)
  if (!implemented && status !== 501) return skip(SKIP.notImplemented, `${operation.operationId} ${SKIP.notImplemented}`);
  if (status === 500) return skip(SKIP.serverError);
  if (status === 503) return skip(SKIP.keysUnavailable);
  if (implemented && status === 501) return skip(SKIP.implemented501, `${operation.operationId} is implemented: ${SKIP.implemented501}`);
  if (EVENT_STREAMS.has(operation.operationId) && status >= 200 && status < 300) return skip(SKIP.eventStream, `${operation.operationId} ${status}: ${SKIP.eventStream}`);
  if (RELAYER_OPERATIONS.has(operation.operationId) && (status === 200 || status === 409)) return skip(SKIP.relayer, `${operation.operationId} ${status}: ${SKIP.relayer}`);
  transaction.operationId = operation.operationId;
  outcomes.set(transaction.name, { status: 'run' });

  const unsupported = UNSUPPORTED_EXAMPLE_PARAMETERS[operation.operationId] || {};
  if (Object.keys(unsupported).length > 0) {
    const url = new URL(transaction.fullPath, 'http://contract.invalid');
    for (const [name, reason] of Object.entries(unsupported)) {
      if (!url.searchParams.has(name)) continue;
      url.searchParams.delete(name);
      console.log(`adjusted: ${transaction.name}: example parameter ${name} removed: ${reason}`);
    }
    transaction.fullPath = `${url.pathname}${url.search}`;
    transaction.request.uri = transaction.fullPath;
  }

  // lists of objects in the query go in qs's indexed form, as the ecosystem's SDK sends them (Dredd cannot)
  const indexed = new URL(transaction.fullPath, 'http://contract.invalid');
  for (const parameter of operation.parameters || []) {
    const p = parameter.$ref ? document.components.parameters[parameter.$ref.split('/').pop()] : parameter;
    if (p.in !== 'query' || !indexed.searchParams.has(p.name) || !Array.isArray(p.example) || typeof p.example[0] !== 'object') continue;
    indexed.searchParams.delete(p.name);
    p.example.forEach((entry, i) => Object.entries(entry).forEach(([field, value]) => indexed.searchParams.set(`${p.name}[${i}][${field}]`, String(value))));
  }
  transaction.fullPath = `${indexed.pathname}${indexed.search}`;
  transaction.request.uri = transaction.fullPath;

  const headers = transaction.request.headers;
  // Dredd titles its pass/fail lines with the id: make it show the request really sent
  const retitle = (what) => {
    transaction.id = `${transaction.request.method} (${status}) ${transaction.fullPath}${what ? ` ${what}` : ''}`;
    done();
  };
  if ((status >= 200 && status < 300) || status === 501) {
    const what = status === 501 ? `(${operation.operationId} not implemented yet)` : '';

    if (!requiresKey(operation)) return retitle(what);
    if (!KEYS.valid) return skip(SKIP.noKeys);
    headers[API_KEY_HEADER] = KEYS.valid;
    return retitle(`with a valid key ${what}`.trim());
  }
  if (status === 401) {
    // no key where one is required, otherwise a key the server does not know
    if (requiresKey(operation)) {
      delete headers[API_KEY_HEADER];
      return retitle('without a key');
    }
    headers[API_KEY_HEADER] = KEYS.unknown;
    return retitle('with an unknown key');
  }
  if (status === 403) {
    if (!KEYS.blocked) return skip(SKIP.noKeys);
    headers[API_KEY_HEADER] = KEYS.blocked;
    return retitle('with a blocked key');
  }
  if (status === 429) {
    if (!KEYS.limited) return skip(SKIP.noKeys);
    headers[API_KEY_HEADER] = KEYS.limited;
    // use up the limited key's window for this endpoint class first (1 request a minute, 120 in
    // two hours for quote, routes and stepTransaction) with cheap requests the server refuses (400)
    return exhaust(transaction, 200).then(
      () => retitle('with a key whose limit is used up'),
      (error) => {
        transaction.fail = `could not exhaust the rate limit before the request: ${error.message}`;
        retitle('with a key whose limit is used up');
      },
    );
  }
  const badInput = (BAD_INPUTS[operation.operationId] || {})[status] || (status === 400 ? GENERIC_400 : undefined);
  if (!badInput) return skip(SKIP.noInput, `${operation.operationId} ${status}: ${SKIP.noInput}`);
  const url = new URL(transaction.fullPath, 'http://contract.invalid');
  badInput(url, transaction.request, (request) => {
    if (KEYS.valid) request.headers[API_KEY_HEADER] = KEYS.valid;
  });
  transaction.fullPath = `${url.pathname}${url.search}`;
  transaction.request.uri = transaction.fullPath;
  retitle();
}

// a hook that throws would leave the request to be sent as it is: the transaction fails instead, saying why
hooks.beforeEach((transaction, done) => {
  try {
    prepare(transaction, done);
  } catch (error) {
    const failure = `the contract hooks could not prepare this request: ${error.stack || error.message}`;
    transaction.fail = failure;
    outcomes.set(transaction.name, { status: 'run', failure });
    done();
  }
});

/**
 * The schema check runs before Dredd's own validation (Gavel), which it refines in two ways where
 * Gavel is stricter than the contract:
 *   - Gavel requires every key of the example body (recursively, array items by position); the
 *     example is one instance, so when the body conforms to the schema, Gavel's body check is dropped;
 *   - Gavel requires the exact Content-Type of the contract ("application/json"); the schema check
 *     compares the media type, so a charset parameter is accepted.
 * Gavel still checks the status and the presence of every header the contract documents.
 */
hooks.beforeEachValidation((transaction) => {
  if (transaction.skip || !transaction.operationId || !transaction.real) return;
  const { problems, bodyConforms, mediaTypeConforms } = check(transaction);
  const expected = transaction.expected;
  if (bodyConforms) delete expected.body;
  if (mediaTypeConforms) {
    for (const name of Object.keys(expected.headers || {})) {
      if (name.toLowerCase() === 'content-type') expected.headers[name] = transaction.real.headers['content-type'];
    }
  }
  if (problems.length === 0) return;
  const reason = problems.join('; ');
  transaction.fail = reason;
  outcomes.set(transaction.name, { status: 'run', failure: reason });
  console.log(`contract violation: ${transaction.name}: ${reason}`);
});

hooks.afterAll((transactions, done) => {
  const summary = { passed: 0, failed: 0, skipped: 0, skipReasons: skipCounts, failures: [] };
  for (const transaction of transactions) {
    const outcome = outcomes.get(transaction.name) || { status: 'run' };
    const testStatus = transaction.test && transaction.test.status;
    if (transaction.skip && testStatus !== 'fail') {
      summary.skipped += 1;
      if (outcome.status !== 'skip') {
        const reason = 'skipped by Dredd';
        summary.skipReasons[reason] = (summary.skipReasons[reason] || 0) + 1;
      }
    } else if (testStatus === 'pass' && !transaction.fail) {
      summary.passed += 1;
    } else {
      summary.failed += 1;
      const dredd = (transaction.results && transaction.results.fields) || {};
      const dreddErrors = Object.entries(dredd)
        .flatMap(([field, result]) => (result.errors || []).map((e) => `${field}: ${e.message}`))
        .concat((transaction.errors || []).map((e) => e.message));
      const reason = outcome.failure || (typeof transaction.fail === 'string' ? transaction.fail : '') || dreddErrors.join('; ') || `Dredd status ${testStatus || 'none'}`;
      summary.failures.push({ name: transaction.name, reason });
    }
  }
  fs.writeFileSync(SUMMARY, `${JSON.stringify(summary, null, 2)}\n`);
  done();
});

/** The operation of openapi.yaml a transaction belongs to, by method and path template. */
function operationOf(transaction) {
  const pathItem = document.paths[templateOf(transaction)];
  const operation = pathItem && pathItem[transaction.request.method.toLowerCase()];
  return operation && HTTP_METHODS.includes(transaction.request.method.toLowerCase()) ? operation : undefined;
}

function templateOf(transaction) {
  return (transaction.origin && transaction.origin.resourceName) || transaction.name.split(' > ')[0];
}

/** True when every security requirement of the operation needs a scheme (none is the empty `{}`). */
function requiresKey(operation) {
  const security = operation.security || document.security || [];
  return security.length > 0 && security.every((requirement) => Object.keys(requirement).length > 0);
}

/**
 * Sends requests with the transaction's method, path and headers, and
 * no body (every request is counted before it is validated), until the server answers 429.
 */
async function exhaust(transaction, attempts) {
  const url = new URL(transaction.fullPath, 'http://contract.invalid');

  const headers = { ...transaction.request.headers };
  for (const name of Object.keys(headers)) if (/^content-(length|type)$/i.test(name)) delete headers[name];
  for (let i = 0; i < attempts; i += 1) {
    const status = await send(transaction, `${url.pathname}${url.search}`, headers);
    if (status === 429) return;
  }
  throw new Error(`no 429 after ${attempts} requests`);
}

function send(transaction, requestPath, headers) {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: transaction.host, port: transaction.port, method: transaction.request.method, path: requestPath, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode));
    });
    request.on('error', reject);
    request.setTimeout(10_000, () => request.destroy(new Error('timed out')));
    request.end();
  });
}

/** Everything in the real answer that breaks the contract for this operation and the expected status. */
function check(transaction) {
  const { operationId } = transaction;
  const real = transaction.real;
  const status = Number(real.statusCode);
  const problems = [];
  const result = { problems, bodyConforms: false, mediaTypeConforms: false };
  if (String(status) !== String(transaction.expected.statusCode)) {
    problems.push(`answered ${status} instead of ${transaction.expected.statusCode} (${truncate(real.body)})`);
  }
  const operation = api.getOperation(operationId);
  const declared = operation.responses && operation.responses[String(status)];
  if (!declared) {
    problems.push(`${status} is not a status the contract declares for ${operationId}`);
    return result;
  }
  const contentType = String(real.headers['content-type'] || '');
  const mediaTypes = Object.keys(declared.content || {});
  if (mediaTypes.length > 0) {
    if (!mediaTypes.includes(contentType.split(';')[0].trim().toLowerCase())) {
      problems.push(`content-type "${contentType}" is not one of ${mediaTypes.join(', ')}`);
      return result;
    }
    result.mediaTypeConforms = true;
    let body;
    try {
      body = JSON.parse(real.body);
    } catch (error) {
      problems.push(`body is not JSON: ${truncate(real.body)}`);
      return result;
    }
    const validation = api.validateResponse(body, operationId, status);
    if (validation.errors && validation.errors.length > 0) problems.push(`body violates the ${status} schema: ${describe(validation.errors)}`);
    else result.bodyConforms = true;
  } else if (real.body) {
    problems.push(`the contract declares no body for ${status}, got ${truncate(real.body)}`);
  }
  const headers = api.validateResponseHeaders(real.headers, operationId, { statusCode: status, setMatchType: SetMatchType.Any });
  if (headers.errors && headers.errors.length > 0) problems.push(`headers violate the ${status} schema: ${describe(headers.errors)}`);
  return result;
}

function describe(errors) {
  return errors
    .slice(0, 5)
    .map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`)
    .join(', ');
}

function truncate(text) {
  const value = String(text || '');
  return value.length > 300 ? `${value.slice(0, 300)}...` : value;
}
