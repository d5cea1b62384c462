/**
 * The UI driven in Debian's chromium (playwright-core) on the demo site (examples/site): the site view
 * with the engine's figures; a product page with the overlay (template greyed, main content outlined) and
 * the hover panel; the designer: clicking the product name and the price makes two patterns whose values
 * are those of every product page (read independently from the pages' HTML); the wrapper saved as a
 * download and checked as a wrapper file; then the redesigned shop page (examples/wrapper/redesigned/)
 * uploaded to the adaptation view: each pattern found, with its step and similarity, and the same value as
 * on the original page. Then the designer asking for what it needs, on a hand-written book shop
 * (book-shop.ts): the author given by example on the first book is ambiguous on the others, which the
 * values table lists first and marks; "add an example here" on one of them and a click on its author
 * settle every page; two clicked tags give every tag of every book; the saved wrapper gives the same.
 * Screenshots go to out/test/ui/ (the path is printed). Skips with a message where /usr/bin/chromium is
 * absent, except in CI (CI=true), where that is a failure.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseHtml } from '../../src/html/parse.ts';
import { selectOne } from '../../src/html/select.ts';
import { textOf } from '../../src/html/text.ts';
import { startUi } from '../../src/ui/server.ts';
import { runWrapper } from '../../src/wrapper/run.ts';
import { parseWrapper } from '../../src/wrapper/wrapper.ts';
import { BOOKS, bookPage, writeBookShop } from './book-shop.ts';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SITE = join(ROOT, 'examples', 'site');
const REDESIGNED = join(ROOT, 'examples', 'wrapper', 'redesigned', 'cairn-45-backpack.html');
/** Where the screenshots go. */
const SHOTS = join(ROOT, 'out', 'test', 'ui');
const LAUNCH_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

const absent = !existsSync(CHROMIUM);
if (absent && process.env['CI'] === 'true') throw new Error(`${CHROMIUM} is absent in CI: .ci/run installs Debian's chromium for the UI's browser test`);
const SKIP = absent ? `${CHROMIUM} absent: install Debian's chromium (apt-get install -y chromium) to run the UI's browser test` : false;

/** Product name and price of every product page of the demo shop, read from the HTML. */
function products(): Map<string, { name: string; price: string }> {
  const out = new Map<string, { name: string; price: string }>();
  for (const f of readdirSync(join(SITE, 'shop')).sort()) {
    const tree = parseHtml(readFileSync(join(SITE, 'shop', f), 'utf8'));
    const h1 = selectOne(tree, 'article.product h1');
    const price = selectOne(tree, 'article.product .price');
    if (h1 >= 0 && price >= 0) out.set(`shop/${f}`, { name: textOf(tree, h1), price: textOf(tree, price) });
  }
  return out;
}

