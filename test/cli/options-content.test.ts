/**
 * The options of `gabarit content` through the command line, on five article pages sharing a header and
 * a footer: --main-block and --headline change what `<page>.txt` holds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gabarit } from './gabarit-process.ts';

const TOPICS = ['Choosing a tent', 'Breaking in boots', 'Reading a map', 'Packing light', 'Cooking outdoors'];

async function writeSite(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const menu = `<header><nav><ul>${TOPICS.slice(0, 4).map((t, i) => `<li><a href="p${i}.html">${t.split(' ')[0]}</a></li>`).join('')}</ul></nav></header>`;
  const footer = '<footer><p>Copyright Example Outfitters. All rights reserved.</p><a href="p0.html">Contact</a></footer>';
  for (const [i, t] of TOPICS.entries()) {
    const sentences = [0, 1, 2, 3, 4, 5].map((j) => `Sentence ${j} about ${t.toLowerCase()} with useful advice for walkers.`).join(' ');
    const related = [1, 2].map((k) => `<li><a href="p${(i + k) % 5}.html">${TOPICS[(i + k) % 5]}</a></li>`).join('');
    await writeFile(
      join(dir, `p${i}.html`),
      `<!DOCTYPE html><html><head><title>${t} | Outfitters</title></head><body>${menu}<main><article><h1>${t}</h1>
<p>${t} is the subject of page ${i}. ${sentences}</p><p>More on ${t.toLowerCase()}: a second paragraph with details ${i}.</p></article>
<aside><h2>Related</h2><ul>${related}</ul></aside></main>${footer}</body></html>`,
    );
  }
}

test('content: --headline first puts the headline first; --main-block never keeps what always leaves outside the main block', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-options-content-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const site = join(dir, 'site');
  await writeSite(site);
  const [whole, block] = [join(dir, 'never'), join(dir, 'always')];
  const never = await gabarit(['content', site, '-m', 'align', '--main-block', 'never', '--headline', 'first', '-q', '--out', whole]);
  assert.equal(never.code, 0, never.stderr);
  const always = await gabarit(['content', site, '-m', 'align', '--main-block', 'always', '-q', '--out', block]);
  assert.equal(always.code, 0, always.stderr);
  for (const [i, topic] of TOPICS.entries()) {
    const n = (await readFile(join(whole, `p${i}.txt`), 'utf8')).trim().split('\n');
    const a = (await readFile(join(block, `p${i}.txt`), 'utf8')).trim().split('\n');
    assert.equal(n[0], topic, `--headline first: p${i}.txt starts with its headline`);
    assert.notEqual(a[0], topic, 'by default the headline is a field, not in the text');
    assert.ok(a.every((line) => n.includes(line)), 'the main block is part of what never keeps');
    assert.ok(n.length - 1 > a.length, `--main-block never keeps more than the main block (${n.length - 1} lines vs ${a.length})`);
  }
});
