import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { serveDirectory } from '../../src/site/serve.ts';
import { FIXTURE_SITE, fixtureBytes } from './page-source-suite.ts';

/** A raw GET that does not normalise the path (so traversal attempts reach the server as written). */
function get(port: number, path: string): Promise<{ status: number; type: string | undefined; location: string | undefined; body: Buffer }> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, type: res.headers['content-type'], location: res.headers.location, body: Buffer.concat(chunks) }));
    });
    req.on('error', fail);
    req.end();
  });
}

test('serveDirectory serves a mirror on 127.0.0.1 with index pages, content types, 404s and no traversal', async () => {
  const s = await serveDirectory(FIXTURE_SITE);
  try {
    assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const root = await get(s.port, '/');
    assert.equal(root.status, 200);
    assert.equal(root.type, 'text/html; charset=utf-8');
    assert.deepEqual(new Uint8Array(root.body), fixtureBytes('index.html'));
    const docs = await get(s.port, '/docs/');
    assert.deepEqual(new Uint8Array(docs.body), fixtureBytes('docs/index.html'));
    const redirect = await get(s.port, '/docs?x=1');
    assert.equal(redirect.status, 301);
    assert.equal(redirect.location, '/docs/?x=1');
    assert.equal((await get(s.port, '/docs/ref.xhtml')).type, 'application/xhtml+xml');
    assert.equal((await get(s.port, '/docs/plain')).type, 'text/html; charset=utf-8', 'an extensionless HTML file is sniffed');
    assert.equal((await get(s.port, '/notes.txt')).type, 'text/plain; charset=utf-8');
    assert.equal((await get(s.port, '/missing.html')).status, 404);
    for (const evil of ['/../page-source-suite.ts', '/docs/../../page-source-suite.ts', '/%2e%2e/page-source-suite.ts', '/..%2f..%2f..%2f..%2fpackage.json', '/docs/..%2f..%2f..%2f..%2f..%2fpackage.json', '/%00']) {
      assert.equal((await get(s.port, evil)).status, 404, `traversal ${evil}`);
    }
  } finally {
    await s.close();
  }
});

test('serve and the directory source stay in their folder: a symbolic link to a file or folder outside is refused', async (t) => {
  const { mkdtemp, mkdir, rm, symlink, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { DirSource } = await import('../../src/site/dir-source.ts');
  const { PageError } = await import('../../src/errors.ts');
  const base = await mkdtemp(join(tmpdir(), 'gabarit-symlink-'));
  t.after(() => rm(base, { recursive: true, force: true }));
  const secret = join(base, 'secret');
  await mkdir(join(secret, 'dir'), { recursive: true });
  await writeFile(join(secret, 'private.html'), '<html><body><p>private data</p></body></html>');
  await writeFile(join(secret, 'dir', 'index.html'), '<html><body><p>private folder</p></body></html>');
  const site = join(base, 'site');
  await mkdir(site);
  await writeFile(join(site, 'index.html'), '<html><body><a href="leak.html">leak</a> <a href="alias.html">alias</a></body></html>');
  await symlink(join(secret, 'private.html'), join(site, 'leak.html'));
  await symlink(join(secret, 'dir'), join(site, 'leakdir'));
  await symlink(join(site, 'index.html'), join(site, 'alias.html'));
  const s = await serveDirectory(site);
  try {
    assert.equal((await get(s.port, '/')).status, 200);
    assert.equal((await get(s.port, '/alias.html')).status, 200, 'a link that stays inside is served');
    for (const path of ['/leak.html', '/leakdir/', '/leakdir/index.html']) {
      const r = await get(s.port, path);
      assert.equal(r.status, 404, `${path} is outside the folder`);
      assert.doesNotMatch(r.body.toString(), /private/);
    }
  } finally {
    await s.close();
  }
  const source = new DirSource(site);
  for (const key of ['leak.html', 'leakdir/index.html']) {
    await assert.rejects(source.get(key), (e: unknown) => e instanceof PageError && e.code === 'off-site', key);
  }
  assert.equal((await source.get('alias.html')).key, 'alias.html');
  const keys: string[] = [];
  for await (const r of source.pages()) {
    if (r.ok) {
      assert.doesNotMatch(new TextDecoder().decode(r.page.body), /private/);
      keys.push(r.page.key);
    }
  }
  assert.ok(keys.includes('index.html'));
});
