/**
 * The document view (match/document.ts): a document moved to another page of its site and rewritten
 * there is found by its words, its title and its site; another site, another title or no address means
 * not found. Hand-written fixtures: a terms document of 12 paragraphs, and its rewrite, where paragraphs
 * are merged three by three and every third word replaced, so that no old paragraph is half of a new one
 * (the content view's floor) while two thirds of the words survive.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHtml } from '../../src/html/parse.ts';
import { registrableDomain } from '../../src/site/links.ts';
import { serveDirectory } from '../../src/site/serve.ts';
import { pageBlocks, WordSpace } from '../../src/wrapper/match/blocks.ts';
import { gramTitle, searchDocument } from '../../src/wrapper/match/document.ts';
import { textWords } from '../../src/wrapper/match/string.ts';
import { createWrapper } from '../../src/wrapper/create.ts';
import { declaredUrl, runWrapper } from '../../src/wrapper/run.ts';
import { makeTreeGram } from '../../src/wrapper/tree-gram.ts';
import { WRAPPER_DEFAULTS } from '../../src/wrapper/defaults.ts';
import { gabarit } from '../cli/gabarit-process.ts';

const VOCABULARY = (
  'account agree service member terms payment renew cancel law court notice content license user data ' +
  'policy rights company provide access use change end breach fee refund period subscription information ' +
  'dispute arbitration party liability warranty damages limit claim jurisdiction consent age eligible ' +
  'profile message report conduct safety remove suspend third links store purchase credit'
).split(' ');

/** 12 paragraphs of 25 words, drawn by a fixed linear congruential sequence. */
function paragraphs(): string[][] {
  let x = 7;
  const out: string[][] = [];
  for (let p = 0; p < 12; p++) {
    const ws: string[] = [];
    for (let k = 0; k < 25; k++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      ws.push(VOCABULARY[x % VOCABULARY.length]!);
    }
    out.push(ws);
  }
  return out;
}

const OLD_PARAGRAPHS = paragraphs();
/** The rewrite: paragraphs merged by three, every third word replaced by a new one. */
const NEW_PARAGRAPHS: string[][] = [];
for (let p = 0; p < 12; p += 3) {
  const merged = [...OLD_PARAGRAPHS[p]!, ...OLD_PARAGRAPHS[p + 1]!, ...OLD_PARAGRAPHS[p + 2]!];
  NEW_PARAGRAPHS.push(merged.map((w, k) => (k % 3 === 2 ? `revised${p * 25 + k}` : w)));
}

const para = (ws: readonly string[]): string => `<p>${ws.join(' ')}.</p>`;

/** The old page: the terms between other documents, built with one page builder. */
const OLD = `<html><head><link rel="canonical" href="https://example.com/legal/"></head><body>
<nav><a href="/">Home</a> <a href="/legal/">Legal</a></nav>
<div id="section_1"><h1>Legal</h1></div>
<div id="section_2" class="av-section"><div class="container"><h2>Terms of Service</h2>${OLD_PARAGRAPHS.map(para).join('')}</div></div>
<div id="section_3" class="av-section"><div class="container"><h2>Copyright Policy</h2><p>We respond to notices of claimed infringement sent to our agent.</p></div></div>
<footer>Example company</footer></body></html>`;

/** The moved page: another builder, the terms rewritten, on another host of the same site. */
function moved(title: string, canonical = 'https://www.example.com/tos', paragraphs: readonly string[][] = NEW_PARAGRAPHS): string {
  return `<html><head><link rel="canonical" href="${canonical}"></head><body>
<div class="framer-a"><div class="framer-b"><header><a href="/">Example</a></header>
<div class="framer-c"><section><h1>${title}</h1>${paragraphs.map((ws) => `<div class="framer-t"><span>${ws.join(' ')}.</span></div>`).join('')}</section></div>
<div class="framer-f">Example company, all rights reserved</div></div></div></body></html>`;
}

function termsWrapper() {
  const t = parseHtml(OLD);
  return createWrapper(t, [{ name: 'terms', selector: '#section_2' }]);
}

