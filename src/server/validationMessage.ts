import type { ErrorObject } from 'ajv';

/** One validation problem, as returned under `errors` of a 400. */
export interface ValidationIssue {
  /** Where the value is: query, path, header or body. */
  in: string;
  /** Parameter name, or JSON pointer inside the body ("" for the body itself). */
  name: string;
  /** The schema keyword that failed (pattern, minimum, required, enum...). */
  rule: string;
  message: string;
}

const LOCATION: Record<string, string> = { query: 'query', path: 'path', header: 'header', requestBody: 'body' };

/**
 * Turns ajv errors from openapi-backend (instancePath like `/query/fromAmount` or
 * `/requestBody/options/slippage`) into messages that name the parameter and the rule.
 */
export function describeValidationErrors(errors: readonly ErrorObject[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const issue = describeOne(error);
    const key = `${issue.in}|${issue.name}|${issue.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      issues.push(issue);
    }
  }
  return issues;
}

function describeOne(error: ErrorObject): ValidationIssue {
  const parts = error.instancePath.split('/').slice(1).map(unescapePointer);
  let where = parts[0] ?? '';
  let rest = parts.slice(1);
  // Errors on the root object (a missing location such as a required body).
  if (where === '' && error.keyword === 'required') {
    const missing = String((error.params as { missingProperty?: string }).missingProperty);
    where = missing;
    rest = [];
    if (missing === 'requestBody') return { in: 'body', name: '', rule: 'required', message: 'request body is required (JSON)' };
  }
  const location = LOCATION[where] ?? where;
  const isBody = location === 'body';
  const name = isBody ? (rest.length ? `/${rest.join('/')}` : '') : rest.join('.');
  const rule = error.keyword;

  if (rule === 'required') {
    const missing = String((error.params as { missingProperty?: string }).missingProperty);
    return isBody
      ? { in: 'body', name: `${name}/${missing}`, rule, message: `body field ${name}/${missing} is required` }
      : { in: location, name: name ? `${name}.${missing}` : missing, rule, message: `${location} parameter ${name ? `${name}.${missing}` : missing} is required` };
  }
  if (rule === 'additionalProperties') {
    const extra = String((error.params as { additionalProperty?: string }).additionalProperty);
    return isBody
      ? { in: 'body', name: `${name}/${extra}`, rule, message: `body field ${name}/${extra} is not allowed` }
      : { in: location, name: extra, rule, message: `${location} parameter ${extra} is not allowed on this operation` };
  }
  // a chain outside the catalog (the contract's ChainIdOrKey lists the catalog's chains, `x-catalog: chains`): said
  // as the service's own check says it, which it replaces
  if (rule === 'pattern' && (error.parentSchema as { 'x-catalog'?: unknown } | undefined)?.['x-catalog'] === 'chains') {
    const value = String(error.data);
    return { in: location, name, rule: 'supportedChain', message: `${location} parameter ${name}: "${value}" is not a supported chain id or key; GET /v1/chains lists the supported chains` };
  }
  const detail = rule === 'enum'
    ? `must be one of ${((error.params as { allowedValues?: unknown[] }).allowedValues ?? []).map(String).join(', ')}`
    : error.message ?? 'is invalid';
  const subject = isBody ? `body field ${name || '(root)'}` : `${location} parameter ${name}`;
  return { in: location, name, rule, message: `${subject} ${detail}` };
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}
