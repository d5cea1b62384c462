/**
 * Every endpoint of the UI's API (src/ui/api.ts) answers a request of the wrong shape — `null`, an array
 * where an object is expected, a string where a list is, a number as a string — with 400 and a short JSON
 * message naming the field, never 500 and never a stack; requests of the right shape still work.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startUi, type RunningUi } from '../../src/ui/server.ts';
import type { PatternDraft } from '../../src/ui/api.ts';
import { own, raw, type Answer } from './ui-http.ts';

const PAGE = (n: number): string => `<!DOCTYPE html><html><head><title>Product ${n}</title></head>
<body><nav><a href="p1.html">One</a> <a href="p2.html">Two</a></nav><main><h1>Product ${n}</h1><p class="price">£${n}0.00</p></main></body></html>`;

const DRAFT: PatternDraft = { name: 'name', selector: 'h1', multiple: false, value: 'text', parent: null };
const PAGE_KEY = { key: 'p1.html', method: 'none' };

async function withUi(fn: (ui: RunningUi) => Promise<void>): Promise<void> {
  const site = await mkdtemp(join(tmpdir(), 'gabarit-ui-api-'));
  await writeFile(join(site, 'p1.html'), PAGE(1));
  await writeFile(join(site, 'p2.html'), PAGE(2));
  const ui = await startUi(site, { port: 0 });
  try {
    await fn(ui);
  } finally {
    await ui.close();
    await rm(site, { recursive: true, force: true });
  }
}

function post(ui: RunningUi, route: string, body: unknown): Promise<Answer> {
  return raw(ui, `/api/${route}`, { ...own(ui, true), 'content-type': 'application/json' }, 'POST', typeof body === 'string' ? body : JSON.stringify(body));
}

/** What is wrong with an answer that should be a 400 with a short `{ error }` naming `field` (no stack, no TypeError), or null. */
function notBadRequest(r: Answer, field: string): string | null {
  if (r.status !== 400) return `${r.status} ${r.body.slice(0, 200)}`;
  let error: unknown;
  try {
    error = (JSON.parse(r.body) as { error?: unknown }).error;
  } catch {
    return `not JSON: ${r.body.slice(0, 200)}`;
  }
  if (typeof error !== 'string') return `no error message: ${r.body.slice(0, 200)}`;
  if (!error.includes(field)) return `the message does not name ${field}: ${error}`;
  if (/TypeError|Cannot read|is not a function|is not iterable|\n\s*at /.test(error) || error.length > 300) return `not a short message: ${error}`;
  return null;
}

/** Bodies of the wrong shape for every POST endpoint, each with the field its message must name. */
function badBodies(wrapper: string): Array<[route: string, body: unknown, field: string]> {
  const cases: Array<[string, unknown, string]> = [];
  for (const route of ['suggest', 'preview', 'learn', 'wrapper/create', 'wrapper/load', 'adapt']) {
    for (const body of ['null', '[]', '"x"', '42', '[{"key":"p1.html"}]']) cases.push([route, body, 'body']);
  }
  return [
    ...cases,
    ['suggest', { method: 'none', key: 'p1.html', node: '14' }, 'node'],
    ['suggest', { method: 'none', key: 'p1.html', node: 14.5 }, 'node'],
    ['suggest', { method: 'none', key: 'p1.html', node: 1e9 }, 'node'],
    ['suggest', { method: 'none', key: 'p1.html', node: -3 }, 'node'],
    ['suggest', { method: 'none', key: 'p1.html', node: 14, patterns: 'x' }, 'patterns'],
    ['suggest', { method: 'none', key: 'p1.html', node: 14, patterns: [null] }, 'patterns.0'],
    ['suggest', { method: 'none', key: 'p1.html', node: 14, parent: 5 }, 'parent'],
    ['suggest', { method: 5, key: 'p1.html', node: 14 }, 'method'],
    ['suggest', { method: 'none', key: ['p1.html'], node: 14 }, 'key'],
    ['preview', { method: 'none', key: 'p1.html', patterns: 'x' }, 'patterns'],
    ['preview', { method: 'none', key: 'p1.html', patterns: { name: 'x' } }, 'patterns'],
    ['preview', { method: 'none', key: 'p1.html', patterns: [{ ...DRAFT, multiple: 'yes' }] }, 'patterns.0.multiple'],
    ['preview', { method: 'none', key: 'p1.html', patterns: [{ ...DRAFT, selector: 7 }] }, 'patterns.0.selector'],
    ['preview', { method: 'none', key: 5, patterns: [] }, 'key'],
    ['preview', { method: 'none', key: 'p1.html', patterns: [{ ...DRAFT, examples: 'x' }] }, 'patterns.0.examples'],
    ['preview', { method: 'none', key: 'p1.html', patterns: [{ ...DRAFT, examples: [{ key: 'p1.html', nodes: [-1] }] }] }, 'patterns.0.examples.0.nodes.0'],
    ['learn', { name: 'name', examples: [{ key: 'p1.html', nodes: 14 }] }, 'examples.0.nodes'],
    ['learn', { name: 'name', examples: [{ key: 5, nodes: [14] }] }, 'examples.0.key'],
    ['learn', { name: 'name', examples: [null] }, 'examples.0'],
    ['learn', { name: ['name'], examples: [{ key: 'p1.html', nodes: [14] }] }, 'name'],
    ['wrapper/create', { method: 'none', key: 'p1.html', name: 5, patterns: [DRAFT] }, 'name'],
    ['wrapper/create', { method: 'none', key: 'p1.html', name: 'w', patterns: [{ ...DRAFT, parent: 5 }] }, 'patterns.0.parent'],
    ['wrapper/create', { method: 'none', key: 'p1.html', name: 'w', patterns: 'x' }, 'patterns'],
    ['wrapper/load', { text: 5, file: 'w.json' }, 'text'],
    ['wrapper/load', { text: wrapper, file: 5 }, 'file'],
    ['wrapper/load', { text: 'null', file: 'w.json' }, 'w.json'],
    ['wrapper/load', { text: '{"version":1,"patterns":"x"}', file: 'w.json' }, 'patterns'],
    ['adapt', { wrapper: 5, page: PAGE_KEY }, 'wrapper'],
    ['adapt', { wrapper: 'null', page: PAGE_KEY }, 'wrapper'],
    ['adapt', { wrapper, page: 'p1.html' }, 'page'],
    ['adapt', { wrapper, page: null }, 'page'],
    ['adapt', { wrapper, page: [] }, 'page'],
    ['adapt', { wrapper, page: { key: 5, method: 'none' } }, 'page'],
    ['adapt', { wrapper, page: { name: 'up.html', html: 5 } }, 'page'],
    ['adapt', { wrapper, page: { key: 'p1.html', method: 'none', html: 5 } }, 'page'],
  ];
}

