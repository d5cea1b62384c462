/**
 * `gabarit wrapper create|run` through the command line (a child process): lists given by example (several
 * values of one name, or one value of `name[]`) become the items of their list with no position in the
 * selector; an adapted list keeps to the list it matched; an adapted pattern is not a violation (records,
 * stderr and the UI's API); local pages get the checks of every source (size cap, empty, binary) and may be
 * a directory, a glob or a WARC file; a selector list of thousands of alternatives runs or is refused
 * cleanly; and every option of both commands is used at least once with an effect checked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gabarit, ROOT } from './gabarit-process.ts';
import { parseHtml } from '../../src/html/parse.ts';
import { selectAll } from '../../src/html/select.ts';
import { textOf } from '../../src/html/text.ts';
import { writeWarc } from '../../src/site/warc-source.ts';
import { cookieName } from '../../src/ui/security.ts';
import { startUi } from '../../src/ui/server.ts';

const SHOP = join(ROOT, 'examples', 'site', 'shop');
const ORIGINAL = join(SHOP, 'cairn-45-backpack.html');
const REDESIGNED_DIR = join(ROOT, 'examples', 'wrapper', 'redesigned');
const REDESIGNED = join(REDESIGNED_DIR, 'cairn-45-backpack.html');

interface Line {
  page: string;
  record: Record<string, unknown>;
  steps: Record<string, { step: string; violations?: string[]; cause?: string[]; selector?: string; view?: string }>;
}

function lines(text: string): Line[] {
  return text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
}

/** The texts of the elements a selector matches in a page file (what a list pattern should give there). */
async function textsIn(file: string, selector: string): Promise<string[]> {
  const tree = parseHtml(await readFile(file, 'utf8'));
  return selectAll(tree, selector).map((n) => textOf(tree, n));
}

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-wrapper-cli-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function wrapperFile(path: string): Promise<{ name?: string; url?: string; adaptation?: Record<string, unknown>; patterns: Array<{ name: string; selector: string; multiple?: boolean }>; history?: unknown[] }> {
  return JSON.parse(await readFile(path, 'utf8'));
}

/** Product pages of the demo shop (the pages with a features list). */
async function productPages(): Promise<string[]> {
  const out: string[] = [];
  for (const f of (await readdir(SHOP)).sort()) if (f.endsWith('.html') && (await textsIn(join(SHOP, f), 'ul.features > li')).length > 0) out.push(join(SHOP, f));
  return out;
}

test('wrapper create: two examples of one name are a list of every item of their list', async (t) => {
  const dir = await tempDir(t);
  const w = join(dir, 'w.json');
  const created = await gabarit(['wrapper', 'create', ORIGINAL, '--example', 'features=Adjustable back length', '--example', 'features=Stretch front pocket', '-o', w]);
  assert.equal(created.code, 0, created.stderr);
  const p = (await wrapperFile(w)).patterns[0]!;
  assert.equal(p.multiple, true);
  const ran = await gabarit(['wrapper', 'run', w, ORIGINAL]);
  assert.equal(ran.code, 0, ran.stderr);
  assert.deepEqual(lines(ran.stdout)[0]!.record['features'], await textsIn(ORIGINAL, 'ul.features > li'), 'the example items and their sibling');
  // Values that are items of two different lists: no one selector gives them, and the message says so.
  const apart = await gabarit(['wrapper', 'create', ORIGINAL, '--example', 'features=Adjustable back length', '--example', 'features=Journal']);
  assert.equal(apart.code, 2);
  assert.match(apart.stderr, /no pattern extracts the example values of "features": they are on the page/);
});

