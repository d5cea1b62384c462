/**
 * Test helper: a few decoded pages of each corpus site (read in place from CORPUS_DIR, never copied).
 * Returns [] when the corpus is absent; tests guard with corpusSkip().
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { decodeHtml } from '../../src/html/charset.ts';
import { CORPUS_DIR, corpusAvailable } from '../../src/eval/corpus-path.ts';

export interface CorpusPage {
  site: string;
  key: string;
  html: string;
}

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.x?html?$/i.test(name)) out.push(p);
  }
}

/** Up to `perSite` pages of every site (the entry page first, then evenly spread over the sorted files). */
export function corpusPages(perSite: number): CorpusPage[] {
  if (!corpusAvailable()) return [];
  const sitesDir = join(CORPUS_DIR, 'sites');
  const out: CorpusPage[] = [];
  for (const site of readdirSync(sitesDir).sort()) {
    const pagesDir = join(sitesDir, site, 'pages');
    const files: string[] = [];
    walk(pagesDir, files);
    const entry = join(pagesDir, 'index.html');
    const picked = new Set<string>();
    if (files.includes(entry)) picked.add(entry);
    for (let k = 0; picked.size < Math.min(perSite, files.length); k++) {
      picked.add(files[Math.floor((k * files.length) / perSite) % files.length]!);
      if (k > perSite * 4) break;
    }
    for (const f of picked) out.push({ site, key: relative(pagesDir, f), html: decodeHtml(readFileSync(f)).text });
  }
  return out;
}
