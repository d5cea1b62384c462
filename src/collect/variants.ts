/**
 * Language and version switchers: links from a page to the same page in another language or version
 * (`/docs/setup` → `/fr/docs/setup`, `/zh-Hans/docs/setup`, `/v2/docs/setup`). Paper 4 knows only link
 * collections; a switcher is one too, and a homologous one (its pages have the page's structure), but it
 * behaves unlike the others in a crawl: every page of a class carries it, its links lead to a parallel copy
 * of the site, and on a copy of a site (a mirror of one language, a corpus subset) most of them are dead.
 * INDESIT (indesit.ts) follows a variant like any link, but keeps count per variant (`fr`, `zh-Hans`, `v2`):
 * once n links to one variant were dead and none led to a page, no more links to that variant are tried.
 *
 * A link is a variant of its page when their keys (paths relative to the site root) differ by exactly one
 * path segment, inserted, removed or replaced, that is not the page's own name (the last segment), and that
 * segment looks like a language tag (BCP 47: `fr`, `pt-BR`, `zh-Hans`) or a version (`v2`, `2.x`, `1.4`,
 * `latest`, `stable`, `next`, `dev`). The name test keeps section changes (`/tags/python` ↔
 * `/categories/python`) from passing for variants.
 */

/** A language tag (`fr`, `pt-BR`, `zh-Hans`, `sr-Latn-RS`) or a version (`v2`, `2.x`, `1.4.3`, `latest`…). */
const VARIANT_SEGMENT = /^(?:[a-z]{2,3}(?:[-_][A-Za-z]{4})?(?:[-_](?:[A-Z]{2}|\d{3}))?|[a-z]{2,3}[-_][a-z]{2}|v?\d+(?:\.(?:\d+|x))*|latest|stable|next|dev|main|master|current)$/;

/**
 * The variant that `linkKey` is of `pageKey` (the differing segment, prefixed by its position and how it
 * differs: `+0:fr` inserted first, `-0:en` removed, `~0:v2` replaced), or undefined when it is not a variant.
 */
export function variantOf(pageKey: string, linkKey: string): string | undefined {
  if (pageKey === linkKey) return undefined;
  const a = segments(pageKey);
  const b = segments(linkKey);
  if (a.length === 0 || b.length === 0 || a[a.length - 1] !== b[b.length - 1]) return undefined;
  if (a.length === b.length) {
    let at = -1;
    for (let k = 0; k < a.length; k++) {
      if (a[k] === b[k]) continue;
      if (at >= 0) return undefined;
      at = k;
    }
    return at >= 0 && at < a.length - 1 && isVariantSegment(b[at]!) && isVariantSegment(a[at]!) ? `~${at}:${b[at]}` : undefined;
  }
  const [long, short, sign] = a.length === b.length + 1 ? [a, b, '-'] : b.length === a.length + 1 ? [b, a, '+'] : [null, null, ''];
  if (long === null || short === null) return undefined;
  let at = 0;
  while (at < short.length && long[at] === short[at]) at++;
  for (let k = at; k < short.length; k++) if (long[k + 1] !== short[k]) return undefined;
  return at < long.length - 1 && isVariantSegment(long[at]!) ? `${sign}${at}:${long[at]}` : undefined;
}

function isVariantSegment(s: string): boolean {
  return VARIANT_SEGMENT.test(s);
}

/**
 * The '/'-separated segments of a key, its query (if any) on the last one, without the extension of a page
 * file: a static host serves `fr/docs/setup` from `fr/docs/setup.html`, and a mirror's key of the page
 * linking to it may be either.
 */
function segments(key: string): string[] {
  const out = key.split('/').filter((s) => s !== '');
  const last = out.length - 1;
  if (last >= 0) out[last] = out[last]!.replace(/\.(?:html?|xhtml)$/i, '');
  return out;
}
