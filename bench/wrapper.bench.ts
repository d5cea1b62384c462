/**
 * Wrapper adaptation time (the time of one adaptation on pages of 1k, 5k and 20k nodes, as a
 * ratio to parsing them). Pages are generated here (deterministic; no corpus needed): a shop listing of
 * product cards with a header, navigation and footer, about N nodes. The wrapper is created on the original
 * page; the changed page renames every class and wraps the listing in two new elements, so every selector
 * fails and the pattern must be found by matching. Two patterns:
 *  - `card`: one product card in the middle of the listing (a tree-gram of ~40 nodes);
 *  - `listing`: the whole listing (a tree-gram of about 90% of the page, cut at MAX_GRAM_NODES nodes).
 * A third page kind is a terms document redesigned by a CMS change (new wrappers and levels, headings in
 * new tags, the sections' nested boxes flattened, some paragraphs boxed, every class renamed, the
 * navigation rebuilt), about N nodes, half of them the document: the `document` pattern fails on element labels and is found on the content view.
 * A fourth, `moved`, is that redesign with the text rewritten too (paragraphs merged by three, every third
 * word replaced): neither element labels nor the content view find it, the document view does (CTM's
 * ladder, the page told to be on the wrapper's site); its row is the time of the whole ladder.
 * For each algorithm alone (default settings otherwise, so the content view follows element labels): the
 * median CPU time of one `adapt` call (labels built, candidates bounded and compared) and its ratio to
 * `parseHtml` of the same page, the two measured in turn in one process, with the candidates compared and pruned by the bounds; for the content
 * view also the tree-gram and page blocks (m, N), the m·N block checks (mostly the length bound), the
 * non-zero pairs kept and the pairs the exact alignments visited (no m × n table is built).
 * Last, wrappers made by example: the time to create one from the four field values of a book page of 1k,
 * 5k and 20k nodes, and to run it on another book page, as ratios to parsing the page.
 * Run: `npx tsx bench/wrapper.bench.ts [--reps N]`.
 */
import { contentScore } from '../src/eval/metrics.ts';
import { parseHtml } from '../src/html/parse.ts';
import { selectAll } from '../src/html/select.ts';
import type { Tree } from '../src/html/tree.ts';
import { adapt } from '../src/wrapper/adapt.ts';
import { createFromExamples } from '../src/wrapper/create.ts';
import { runWrapper } from '../src/wrapper/run.ts';
import type { AlgorithmName } from '../src/wrapper/defaults.ts';
import { instanceText, makeTreeGram } from '../src/wrapper/tree-gram.ts';
import { resolveSettings } from '../src/wrapper/wrapper.ts';
import { fmt, median, peakRss, mb, table } from './common.ts';

const repsArg = process.argv.indexOf('--reps');
const REPS = repsArg > 0 ? Number(process.argv[repsArg + 1]) : 5;

/** A page of about `cards` product cards (each ~45 nodes); `changed` renames classes and adds two levels. */
function page(cards: number, changed: boolean): string {
  const c = (name: string): string => (changed ? `${name}-v2` : name);
  const items: string[] = [];
  for (let k = 0; k < cards; k++) {
    const specs = Array.from({ length: 2 + (k % 4) }, (_, s) => `<li><b>Spec ${s}</b>: value ${k * 7 + s}</li>`).join('');
    items.push(
      `<article class="${c('card')}"><h2 class="${c('title')}"><a href="/p/${k}">Product ${k}</a></h2>` +
        `<img src="/img/${k}.jpg" alt="p${k}"><p class="${c('price')}">${10 + (k % 90)}</p>` +
        `<ul class="${c('specs')}">${specs}</ul><p class="${c('desc')}">Item ${k} is ${k % 3 ? 'blue' : 'red'} and ships in ${1 + (k % 5)} days.</p>` +
        `<div class="${c('actions')}"><button>Buy</button><a href="/w/${k}">Wish list</a></div></article>`,
    );
  }
  const listing = `<section class="${c('listing')}">${items.join('')}</section>`;
  const nav = Array.from({ length: 12 }, (_, k) => `<li><a href="/c/${k}">Category ${k}</a></li>`).join('');
  return (
    `<!DOCTYPE html><html><head><title>Shop</title></head><body><header class="${c('top')}"><nav><ul>${nav}</ul></nav></header>` +
    `<main>${changed ? `<div class="layout"><div class="col">${listing}</div></div>` : listing}</main>` +
    `<footer class="${c('foot')}"><p>© shop</p><ul>${nav}</ul></footer></body></html>`
  );
}

