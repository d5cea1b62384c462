/**
 * The options of `gabarit hits` and `gabarit cocited` through the command line, on a small site whose
 * pages share a menu (template pagelets) and two pages have lists of links (hub pagelets), some of them
 * to another site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gabarit, type Ran } from './gabarit-process.ts';

const MENU = '<nav><ul><li><a href="a.html">Alpha</a></li><li><a href="b.html">Beta</a></li><li><a href="c.html">Gamma</a></li></ul></nav>';

function list(title: string, links: [string, string][], tag = 'section'): string {
  return `<${tag}><h2>${title}</h2><ul>${links.map(([href, text]) => `<li><a href="${href}">${text}</a></li>`).join('')}</ul></${tag}>`;
}

/** index, a, b, c, x, y, z: the menu and a line of text; h1: a list of sales; h2: two lists. */
async function writeSite(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-options-hits-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const main: Record<string, string> = {
    index: '<p>Welcome to the shop of tents and boots.</p>',
    a: '<p>Alpha is a tent.</p>',
    b: '<p>Beta is a boot.</p>',
    c: '<p>Gamma is a map.</p>',
    x: '<p>X is a stove.</p>',
    y: '<p>Y is a lamp.</p>',
    z: '<p>Z is a mug.</p>',
    h1: list('Sale picks', [['a.html', 'sale Alpha'], ['x.html', 'sale X'], ['z.html', 'sale Z'], ['https://elsewhere.example/sale', 'sale elsewhere']]),
    h2:
      list('Reading', [['a.html', 'Alpha notes'], ['b.html', 'Beta notes'], ['https://elsewhere.example/read', 'more notes']]) +
      list('Lamps', [['y.html', 'Y lamp'], ['z.html', 'Z mug'], ['https://elsewhere.example/lamp', 'lamp shop']], 'aside'),
  };
  for (const [name, body] of Object.entries(main)) {
    await writeFile(join(dir, `${name}.html`), `<!DOCTYPE html><html><head><title>${name}</title></head><body>${MENU}<main><h1>${name}</h1>${body}</main></body></html>`);
  }
  return dir;
}

async function readJson<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, 'utf8')) as T;
}

interface Hits {
  hubs: { pagelet: string; template: boolean; text: string }[];
  authorities: { url: string; key?: string }[];
}

/** What a `gabarit hits … --out <out>` run wrote. */
async function hitsOf(r: Ran, out: string): Promise<{ hits: Hits; summary: Record<string, unknown> }> {
  assert.equal(r.code, 0, r.stderr);
  return { hits: await readJson<Hits>(join(out, 'hits.json')), summary: await readJson(join(out, 'summary.json')) };
}

test('hits: --query keeps the hubs holding the words, --no-external the authorities of the source, --keep-templates the menus, --top the list', async (t) => {
  const site = await writeSite(t);
  const [a, b, c] = ['all', 'query', 'templates'].map((n) => join(site, 'out', n)) as [string, string, string];
  const all = await hitsOf(await gabarit(['hits', site, '--local', '--top', '50', '-q', '--out', a]), a);
  assert.ok(all.hits.authorities.some((x) => x.key === undefined), 'links to the other site are authorities by default');
  assert.ok(all.hits.hubs.every((h) => !h.template), 'template pagelets are left out by default');

  const query = await hitsOf(await gabarit(['hits', site, '--local', '--query', 'sale', '--no-external', '--top', '50', '-q', '--out', b]), b);
  assert.equal(query.summary['query'], 'sale');
  assert.ok(query.hits.hubs.length > 0 && query.hits.hubs.length < all.hits.hubs.length, 'fewer hubs with --query');
  for (const h of query.hits.hubs) assert.match(h.text, /sale/);
  assert.ok(query.hits.authorities.length > 0);
  for (const x of query.hits.authorities) assert.ok(x.key !== undefined, `--no-external: ${x.url} is a page of the source`);

  const templates = await hitsOf(await gabarit(['hits', site, '--local', '--keep-templates', '--top', '2', '-q', '--out', c]), c);
  assert.equal(templates.summary['templateEdgesDropped'], false);
  assert.ok((templates.summary['hubs'] as number) > (all.summary['hubs'] as number), 'the menus are hubs too');
  assert.ok(templates.hits.hubs.some((h) => h.template), 'a template pagelet among the top hubs');
  assert.equal(templates.hits.hubs.length, 2, '--top 2 hubs');
  assert.equal(templates.hits.authorities.length, 2, '--top 2 authorities');
});

interface Cocited {
  related: { url: string; key?: string; score: number }[];
}

/** What a `gabarit cocited … --out <out>` run wrote. */
async function cocitedOf(r: Ran, out: string): Promise<{ cocited: Cocited; summary: Record<string, unknown> }> {
  assert.equal(r.code, 0, r.stderr);
  return { cocited: await readJson<Cocited>(join(out, 'cocited.json')), summary: await readJson(join(out, 'summary.json')) };
}

test('cocited: --page-weight counts the other pagelets of a page at that weight, --keep-templates the menus, --top the list', async (t) => {
  const site = await writeSite(t);
  const [w, k] = ['weight', 'templates'].map((n) => join(site, 'out', n)) as [string, string];
  const weighted = await cocitedOf(await gabarit(['cocited', site, '--url', 'a.html', '--local', '--page-weight', '0.5', '-q', '--out', w]), w);
  assert.equal(weighted.summary['pageWeight'], 0.5);
  const score = (key: string): number | undefined => weighted.cocited.related.find((r) => r.key === key)?.score;
  assert.equal(score('x.html'), 1, 'x is co-cited with a in the list of sales');
  assert.equal(score('y.html'), 0.5, 'y is in the other list of a page citing a: weight 0.5');
  assert.equal(score('z.html'), 1.5, 'z: once in the same list, once in the other list of a page');
  assert.equal(score('c.html'), undefined, 'the menu is template: ignored');

  const kept = await cocitedOf(await gabarit(['cocited', site, '--url', 'a.html', '--local', '--keep-templates', '--top', '1', '-q', '--out', k]), k);
  assert.equal(kept.summary['templateCitationsIgnored'], false);
  assert.equal(kept.cocited.related.length, 1, '--top 1');
  const [first] = kept.cocited.related;
  assert.ok(first!.key === 'b.html' || first!.key === 'c.html', `a menu neighbour comes first (${first!.key})`);
  assert.ok(first!.score >= 8, 'cited together in the menu of every page');
});