test('document view: the moved, rewritten terms are found on the same site by their words and title', () => {
  const w = termsWrapper();
  assert.equal(w.url, 'https://example.com/legal/', 'the wrapper keeps the canonical address of its page');
  assert.equal(w.patterns[0]!.treeGram!.instances[0]!.title, 'Terms of Service');
  const page = parseHtml(moved('Terms of Service'));
  const r = runWrapper(w, page, 'moved.html');
  assert.equal(r.sameSite, true, 'www.example.com is on example.com');
  const rep = r.reports[0]!;
  assert.equal(rep.step, 'document');
  assert.equal(rep.view, 'document');
  // div.framer-c and the section inside it hold the same words: the innermost is taken.
  assert.match(rep.newSelector!, /section$/);
  assert.ok(rep.similarity! >= WRAPPER_DEFAULTS.documentThreshold && rep.similarity! < 0.75, `similarity ${rep.similarity}`);
  const got = textWords(r.record['terms'] as string);
  // The extracted element holds the rewritten document and nothing of the header or footer.
  for (const ws of NEW_PARAGRAPHS) for (const x of ws) assert.ok(got.includes(x));
  assert.ok(!got.includes('example'), 'the header and footer are not part of it');
  // Without the document view the same run cannot adapt: the content view sees no common paragraph.
  const off = runWrapper(w, page, 'moved.html', { settings: { document: false } });
  assert.equal(off.reports[0]!.step, 'not-found');
});

test('document view: another site, another title, or no address: not found', () => {
  const w = termsWrapper();
  // Another site (the page's own canonical says where it is).
  const elsewhere = runWrapper(w, parseHtml(moved('Terms of Service', 'https://other-example.org/tos')), 'x.html');
  assert.equal(elsewhere.sameSite, false);
  assert.equal(elsewhere.reports[0]!.step, 'not-found');
  assert.equal(elsewhere.reports[0]!.documentSimilarity, undefined, 'the document view does not even run');
  // The URL given to the run wins over the page's canonical link.
  const told = runWrapper(w, parseHtml(moved('Terms of Service', 'https://other-example.org/tos')), 'x.html', { url: 'https://example.com/terms' });
  assert.equal(told.reports[0]!.step, 'document');
  // Same site, same words, but another document's title: refused, although the words are close enough.
  const privacy = runWrapper(w, parseHtml(moved('Privacy Policy')), 'p.html');
  assert.equal(privacy.reports[0]!.step, 'not-found');
  assert.ok(privacy.reports[0]!.documentSimilarity! >= WRAPPER_DEFAULTS.documentThreshold, 'it is the title that refused it');
  // No address at all: not on the site.
  const bare = moved('Terms of Service').replace(/<link[^>]*>/, '');
  assert.equal(runWrapper(w, parseHtml(bare), 'bare.html').reports[0]!.step, 'not-found');
  // A wrapper without an address of its own never uses the view.
  const { url: _url, ...anonymous } = w;
  assert.equal(runWrapper(anonymous, parseHtml(moved('Terms of Service')), 'm.html').reports[0]!.step, 'not-found');
});

test('document view: the threshold holds (a document that kept less of its words is not found)', () => {
  const w = termsWrapper();
  // Every other word of the rewrite replaced as well: a third of the old words are left.
  const half = moved('Terms of Service', undefined, NEW_PARAGRAPHS.map((ws) => ws.map((x, k) => (k % 2 === 1 ? `gone${k}` : x))));
  const r = runWrapper(w, parseHtml(half), 'half.html');
  assert.equal(r.reports[0]!.step, 'not-found');
  assert.ok(r.reports[0]!.documentSimilarity! < WRAPPER_DEFAULTS.documentThreshold);
});

test('document view: the word-count bound prunes, the title comes from the stored gram or its nodes', () => {
  const t = parseHtml(OLD);
  const inst = makeTreeGram(t, [findId(t, 'section_2')], 1).instances[0]!;
  const { title: _t, ...older } = inst;
  assert.deepEqual(gramTitle(older), ['terms', 'of', 'service'], 'rebuilt from the stored nodes');
  assert.deepEqual(gramTitle(inst), ['terms', 'of', 'service']);
  const space = new WordSpace();
  const words = Int32Array.from(OLD_PARAGRAPHS.flat().map((x) => space.id(x)));
  const page = parseHtml(moved('Terms of Service'));
  const blocks = pageBlocks(page, 0, space, new WordSpace());
  const blockNode = Int32Array.from(blocks, (b) => b.node);
  const r = searchDocument(page, 0, blocks, blockNode, words, ['terms', 'of', 'service'], space.size(), WRAPPER_DEFAULTS.documentThreshold, undefined, undefined);
  assert.ok(r.found);
  assert.ok(r.pruned > 0 && r.compared < 8, `compared ${r.compared}, pruned ${r.pruned}`);
});

function findId(t: ReturnType<typeof parseHtml>, id: string): number {
  for (let i = 0; i < t.size; i++) if (t.attr(i, 'id') === id) return i;
  return -1;
}

