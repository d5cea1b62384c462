/**
 * The HTML report opened in Debian's chromium through playwright-core (file://, offline): the overlay is
 * there (template parts greyed, main content outlined), the chart and the figures per engine too; a
 * screenshot of the report and one of its first page are saved to out/test/report.png and report-page.png. Skips with a message when /usr/bin/chromium is absent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile, mkdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { report } from '../../src/run/report.ts';
import { renderReport } from '../../src/report/html-report.ts';

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
  const file = join(dir, 'index.html');
  await writeFile(file, renderReport(data));
  return file;
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
      assert.match(p.srcdoc ?? '', /data-gabarit="template"/);
      assert.match(p.srcdoc ?? '', /data-gabarit="content"/);
      assert.match(p.contentText ?? '', /body of story/);
      assert.doesNotMatch(p.contentText ?? '', /Copyright/);
    }
    const html = renderReport(data);
    assert.doesNotMatch(html, /<script|https?:\/\/(?!example\.org)[^"]*\.(js|css)/, 'no script, no CDN');
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

test('report in chromium: overlay present, screenshot saved', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} absent: install Debian's chromium (apt-get install -y chromium) to run the report browser test` }, async (t) => {
  const { chromium } = await import('playwright-core');
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-report-'));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
  try {
    const file = await makeReport(dir);
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(pathToFileURL(file).href);
    assert.equal(await page.locator('svg.chart rect').count() > 0, true, 'chart drawn');
    const frame = page.frameLocator('iframe').first();
    const tpl = frame.locator('[data-gabarit="template"]').first();
    await tpl.waitFor({ state: 'attached', timeout: 10_000 });
    const opacity = await tpl.evaluate((el) => getComputedStyle(el).opacity);
    assert.ok(Number(opacity) < 1, `template part greyed (opacity ${opacity})`);
    const content = frame.locator('[data-gabarit="content"]').first();
    const outline = await content.evaluate((el) => getComputedStyle(el).outlineStyle);
    assert.equal(outline, 'solid', 'main content outlined');
    assert.match(await content.innerText(), /Story 0: alpha/);
    // Kept where people can look at it (out/ is git-ignored).
    await mkdir(SHOT_DIR, { recursive: true });
    // Two pictures: the top of the report (figures, chart), and the first page with its overlay (the
    // frames load lazily, so the page is shot where it is on screen, after its overlay was found above).
    const shot = join(SHOT_DIR, 'report.png');
    await page.screenshot({ path: shot });
    assert.ok((await stat(shot)).size > 1000, 'screenshot written');
    const pageShot = join(SHOT_DIR, 'report-page.png');
    await page.locator('section.page').first().screenshot({ path: pageShot });
    assert.ok((await stat(pageShot)).size > 1000, 'page screenshot written');
    t.diagnostic(`screenshots: ${shot}, ${pageShot}`);
  } finally {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  }
});