/**
 * Deterministic words for the document pages, skewed like a language (rank ~ u^3 over 5,000 words: a few
 * words everywhere, most rare), so that blocks share common words and differ by rare ones.
 */
function sentence(seed: number, n: number): string {
  return Array.from({ length: n }, (_, k) => {
    const u = (((seed * 2654435761 + k * 40503 + 12345) >>> 0) % 1000003) / 1000003;
    return `w${Math.floor(5000 * u * u * u)}`;
  }).join(' ');
}

/**
 * A terms document of `paragraphs` paragraphs (each with links and emphasis: about 20 nodes) on a page with
 * a navigation of about 30% of the nodes; `changed` is the CMS redesign described in the module comment.
 */
function documentPage(paragraphs: number, changed: boolean, rewritten = false): string {
  // The original nests each section in collapsible boxes (as Parship's old CMS did); the redesign is flat.
  const sections: string[] = [];
  for (let k = 0; k < paragraphs; k += 10) {
    const heading = `Section ${k / 10 + 1}: ${sentence(k + 1000, 4)}`;
    const ps: string[] = [];
    for (let q = k; q < Math.min(paragraphs, k + 10); q++) {
      const inline = Array.from({ length: 5 }, (_, r) => `${sentence(q * 5 + r, 6)} <${r % 2 ? 'em' : 'a href="#s' + r + '"'}>${sentence(q * 7 + r, 2)}</${r % 2 ? 'em' : 'a'}>`).join(' ');
      const p = `<p${changed ? '' : ' class="txt"'}>${q + 1}. ${inline} ${sentence(q, 5)}.</p>`;
      ps.push(changed && q % 5 === 2 ? `<div class="callout">${p}</div>` : p);
    }
    if (rewritten) {
      // The text rewritten as well: paragraphs merged by three, every third word replaced (no old
      // paragraph is half of a new one, so the content view sees nothing; two thirds of the words remain).
      // The inline elements stay, so the page keeps its size.
      const inner = ps.map((p) => p.replace(/^(<div class="callout">)?<p[^>]*>/, '').replace(/<\/p>(<\/div>)?$/, ''));
      ps.length = 0;
      let n = 0;
      const rewrite = (h: string): string =>
        h
          .split(/(<[^>]*>)/)
          .map((part) => (part.startsWith('<') ? part : part.replace(/\S+/g, (w) => (n++ % 3 === 2 ? `x${k}n${n}` : w))))
          .join('');
      for (let q = 0; q < inner.length; q += 3) ps.push(`<p>${rewrite(inner.slice(q, q + 3).join(' '))}</p>`);
    }
    sections.push(
      changed
        ? `<h3 class="wp-heading"><span>${heading}</span></h3>${ps.join('')}`
        : `<div class="box"><div class="box__head"><h2>${heading}</h2></div><div class="box__body"><div class="box__inner">${ps.join('')}</div></div></div>`,
    );
  }
  const navCount = Math.max(4, Math.round(paragraphs * 7));
  const nav = Array.from({ length: navCount }, (_, k) => `<li><a href="/n/${k}">${changed ? 'Menu' : 'Link'} ${k}</a></li>`).join('');
  const doc = changed
    ? `<main class="site-main"><article class="entry"><div class="entry__inner"><header><h1>Terms of use</h1></header><div class="entry__content">${sections.join('')}</div></div></article></main>`
    : `<div id="page"><div class="legalTextBox"><h1>Terms of use</h1>${sections.join('')}</div></div>`;
  const header = changed ? `<header class="masthead"><nav><ul>${nav}</ul></nav></header>` : `<div class="top"><ul class="menu">${nav}</ul></div>`;
  return `<!DOCTYPE html><html><head><title>Terms</title></head><body>${header}${doc}<footer><p>Company footer text</p></footer></body></html>`;
}

