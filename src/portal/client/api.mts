/** The page's calls to the portal's JSON API (/portal/api): JSON in and out, the CSRF token on changes, ApiError. */
import type { PortalErrorBody } from '../api';
import { resetSession, state } from './state.mjs';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: PortalErrorBody,
  ) {
    super(message);
  }
}

/** Calls /portal/api: JSON in and out, the CSRF token on every change, errors as ApiError with the server's message. */
export async function api<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && state.me.signedIn) headers['x-csrf-token'] = state.me.csrfToken;
  const response = await fetch(`/portal/api${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
    // the Origin header is sent with this origin (the CSRF check needs it), whatever the page's referrer policy
    referrerPolicy: 'same-origin',
    cache: 'no-store',
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const error = parsed as PortalErrorBody | undefined;
    if (response.status === 401 && path !== '/session' && state.me.signedIn) {
      // the session ended (expired, or the service restarted): back to signing in
      resetSession();
    }
    throw new ApiError(response.status, error?.message ?? `The portal answered ${response.status}`, error);
  }
  return parsed as T;
}

export const integratorPath = (id: string) => `/integrators/${encodeURIComponent(id)}`;

export const keyPath = (integratorId: string, keyId: string) => `${integratorPath(integratorId)}/keys/${encodeURIComponent(keyId)}`;
