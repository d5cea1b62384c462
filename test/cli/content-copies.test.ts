/**
 * Two copies of one article among a site's pages (the same story under two addresses) do not make the
 * article template: `gabarit content` keeps it on both copies, and summary.json names the copy left out
 * of the align engine's sample. `--duplicate-score 1` (only identical text is a copy) shows what happens
 * without that: the article shared by two of the four sample pages is taken for template.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gabarit } from './gabarit-process.ts';

const STORY = [
  'The river rose two metres overnight after a week of rain in the hills above the valley.',
  'Farmers moved their herds to higher ground while volunteers filled sandbags near the old bridge.',
  'The mayor said the town hall would stay open as a shelter until the water went down again.',
  'Engineers will inspect the embankment on Monday, when the forecast promises three dry days.',
];

function page(title: string, paragraphs: string[], extra: string): string {
  const menu = '<header><nav><a href="a.html">Home</a> <a href="b.html">Local</a> <a href="c.html">Weather</a> <a href="d.html">Sport</a></nav></header>';
  const footer = '<footer><p>Valley Courier, printed since 1887. All rights reserved.</p></footer>';
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body>${menu}<main><article><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('')}</article>${extra}</main>${footer}</body></html>`;
}

async function writeSite(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'a.html'), page('Bakery wins regional prize', ['A family bakery on the high street won the regional bread prize for its rye loaf.', 'The judges praised its crust and the sourdough starter kept alive since the war.', 'Queues formed outside the shop from six in the morning the next day.'], '<p>3 comments</p>'));
  await writeFile(join(dir, 'b.html'), page('School choir tours the coast', ['Forty pupils of the primary school sang in five harbour towns over the holidays.', 'Their teacher arranged old sea songs for two voices and a single accordion.', 'The tour ended with a concert in the lighthouse keeper’s garden.'], '<p>1 comment</p>'));
  // The same story under two addresses: a second related link and another comment count on the copy.
  await writeFile(join(dir, 'c.html'), page('Flood warning for the valley', STORY, '<p>12 comments</p>'));
  await writeFile(join(dir, 'd.html'), page('Flood warning for the valley', STORY, '<p>14 comments</p><p><a href="b.html">School choir tours the coast</a></p>'));
}

const storyWords = (text: string): number => STORY.join(' ').split(' ').filter((w) => text.includes(w)).length;

test('content: two copies of one article keep their article, and the copy left out of the sample is named', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-copies-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const site = join(dir, 'site');
  await writeSite(site);
  const total = STORY.join(' ').split(' ').length;

  const out = join(dir, 'out');
  const r = await gabarit(['content', site, '-m', 'align', '-q', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  for (const copy of ['c', 'd']) {
    const text = await readFile(join(out, `${copy}.txt`), 'utf8');
    assert.equal(storyWords(text), total, `${copy}.txt keeps the whole story:\n${text}`);
  }
  const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { engine: { sampleCopies: Array<{ key: string; copyOf: string }> } };
  assert.deepEqual(summary.engine.sampleCopies, [{ key: 'd.html', copyOf: 'c.html' }]);

  // Only identical text counts as a copy: these two copies differ, so both are sampled and the story,
  // on two of four sample pages, has the majority a template token needs.
  const strict = join(dir, 'strict');
  const s = await gabarit(['content', site, '-m', 'align', '--duplicate-score', '1', '-q', '--out', strict]);
  assert.equal(s.code, 0, s.stderr);
  const lost = await readFile(join(strict, 'c.txt'), 'utf8');
  assert.ok(storyWords(lost) < total / 2, `with --duplicate-score 1 the story is taken for template:\n${lost}`);
});

test('template: template.json names the sample page left out as a copy; --duplicate-score 1 keeps both', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-copies-template-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const site = join(dir, 'site');
  await writeSite(site);
  const about = async (args: string[], out: string): Promise<{ sample: string[]; sampleCopies?: unknown }> => {
    const r = await gabarit(args);
    assert.equal(r.code, 0, r.stderr);
    return (JSON.parse(await readFile(join(out, 'template.json'), 'utf8')) as { about: { sample: string[]; sampleCopies?: unknown } }).about;
  };
  const [one, two] = [join(dir, 'default'), join(dir, 'strict')];
  const kept = await about(['template', site, '-m', 'align', '-q', '--out', one], one);
  assert.deepEqual(kept.sample, ['a.html', 'b.html', 'c.html']);
  assert.deepEqual(kept.sampleCopies, [{ key: 'd.html', copyOf: 'c.html' }]);
  const both = await about(['template', site, '-m', 'align', '--duplicate-score', '1', '-q', '--out', two], two);
  assert.deepEqual(both.sample, ['a.html', 'b.html', 'c.html', 'd.html']);
  assert.equal(both.sampleCopies, undefined);
});