/** Median CPU milliseconds of each function, the functions run in turn `reps` times after one warm-up round. */
function interleaved(fns: ReadonlyArray<() => unknown>, reps: number): number[] {
  for (const f of fns) f();
  const samples: number[][] = fns.map(() => []);
  for (let r = 0; r < reps; r++)
    fns.forEach((f, k) => {
      const c0 = process.cpuUsage();
      f();
      const c = process.cpuUsage(c0);
      samples[k]!.push((c.user + c.system) / 1000);
    });
  return samples.map((xs) => median(xs));
}

/** Paragraphs for a document page of about `nodes` nodes (measured, then scaled). */
function paragraphsFor(nodes: number): number {
  const per = (parseHtml(documentPage(100, true)).size - parseHtml(documentPage(10, true)).size) / 90;
  return Math.max(1, Math.round(nodes / per));
}

/** Cards for a page of about `nodes` nodes (measured, then scaled). */
function cardsFor(nodes: number): number {
  const per = (parseHtml(page(100, false)).size - parseHtml(page(0, false)).size) / 100;
  return Math.max(1, Math.round((nodes - parseHtml(page(0, false)).size) / per));
}

const ALGORITHMS: readonly AlgorithmName[] = ['ctm', 'stm', 'bigram', 'jw'];
const rows: Array<Array<string | number>> = [['page nodes', 'pattern', 'gram nodes', 'algorithm', 'view', 'parse ms', 'adapt ms', 'ratio', 'content (+ document) view ratio', 'found', 'similarity', 'compared', 'pruned', 'pairs compared of m × N', 'pairs kept', 'pairs aligned']];
for (const target of [1000, 5000, 20000]) {
  const cases: Array<{ original: Tree; changed: Tree; html: string; name: string; node: number; expect: number }> = [];
  const cards = cardsFor(target);
  const original = parseHtml(page(cards, false));
  const html = page(cards, true);
  const changed: Tree = parseHtml(html);
  cases.push({ original, changed, html, name: 'card', node: selectAll(original, 'article.card')[cards >> 1]!, expect: selectAll(changed, 'article.card-v2')[cards >> 1]! });
  cases.push({ original, changed, html, name: 'listing', node: selectAll(original, 'section.listing')[0]!, expect: selectAll(changed, 'section.listing-v2')[0]! });
  const paragraphs = paragraphsFor(target);
  const docOriginal = parseHtml(documentPage(paragraphs, false));
  const docHtml = documentPage(paragraphs, true);
  const docChanged = parseHtml(docHtml);
  cases.push({ original: docOriginal, changed: docChanged, html: docHtml, name: 'document', node: selectAll(docOriginal, 'div.legalTextBox')[0]!, expect: selectAll(docChanged, 'div.entry__inner')[0]! });
  const movedHtml = documentPage(paragraphs, true, true);
  const moved = parseHtml(movedHtml);
  cases.push({ original: docOriginal, changed: moved, html: movedHtml, name: 'moved', node: selectAll(docOriginal, 'div.legalTextBox')[0]!, expect: selectAll(moved, 'div.entry__inner')[0]! });
  for (const p of cases) {
    const gram = makeTreeGram(p.original, [p.node], 1);
    for (const algorithm of p.name === 'moved' ? (['ctm'] as const) : ALGORITHMS) {
      const settings = { ...resolveSettings({}), algorithms: [algorithm] };
      const options = p.name === 'moved' ? { sameSite: true } : {};
      const a = adapt(p.changed, 0, gram, settings, options);
      // Interleaved (parse, adapt, adapt with the content view off, parse, …) so that the machine's load
      // weighs on all three alike; CPU-time medians (bench/common.ts).
      const tagsSettings = { ...settings, content: false };
      const runs = interleaved([() => parseHtml(p.html), () => adapt(p.changed, 0, gram, settings, options), () => adapt(p.changed, 0, gram, tagsSettings)], REPS);
      const parsed = { median: runs[0]! };
      const t = { median: runs[1]! };
      const tagsOnly = a.view === 'content' || a.view === 'document' ? runs[2]! : t.median;
      // An element holding exactly the expected text is right (main > article > div hold the same words).
      const right = a.nodes.length === 1 && (a.nodes[0] === p.expect || instanceText(p.changed, a.nodes[0]!) === instanceText(p.changed, p.expect));
      rows.push([
        p.changed.size,
        p.name,
        gram.instances[0]!.tags.length,
        algorithm,
        a.view ?? '—',
        fmt(parsed.median, 2),
        fmt(t.median, 2),
        fmt(t.median / parsed.median, 2),
        fmt((t.median - tagsOnly) / parsed.median, 2),
        right ? 'yes' : a.step === 'not-found' ? 'no' : `other (F1 ${fmt(contentScore(a.nodes.map((n) => instanceText(p.changed, n)).join(' '), instanceText(p.changed, p.expect)).f1, 3)})`,
        fmt(a.similarity, 3),
        a.compared,
        a.pruned,
        a.content && a.content.checks > 0 ? `${a.content.checks} of ${a.content.blocks} × ${a.content.pageBlocks}` : '—',
        a.content ? a.content.pairs : '—',
        a.content ? a.content.aligned : '—',
      ]);
    }
  }
}
process.stdout.write(table(rows) + '\n');

