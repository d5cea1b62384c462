/**
 * Raw HTTP requests to a running UI (no browser, no URL normalisation), as its own page or as a stranger
 * sends them: the tests of the UI's server (security, the API's validation of request bodies) share them.
 */
import { request } from 'node:http';
import { cookieName } from '../../src/ui/security.ts';
import type { RunningUi } from '../../src/ui/server.ts';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw request: the path is sent as it is (no URL normalisation), headers as given. */
export function raw(ui: RunningUi, path: string, headers: Record<string, string> = {}, method = 'GET', body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: ui.port, path, method, headers: { host: `127.0.0.1:${ui.port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The headers of a request from the UI's own page: the cookie, and for the API the token header. */
export function own(ui: RunningUi, api = false): Record<string, string> {
  return { cookie: `${cookieName(ui.port)}=${ui.token}`, ...(api ? { 'x-gabarit-token': ui.token } : {}) };
}
