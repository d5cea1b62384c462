/**
 * The pages of the content evaluation (eval/content.eval.ts), in its two modes, each page with its gold
 * main text and the headline convention of that gold:
 *  - single-page mode: every page alone, no template (what `extractMainContent(tree)` sees for a page
 *    without other pages of its site): every samesite page (cleanportaleval, dragnet, l3s-gn1),
 *    single/readability, and the question pages of clusters/stackoverflow;
 *  - site mode: the pages of a site together, the site's template removed first by the engine the
 *    content command chooses (align on a samesite group and on the stackoverflow pages, hyperlink on a
 *    corpus site), then the main block with the site vote (engine.ts).
 * Headline conventions (extract.ts `headline`): the golds of samesite, of the corpus sites and of
 * stackoverflow (below) hold the headline, so the headline goes first; single/readability's gold
 * (Readability's own output) leaves it out, so it is a field apart and not scored.
 *
 * Stackoverflow question pages have no gold in the corpus; theirs is read from the page's structure: the
 * question's title (`#question-header h1`), the question's body and every answer's body (`.post-text`
 * of `#question` and of each `.answer`), in document order. Votes, tags, user cards, comments under the
 * posts and the "related" and "linked" lists stay out: the question and its answers are the records the
 * site is about (docs/content.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveMethod } from '../src/content/engine.ts';
import type { HeadlinePlacement } from '../src/content/extract.ts';
import { CORPUS_DIR } from '../src/eval/corpus-path.ts';
import { goldContentText, listSamesite, listSites, loadClusters, samesiteGoldText, type CorpusSite } from '../src/eval/corpus.ts';
import { decodeHtml } from '../src/html/charset.ts';
import { parseHtml } from '../src/html/parse.ts';
import type { Tree } from '../src/html/tree.ts';
import type { PageSource } from '../src/site/page.ts';
import { openSource } from '../src/site/source.ts';
import { loadEngine } from '../src/template/engines.ts';
import { runEngine } from '../src/run/drive.ts';

/** The sets, as rows are labelled. */
export const SETS = ['cleanportaleval', 'dragnet', 'l3s-gn1', 'single/readability', 'stackoverflow', 'sites'] as const;
export type SetName = (typeof SETS)[number];

/** One page in one mode. */
export interface EvalPage {
  set: SetName;
  /** The site the page belongs to: the unit left out in cross-validation (a readability page is its own site). */
  site: string;
  /** Page key (file name, or path under the site's pages/). */
  key: string;
  /** The page file (peers read it; their cache is keyed by its bytes and URL). */
  path: string;
  /** The gold main text; '' on a site-mode page without gold (it votes with its site, it is not scored). */
  gold: string;
  scored: boolean;
  headline: HeadlinePlacement;
  tree: Tree;
  /** Site mode: the template marks of the site's engine (undefined in single-page mode). */
  template?: Uint8Array;
  /** Site mode: the group the site vote runs over, and the page's place in the engine's emission order. */
  group?: string;
  order?: number;
  /** Site mode: the template engine used on the site ('hyperlink', 'align'…). */
  method?: string;
}

/** The gold of a stackoverflow question page (module comment). */
export const STACKOVERFLOW_GOLD = { gold: { content: ['#question-header h1, #question .post-text, #answers .answer .post-text'], exclude: [] as string[] } };

/** The stackoverflow question pages (the 'question' class of clusters/stackoverflow). */
function stackoverflowQuestions(): Array<{ key: string; path: string; dir: string }> {
  const set = loadClusters().find((c) => c.name === 'stackoverflow');
  if (!set) return [];
  return set.pages.filter((p) => p.cls === 'question').map((p) => ({ key: p.key, path: p.path, dir: set.dir }));
}

function parseFile(path: string): Tree {
  return parseHtml(decodeHtml(readFileSync(path)).text, { selfClosing: path.endsWith('.xhtml') });
}