test('site of an address: registrable domain, host for IPs and localhost; the page declares its own address', () => {
  assert.equal(registrableDomain('https://ww.coffeemeetsbagel.com/tos'), 'coffeemeetsbagel.com');
  assert.equal(registrableDomain('https://coffeemeetsbagel.com/privacy-terms/'), 'coffeemeetsbagel.com');
  assert.equal(registrableDomain('https://news.bbc.co.uk/a'), 'bbc.co.uk');
  assert.equal(registrableDomain('http://127.0.0.1:8080/x'), '127.0.0.1');
  assert.equal(registrableDomain('http://localhost:3000/'), 'localhost');
  assert.equal(registrableDomain('file:///tmp/x.html'), null);
  assert.equal(registrableDomain('not a url'), null);
  assert.equal(declaredUrl(parseHtml('<html><head><meta property="og:url" content="https://a.example.com/x"></head><body></body></html>')), 'https://a.example.com/x');
  assert.equal(declaredUrl(parseHtml('<html><head><link rel="canonical" href="/relative"></head><body></body></html>')), undefined);
});



test('CLI: wrapper create --url and wrapper run --url put the document view to work, --no-document turns it off', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-document-'));
  try {
    const old = join(dir, 'old.html');
    const page = join(dir, 'moved.html');
    await writeFile(old, OLD.replace(/<link[^>]*>/, ''));
    await writeFile(page, moved('Terms of Service').replace(/<link[^>]*>/, ''));
    const w = join(dir, 'w.json');
    const created = await gabarit(['wrapper', 'create', old, '--url', 'https://example.com/legal/', '--pattern', 'terms=#section_2', '--out', w]);
    assert.equal(created.code, 0, created.stderr);
    const unknown = await gabarit(['wrapper', 'run', w, page]);
    assert.equal(unknown.code, 1, 'a page of unknown address is not on the site');
    const ran = await gabarit(['wrapper', 'run', w, page, '--url', 'https://www.example.com/tos']);
    assert.equal(ran.code, 0, ran.stderr);
    const line = JSON.parse(ran.stdout) as { steps: Record<string, { step: string; view: string }> };
    assert.equal(line.steps['terms']!.step, 'document');
    assert.match(ran.stderr, /adapted by document \(same site, same title\)/);
    const off = await gabarit(['wrapper', 'run', w, page, '--url', 'https://www.example.com/tos', '--no-document']);
    assert.equal(off.code, 1);
    const two = await gabarit(['wrapper', 'run', w, page, old, '--url', 'https://www.example.com/tos']);
    assert.equal(two.code, 2, two.stderr);
    const bad = await gabarit(['wrapper', 'run', w, page, '--url', 'ftp://example.com/']);
    assert.equal(bad.code, 2);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('CLI: pages given as URLs are fetched politely, their address is where they were fetched from', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-document-http-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  // No canonical links: the pages' addresses come from the server they are fetched from.
  await writeFile(join(dir, 'old.html'), OLD.replace(/<link[^>]*>/, ''));
  await writeFile(join(dir, 'moved.html'), moved('Terms of Service').replace(/<link[^>]*>/, ''));
  await writeFile(join(dir, 'robots.txt'), 'User-agent: *\nDisallow: /private/\n');
  const served = await serveDirectory(dir, { port: 0 });
  t.after(() => served.close());
  const w = join(dir, 'w.json');
  const created = await gabarit(['wrapper', 'create', `${served.url}old.html`, '--delay', '0', '--pattern', 'terms=#section_2', '--out', w]);
  assert.equal(created.code, 0, created.stderr);
  assert.equal((JSON.parse(await readFile(w, 'utf8')) as { url: string }).url, `${served.url}old.html`);
  const ran = await gabarit(['wrapper', 'run', w, `${served.url}moved.html`, `${served.url}gone.html`, `${served.url}private/x.html`, '--delay', '0']);
  assert.equal(ran.code, 0, 'the pages read were all wrapped; the unreadable ones are named');
  const line = JSON.parse(ran.stdout.trim().split('\n')[0]!) as { steps: Record<string, { step: string }> };
  assert.equal(line.steps['terms']!.step, 'document', 'the same host: the same site');
  assert.match(ran.stderr, new RegExp(`${served.url}gone\\.html: .*404`));
  assert.match(ran.stderr, new RegExp(`${served.url}private/x\\.html: .*robots`));
  const missing = await gabarit(['wrapper', 'create', `${served.url}gone.html`, '--delay', '0', '--pattern', 'terms=#section_2']);
  assert.equal(missing.code, 1, missing.stderr);
});
