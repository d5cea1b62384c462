/**
 * The UI's server refuses what does not come from its own page and serves nothing outside the source
 * (src/ui/security.ts), checked with raw HTTP requests (no browser): a wrong Host (DNS rebinding), a foreign
 * Origin or a cross-site fetch, a missing or wrong token, an API request without the token header; paths
 * that leave the source (`..`, encoded, a symbolic link out of it, a hidden file), and the headers that keep
 * the site's scripts from running.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cookieName } from '../../src/ui/security.ts';
import { startUi, type RunningUi } from '../../src/ui/server.ts';
import { own, raw } from './ui-http.ts';

const PAGE = (n: number): string => `<!DOCTYPE html><html><head><title>Page ${n}</title><link rel="stylesheet" href="site.css"><script>document.title = 'ran'</script></head>
<body><header><nav><a href="p1.html">One</a> <a href="p2.html">Two</a></nav></header><main><h1>Page ${n}</h1><p>Text of page number ${n}, with some words.</p></main><footer>Footer</footer></body></html>`;

async function withUi(fn: (ui: RunningUi, dirs: { site: string; outside: string }) => Promise<void>): Promise<void> {
  const base = await mkdtemp(join(tmpdir(), 'gabarit-ui-sec-'));
  const site = join(base, 'site');
  const outside = join(base, 'outside');
  await mkdir(site);
  await mkdir(outside);
  await writeFile(join(site, 'p1.html'), PAGE(1));
  await writeFile(join(site, 'p2.html'), PAGE(2));
  await writeFile(join(site, 'site.css'), 'body{color:#333}');
  await writeFile(join(site, '.secret'), 'hidden');
  await writeFile(join(outside, 'secret.txt'), 'outside the source');
  await symlink(join(outside, 'secret.txt'), join(site, 'link.txt'));
  await symlink(outside, join(site, 'linkdir'));
  const ui = await startUi(site, { port: 0 });
  try {
    await fn(ui, { site, outside });
  } finally {
    await ui.close();
    await rm(base, { recursive: true, force: true });
  }
}

test('the UI listens on 127.0.0.1 and prints a URL with a token', async () => {
  await withUi(async (ui) => {
    assert.match(ui.url, new RegExp(`^http://127\\.0\\.0\\.1:${ui.port}/\\?token=[\\w-]{40,}$`));
  });
});

test('the token: the printed URL sets an HttpOnly SameSite=Strict cookie; no or a wrong token is refused', async () => {
  await withUi(async (ui) => {
    const first = await raw(ui, `/?token=${ui.token}`);
    assert.equal(first.status, 303);
    assert.equal(first.headers['location'], '/');
    const cookie = String(first.headers['set-cookie']);
    assert.match(cookie, new RegExp(`^${cookieName(ui.port)}=${ui.token};`));
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Strict/);
    assert.equal((await raw(ui, `/?token=${ui.token.slice(0, -1)}x`)).status, 403, 'wrong token');
    for (const path of ['/', '/app.js', '/api/site', '/frame/none/p1.html', '/frame/none/site.css']) {
      assert.equal((await raw(ui, path)).status, 403, `${path} without the cookie`);
      assert.equal((await raw(ui, path, { cookie: `${cookieName(ui.port)}=nope` })).status, 403, `${path} with a wrong cookie`);
    }
    const shell = await raw(ui, '/', own(ui));
    assert.equal(shell.status, 200);
    assert.match(String(shell.headers['content-security-policy']), /script-src 'self'/);
    assert.equal(shell.headers['x-frame-options'], 'DENY');
  });
});

test('API requests need the token header as well as the cookie', async () => {
  await withUi(async (ui) => {
    assert.equal((await raw(ui, '/api/site', own(ui))).status, 403, 'cookie alone');
    assert.equal((await raw(ui, '/api/site', { ...own(ui), 'x-gabarit-token': 'nope' })).status, 403, 'wrong header');
    const ok = await raw(ui, '/api/site', own(ui, true));
    assert.equal(ok.status, 200);
    assert.deepEqual((JSON.parse(ok.body) as { pages: Array<{ key: string }> }).pages.map((p) => p.key), ['p1.html', 'p2.html']);
    const post = await raw(ui, '/api/wrapper/load', { ...own(ui, true), 'content-type': 'application/json' }, 'POST', JSON.stringify({ text: '{"version":1,"patterns":[]}', file: 'w.json' }));
    assert.equal(post.status, 400, 'an invalid wrapper is a bad request');
    assert.match(post.body, /at least one pattern/);
  });
});

test('requests from elsewhere are refused: another Host (DNS rebinding), another Origin, a cross-site fetch', async () => {
  await withUi(async (ui) => {
    for (const host of [`evil.example:${ui.port}`, 'evil.example', `127.0.0.1:${ui.port + 1}`, `127.0.0.1.evil.example:${ui.port}`]) {
      const r = await raw(ui, '/api/site', { ...own(ui, true), host });
      assert.equal(r.status, 421, `Host ${host}`);
    }
    assert.equal((await raw(ui, `/?token=${ui.token}`, { host: `rebound.example:${ui.port}` })).status, 421, 'not even the token URL on another host');
    assert.equal((await raw(ui, '/api/site', { ...own(ui, true), host: `localhost:${ui.port}` })).status, 200, 'localhost is this server');
    assert.equal((await raw(ui, '/api/site', { ...own(ui, true), origin: 'http://evil.example' })).status, 403, 'foreign Origin');
    assert.equal((await raw(ui, '/api/site', { ...own(ui, true), origin: 'null' })).status, 403, 'opaque Origin (a sandboxed document)');
    assert.equal((await raw(ui, '/api/site', { ...own(ui, true), origin: `http://127.0.0.1:${ui.port}` })).status, 200, 'own Origin');
    for (const site of ['cross-site', 'same-site']) assert.equal((await raw(ui, '/frame/none/p1.html', { ...own(ui), 'sec-fetch-site': site })).status, 403, `Sec-Fetch-Site ${site}`);
    const post = await raw(ui, '/api/preview', { ...own(ui, true), origin: 'http://evil.example', 'content-type': 'application/json' }, 'POST', '{}');
    assert.equal(post.status, 403, 'a cross-origin POST');
  });
});

test('nothing outside the source is served: .., encoded .., symbolic links out, hidden files', async () => {
  await withUi(async (ui) => {
    const css = await raw(ui, '/frame/none/site.css', own(ui));
    assert.equal(css.status, 200, 'a file of the source');
    assert.equal(css.body, 'body{color:#333}');
    assert.match(String(css.headers['content-security-policy']), /script-src 'none'/);
    for (const path of [
      '/frame/none/../outside/secret.txt',
      '/frame/none/..%2F..%2Foutside%2Fsecret.txt',
      '/frame/none/%2e%2e/%2e%2e/outside/secret.txt',
      '/frame/none/..%5C..%5Coutside%5Csecret.txt',
      '/frame/none/link.txt',
      '/frame/none/linkdir/secret.txt',
      '/frame/none/.secret',
      '/frame/none/%00p1.html',
      '/frame/none//etc/passwd',
      '/frame/none/%2Fetc%2Fpasswd',
      '/upload/1/p1.html',
      '/../../etc/passwd',
    ]) {
      const r = await raw(ui, path, own(ui));
      assert.equal(r.status, 404, `${path}: ${r.status}`);
      assert.doesNotMatch(r.body, /outside the source|root:/);
    }
  });
});

test("a page in a frame: numbered elements, the overlay, and no way for the site's scripts to run", async () => {
  await withUi(async (ui) => {
    const r = await raw(ui, '/frame/align/p1.html', own(ui));
    assert.equal(r.status, 200);
    const csp = String(r.headers['content-security-policy']);
    assert.match(csp, /script-src 'none'/);
    assert.match(csp, /sandbox allow-same-origin/);
    assert.match(csp, /default-src 'none'/);
    assert.match(r.body, /data-gabarit-node="\d+"/);
    assert.match(r.body, /data-gabarit="template"/, 'the engine marked the template');
    assert.equal((await raw(ui, '/frame/nosuchengine/p1.html', own(ui))).status, 404);
  });
});
