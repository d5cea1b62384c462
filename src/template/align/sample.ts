/**
 * Choice of the t sample pages the template is learned from (paper 1, section 2: "a set t pages"; the
 * paper's experiments use t = 16 and do not say how the pages are drawn).
 *
 * Choice made here: spread over the site. Page keys (paths relative to the source root) are sorted, which
 * groups the pages of one section together (`blog/…`, `docs/…`, `tags/…`), and t keys are taken at evenly
 * spaced ranks (the middle of each of t equal slices). A site whose sections hold different page classes
 * then contributes pages of each class in proportion to its size, so the consensus keeps what all classes
 * share (the template) rather than one class's layout. The sample is returned in key order, which is also
 * the order in which consensus.ts pairs it: the result depends only on the set of keys, never on the order
 * in which a source yields its pages. Deterministic: no randomness, so runs are reproducible.
 */

/** Compares strings by UTF-16 code units (locale-independent, stable across machines). */
export function compareKeys(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Picks `n` keys spread evenly over the sorted keys (all of them, sorted, when there are at most n). */
export function chooseSample(keys: Iterable<string>, n: number): string[] {
  const sorted = [...new Set(keys)].sort(compareKeys);
  if (n <= 0) return [];
  if (sorted.length <= n) return sorted;
  const out: string[] = [];
  for (let k = 0; k < n; k++) out.push(sorted[Math.floor(((k + 0.5) * sorted.length) / n)]!);
  return out;
}
