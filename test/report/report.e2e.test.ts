/**
 * The HTML report opened in Debian's chromium through playwright-core (file://, offline): the overlay is
 * there (template parts greyed, main content outlined), the chart and the figures per engine too; the
 * report of examples/site made by `gabarit report` loads with no console error, sorts its page table and
 * opens a page's preview, styled by the site's stylesheet, on a click. Screenshots of the report and of a
 * preview are saved to out/test/report.png and report-page.png. Skips with a message when
 * /usr/bin/chromium is absent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile, mkdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { report, writeReport } from '../../src/run/report.ts';
import { renderReport } from '../../src/report/html-report.ts';
import { gabarit, ROOT } from '../cli/gabarit-process.ts';

const CHROMIUM = '/usr/bin/chromium';
/** Where the screenshot of the report is saved (out/test/report.png under the repository). */
const SHOT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'out', 'test');
const LAUNCH_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** Four pages of one template (header menu, footer) around different stories; no links between them. */
function page(i: number): string {
  const words = ['alpha', 'bravo', 'charlie', 'delta'][i]!;
  return `<!DOCTYPE html><html><head><title>Story ${i}</title></head><body>
<header><nav><a href="https://example.org/">Home</a> <a href="https://example.org/news">News</a> <a href="https://example.org/about">About</a></nav></header>
<main><h1>Story ${i}: ${words}</h1><p>This is the body of story ${words}, long enough to be the main content of the page number ${i}.</p>
<p>More text about ${words} follows, again with enough words to count as content of page ${i}.</p></main>
<footer><p>Copyright the example site. All rights reserved.</p></footer></body></html>`;
}

async function makeReport(dir: string): Promise<string> {
  const pages = join(dir, 'pages');
  await mkdir(pages, { recursive: true });
  for (let i = 0; i < 4; i++) await writeFile(join(pages, `p${i}.html`), page(i));
  const data = await report(pages, { method: 'align', otherEngines: false });
  return writeReport(data, join(dir, 'report'));
}