test('wrapper create: one example of a list generalises to the items of its list, with no position', async (t) => {
  const dir = await tempDir(t);
  const w = join(dir, 'w.json');
  const created = await gabarit(['wrapper', 'create', ORIGINAL, '--example', 'features[]=Adjustable back length', '-o', w]);
  assert.equal(created.code, 0, created.stderr);
  const { selector } = (await wrapperFile(w)).patterns[0]!;
  assert.doesNotMatch(selector, /\[\d+\]|nth-of-type|^\//, `a relative selector without a position: ${selector}`);
  const pages = await productPages();
  const ran = await gabarit(['wrapper', 'run', w, ...pages]);
  assert.equal(ran.code, 0, ran.stderr);
  const got = lines(ran.stdout);
  assert.equal(got.length, pages.length);
  for (let k = 0; k < pages.length; k++) assert.deepEqual(got[k]!.record['features'], await textsIn(pages[k]!, 'ul.features > li'), pages[k]);
});

test('wrapper run: an adapted list takes the items of the list it matched, not look-alikes elsewhere', async (t) => {
  const dir = await tempDir(t);
  const w = join(dir, 'w.json');
  assert.equal((await gabarit(['wrapper', 'create', ORIGINAL, '--pattern', 'features[]=ul.features > li', '-o', w])).code, 0);
  const products = (await readdir(REDESIGNED_DIR)).filter((f) => f !== 'privacy.html').map((f) => join(REDESIGNED_DIR, f));
  const ran = await gabarit(['wrapper', 'run', w, ...products]);
  assert.equal(ran.code, 0, ran.stderr);
  const got = lines(ran.stdout);
  for (let k = 0; k < products.length; k++) {
    const want = await textsIn(products[k]!, 'ul.highlights > li');
    assert.ok(want.length > 0);
    assert.deepEqual(got[k]!.record['features'], want, `${products[k]}: the redesign's features, and the breadcrumb's last item is not one`);
    assert.equal(got[k]!.steps['features']!.selector, 'ul.highlights > li');
  }
});

test('an adapted pattern that found its value is not reported as a violation (records, stderr, UI API)', async (t) => {
  const dir = await tempDir(t);
  const w = join(dir, 'w.json');
  assert.equal((await gabarit(['wrapper', 'create', ORIGINAL, '--pattern', 'product=article.product', '--pattern', 'product/name=h1', '-o', w])).code, 0);
  const other = join(dir, 'other.html');
  await writeFile(other, '<html><body><p>nothing here</p></body></html>');
  const out = join(dir, 'out');
  const ran = await gabarit(['wrapper', 'run', w, REDESIGNED, other, '-o', out]);
  assert.equal(ran.code, 1, 'the other page has no product');
  const [adapted, missing] = lines(await readFile(join(out, 'records.jsonl'), 'utf8'));
  assert.equal(adapted!.steps['product']!.step, 'ctm');
  assert.equal(adapted!.steps['product']!.violations, undefined, 'no violation: the adapted product holds its constraints');
  assert.deepEqual(adapted!.steps['product']!.cause, ['no instance found'], 'what started the adaptation is said apart');
  assert.equal(missing!.steps['product']!.step, 'not-found');
  assert.deepEqual(missing!.steps['product']!.violations, ['no instance found']);
  const redesignLines = ran.stderr.split('\n').filter((l) => l.includes('redesigned/cairn-45-backpack.html'));
  assert.ok(redesignLines.some((l) => /pattern "product" adapted by ctm, similarity .*\(the selector: no instance found\)$/.test(l)), ran.stderr);
  assert.ok(!redesignLines.some((l) => /not found \(/.test(l)), ran.stderr);
  const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { pagesIncomplete: number };
  assert.equal(summary.pagesIncomplete, 1);

  // The UI's adaptation view gets the same distinction from its API.
  const ui = await startUi(join(ROOT, 'examples', 'site'), { port: 0 });
  t.after(() => ui.close());
  const body = JSON.stringify({ wrapper: await readFile(w, 'utf8'), page: { name: 'redesigned.html', html: await readFile(REDESIGNED, 'utf8') } });
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: ui.port,
        path: '/api/adapt',
        method: 'POST',
        headers: { host: `127.0.0.1:${ui.port}`, cookie: `${cookieName(ui.port)}=${ui.token}`, 'x-gabarit-token': ui.token, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  assert.equal(answer.status, 200, answer.body);
  const product = (JSON.parse(answer.body) as { reports: Array<{ pattern: string; step: string; violations: string[]; cause: string[] }> }).reports.find((r) => r.pattern === 'product')!;
  assert.equal(product.step, 'ctm');
  assert.deepEqual(product.violations, []);
  assert.deepEqual(product.cause, ['no instance found']);
});

test('wrapper create and run: local pages get the checks of every source (size cap, empty, binary, NUL bytes)', async (t) => {
  const dir = await tempDir(t);
  const empty = join(dir, 'empty.html');
  const blank = join(dir, 'blank.html');
  const binary = join(dir, 'binary.html');
  const nul = join(dir, 'nul.html');
  const good = join(dir, 'good.html');
  await writeFile(empty, '');
  await writeFile(blank, ' \n\t\n');
  await writeFile(binary, Buffer.from(Array.from({ length: 2000 }, (_, k) => (k * 37) % 256)));
  await writeFile(nul, '<html><body><h1>A\u0000B</h1></body></html>');
  await copyFile(ORIGINAL, good);
  const size = (await readFile(good)).length;
  const expect: Array<[string, RegExp]> = [
    [empty, /empty \(0 bytes\)/],
    [blank, /blank page/],
    [binary, /binary content, not a page/],
    [nul, /binary content, not a page/],
  ];
  for (const [page, message] of expect) {
    const r = await gabarit(['wrapper', 'create', page, '--pattern', 'title=h1']);
    assert.equal(r.code, 1, `${page}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`^gabarit: ${page.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ${message.source}`, 'm'));
    assert.equal(r.stdout, '', 'no wrapper written');
  }
  const big = await gabarit(['wrapper', 'create', good, '--pattern', 'title=h1', '--max-bytes', String(size - 1)]);
  assert.equal(big.code, 1);
  assert.match(big.stderr, new RegExp(`too large: ${size} bytes exceeds the cap of ${size - 1} bytes`));

  const w = join(dir, 'w.json');
  assert.equal((await gabarit(['wrapper', 'create', good, '--pattern', 'title=h1', '--max-bytes', String(size), '-o', w])).code, 0);
  const out = join(dir, 'out');
  const ran = await gabarit(['wrapper', 'run', w, empty, blank, binary, nul, good, '-o', out]);
  assert.equal(ran.code, 0, 'the page that could be read was wrapped; the others are named');
  for (const [page, message] of expect) assert.match(ran.stderr, new RegExp(`${page.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ${message.source}`));
  assert.equal(lines(await readFile(join(out, 'records.jsonl'), 'utf8')).length, 1);
  const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { pagesDone: number; pagesFailed: number; failures: Array<{ code: string }> };
  assert.equal(summary.pagesDone, 1);
  assert.deepEqual(summary.failures.map((f) => f.code), ['empty', 'empty', 'binary', 'binary']);
  const capped = await gabarit(['wrapper', 'run', w, good, '--max-bytes', String(size - 1)]);
  assert.equal(capped.code, 1, 'no page could be read');
  assert.match(capped.stderr, /too large/);
  assert.match(capped.stderr, /no page could be read/);
});

test('a selector list of 10,000 alternatives runs without recursion; one that cannot be run is a usage error', async (t) => {
  const dir = await tempDir(t);
  const w = join(dir, 'w.json');
  const list = Array.from({ length: 10_000 }, () => 'a').join(',');
  const created = await gabarit(['wrapper', 'create', ORIGINAL, '--pattern', `links[]=${list}`, '-o', w]);
  assert.equal(created.code, 0, created.stderr.slice(0, 500));
  const ran = await gabarit(['wrapper', 'run', w, ORIGINAL]);
  assert.equal(ran.code, 0, ran.stderr.slice(0, 500));
  assert.deepEqual(lines(ran.stdout)[0]!.record['links'], await textsIn(ORIGINAL, 'a'));
  // Thousands of alternatives inside :is() nest css-select's closures: refused with one line, exit 2.
  const nested = `:is(${list})`;
  const refused = await gabarit(['wrapper', 'create', ORIGINAL, '--pattern', `links[]=${nested}`]);
  assert.equal(refused.code, 2);
  assert.doesNotMatch(refused.stderr, /\n\s+at /, 'no stack trace');
  const said = refused.stderr.trim().split('\n');
  assert.match(said[0]!, /pattern "links": CSS selector ":is\(a,a.*cannot be run: it is nested too deeply$/);
  assert.ok(said[0]!.length < 400, 'the selector is shortened');
  // A wrapper file holding such a selector: the same refusal at run.
  const file = await wrapperFile(w);
  file.patterns[0]!.selector = nested;
  await writeFile(w, JSON.stringify(file));
  const bad = await gabarit(['wrapper', 'run', w, ORIGINAL]);
  assert.equal(bad.code, 2);
  assert.doesNotMatch(bad.stderr, /\n\s+at /);
});

test('wrapper run takes a directory, a glob and a WARC file: one result per page, summary.json', async (t) => {
  const dir = await tempDir(t);
  const w = join(dir, 'w.json');
  assert.equal((await gabarit(['wrapper', 'create', ORIGINAL, '--pattern', 'title=h1', '-o', w])).code, 0);
  const pages = (await readdir(SHOP)).filter((f) => f.endsWith('.html')).sort();
  const out = join(dir, 'out');
  const ran = await gabarit(['wrapper', 'run', w, SHOP, '-o', out]);
  assert.equal(ran.code, 0, ran.stderr);
  const got = lines(await readFile(join(out, 'records.jsonl'), 'utf8'));
  assert.deepEqual(got.map((l) => l.page), pages.map((f) => join('examples', 'site', 'shop', f)), 'one line per page, named by its path');
  for (const l of got) assert.deepEqual(l.record['title'], (await textsIn(join(ROOT, l.page), 'h1'))[0]);
  const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { source: string; pagesDone: number; pagesFailed: number };
  assert.equal(summary.pagesDone, pages.length);
  assert.equal(summary.pagesFailed, 0);
  // A quoted glob is expanded by gabarit.
  const glob = await gabarit(['wrapper', 'run', w, join(SHOP, 'c*.html')]);
  assert.equal(glob.code, 0, glob.stderr);
  assert.deepEqual(lines(glob.stdout).map((l) => l.page), pages.filter((f) => f.startsWith('c')).map((f) => join('examples', 'site', 'shop', f)));
  // A WARC file: its pages are named by their URL, which is their address.
  const warc = join(dir, 'shop.warc.gz');
  await writeWarc(
    await Promise.all(['cairn-45-backpack.html', 'trail-cook-set.html'].map(async (f) => ({ key: `shop/${f}`, body: await readFile(join(SHOP, f)) }))),
    warc,
    { baseUrl: 'https://shop.example/' },
  );
  const fromWarc = await gabarit(['wrapper', 'run', w, warc]);
  assert.equal(fromWarc.code, 0, fromWarc.stderr);
  assert.deepEqual(lines(fromWarc.stdout).map((l) => l.page), ['https://shop.example/shop/cairn-45-backpack.html', 'https://shop.example/shop/trail-cook-set.html']);
  // What matches nothing is a usage error, before any page is read.
  const none = await gabarit(['wrapper', 'run', w, join(dir, 'nothing-*.html')]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /no file or directory matches/);
  // create reads one page.
  const onDir = await gabarit(['wrapper', 'create', SHOP, '--pattern', 'title=h1']);
  assert.equal(onDir.code, 2);
  assert.match(onDir.stderr, /give one page/);
});

test('wrapper create: the adaptation settings, the name and the address go into the wrapper file', async (t) => {
  const dir = await tempDir(t);
  const w = join(dir, 'w.json');
  const r = await gabarit([
    'wrapper', 'create', ORIGINAL, '--pattern', 'product=article.product', '--example', 'name=Cairn 45 Backpack',
    '--name', 'shop', '--threshold', '0.8', '--algorithms', 'stm,ctm', '--labels', 'tag,class', '--content-threshold', '0.4', '--no-content',
    '--document-threshold', '0.6', '--no-document', '--url', 'https://shop.example/p/cairn', '--out', w,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const file = await wrapperFile(w);
  assert.equal(file.name, 'shop');
  assert.equal(file.url, 'https://shop.example/p/cairn');
  assert.deepEqual(file.adaptation, { threshold: 0.8, algorithms: ['stm', 'ctm'], labels: { tag: true, id: false, class: true }, contentThreshold: 0.4, content: false, documentThreshold: 0.6, document: false });
  assert.deepEqual(file.patterns.map((p) => p.name), ['product', 'name']);
  // Run uses the wrapper's settings: with classes in the labels, the renamed product class is another element.
  const ran = await gabarit(['wrapper', 'run', w, REDESIGNED]);
  assert.equal(lines(ran.stdout)[0]!.steps['product']!.step, 'not-found', ran.stderr);
  // Without them, the wrapper's first algorithm finds it.
  const w2 = join(dir, 'w2.json');
  assert.equal((await gabarit(['wrapper', 'create', ORIGINAL, '--pattern', 'product=article.product', '--algorithms', 'stm,ctm', '--out', w2])).code, 0);
  assert.equal(lines((await gabarit(['wrapper', 'run', w2, REDESIGNED])).stdout)[0]!.steps['product']!.step, 'stm');
  const badThreshold = await gabarit(['wrapper', 'create', ORIGINAL, '--pattern', 'title=h1', '--threshold', '1.5']);
  assert.equal(badThreshold.code, 2);
});

test('wrapper create and run over HTTP: --user-agent, --delay, --timeout and --max-bytes', async (t) => {
  const dir = await tempDir(t);
  const html = await readFile(ORIGINAL);
  const seen: Array<{ path: string; ua: string; at: number }> = [];
  const server = createServer((req: IncomingMessage, res) => {
    seen.push({ path: req.url ?? '', ua: String(req.headers['user-agent'] ?? ''), at: performance.now() });
    if (req.url === '/robots.txt') {
      res.writeHead(404).end();
    } else if (req.url === '/slow.html') {
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(html), 3000);
    } else res.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const w = join(dir, 'w.json');
  const created = await gabarit(['wrapper', 'create', `${base}/a.html`, '--pattern', 'title=h1', '--user-agent', 'wrapper-test/1.0', '--delay', '0', '--timeout', '5000', '--max-bytes', String(html.length), '-o', w]);
  assert.equal(created.code, 0, created.stderr);
  assert.ok(seen.some((s) => s.path === '/a.html' && s.ua === 'wrapper-test/1.0'), JSON.stringify(seen));
  assert.equal((await wrapperFile(w)).url, `${base}/a.html`, 'the address it was fetched from');
  seen.length = 0;
  const ran = await gabarit(['wrapper', 'run', w, `${base}/b.html`, `${base}/c.html`, `${base}/slow.html`, '--delay', '600', '--timeout', '1000', '--user-agent', 'wrapper-test/2.0', '--max-bytes', String(html.length)]);
  assert.equal(ran.code, 0, ran.stderr);
  const b = seen.find((s) => s.path === '/b.html')!;
  const c = seen.find((s) => s.path === '/c.html')!;
  assert.ok(c.at - b.at >= 550, `--delay between two requests to one host (${Math.round(c.at - b.at)} ms)`);
  assert.ok(seen.every((s) => s.ua === 'wrapper-test/2.0'));
  assert.equal(lines(ran.stdout).length, 2);
  assert.match(ran.stderr, /slow\.html: .*(time|timed)/i, 'the slow page is named, over its --timeout');
  const capped = await gabarit(['wrapper', 'run', w, `${base}/b.html`, '--delay', '0', '--max-bytes', String(html.length - 1)]);
  assert.equal(capped.code, 1);
  assert.match(capped.stderr, /b\.html: .*too large/);
});

test('wrapper run: the settings of a run override the wrapper\'s; --url, -o and --update', async (t) => {
  const dir = await tempDir(t);
  const w = join(dir, 'w.json');
  assert.equal((await gabarit(['wrapper', 'create', ORIGINAL, '--pattern', 'product=article.product', '-o', w])).code, 0);
  const step = async (args: string[]): Promise<{ code: number | null; step: string }> => {
    const r = await gabarit(args);
    return { code: r.code, step: lines(r.stdout)[0]!.steps['product']!.step };
  };
  assert.deepEqual(await step(['wrapper', 'run', w, REDESIGNED]), { code: 0, step: 'ctm' });
  assert.deepEqual(await step(['wrapper', 'run', w, REDESIGNED, '--algorithms', 'stm']), { code: 0, step: 'stm' });
  assert.deepEqual(await step(['wrapper', 'run', w, REDESIGNED, '--threshold', '1', '--algorithms', 'ctm', '--no-content']), { code: 1, step: 'not-found' }, 'the redesign is not identical');

  // The content view: a policy moved to a new CMS, its first paragraph rewritten there.
  const policy = join(dir, 'policy.json');
  assert.equal((await gabarit(['wrapper', 'create', join(ROOT, 'examples', 'site', 'privacy.html'), '--pattern', 'policy=main#content', '-o', policy])).code, 0);
  const moved = join(dir, 'privacy.html');
  await writeFile(moved, (await readFile(join(REDESIGNED_DIR, 'privacy.html'), 'utf8')).replace(/<p>[^<]*<\/p>/, '<p>Something else entirely was written here instead.</p>'));
  const viewOf = async (args: string[]): Promise<{ step: string; view?: string }> => lines((await gabarit(args)).stdout)[0]!.steps['policy']!;
  const found = await viewOf(['wrapper', 'run', policy, moved]);
  assert.equal(found.view, 'content');
  const similarity = (found as { similarity?: number }).similarity!;
  assert.ok(similarity < 0.95);
  assert.equal((await viewOf(['wrapper', 'run', policy, moved, '--content-threshold', '0.95'])).step, 'not-found', `the content view found it at ${similarity}, under the threshold given`);
  assert.equal((await viewOf(['wrapper', 'run', policy, moved, '--no-content'])).step, 'not-found');

  // The document view: terms moved to another page of the site; the address given with --url.
  const terms = join(dir, 'terms.html');
  await writeFile(terms, (await readFile(join(ROOT, 'examples', 'wrapper', 'moved', 'terms.html'), 'utf8')).replace(/<link rel="canonical"[^>]*>/, ''));
  const termsWrapper = join(ROOT, 'examples', 'wrapper', 'terms.wrapper.json');
  const termsStep = async (args: string[]): Promise<string> => lines((await gabarit(args)).stdout)[0]!.steps['terms']!.step;
  assert.equal(await termsStep(['wrapper', 'run', termsWrapper, terms]), 'not-found', 'a page of unknown address');
  assert.equal(await termsStep(['wrapper', 'run', termsWrapper, terms, '--url', 'https://www.cairn-outdoor.example/terms']), 'document');
  assert.equal(await termsStep(['wrapper', 'run', termsWrapper, terms, '--url', 'https://www.cairn-outdoor.example/terms', '--document-threshold', '1']), 'not-found');
  assert.equal(await termsStep(['wrapper', 'run', termsWrapper, terms, '--url', 'https://www.cairn-outdoor.example/terms', '--no-document']), 'not-found');

  // -o writes records and summary; --update FILE writes the adapted wrapper there, bare --update in place.
  const out = join(dir, 'out');
  const updated = join(dir, 'updated.json');
  const u = await gabarit(['wrapper', 'run', w, REDESIGNED, '-o', out, '--update', updated]);
  assert.equal(u.code, 0, u.stderr);
  assert.equal(lines(await readFile(join(out, 'records.jsonl'), 'utf8')).length, 1);
  assert.equal((JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { command: string }).command, 'wrapper run');
  assert.equal((await wrapperFile(updated)).history?.length, 1);
  assert.equal((await wrapperFile(w)).history, undefined, 'the wrapper itself is left alone');
  await mkdir(join(dir, 'inplace'));
  const inplace = join(dir, 'inplace', 'w.json');
  await copyFile(w, inplace);
  assert.equal((await gabarit(['wrapper', 'run', inplace, REDESIGNED, '--update'])).code, 0);
  const again = await wrapperFile(inplace);
  assert.equal(again.history?.length, 1);
  assert.notEqual(again.patterns[0]!.selector, 'article.product');
});
