/**
 * One template per language (not in paper 1, which assumes one template per site). A template is made of
 * tags *and text* (paper 1, section 2: a token is a tag or a text snippet), and the text of a site's
 * template is written in the page's language: the menus, "Edit this page", "On this page", "Next" of a
 * site in two languages are two sets of tokens, each on about half of the pages. A consensus over a sample
 * mixing the languages gives each of them about half of the evidence, below the majority the consensus
 * keeps (consensus.ts), so the template of such a site loses its words. Pages therefore learn and apply
 * the template of their own language when the site declares several:
 *  - a page's language is the `lang` attribute of its `<html>` start tag (what every site generator
 *    writes), reduced to its language and script subtags (`en-US` → `en`, `zh-Hans-CN` → `zh-hans`: the
 *    region does not change the words, the script does);
 *  - when at least two languages have `MIN_LANGUAGE_PAGES` pages each, each of them gets its own template
 *    (learned from a sample of its pages); the other pages (no `lang`, a rarer language) get a template
 *    learned from all pages, as a site of one language does. That template is learned even when no page
 *    is left for it: a learned template applied later (`gabarit apply`) may meet a page of another
 *    language, or of none.
 */
import { NodeKind, tagId, type Tree } from '../../html/tree.ts';

/** Pages a language needs for a template of its own: half of paper 1's 16-page sample. */
export const MIN_LANGUAGE_PAGES = 8;

/** Bytes of a page searched for its `<html>` start tag. */
const HEAD_BYTES = 4096;

/** The declared language of a page (see the module comment), or undefined. Reads the raw bytes (the tag is ASCII). */
export function declaredLanguage(body: Uint8Array): string | undefined {
  const n = Math.min(body.length, HEAD_BYTES);
  let head = '';
  for (let i = 0; i < n; i++) head += String.fromCharCode(body[i]!);
  return languageOfHead(head);
}

/**
 * The same of a page given as decoded text (applying a learned template): its first `HEAD_BYTES`
 * characters, which are its first bytes as long as what precedes the `<html>` tag is ASCII (a doctype,
 * comments).
 */
export function declaredLanguageOfText(html: string): string | undefined {
  return languageOfHead(html.slice(0, HEAD_BYTES));
}

/** The same of a parsed page: the `lang` attribute of its `<html>` element. */
export function declaredLanguageOfTree(tree: Tree): string | undefined {
  const html = tagId('html');
  for (let i = 0; i < tree.size; i++) {
    if (tree.kind[i] === NodeKind.Element && tree.name[i] === html) return languageTag(tree.attr(i, 'lang') ?? '');
  }
  return undefined;
}

/** The language of the `<html>` start tag in `head`. */
function languageOfHead(head: string): string | undefined {
  const tag = /<html\b[^>]*>/i.exec(head);
  if (!tag) return undefined;
  const lang = /\slang\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag[0]);
  return languageTag(lang?.[1] ?? lang?.[2] ?? lang?.[3] ?? '');
}

/** A `lang` value reduced to its language and script subtags (see the module comment), or undefined. */
function languageTag(raw: string): string | undefined {
  const value = raw.trim().toLowerCase();
  if (!/^[a-z]{2,8}(-[a-z0-9]{1,8})*$/.test(value)) return undefined;
  const parts = value.split('-');
  const script = parts.length > 1 && /^[a-z]{4}$/.test(parts[1]!) ? '-' + parts[1] : '';
  return parts[0]! + script;
}

/** Pages of one template: a language's pages (language set), or the rest of the site (language undefined). */
export interface LanguageGroup {
  language: string | undefined;
  keys: string[];
}

/**
 * Splits page keys by declared language (see the module comment). One group of all keys when fewer than
 * two languages reach `minPages`; else one group per such language, then a group of all the keys (its
 * template serves the pages of no group) whose `serves` lists those pages (maybe none).
 */
export function languageGroups(keys: readonly string[], languageOf: ReadonlyMap<string, string | undefined>, minPages = MIN_LANGUAGE_PAGES): Array<LanguageGroup & { serves: string[] }> {
  const byLanguage = new Map<string, string[]>();
  for (const k of keys) {
    const l = languageOf.get(k);
    if (l === undefined) continue;
    let list = byLanguage.get(l);
    if (!list) byLanguage.set(l, (list = []));
    list.push(k);
  }
  const big = [...byLanguage].filter(([, ks]) => ks.length >= minPages).sort((x, y) => (x[0] < y[0] ? -1 : 1));
  if (big.length < 2) return [{ language: undefined, keys: [...keys], serves: [...keys] }];
  const out: Array<LanguageGroup & { serves: string[] }> = big.map(([language, ks]) => ({ language, keys: ks, serves: ks }));
  const covered = new Set(big.flatMap(([, ks]) => ks));
  out.push({ language: undefined, keys: [...keys], serves: keys.filter((k) => !covered.has(k)) });
  return out;
}