test('the UI on the demo site: overlay, designer, values on every product page, adaptation to the redesign', { skip: SKIP, timeout: 240_000 }, async (t) => {
  const { chromium } = await import('playwright-core');
  const profile = await mkdtemp(join(tmpdir(), 'gabarit-ui-profile-'));
  const downloads = await mkdtemp(join(tmpdir(), 'gabarit-ui-downloads-'));
  await mkdir(SHOTS, { recursive: true });
  const ui = await startUi(SITE, { port: 0, label: 'examples/site' });
  const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: LAUNCH_ARGS, viewport: { width: 1280, height: 860 }, acceptDownloads: true });
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const outside: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(`http://127.0.0.1:${ui.port}/`) && !r.url().startsWith('blob:') && !r.url().startsWith('data:')) outside.push(r.url());
    });
    const shot = async (name: string): Promise<void> => {
      await page.screenshot({ path: join(SHOTS, name) });
    };

    // Site view: every page, the engine's figures and the chart.
    await page.goto(ui.url);
    await page.getByTestId('engine-method').waitFor({ timeout: 120_000 });
    assert.equal(await page.locator('table.pages tbody tr').count(), ui.session.site().pages.length);
    assert.ok((await page.locator('.chart svg rect').count()) > 0, 'chart drawn');
    await shot('ui-site.png');

    // Page view: the overlay and the hover panel.
    await page.locator('table.pages a', { hasText: 'shop/cairn-45-backpack.html' }).click();
    const frame = page.frameLocator('iframe.page-frame');
    const tpl = frame.locator('[data-gabarit="template"]').first();
    await tpl.waitFor({ state: 'attached' });
    assert.ok(Number(await tpl.evaluate((el) => getComputedStyle(el).opacity)) < 1, 'template greyed');
    const content = frame.locator('[data-gabarit="content"]').first();
    assert.notEqual(await content.evaluate((el) => getComputedStyle(el).outlineStyle), 'none', 'main content outlined');
    assert.equal(await frame.locator('html').evaluate((el) => el.className), '', "the site's script did not run (it sets <html class=js>)");
    // the panel tells of the element under the pointer: hovered again while it names another (the frame's
    // layout can still move under the pointer, leaving it on a neighbour, as a user's pointer would be)
    const hoverUntil = async (selector: string, path: RegExp): Promise<void> => {
      for (let tries = 0; ; tries++) {
        await frame.locator(selector).hover();
        try {
          await page.getByTestId('css-path').filter({ hasText: path }).waitFor({ timeout: 3000 });
          return;
        } catch (err) {
          if (tries >= 4) throw err;
        }
      }
    };
    await hoverUntil('header .logo', /logo/);
    assert.match(await page.getByTestId('node-info').innerText(), /template/);
    await hoverUntil('article.product h1', /h1/);
    await page.getByTestId('node-info').getByText('main content').waitFor();
    await shot('ui-page.png');

    // Designer: click the name, then the price.
    await page.getByRole('button', { name: 'design a wrapper on this page' }).click();
    const design = page.frameLocator('iframe.page-frame');
    for (const [name, selector] of [['name', 'article.product h1'], ['price', 'article.product .price']] as const) {
      await design.locator(selector).click();
      await page.locator('.pattern-form .hint', { hasText: 'Picked' }).waitFor();
      await page.getByTestId('pattern-name').fill(name);
      await page.getByTestId('add-pattern').click();
      await page.locator(`table.patterns tr[data-pattern="${name}"] [data-testid="this-page"]`, { hasText: '1' }).waitFor();
    }
    const expected = products();
    assert.ok(expected.size >= 10, `${expected.size} product pages`);
    for (const [key, want] of expected) {
      const row = page.locator(`table.values tr[data-page="${key}"]`);
      assert.equal((await row.locator('td[data-pattern="name"]').innerText()).trim(), want.name, `${key}: name`);
      assert.equal((await row.locator('td[data-pattern="price"]').innerText()).trim(), want.price, `${key}: price`);
    }
    assert.equal(await page.locator('table.patterns .warn', { hasText: 'ambiguous' }).count(), 0, 'no ambiguous pattern');
    await shot('ui-designer.png');

    // Save the wrapper (a download) and check it is a wrapper file.
    await page.getByLabel('wrapper name').fill('shop-product');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-wrapper').click()]);
    const saved = join(downloads, download.suggestedFilename());
    await download.saveAs(saved);
    const wrapper = parseWrapper(await readFile(saved, 'utf8'), saved);
    assert.deepEqual(wrapper.patterns.map((p) => p.name), ['name', 'price']);
    assert.ok(wrapper.patterns.every((p) => (p.treeGram?.instances.length ?? 0) > 0), 'tree-grams stored');

    // Adaptation: the redesigned shop page.
    await page.locator('button[data-view="adapt"]').click();
    await page.getByTestId('adapt-page').setInputFiles(REDESIGNED);
    await page.getByTestId('reports').waitFor();
    const original = expected.get('shop/cairn-45-backpack.html')!;
    for (const [name, value] of [['name', original.name], ['price', original.price]] as const) {
      const row = page.locator(`table.reports tr[data-pattern="${name}"]`);
      const step = (await row.getByTestId('step').innerText()).trim();
      const similarity = (await row.getByTestId('similarity').innerText()).trim();
      t.diagnostic(`${name}: ${step}, similarity ${similarity}`);
      assert.notEqual(step, 'not found', `${name} found`);
      if (step !== 'selector') assert.match(similarity, /^[01]\.\d{3}$/, `${name}: a similarity`);
      assert.equal((await row.getByTestId('value').innerText()).trim(), value, `${name}: the original value`);
    }
    await page.locator('table.reports tr[data-pattern="price"]').click();
    await page.getByTestId('subtrees').waitFor();
    await shot('ui-adapt.png');
    assert.deepEqual(errors, [], 'no error in the page');
    assert.deepEqual(outside, [], 'no request outside the UI server');
    t.diagnostic(`screenshots: ${SHOTS}`);
    process.stdout.write(`# UI screenshots in ${SHOTS}\n`);
  } finally {
    await browser.close();
    await ui.close();
    await rm(profile, { recursive: true, force: true });
    await rm(downloads, { recursive: true, force: true });
  }
});

