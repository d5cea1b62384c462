/**
 * Who may talk to the UI's server, and what it may serve. The server listens on 127.0.0.1 only, but any
 * web page the user opens can send requests there, and a DNS-rebinding page can make its own host name
 * resolve to 127.0.0.1. So every request must pass, in order:
 *  1. Host: exactly `127.0.0.1:<port>` or `localhost:<port>` (a rebound host name arrives with its own
 *     name in Host and is refused before anything else);
 *  2. Origin, when the browser sends one: this server's own origin; Sec-Fetch-Site, when sent: same-origin
 *     or none (a navigation typed by the user);
 *  3. the run's token: a random 256-bit value printed in the URL the user opens; that first request sets a
 *     cookie (HttpOnly, SameSite=Strict, named after the port) and redirects to the URL without it;
 *     every later request must carry the cookie, and API requests also the token in a header (a header
 *     another site cannot set without a CORS preflight, which this server never grants).
 * Files of the source are served by static-files.ts: only from inside its directory, symbolic links
 * resolved, never hidden ones, only regular files.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { refuseForeign, type Refusal } from '../site/static-files.ts';

/** The header API requests carry the token in. */
export const TOKEN_HEADER = 'x-gabarit-token';
/** The query parameter of the URL printed for the user. */
export const TOKEN_PARAM = 'token';

/** A new per-run token (URL-safe). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The cookie name for a server on `port` (two UIs on one machine keep their own). */
export function cookieName(port: number): string {
  return `gabarit_ui_${port}`;
}

/** Constant-time comparison of a presented token with the run's. */
export function sameToken(given: string | undefined | null, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The value of cookie `name` in a Cookie header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Checks 1 and 2 of the module comment (Host, Origin, Sec-Fetch-Site). The token (check 3) is checked by
 * the caller, which knows whether the request is the first one.
 */
export function checkOrigin(req: IncomingMessage, port: number): Refusal | null {
  const foreign = refuseForeign(req, port);
  if (foreign) return foreign;
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return { status: 403, reason: `cross-site request (${site})` };
  return null;
}

/** True when the request carries the run's token in its cookie (pages, frames, assets). */
export function hasCookie(req: IncomingMessage, port: number, token: string): boolean {
  return sameToken(cookieValue(req.headers.cookie, cookieName(port)), token);
}

/** True when an API request carries the token in its cookie and in TOKEN_HEADER. */
export function hasApiToken(req: IncomingMessage, port: number, token: string): boolean {
  const header = req.headers[TOKEN_HEADER];
  return hasCookie(req, port, token) && sameToken(typeof header === 'string' ? header : undefined, token);
}

/** The Set-Cookie value that hands the token to the browser. */
export function tokenCookie(port: number, token: string): string {
  return `${cookieName(port)}=${token}; Path=/; HttpOnly; SameSite=Strict`;
}