test('report data: every page, template fraction, one main block each', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-report-'));
  try {
    const pages = join(dir, 'pages');
    await mkdir(pages);
    for (let i = 0; i < 4; i++) await writeFile(join(pages, `p${i}.html`), page(i));
    const data = await report(pages, { method: 'align', otherEngines: false });
    assert.equal(data.pages.length, 4);
    assert.equal(data.method, 'align');
    for (const p of data.pages) {
      assert.ok(p.templateFraction > 0 && p.templateFraction < 1, `${p.key}: template fraction ${p.templateFraction}`);
      const preview = data.previews.find((v) => v.file === p.preview)?.html ?? '';
      assert.match(preview, /data-gabarit="template"/);
      assert.match(preview, /data-gabarit="content"/);
      assert.match(p.contentText ?? '', /body of story/);
      assert.doesNotMatch(p.contentText ?? '', /Copyright/);
    }
    const html = renderReport(data);
    assert.doesNotMatch(html, /<script src|https?:\/\/(?!example\.org)[^"]*\.(js|css)/, 'no script file, no CDN');
    assert.equal(html.match(/<script>/g)?.length, 1, 'one inline script, the report\'s own');
    assert.match(html, /<svg class="chart"/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('report: the template and main content shares of a page never add up to more than 100%', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-report-'));
  try {
    const pages = join(dir, 'pages');
    await mkdir(pages);
    // A long inline script in the shared header: characters that are no page text, and long-word menu items.
    const script = `<script>var analytics = ${JSON.stringify('x'.repeat(3000))};</script>`;
    for (let i = 0; i < 4; i++) await writeFile(join(pages, `p${i}.html`), page(i).replace('<header>', `<header>${script}`));
    const data = await report(pages, { method: 'align', otherEngines: false });
    assert.equal(data.pages.length, 4);
    for (const p of data.pages) {
      assert.ok(p.templateFraction + p.contentFraction <= 1 + 1e-9, `${p.key}: ${p.templateFraction} template + ${p.contentFraction} content`);
      assert.ok(p.templateFraction > 0 && p.contentFraction > 0, `${p.key}: both shares measured`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

const SKIP_CHROMIUM = existsSync(CHROMIUM) ? false : `${CHROMIUM} absent: install Debian's chromium (apt-get install -y chromium) to run the report browser test`;

test('report in chromium: a click on a page opens its preview, with the overlay', { skip: SKIP_CHROMIUM }, async () => {
  const { chromium } = await import('playwright-core');
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-report-'));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
  try {
    const file = await makeReport(dir);
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(pathToFileURL(file).href);
    assert.equal(await page.locator('svg.chart rect').count() > 0, true, 'chart drawn');
    await page.locator('a.open', { hasText: 'p0.html' }).click();
    const frame = page.frameLocator('#preview iframe');
    const tpl = frame.locator('[data-gabarit="template"]').first();
    await tpl.waitFor({ state: 'attached', timeout: 10_000 });
    const opacity = await tpl.evaluate((el) => getComputedStyle(el).opacity);
    assert.ok(Number(opacity) < 1, `template part greyed (opacity ${opacity})`);
    const content = frame.locator('[data-gabarit="content"]').first();
    const outline = await content.evaluate((el) => getComputedStyle(el).outlineStyle);
    assert.equal(outline, 'solid', 'main content outlined');
    assert.match(await content.innerText(), /Story 0: alpha/);
  } finally {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('gabarit report on the demo site in chromium: no console error, previews styled by the site, loaded on a click, page table sorted by a click', { skip: SKIP_CHROMIUM }, async (t) => {
  const { chromium } = await import('playwright-core');
  const out = await mkdtemp(join(tmpdir(), 'gabarit-report-'));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
  try {
    const r = await gabarit(['report', join(ROOT, 'examples', 'site'), '--out', out, '--no-other-engines']);
    assert.equal(r.code, 0, r.stderr);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(join(out, 'index.html')).href);
    // The report is the table, not every page at once: no preview before a click.
    assert.equal(await page.locator('iframe').count(), 0, 'no preview loaded before a click');
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    assert.ok(height < 5000, `report ${height} px high`);
    // Sort by the template fraction: ascending, then descending.
    const values = (): Promise<number[]> => page.locator('#pages tbody tr td:nth-child(2)').evaluateAll((tds) => tds.map((td) => Number((td as HTMLElement).dataset['v'])));
    const before = await values();
    assert.equal(before.length, 44);
    const ascending = [...before].sort((a, b) => a - b);
    assert.notDeepEqual(before, ascending, 'the table does not come sorted by template fraction');
    await page.locator('#pages thead th', { hasText: 'template' }).locator('button').click();
    assert.deepEqual(await values(), ascending);
    await page.locator('#pages thead th', { hasText: 'template' }).locator('button').click();
    assert.deepEqual(await values(), [...ascending].reverse());
    // Sort by page name.
    await page.locator('#pages thead th', { hasText: 'page' }).locator('button').click();
    const names = await page.locator('#pages tbody tr td:first-child').evaluateAll((tds) => tds.map((td) => td.textContent!.trim()));
    assert.deepEqual(names, [...names].sort((a, b) => a.localeCompare(b)));
    // Open a product page: the site's stylesheet applies (body margin 0 instead of the default 8px), its logo loads.
    await page.locator('a.open', { hasText: 'shop/ridgeline-2-tent.html' }).click();
    const frame = page.frameLocator('#preview iframe');
    const h1 = frame.locator('h1').first();
    await h1.waitFor({ timeout: 10_000 });
    assert.match(await h1.innerText(), /Ridgeline 2 Tent/);
    await page.waitForLoadState('load');
    assert.equal(await frame.locator('body').evaluate((b) => getComputedStyle(b).marginTop), '0px', 'site stylesheet applied');
    assert.ok(await frame.locator('img').first().evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0), 'site image loaded');
    assert.equal(await frame.locator('[data-gabarit="content"]').first().evaluate((el) => getComputedStyle(el).outlineStyle), 'solid', 'overlay');
    assert.match(await page.locator('#preview details pre').evaluate((el) => el.textContent ?? ''), /Two doors and two vestibules/);
    assert.deepEqual(errors, [], 'console errors');
    await mkdir(SHOT_DIR, { recursive: true });
    const shot = join(SHOT_DIR, 'report.png');
    await page.screenshot({ path: shot });
    assert.ok((await stat(shot)).size > 1000, 'screenshot written');
    const pageShot = join(SHOT_DIR, 'report-page.png');
    await page.locator('#preview').screenshot({ path: pageShot });
    assert.ok((await stat(pageShot)).size > 1000, 'preview screenshot written');
    t.diagnostic(`screenshots: ${shot}, ${pageShot}`);
  } finally {
    await browser.close();
    await rm(out, { recursive: true, force: true });
  }
});

test('gabarit report: resources that are not in the source are left out of the previews and named', { skip: SKIP_CHROMIUM }, async () => {
  const { chromium } = await import('playwright-core');
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-report-'));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
  try {
    const pages = join(dir, 'pages');
    await mkdir(join(pages, 'css'), { recursive: true });
    await writeFile(join(pages, 'css', 'here.css'), 'body { margin: 0 } h1 { background: url("../dot.png") }');
    await writeFile(join(pages, 'dot.png'), Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082', 'hex'));
    const extra = '<link rel="stylesheet" href="css/here.css"><link rel="stylesheet" href="https://cdn.example.org/x.css"><script>document.title = "x"</script>';
    for (let i = 0; i < 4; i++) await writeFile(join(pages, `p${i}.html`), page(i).replace('</head>', `${extra}</head>`).replace('</main>', '<img src="gone.png" alt="gone"></main>'));
    const out = join(dir, 'report');
    const r = await gabarit(['report', pages, '--out', out, '--method', 'align', '--no-other-engines', '--max-shown', '3']);
    assert.equal(r.code, 0, r.stderr);
    // --max-shown: the first three pages have a preview, the fourth is only listed
    assert.deepEqual([0, 1, 2, 3].map((i) => existsSync(join(out, 'site', `p${i}.html`))), [true, true, true, false]);
    assert.match(r.stderr, /gabarit: .*: 2 stylesheets or images that the shown pages name are not in the source/);
    const html = await readFile(join(out, 'index.html'), 'utf8');
    assert.match(html, /2 stylesheets or images that the shown pages name are not in the source/);
    const preview = await readFile(join(out, 'site', 'p0.html'), 'utf8');
    assert.doesNotMatch(preview, /cdn\.example\.org|gone\.png|<script/);
    assert.ok(existsSync(join(out, 'site', 'css', 'here.css')) && existsSync(join(out, 'site', 'dot.png')), 'the stylesheet and the image it names are copied');
    const browserPage = await browser.newPage();
    const errors: string[] = [];
    browserPage.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await browserPage.goto(pathToFileURL(join(out, 'index.html')).href + '#p0');
    const frame = browserPage.frameLocator('#preview iframe');
    await frame.locator('h1').waitFor({ timeout: 10_000 });
    await browserPage.waitForLoadState('load');
    assert.equal(await frame.locator('body').evaluate((b) => getComputedStyle(b).marginTop), '0px', 'local stylesheet applied');
    assert.deepEqual(errors, [], 'console errors');
  } finally {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  }
});