test('the API answers bodies of the wrong shape with 400 naming the field, never 500', async () => {
  await withUi(async (ui) => {
    // Requests of the right shape work (the front end's requests).
    const suggestion = await post(ui, 'suggest', { method: 'none', key: 'p1.html', node: 14, parent: null, patterns: [] });
    assert.equal(suggestion.status, 200, suggestion.body);
    assert.equal((await post(ui, 'preview', { method: 'none', key: 'p1.html', patterns: [DRAFT] })).status, 200);
    const learned = await post(ui, 'learn', { name: 'name', multiple: false, examples: [{ key: 'p1.html', nodes: [14] }] });
    assert.equal(learned.status, 200, learned.body);
    const created = await post(ui, 'wrapper/create', { method: 'none', key: 'p1.html', name: 'w', patterns: [DRAFT] });
    assert.equal(created.status, 200, created.body);
    const wrapper = (JSON.parse(created.body) as { text: string }).text;
    assert.equal((await post(ui, 'wrapper/load', { text: wrapper, file: 'w.json' })).status, 200);
    assert.equal((await post(ui, 'adapt', { wrapper, page: PAGE_KEY })).status, 200);
    assert.equal((await post(ui, 'adapt', { wrapper, page: { name: 'up.html', html: PAGE(3) } })).status, 200);

    const problems: string[] = [];
    for (const [route, body, field] of badBodies(wrapper)) {
      const problem = notBadRequest(await post(ui, route, body), field);
      if (problem) problems.push(`POST /api/${route} ${JSON.stringify(body).slice(0, 120)}: ${problem}`);
    }
    assert.deepEqual(problems, []);
  });
});

test('the GET endpoints answer query parameters of the wrong shape with 400 naming the parameter', async () => {
  await withUi(async (ui) => {
    const get = (path: string): Promise<Answer> => raw(ui, path, own(ui, true));
    assert.equal((await get('/api/node?method=none&key=p1.html&node=14')).status, 200);
    const problems: string[] = [];
    for (const [path, field] of [
      ['/api/engine', 'method'],
      ['/api/engine?method=nope', 'nope'],
      ['/api/node?method=none&key=p1.html&node=x', 'node'],
      ['/api/node?method=none&key=p1.html&node=1e99', 'node'],
      ['/api/node?method=none&node=14', 'key'],
      ['/api/node?key=p1.html&node=14', 'method'],
    ] as const) {
      const problem = notBadRequest(await get(path), field);
      if (problem) problems.push(`GET ${path}: ${problem}`);
    }
    assert.deepEqual(problems, []);
  });
});
