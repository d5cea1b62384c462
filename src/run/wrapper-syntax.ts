/**
 * The syntax of a wrapper's patterns and examples as a user writes them (`gabarit wrapper create`, scripts):
 * `name=selector`, `name[]=selector` (a list), `parent/child=selector`, with `@attr`, `::after` or `::own`
 * for what the value is; `[page:]name=value` examples, and a JSON file of examples per page. A bad one is a
 * UsageError naming the flag.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { UsageError } from '../errors.ts';
import type { PatternSpec } from '../wrapper/create.ts';

/** `name=selector`, `name[]=selector`, `parent/child=selector` → nested pattern specs. */
export function parsePatternFlags(flags: readonly string[]): PatternSpec[] {
  const top: PatternSpec[] = [];
  const byName = new Map<string, PatternSpec>();
  for (const f of flags) {
    const eq = f.indexOf('=');
    if (eq <= 0) throw new UsageError(`--pattern ${JSON.stringify(f)}: expected name=selector`);
    let path = f.slice(0, eq).trim();
    const { selector, value } = selectorAndValue(f.slice(eq + 1).trim());
    if (selector === '') throw new UsageError(`--pattern ${JSON.stringify(f)}: the selector is empty`);
    const multiple = path.endsWith('[]');
    if (multiple) path = path.slice(0, -2);
    const parts = path.split('/');
    const name = parts[parts.length - 1]!;
    if (!/^[A-Za-z_][\w-]*$/.test(name)) throw new UsageError(`--pattern ${JSON.stringify(f)}: "${name}" is not a valid name (letters, digits, _ and -)`);
    if (byName.has(name)) throw new UsageError(`--pattern ${JSON.stringify(f)}: pattern "${name}" is declared twice`);
    const spec: PatternSpec = { name, selector, ...(multiple ? { multiple: true } : {}), ...(value !== undefined ? { value } : {}) };
    byName.set(name, spec);
    if (parts.length === 1) top.push(spec);
    else {
      const parent = byName.get(parts[parts.length - 2]!);
      if (!parent) throw new UsageError(`--pattern ${JSON.stringify(f)}: declare the parent pattern "${parts[parts.length - 2]}" first`);
      (parent.children ??= []).push(spec);
    }
  }
  return top;
}

/**
 * A pattern's selector and what its value is, from the text after `name=`: a trailing `@attr` is an
 * attribute (an XPath's `/@attr` step too), `::after` the text after the element (a label), `::own` its
 * own text nodes, `::text` its text (the default).
 */
export function selectorAndValue(raw: string): { selector: string; value?: string } {
  const pseudo = /^(.*?)\s*::(after|own|text)$/.exec(raw);
  if (pseudo) return pseudo[2] === 'text' ? { selector: pseudo[1]! } : { selector: pseudo[1]!, value: pseudo[2]! };
  const attr = /^(.*?[^\s@])\s*@([A-Za-z_][\w:.-]*)$/.exec(raw);
  if (attr) {
    const selector = /^\s*(?:[/(]|\.\.?\/)/.test(attr[1]!) ? attr[1]!.replace(/\/+$/, '') : attr[1]!;
    return { selector, value: `@${attr[2]!.toLowerCase()}` };
  }
  return { selector: raw };
}

/** Adds one example value of `name` to a page's values: a name given twice, or as `name[]`, is a list. */
function addExample(values: Record<string, string | string[]>, name: string, value: string, list: boolean): void {
  const had = values[name];
  values[name] = had === undefined ? (list ? [value] : value) : [...(Array.isArray(had) ? had : [had]), value];
}

/** A name of an example, with `[]` for a list: the name and whether it is a list, or a usage error. */
function exampleName(raw: string, what: string): { name: string; list: boolean } {
  let name = raw.trim();
  const list = name.endsWith('[]');
  if (list) name = name.slice(0, -2);
  if (!/^[A-Za-z_][\w-]*$/.test(name)) throw new UsageError(`${what}: "${name}" is not a valid name (letters, digits, _ and -)`);
  return { name, list };
}

/**
 * The index of the page an example names: a page argument as given, else the one page argument with that
 * file name. A usage error otherwise.
 */
function pageIndex(page: string, pages: readonly string[], what: string): number {
  const exact = pages.indexOf(page);
  if (exact >= 0) return exact;
  const byName = pages.flatMap((p, k) => (basename(p) === page ? [k] : []));
  if (byName.length === 1) return byName[0]!;
  throw new UsageError(`${what}: ${byName.length > 1 ? `"${page}" names several pages` : `"${page}" is not one of the pages given`} (${pages.join(', ')})`);
}

/** The JSON examples file: per page, per name, a value or a list of values. */
export function readExamplesFile(file: string): Record<string, Record<string, string | string[]>> {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`--examples ${file}: ${(e as Error).message}`);
  }
  const bad = (why: string): never => {
    throw new UsageError(`--examples ${file}: ${why} (expected {"page.html": {"name": "value", "list": ["v1", "v2"]}, …})`);
  };
  if (!data || typeof data !== 'object' || Array.isArray(data)) bad('not an object');
  const out: Record<string, Record<string, string | string[]>> = {};
  for (const [page, values] of Object.entries(data as Record<string, unknown>)) {
    if (!values || typeof values !== 'object' || Array.isArray(values)) bad(`the values of "${page}" are not an object`);
    const v: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
      if (typeof value === 'string') v[name] = value;
      else if (Array.isArray(value) && value.every((x) => typeof x === 'string')) v[name] = value as string[];
      else bad(`"${page}": "${name}" is neither a string nor a list of strings`);
    }
    out[page] = v;
  }
  return out;
}

/**
 * Example values per page (in the order of `pages`) from `--example [page:]name=value` flags and the
 * examples file: without a page, the first page; a name given twice on a page, or as `name[]`, is a list
 * (an array of its values).
 */
export function parseExampleFlags(
  flags: readonly string[],
  pages: readonly string[],
  file?: Readonly<Record<string, Record<string, string | string[]>>>,
): Array<Record<string, string | string[]>> {
  const out = pages.map((): Record<string, string | string[]> => ({}));
  for (const [page, values] of Object.entries(file ?? {})) {
    const k = pageIndex(page, pages, '--examples');
    for (const [raw, value] of Object.entries(values)) {
      const { name, list } = exampleName(raw, `--examples "${page}"`);
      for (const v of Array.isArray(value) ? value : [value]) addExample(out[k]!, name, v, list || Array.isArray(value));
    }
  }
  for (const f of flags) {
    const eq = f.indexOf('=');
    const what = `--example ${JSON.stringify(f)}`;
    if (eq <= 0) throw new UsageError(`${what}: expected [page:]name=value`);
    const left = f.slice(0, eq);
    const colon = left.lastIndexOf(':');
    const k = colon >= 0 ? pageIndex(left.slice(0, colon), pages, what) : 0;
    const { name, list } = exampleName(left.slice(colon + 1), what);
    addExample(out[k]!, name, f.slice(eq + 1), list);
  }
  return out;
}
