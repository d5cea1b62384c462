/**
 * What the fuzzer checks on each input. A finding is:
 *  - an exception from a step that must never throw on any page (decoding, both parsers, serialising, every
 *    per-page step of steps.ts), whatever its type;
 *  - an exception that is not a GabaritError (PageError, EngineError, UsageError, WrapperError…) from an
 *    engine run, clustering, INDESIT or the wrapper: those may refuse a page or a site, but only by a typed
 *    error that the CLI turns into a message;
 *  - a broken invariant: a tree that fails checkTree, deeper than the parsers' limit, or that serialising
 *    then parsing again (with the same parser) changes; a page whose output files cannot be written.
 * Hangs are the caller's (a timeout in the test, a watchdog in scripts/fuzz.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clusterSourceBySchema } from '../../src/cluster/schema.ts';
import { indesit } from '../../src/collect/indesit.ts';
import { GabaritError } from '../../src/errors.ts';
import { decodeHtml } from '../../src/html/charset.ts';
import { MAX_DEPTH } from '../../src/html/depth-limit.ts';
import { Namespace, namespaceOf } from '../../src/html/namespace.ts';
import { LabelTable } from '../../src/html/labels.ts';
import { parseHtml, parseHtmlExact } from '../../src/html/parse.ts';
import { cssPath } from '../../src/html/paths.ts';
import { selectAll } from '../../src/html/select.ts';
import { serialize } from '../../src/html/serialize.ts';
import { NodeKind, type Tree } from '../../src/html/tree.ts';
import { extractContent } from '../../src/run/content.ts';
import { runEngine, type PipelineRun } from '../../src/run/drive.ts';
import { writeOutputs } from '../../src/run/write.ts';
import type { PageFailure } from '../../src/output.ts';
import { MemorySource, type MemoryPage } from '../../src/site/memory-source.ts';
import { ENGINES } from '../../src/template/engines.ts';
import { BAD_OPTION } from '../../src/template/options.ts';
import type { TemplateEngine } from '../../src/template/engine.ts';
import { createWrapper } from '../../src/wrapper/create.ts';
import { runWrapper } from '../../src/wrapper/run.ts';
import { checkTree } from '../html/invariants.ts';
import type { EncodedPage } from './generate.ts';
import type { Rng } from './rng.ts';
import { PAGE_STEPS } from './steps.ts';

/** Something the fuzzer found. */
export interface Finding {
  /** Where: `parse (fast)`, `round trip (exact)`, `engine align`, `wrapper run`… */
  stage: string;
  /** An exception that is not a GabaritError (or any exception where none is allowed). */
  untyped: boolean;
  message: string;
}