/**
 * A book page of about N nodes for the by-example rows: a navigation, the record (title, authors, facts
 * as bare text after bold labels), a description of many paragraphs and a list of related books, whose
 * markup repeats the record's (titles, authors): what examples must be told apart from.
 */
function bookPage(n: number, k: number): string {
  const nav = Array.from({ length: 20 }, (_, j) => `<li><a href="/c/${j}">Category ${j}</a></li>`).join('');
  const related = Array.from({ length: 12 }, (_, j) => `<li><h3><a href="/b/${j}">Related book ${k + j}</a></h3><span class="by">by <a href="/author/${j}">Writer ${j}</a></span></li>`).join('');
  const paragraphs: string[] = [];
  const base = parseHtml(`<div>${nav}${related}</div>`).size + 40;
  for (let size = base; size < n; size += 6) paragraphs.push(`<p>Paragraph ${paragraphs.length} of book ${k}, with <em>some</em> words and a <a href="/x">link</a>.</p>`);
  return (
    `<!DOCTYPE html><html><head><title>Book ${k}</title></head><body><nav><ul>${nav}</ul></nav><div id="book">` +
    `<h1>The Title of Book ${k}</h1><div class="byline">by <a href="/author/a${k}">Author ${k}</a></div>` +
    `<div class="facts"><b>Publisher:</b> House ${k % 7}<br><b>Publication Date:</b> June ${2000 + (k % 20)}<br><b>Pages:</b> ${100 + k}<br></div>` +
    `<div class="description">${paragraphs.join('')}</div></div><aside><ul class="related">${related}</ul></aside></body></html>`
  );
}

const exampleRows: Array<Array<string | number>> = [['page nodes', 'parse ms', 'create by example ms', 'ratio', 'run ms (selectors)', 'ratio', 'fields right']];
for (const target of [1000, 5000, 20000]) {
  const html = bookPage(target, 1);
  const other = bookPage(target, 2);
  const tree = parseHtml(html);
  const otherTree = parseHtml(other);
  const values = { title: 'The Title of Book 1', author: 'Author 1', publisher: 'House 1', publication_date: 'June 2001' };
  const made = createFromExamples([{ tree, values }]).wrapper;
  const run = runWrapper(made, otherTree, 'other');
  const expected: Record<string, string> = { title: 'The Title of Book 2', author: 'Author 2', publisher: 'House 2', publication_date: 'June 2002' };
  const right = Object.entries(expected).filter(([k, v]) => run.record[k] === v).length;
  const [parse, create, exec] = interleaved([() => parseHtml(html), () => createFromExamples([{ tree, values }]), () => runWrapper(made, otherTree, 'other')], REPS);
  exampleRows.push([tree.size, fmt(parse!, 2), fmt(create!, 2), fmt(create! / parse!, 2), fmt(exec!, 2), fmt(exec! / parse!, 2), `${right}/4`]);
}
process.stdout.write('\nWrappers by example on a book page (four fields: two by path, two after labels), run on another book page\n');
process.stdout.write(table(exampleRows) + '\n');
process.stdout.write(`peak RSS ${fmt(mb(peakRss()), 0)} MB\n`);