test('the designer asks for what it needs: ambiguous pages first, an example there settles every page; a list from two items', { skip: SKIP, timeout: 180_000 }, async () => {
  const { chromium } = await import('playwright-core');
  const profile = await mkdtemp(join(tmpdir(), 'gabarit-ui-profile-'));
  const downloads = await mkdtemp(join(tmpdir(), 'gabarit-ui-downloads-'));
  const site = await mkdtemp(join(tmpdir(), 'gabarit-ui-books-'));
  await mkdir(SHOTS, { recursive: true });
  await writeBookShop(site);
  const ui = await startUi(site, { port: 0 });
  const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: LAUNCH_ARGS, viewport: { width: 1280, height: 860 }, acceptDownloads: true });
  const [first, second] = [BOOKS[0]!, BOOKS[1]!];
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(ui.url);
    await page.locator('table.pages a', { hasText: first.file }).click();
    await page.getByRole('button', { name: 'design a wrapper on this page' }).click();
    const frame = page.frameLocator('iframe.page-frame');
    const values = page.getByTestId('values');
    const cellText = (key: string, name: string): Promise<string> => values.locator(`tr[data-page="${key}"] td[data-pattern="${name}"] .values`).innerText().then((s) => s.trim());

    // The author on the first book, given by example: ambiguous on every other book, listed first.
    await frame.locator('.product-author a').click();
    await page.locator('.pattern-form .hint', { hasText: 'Picked' }).waitFor();
    await page.getByTestId('pattern-name').fill('author');
    await page.getByTestId('add-by-example').click();
    await values.locator('tr[data-flagged="true"]').first().waitFor();
    const rows = await values.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-page'), tr.getAttribute('data-flagged')]));
    const others = ui.session.keys().filter((k) => k !== first.file);
    assert.deepEqual(rows, [...others.map((k) => [k, 'true']), [first.file, null]], 'the ambiguous pages first, in source order');
    for (const b of BOOKS.slice(1)) {
      const cell = values.locator(`tr[data-page="${b.file}"] td[data-pattern="author"]`);
      assert.equal(await cell.getAttribute('data-flag'), 'ambiguous', b.file);
      assert.match(await cell.innerText(), /ambiguous/, `${b.file}: the reason shown`);
    }
    assert.equal(await cellText(first.file, 'author'), first.author);
    await page.screenshot({ path: join(SHOTS, 'ui-designer-ambiguous.png') });

    // An example on the second book: its author, not its series.
    await values.locator(`tr[data-page="${second.file}"] [data-testid="teach"]`).click();
    await page.getByTestId('teach-hint').waitFor();
    await frame.locator('h1', { hasText: second.title }).waitFor();
    await frame.locator('.product-author a', { hasText: second.author }).click();
    await page.waitForFunction((n) => document.querySelectorAll('table.values tbody tr').length === n && document.querySelector('table.values td[data-flag]') === null, BOOKS.length);
    for (const b of BOOKS) assert.equal(await cellText(b.file, 'author'), b.author, `${b.file}: author`);
    assert.equal(await page.getByTestId('teach-hint').count(), 0, 'the example taken');
    assert.match(await page.locator('table.patterns tr[data-pattern="author"]').innerText(), /by example on 2 pages/);
    await page.screenshot({ path: join(SHOTS, 'ui-designer-resolved.png') });

    // A list: two of the second book's tags clicked.
    await frame.locator('ul.tags li').nth(0).click();
    await frame.locator('ul.tags li').nth(1).click();
    await page.getByTestId('pattern-name').fill('tags[]');
    await page.locator('.pattern-form .hint', { hasText: `“${second.tags[0]}”, “${second.tags[1]}”` }).waitFor();
    await page.getByTestId('add-by-example').click();
    await values.locator('td[data-pattern="tags"]').first().waitFor();
    await page.waitForFunction((n) => Array.from(document.querySelectorAll('table.values td[data-pattern="tags"] .values')).filter((e) => e.textContent !== '').length === n, BOOKS.length);
    for (const b of BOOKS) assert.equal(await cellText(b.file, 'tags'), b.tags.join(' | '), `${b.file}: tags`);

    // The saved wrapper gives the same on every book.
    await page.getByLabel('wrapper name').fill('books');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-wrapper').click()]);
    const saved = join(downloads, download.suggestedFilename());
    await download.saveAs(saved);
    const wrapper = parseWrapper(await readFile(saved, 'utf8'), saved);
    for (const [k, b] of BOOKS.entries()) assert.deepEqual(runWrapper(wrapper, parseHtml(bookPage(b, k === 0)), b.file).record, { author: b.author, tags: b.tags }, b.file);
    assert.deepEqual(errors, [], 'no error in the page');
  } finally {
    await browser.close();
    await ui.close();
    await rm(profile, { recursive: true, force: true });
    await rm(downloads, { recursive: true, force: true });
    await rm(site, { recursive: true, force: true });
  }
});
