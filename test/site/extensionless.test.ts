/**
 * Extensionless root-relative links, as static site generators (Docusaurus, Hugo with ugly URLs off…) write
 * them and GitHub Pages serves them: `/docs/overview` is `docs/overview.html`, `/docs/` is
 * `docs/index.html`, `/blog` is `blog.html` even beside a folder `blog/`, and non-ASCII file names work.
 * The directory source, the server and a crawl over the server must agree.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DirSource } from '../../src/site/dir-source.ts';
import { HttpSource } from '../../src/site/http-source.ts';
import { serveDirectory } from '../../src/site/serve.ts';

const page = (title: string, links: string[]): string =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1><ul>${links.map((l) => `<li><a href="${l}">${l}</a></li>`).join('')}</ul></body></html>`;

function makeSite(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gabarit-extless-'));
  const links = ['/', '/docs/', '/docs/overview', '/docs/category/系统介绍', '/blog', '/blog/post', '/missing'];
  mkdirSync(join(dir, 'docs', 'category'), { recursive: true });
  mkdirSync(join(dir, 'blog'));
  writeFileSync(join(dir, 'index.html'), page('home', links));
  writeFileSync(join(dir, 'docs', 'index.html'), page('docs', links));
  writeFileSync(join(dir, 'docs', 'overview.html'), page('overview', links));
  writeFileSync(join(dir, 'docs', 'category', '系统介绍.html'), page('category', links));
  writeFileSync(join(dir, 'blog.html'), page('blog', links));
  writeFileSync(join(dir, 'blog', 'post.html'), page('post', links));
  return dir;
}

test('directory source: extensionless paths name their .html file, before a folder of the same name', async () => {
  const dir = makeSite();
  try {
    const s = new DirSource(dir);
    const file = (p: string): string => pathToFileURL(join(dir, p)).href;
    assert.equal(s.keyOf(file('docs/overview')), 'docs/overview.html');
    assert.equal(s.keyOf(file('docs') + '/'), 'docs/index.html');
    assert.equal(s.keyOf(file('blog')), 'blog.html', 'a file blog.html wins over the folder blog/');
    assert.equal(s.keyOf(file('blog/post')), 'blog/post.html');
    assert.equal(s.keyOf('file:///docs/category/%E7%B3%BB%E7%BB%9F%E4%BB%8B%E7%BB%8D'), 'docs/category/系统介绍.html', 'a root-relative link in a file:// page');
    assert.equal(s.keyOf(file('missing')), 'missing', 'nothing matches: the key of a missing page');
    assert.equal((await s.get('docs/overview')).key, 'docs/overview.html');
    await assert.rejects(s.get('missing'), /no such file/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('serve and a crawl over it resolve extensionless links as GitHub Pages does', async () => {
  const dir = makeSite();
  const served = await serveDirectory(dir);
  try {
    const res = async (p: string): Promise<{ status: number; title: string }> => {
      const r = await fetch(served.url + p.replace(/^\//, ''), { redirect: 'manual' });
      const text = await r.text();
      return { status: r.status, title: /<title>([^<]*)<\/title>/.exec(text)?.[1] ?? '' };
    };
    assert.deepEqual(await res('/docs/overview'), { status: 200, title: 'overview' });
    assert.deepEqual(await res('/blog'), { status: 200, title: 'blog' });
    assert.deepEqual(await res('/blog/'), { status: 404, title: '' }, 'blog/ has no index file');
    assert.deepEqual(await res('/docs/category/%E7%B3%BB%E7%BB%9F%E4%BB%8B%E7%BB%8D'), { status: 200, title: 'category' });
    assert.equal((await res('/docs')).status, 301, 'a folder without docs.html still redirects to docs/');
    assert.equal((await res('/docs/overview/')).status, 404);
    const http = new HttpSource(served.url, { delayMs: 0 });
    try {
      const got: string[] = [];
      const failed: string[] = [];
      for await (const r of http.pages()) (r.ok ? got : failed).push(r.ok ? r.page.key : r.key);
      assert.deepEqual(got.sort(), ['blog', 'blog/post', 'docs/category/系统介绍', 'docs/index.html', 'docs/overview', 'index.html']);
      assert.deepEqual(failed, ['missing']);
    } finally {
      await http.close();
    }
  } finally {
    await served.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
