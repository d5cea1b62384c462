/** A test's HTTP server on 127.0.0.1, closed when the test ends. */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Serves `handler` on 127.0.0.1 (a free port) until the test ends; resolves to the root URL (`http://127.0.0.1:P/`). */
export async function serveForTest(t: { after(fn: () => Promise<void>): void }, handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}
