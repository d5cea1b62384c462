/**
 * A page saved as UTF-8 under an old ISO-8859-1 declaration (a template's head never updated) reads as
 * UTF-8 through the command line, where the declaration alone gives mojibake, and says so on stderr once,
 * naming the page, whether it is given alone or in a folder, and whatever engine reads it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gabarit } from './gabarit-process.ts';

const PAGE = '<!DOCTYPE html><html><head><meta charset="iso-8859-1"><title>Recettes</title></head><body><nav><a href="/">Accueil</a></nav><article><h1>La crème brûlée</h1><p>Une crème brûlée à la française, naïve et légère, se prépare la veille. Le sucre caramélisé forme une croûte fine.</p><p>Servez-la fraîche, après un dîner d’été.</p></article></body></html>';

test('content: a page declaring ISO-8859-1 whose bytes are UTF-8 reads as UTF-8', async (t) => {
  const top = await mkdtemp(join(tmpdir(), 'gabarit-charset-'));
  t.after(() => rm(top, { recursive: true, force: true }));
  const dir = join(top, 'site');
  await mkdir(dir);
  await writeFile(join(dir, 'page.html'), PAGE, 'utf8');
  const out = join(top, 'out');
  const r = await gabarit(['content', join(dir, 'page.html'), '-o', out]);
  assert.equal(r.code, 0, r.stderr);
  const text = await readFile(join(out, 'page.txt'), 'utf8');
  assert.match(text, /La crème brûlée/);
  assert.match(text, /dîner d’été/);
  assert.doesNotMatch(text, /Ã/);
  const said = (stderr: string): number => stderr.split('\n').filter((l) => /warning: .*page\.html: declares windows-1252 \(meta\) but its bytes are UTF-8; decoded as UTF-8/.test(l)).length;
  assert.equal(said(r.stderr), 1, r.stderr);
  await writeFile(join(dir, 'other.html'), PAGE.replace('La crème brûlée', 'Le gâteau'), 'utf8');
  for (const args of [['content', dir, '-o', join(top, 'o2')], ['template', dir, '-o', join(top, 'o3')], ['template', dir, '-m', 'pagelets', '-o', join(top, 'o4')]]) {
    const f = await gabarit(args);
    assert.equal(f.code, 0, f.stderr);
    assert.equal(said(f.stderr), 1, `${args.join(' ')}: ${f.stderr}`);
    assert.match(f.stderr, /warning: .*other\.html: declares windows-1252/);
  }
});
