/**
 * `gabarit collect` on a partial copy of a site, over HTTP on 127.0.0.1: the home page lists every note of the
 * original site, the copy holds the first ones only (as a breadth-first copy does), and every note links to
 * pages of an archive folder that was not copied. The run must not request more pages than the copy holds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveDirectory } from '../../src/site/serve.ts';
import { gabarit } from '../cli/gabarit-process.ts';
import { writeSite } from './fixture-site.ts';

const WORDS = ['river', 'stone', 'garden', 'window', 'letter', 'morning', 'harbour', 'lantern', 'meadow', 'bridge'];

/**
 * Notes 0…41 are listed first (5 and 17 missing from the copy), then 42…91, none copied; a gallery of 20 photos.
 * `letters`: 12 letters in `letters/`, of the notes' template, listed apart on the home page; every note
 * and letter first names three drafts of letters in `letters/drafts/`, a subfolder left out of the copy.
 */
function partialSite(options: { letters?: boolean } = {}): { files: Map<string, string>; notes: string[]; letters: string[] } {
  const files = new Map<string, string>();
  const word = (i: number, k: number): string => WORDS[(i * 7 + k * 3) % WORDS.length]!;
  const prose = (i: number): string =>
    Array.from({ length: 4 }, (_, k) => `<p>The ${word(i, k)} by the ${word(i, k + 1)} kept its ${word(i, k + 2)} until the ${word(i, k + 3)} came back in the evening light.</p>`).join('');
  const page = (title: string, up: string, main: string): string => `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>
<header class="top"><a class="brand" href="${up}index.html">Notes</a><nav class="menu"><a href="${up}index.html">Home</a> <a href="${up}about.html">About</a> <a href="${up}photos/index.html">Photos</a></nav></header>
<main class="page">${main}</main><footer class="foot"><p>Kept by hand.</p></footer></body></html>`;
  const name = (i: number): string => `notes/note-${String(i).padStart(2, '0')}.html`;
  const listed = Array.from({ length: 92 }, (_, i) => i);
  const copied = listed.filter((i) => i < 42 && i !== 5 && i !== 17);
  const draftsOf = (i: number): string => `<aside class="drafts"><h2>Drafts</h2><ul>${[0, 1, 2].map((k) => `<li><a href="../letters/drafts/draft-${i}-${k}.html">Draft ${k}</a></li>`).join('')}</ul></aside>`;
  const letters = options.letters ? Array.from({ length: 12 }, (_, i) => `letters/letter-${String(i).padStart(2, '0')}.html`) : [];
  files.set('index.html', page('Notes', '', `<h1>Notes</h1>${prose(0)}<ul class="notes">${listed.map((i) => `<li><a href="${name(i)}">Note ${i}</a></li>`).join('')}</ul>${letters.length > 0 ? `<ul class="letters">${letters.map((l, i) => `<li><a href="${l}">Letter ${i}</a></li>`).join('')}</ul>` : ''}`));
  files.set('about.html', page('About', '', `<h1>About</h1>${prose(1)}${prose(2)}`));
  files.set('photos/index.html', page('Photos', '../', `<h1>Photos</h1><div class="grid">${Array.from({ length: 20 }, (_, k) => `<a class="thumb" href="photo-${k}.html">Photo ${k}</a>`).join(' ')}</div>`));
  for (let k = 0; k < 20; k++) files.set(`photos/photo-${k}.html`, page(`Photo ${k}`, '../', `<figure class="photo"><figcaption>Photo ${k}</figcaption></figure><a class="back" href="index.html">All photos</a>`));
  for (const i of copied) {
    const related = [1, 2, 3].map((d) => copied[(copied.indexOf(i) + d) % copied.length]!);
    const archive = [0, 1, 2, 3].map((k) => `../archive/${2015 + ((i + k) % 5)}/${word(i, k)}-${i}-${k}.html`);
    const drafts = letters.length > 0 ? draftsOf(i) : '';
    files.set(
      name(i),
      page(
        `Note ${i}`,
        '../',
        `<article class="note"><h1>Note ${i}</h1>${prose(i)}</article>${drafts}<aside class="related"><h2>Related</h2><ul>${related.map((r) => `<li><a href="../${name(r)}">Note ${r}</a></li>`).join('')}</ul></aside><aside class="archive"><h2>From the archive</h2><ul>${archive.map((a) => `<li><a href="${a}">${a}</a></li>`).join('')}</ul></aside>`,
      ),
    );
  }
  letters.forEach((l, i) => files.set(l, page(`Letter ${i}`, '../', `<article class="note"><h1>Letter ${i}</h1>${prose(50 + i)}</article>${draftsOf(50 + i)}<aside class="related"><h2>Related</h2><ul>${[1, 2, 3].map((d) => `<li><a href="../${letters[(i + d) % letters.length]!}">Letter ${(i + d) % letters.length}</a></li>`).join('')}</ul></aside>`)));
  return { files, notes: copied.map(name), letters };
}

/** Collects from `sample` over a served copy of `files`: the keys taken, the summary and stderr. */
async function collectFrom(files: Map<string, string>, sample: string): Promise<{ keys: string[]; summary: Record<string, unknown>; stderr: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-dead-'));
  await writeSite(join(dir, 'site'), files);
  const served = await serveDirectory(join(dir, 'site'));
  try {
    const out = join(dir, 'out');
    const r = await gabarit(['collect', served.url + sample, '--out', out, '--delay', '0']);
    assert.equal(r.code, 0, r.stderr);
    const pages = JSON.parse(await readFile(join(out, 'pages.json'), 'utf8')) as Array<{ key: string }>;
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Record<string, unknown>;
    assert.ok((summary['downloads'] as number) <= files.size, `${String(summary['downloads'])} requests for a copy of ${files.size} pages`);
    return { keys: pages.map((p) => p.key).sort(), summary, stderr: r.stderr };
  } finally {
    await served.close();
    await rm(dir, { recursive: true, force: true });
  }
}

test('gabarit collect on a partial copy whose index lists many pages not copied requests no more pages than the copy holds', async () => {
  const { files, notes } = partialSite();
  const { keys, summary, stderr } = await collectFrom(files, notes[10]!);
  assert.deepEqual(keys, [...notes].sort());
  // The links left untried are named, in summary.json and on stderr.
  const skipped = summary['deadSkipped'] as { folders: string[]; folderLinks: number; runs: number };
  assert.ok(skipped.folders.some((f) => f.startsWith('archive/')), `dead folders: ${skipped.folders.join(', ')}`);
  assert.ok(skipped.runs >= 1, 'the index list was given up after its run of dead links');
  assert.match(stderr, /links into \d+ folders whose first links were dead/);
  assert.match(stderr, /given up after \d+ dead links in a row/);
});

test('gabarit collect on a partial copy takes the pages of a folder whose only dead links so far were into one subfolder of it', async () => {
  // Every note names drafts in `letters/drafts/`, missing from the copy, before any letter is read: that
  // subfolder is dead, not `letters/`, whose letters the home page lists.
  const { files, notes, letters } = partialSite({ letters: true });
  const { keys, summary } = await collectFrom(files, notes[10]!);
  assert.deepEqual(keys, [...notes, ...letters].sort());
  const skipped = summary['deadSkipped'] as { folders: string[] };
  assert.ok(!skipped.folders.includes('letters/'), `dead folders: ${skipped.folders.join(', ')}`);
});