function describe(e: unknown): string {
  const err = e as { name?: unknown; message?: unknown; stack?: unknown };
  const head = `${String(err?.name ?? 'Error')}: ${String(err?.message ?? e)}`;
  const at = typeof err?.stack === 'string' ? err.stack.split('\n').find((l) => /\/src\//.test(l))?.trim() : undefined;
  return at ? `${head} (${at})` : head;
}

/** Runs `fn`; any exception is a finding. */
function mustNotThrow<T>(found: Finding[], stage: string, fn: () => T): T | undefined {
  try {
    return fn();
  } catch (e) {
    found.push({ stage, untyped: !(e instanceof GabaritError), message: describe(e) });
    return undefined;
  }
}

/** Awaits `fn`; an exception that is not a GabaritError is a finding. */
async function typedOnly<T>(found: Finding[], stage: string, fn: () => Promise<T> | T): Promise<T | undefined> {
  try {
    return await fn();
  } catch (e) {
    if (!(e instanceof GabaritError)) found.push({ stage, untyped: true, message: describe(e) });
    return undefined;
  }
}

/** The first difference between two trees, or undefined when they are equal. */
export function treeDifference(a: Tree, b: Tree): string | undefined {
  if (a.size !== b.size) return `size ${a.size} vs ${b.size}`;
  for (const f of ['kind', 'name', 'parent', 'end'] as const) {
    for (let i = 0; i < a.size; i++) if (a[f][i] !== b[f][i]) return `${f} of node ${i} (<${a.tag(i) || JSON.stringify(a.nodeText(i).slice(0, 30))}>): ${a[f][i]} vs ${b[f][i]}`;
  }
  for (let i = 0; i < a.size; i++) {
    if (a.nodeText(i) !== b.nodeText(i)) return `text of node ${i}: ${JSON.stringify(a.nodeText(i).slice(0, 60))} vs ${JSON.stringify(b.nodeText(i).slice(0, 60))}`;
    if (a.kind[i] === NodeKind.Element && JSON.stringify(a.attrs(i)) !== JSON.stringify(b.attrs(i))) return `attributes of node ${i} <${a.tag(i)}>`;
  }
  return undefined;
}

/** Start tags that close an open `<p>` in button scope (WHATWG "in body"); table too in standards mode. */
const CLOSES_P = new Set([
  'address', 'article', 'aside', 'blockquote', 'center', 'details', 'dialog', 'dir', 'div', 'dl', 'fieldset', 'figcaption', 'figure',
  'footer', 'header', 'hgroup', 'main', 'menu', 'nav', 'ol', 'p', 'search', 'section', 'summary', 'ul', 'h1', 'h2', 'h3', 'h4', 'h5',
  'h6', 'pre', 'listing', 'form', 'plaintext', 'xmp', 'hr', 'li', 'dd', 'dt', 'table',
]);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const FORMATTING = new Set(['a', 'b', 'big', 'code', 'em', 'font', 'i', 'nobr', 's', 'small', 'strike', 'strong', 'tt', 'u']);
const NOT_NESTED = new Set(['a', 'nobr', 'form', 'rt', 'rp', 'rb', 'rtc']);
const RUBY_TEXT = new Set(['rt', 'rp', 'rb', 'rtc']);
/** Elements that put a marker in the list of active formatting elements. */
const MARKERS = new Set(['applet', 'object', 'marquee', 'template', 'td', 'th', 'caption']);
/** Elements that end the button scope a `<p>` is looked for in. */
const SCOPE_ENDS = new Set(['applet', 'caption', 'html', 'table', 'td', 'th', 'marquee', 'object', 'template', 'button']);
/** Also ending it, as MathML or SVG elements. */
const FOREIGN_SCOPE_ENDS = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title']);

/**
 * Why a tree built by the exact path cannot be written as HTML that reads back the same, or undefined.
 * The WHATWG algorithm builds some trees that no markup expresses (by foster parenting, the adoption
 * agency, the form element pointer, or raw text that never ended): an `<a>` inside an `<a>`, a `<nobr>`
 * inside a `<nobr>`, a form inside a form, ruby text inside ruby text, nodes after `<body>`, a block that closes paragraphs inside a paragraph, a heading right inside a heading, a list item inside
 * a list item, a formatting element inside three like it, elements inside or after `<plaintext>`, a
 * script whose text opened an escape it never closed. docs/robustness.md lists them.
 */
export function inexpressible(t: Tree): string | undefined {
  for (let i = 1; i < t.size; i++) {
    if (t.kind[i] !== NodeKind.Element) continue;
    const tag = t.tag(i).toLowerCase();
    if (tag === 'plaintext' && (t.end[i]! < t.size || t.elementChildren(i).length > 0)) return 'plaintext holding elements or followed by nodes';
    if (tag === 'script' && /<!--/.test(t.text.slice(t.textStart[i + 1] ?? 0, t.textEnd[i + 1] ?? 0)) && /<script/i.test(t.nodeText(i + 1))) return 'script text in an unclosed escape';
    if (FORMATTING.has(tag)) {
      // Noah's Ark keeps three like formatting elements: a fourth one's end tag does not find it.
      let same = 0;
      const key = JSON.stringify(t.attrs(i));
      for (let p = t.parent[i]!; p > 0; p = t.parent[p]!) if (t.tag(p).toLowerCase() === tag && JSON.stringify(t.attrs(p)) === key) same++;
      if (same >= 3) return `<${tag}> inside three like it`;
    }
    // An <a> inside an <a> (the adoption agency looks back to the last marker), a <nobr> inside a <nobr>
    // (in scope), a form inside a form, ruby text inside ruby text.
    for (let p = t.parent[i]!; p > 0 && NOT_NESTED.has(tag); p = t.parent[p]!) {
      const up = t.tag(p).toLowerCase();
      if (up === tag || (RUBY_TEXT.has(tag) && RUBY_TEXT.has(up))) return `<${tag}> inside <${up}>`;
      if ((tag === 'a' && MARKERS.has(up)) || (tag === 'nobr' && (MARKERS.has(up) || up === 'table')) || up === 'template' || (RUBY_TEXT.has(tag) && up === 'ruby')) break;
    }
    // After </body> everything goes back into the body: nothing but comments and blanks follows it.
    if (tag === 'body' && t.parent[i] !== 0) {
      const html = t.parent[i]!;
      for (let n = t.end[i]!; n < t.end[html]!; n = t.end[n]!) if (t.kind[n] === NodeKind.Element || t.kind[n] === NodeKind.Text) return 'nodes after <body>';
    }
    for (let p = t.parent[i]!; p > 0; p = t.parent[p]!) {
      const up = t.tag(p).toLowerCase();
      if (CLOSES_P.has(tag) && up === 'p') return `<${tag}> inside <p>`;
      if (HEADINGS.has(tag) && HEADINGS.has(up) && p === t.parent[i]) return `<${tag}> right inside <${up}>`;
      if ((tag === 'li' && up === 'li') || ((tag === 'dd' || tag === 'dt') && (up === 'dd' || up === 'dt'))) return `<${tag}> inside <${up}>`;
      if (up === 'ol' || up === 'ul' || up === 'dl') break;
      if (SCOPE_ENDS.has(up) || up === 'svg' || up === 'math' || (FOREIGN_SCOPE_ENDS.has(up) && namespaceOf(t, p) !== Namespace.Html)) break;
    }
  }
  return undefined;
}

function maxDepth(t: Tree): number {
  let d = 0;
  for (let i = 0; i < t.size; i++) if (t.depth[i]! > d) d = t.depth[i]!;
  return d;
}

/** The per-page checks of one page; returns the fast-path tree (for the site checks) and what was found. */
export function checkPage(page: EncodedPage, url: string): { findings: Finding[]; tree?: Tree; html?: string } {
  const found: Finding[] = [];
  const decoded = mustNotThrow(found, 'decode', () => decodeHtml(page.bytes, page.contentType));
  if (!decoded) return { findings: found };
  const html = decoded.text;
  let fast: Tree | undefined;
  for (const [name, parse] of [['fast', parseHtml], ['exact', parseHtmlExact]] as const) {
    const labels = new LabelTable();
    const tree = mustNotThrow(found, `parse (${name})`, () => parse(html, { labels }));
    if (!tree) continue;
    mustNotThrow(found, `tree invariants (${name})`, () => checkTree(tree, name));
    // The element past the limit and its text: two levels below the limit's element (plus html/body implied).
    if (maxDepth(tree) > MAX_DEPTH + 3) found.push({ stage: `depth limit (${name})`, untyped: false, message: `tree depth ${maxDepth(tree)}` });
    const again = mustNotThrow(found, `serialize (${name})`, () => parse(serialize(tree), { labels }));
    const diff = again ? treeDifference(tree, again) : undefined;
    // Trees no markup expresses (see `inexpressible`) are not the serialiser's to keep.
    if (diff && !(name === 'exact' && inexpressible(tree))) found.push({ stage: `round trip (${name})`, untyped: false, message: diff });
    if (name === 'fast') {
      fast = tree;
      for (const step of PAGE_STEPS) mustNotThrow(found, step.name, () => step.run({ html, url, tree, labels }));
    }
  }
  return fast ? { findings: found, tree: fast, html } : { findings: found };
}

/** Every registered template engine, loaded once. */
let engines: Array<[string, TemplateEngine]> | undefined;
async function allEngines(): Promise<Array<[string, TemplateEngine]>> {
  engines ??= await Promise.all(Object.keys(ENGINES).map(async (n) => [n, await ENGINES[n]!()] as [string, TemplateEngine]));
  return engines;
}

/**
 * A site of a few pages: every engine and the content pipeline through the library's run layer (runEngine,
 * extractContent; the output contract written by writeOutputs when `writeOutput`), clustering, INDESIT and
 * a wrapper on it.
 */
export async function checkSite(rng: Rng, pages: readonly (MemoryPage & { tree?: Tree })[], options: { writeOutput?: boolean } = {}): Promise<Finding[]> {
  const found: Finding[] = [];
  const source = (): MemorySource => new MemorySource(pages.map(({ key, body, headers }) => (headers ? { key, body, headers } : { key, body })));
  const out = options.writeOutput ? await mkdtemp(join(tmpdir(), 'gabarit-fuzz-')) : undefined;
  try {
    const runs: Array<[string, () => PipelineRun]> = [];
    for (const [name, engine] of await allEngines()) {
      const o = name === 'pagelets' ? { workers: 0 } : {};
      runs.push([name, () => runEngine(engine, source(), { options: o, onWarning: () => undefined })]);
      if (name === 'pagelets') runs.push(['pagelets --global', () => runEngine(engine, source(), { options: { ...o, global: true, backend: 'memory' }, onWarning: () => undefined })]);
    }
    runs.push(['content', () => extractContent(source(), { onWarning: () => undefined })]);
    for (const [name, run] of runs) {
      const written: PageFailure[] = [];
      const result = await typedOnly(found, `engine ${name}`, async () => {
        if (out) return (await writeOutputs(run(), { out: join(out, name.replace(/\W+/g, '-')), onFailure: (f) => written.push(f) })).result;
        // Without output, the run's pages are taken as they come; an engine's typed error ends the iteration.
        const r = run();
        try {
          for await (const _ of r) void _;
        } catch (e) {
          if (!(e instanceof GabaritError)) throw e;
        }
        return r.result();
      });
      // An option the engine refuses is the fuzzer's own mistake: it would hide the engine from the fuzz.
      if (result?.error?.code === BAD_OPTION) found.push({ stage: `engine ${name}`, untyped: false, message: result.error.message });
      for (const f of written) if (f.code === 'write-error' || f.code === 'internal-error') found.push({ stage: `output ${name}`, untyped: f.code === 'internal-error', message: f.message });
    }
    await typedOnly(found, 'cluster by schema', () => clusterSourceBySchema(source()));
    const first = pages[0];
    if (first) await typedOnly(found, 'collect (INDESIT)', () => indesit(source(), first.key, { maxDownloads: 20 }));
    // A wrapper on a random element of one page, run on another.
    const withTrees = pages.filter((p) => p.tree !== undefined);
    if (withTrees.length >= 1) {
      const from = rng.pick(withTrees).tree!;
      const to = rng.pick(withTrees).tree!;
      const elements: number[] = [];
      for (let i = 1; i < from.size; i++) if (from.kind[i] === NodeKind.Element) elements.push(i);
      if (elements.length > 0) {
        const el = rng.pick(elements);
        const selector = mustNotThrow(found, 'wrapper: cssPath', () => cssPath(from, el));
        if (selector !== undefined) {
          const hits = mustNotThrow(found, 'wrapper: select the cssPath', () => selectAll(from, selector));
          if (hits && !(hits.length === 1 && hits[0] === el)) found.push({ stage: 'wrapper: cssPath', untyped: false, message: `${JSON.stringify(selector)} selects ${hits.length} element(s), not only element ${el} <${from.tag(el)}>` });
          const wrapper = await typedOnly(found, 'wrapper create', () => createWrapper(from, [{ name: 'field', selector }]));
          if (wrapper) await typedOnly(found, 'wrapper run', () => runWrapper(wrapper, to, 'other.html'));
        }
      }
    }
  } finally {
    if (out) await rm(out, { recursive: true, force: true });
  }
  return found;
}