/** Every page in single-page mode (those with a non-empty gold), `only` filtering set or site names. */
export function singlePages(only: (name: string) => boolean): EvalPage[] {
  const out: EvalPage[] = [];
  for (const g of listSamesite()) {
    if (!only(`${g.set}/${g.site}`)) continue;
    for (const p of g.pages) {
      const gold = samesiteGoldText(p);
      if (gold.trim() !== '') out.push({ set: g.set as SetName, site: `${g.set}/${g.site}`, key: p.id, path: p.htmlPath, gold, scored: true, headline: 'first', tree: parseFile(p.htmlPath) });
    }
  }
  const rd = join(CORPUS_DIR, 'single', 'readability');
  if (only('single/readability')) {
    let files: string[] = [];
    try {
      files = readdirSync(rd).filter((f) => f.endsWith('.html')).sort();
    } catch {
      /* the set is absent */
    }
    for (const f of files) {
      const path = join(rd, f);
      const gold = readFileSync(path.replace(/\.html$/, '.txt'), 'utf8');
      if (gold.trim() !== '') out.push({ set: 'single/readability', site: `single/readability/${f}`, key: f, path, gold, scored: true, headline: 'field', tree: parseFile(path) });
    }
  }
  if (only('stackoverflow')) {
    for (const q of stackoverflowQuestions()) {
      const tree = parseFile(q.path);
      const gold = goldContentText(STACKOVERFLOW_GOLD, tree);
      if (gold !== null && gold.trim() !== '') out.push({ set: 'stackoverflow', site: 'stackoverflow', key: q.key, path: q.path, gold, scored: true, headline: 'first', tree });
    }
  }
  return out;
}

/** A site-mode unit: a directory of pages run through one template engine, and the gold of each page. */
interface SiteUnit {
  set: SetName;
  site: string;
  dir: string;
  entry?: string;
  /** The gold of a page (null: no gold, not scored). */
  gold: (key: string, tree: Tree) => string | null;
}

function siteUnits(only: (name: string) => boolean): SiteUnit[] {
  const out: SiteUnit[] = [];
  for (const g of listSamesite()) {
    const name = `${g.set}/${g.site}`;
    if (!only(name)) continue;
    const golds = new Map(g.pages.map((p) => [`${p.id}.html`, samesiteGoldText(p)]));
    out.push({ set: g.set as SetName, site: name, dir: g.dir, gold: (k) => golds.get(k) ?? null });
  }
  const so = stackoverflowQuestions();
  if (so.length > 0 && only('stackoverflow')) {
    const questions = new Set(so.map((q) => q.key));
    out.push({ set: 'stackoverflow', site: 'stackoverflow', dir: so[0]!.dir, gold: (k, t) => (questions.has(k) ? goldContentText(STACKOVERFLOW_GOLD, t) : null) });
  }
  for (const s of listSites()) {
    if (!only(s.name) && !only('sites')) continue;
    const site: CorpusSite = s;
    out.push({ set: 'sites', site: s.name, dir: s.pagesDir, entry: s.entry, gold: (_k, t) => goldContentText(site, t) });
  }
  return out;
}

/**
 * Every page in site mode: each unit's source through the template engine the content command would
 * choose (engine.ts resolveMethod), pages captured in emission order with their template marks; pages
 * without gold are kept unscored (they take part in the site vote, as in the content engine).
 */
export async function sitePages(only: (name: string) => boolean, onError: (site: string, message: string) => void): Promise<EvalPage[]> {
  const out: EvalPage[] = [];
  for (const u of siteUnits(only)) {
    let source: PageSource | undefined;
    try {
      source = await openSource(u.dir, u.entry !== undefined ? { entry: u.entry } : {});
      const { method } = await resolveMethod(source, {});
      let order = 0;
      for await (const o of runEngine(await loadEngine(method), source, { onWarning: () => undefined })) {
        if (!o.ok) {
          onError(u.site, `${o.key}: ${o.failure.message}`);
          continue;
        }
        const m = o.marks;
        const gold = u.gold(m.key, m.tree) ?? '';
        out.push({ set: u.set, site: u.site, key: m.key, path: join(u.dir, m.key), gold, scored: gold.trim() !== '', headline: 'first', tree: m.tree, template: m.template, group: u.site, order: order++, method });
      }
    } catch (e) {
      onError(u.site, e instanceof Error ? e.message : String(e));
    } finally {
      await source?.close().catch(() => undefined);
    }
  }
  return out;
}
