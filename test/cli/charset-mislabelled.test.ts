/**
 * A page saved as UTF-8 under an old ISO-8859-1 declaration (a template's head never updated) reads as
 * UTF-8 through the command line, where the declaration alone gives mojibake.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gabarit } from './gabarit-process.ts';

const PAGE = '<!DOCTYPE html><html><head><meta charset="iso-8859-1"><title>Recettes</title></head><body><nav><a href="/">Accueil</a></nav><article><h1>La crème brûlée</h1><p>Une crème brûlée à la française, naïve et légère, se prépare la veille. Le sucre caramélisé forme une croûte fine.</p><p>Servez-la fraîche, après un dîner d’été.</p></article></body></html>';

test('content: a page declaring ISO-8859-1 whose bytes are UTF-8 reads as UTF-8', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'gabarit-charset-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'page.html'), PAGE, 'utf8');
  const out = join(dir, 'out');
  const r = await gabarit(['content', join(dir, 'page.html'), '-o', out]);
  assert.equal(r.code, 0, r.stderr);
  const text = await readFile(join(out, 'page.txt'), 'utf8');
  assert.match(text, /La crème brûlée/);
  assert.match(text, /dîner d’été/);
  assert.doesNotMatch(text, /Ã/);
});
