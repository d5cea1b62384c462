/**
 * The self-healing wrapper demo (paper 5), part of `gabarit demo` and `npm start`, or alone:
 * `npx tsx examples/wrapper/demo.ts`. Runs the wrapper built on the original demo shop design
 * (examples/wrapper/product.wrapper.json) on the original product pages, where its selectors work, then on
 * the redesigned pages (examples/wrapper/redesigned/, written by examples/wrapper/redesign.ts), where every
 * selector fails and the wrapper adapts: it prints, per page and pattern, which step found the data, with
 * what similarity and new selector, and whether the value is the one the original page gave (the redesign
 * keeps the texts). Returns true when the product is found on every page and no field is wrong (a field
 * the wrapper refuses to guess is reported, not counted as a failure: that is the contract).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHtml } from '../html/parse.ts';
import { selectAll } from '../html/select.ts';
import { textOf } from '../html/text.ts';
import { declaredUrl, runWrapper } from '../wrapper/run.ts';
import { parseWrapper } from '../wrapper/wrapper.ts';
import { textWords } from '../wrapper/match/string.ts';
import { DEMO_PAGES, DEMO_SITE, MOVED_TERMS_PAGE, POLICY_PAGE, POLICY_WRAPPER_FILE, REDESIGNED_DIR, TERMS_PAGE, TERMS_WRAPPER_FILE, WRAPPER_FILE } from './files.ts';

const SHOP = join(DEMO_SITE, 'shop');

export function wrapperDemo(say: (line?: string) => void): boolean {
  if (!existsSync(WRAPPER_FILE) || !existsSync(REDESIGNED_DIR)) {
    say(`(the wrapper demo files are missing: ${WRAPPER_FILE}, ${REDESIGNED_DIR})`);
    return false;
  }
  const wrapper = parseWrapper(readFileSync(WRAPPER_FILE, 'utf8'), WRAPPER_FILE);
  let ok = true;
  let same = 0;
  let refused = 0;
  let wrong = 0;
  for (const page of DEMO_PAGES) {
    // The redesign keeps the texts, so the record of the original page is the truth for the redesigned one.
    const before = runWrapper(wrapper, parseHtml(readFileSync(join(SHOP, page), 'utf8')), page);
    const after = runWrapper(wrapper, parseHtml(readFileSync(join(REDESIGNED_DIR, page), 'utf8')), page);
    ok &&= before.ok && !before.adapted;
    const was = (before.record['product'] ?? {}) as Record<string, unknown>;
    const now = (after.record['product'] ?? null) as Record<string, unknown> | null;
    say(`${page}: ${now ? `${String(now['name'])} · ${String(now['price'])}` : 'product NOT FOUND'}`);
    for (const rep of after.reports) {
      const how = rep.step === 'selector' ? 'selector' : rep.step === 'not-found' ? 'could not adapt' : `${rep.step}${rep.view === 'content' ? ' (content view)' : ''} ${(rep.similarity ?? 0).toFixed(2)}`;
      let verdict = '';
      if (rep.pattern !== 'product') {
        const value = now ? now[rep.pattern] : null;
        if (value === null || value === undefined) {
          verdict = 'refused, no value (the wrapper says so)';
          refused++;
        } else if (JSON.stringify(value) === JSON.stringify(was[rep.pattern])) {
          verdict = 'same value as before the redesign';
          same++;
        } else {
          verdict = 'WRONG VALUE';
          wrong++;
        }
      } else if (!now) ok = false;
      say(`   ${rep.pattern.padEnd(12)} ${how.padEnd(26)} ${rep.newSelector ? `→ ${rep.newSelector}` : ''}${verdict ? `  ${verdict}` : ''}`);
    }
  }
  say(`fields: ${same} right, ${refused} refused, ${wrong} wrong (on the original design every selector works)`);
  // The second change: the privacy page moved to a new CMS; only the content view recognises it.
  if (existsSync(POLICY_WRAPPER_FILE)) {
    const policy = parseWrapper(readFileSync(POLICY_WRAPPER_FILE, 'utf8'), POLICY_WRAPPER_FILE);
    const before = runWrapper(policy, parseHtml(readFileSync(join(SHOP, '..', POLICY_PAGE), 'utf8')), POLICY_PAGE);
    const page = parseHtml(readFileSync(join(REDESIGNED_DIR, POLICY_PAGE), 'utf8'));
    const tagsOnly = runWrapper({ ...policy, adaptation: { ...policy.adaptation, content: false } }, page, POLICY_PAGE);
    const after = runWrapper(policy, page, POLICY_PAGE);
    const rep = after.reports[0]!;
    const right = after.record['policy'] !== null && after.record['policy'] === before.record['policy'];
    say(`${POLICY_PAGE} after a CMS change (every level above the paragraphs rebuilt):`);
    say(`   element labels only: ${tagsOnly.reports[0]!.step === 'not-found' ? 'could not adapt' : tagsOnly.reports[0]!.step}`);
    say(`   with the content view: ${rep.step === 'not-found' ? 'could not adapt' : `${rep.step}${rep.view === 'content' ? ' (content view)' : ''} ${(rep.similarity ?? 0).toFixed(2)} → ${rep.newSelector}`}  ${right ? 'same text as before' : rep.step === 'not-found' ? 'refused' : 'WRONG VALUE'}`);
    if (rep.step !== 'not-found' && !right) ok = false;
  }
  // The third change: the terms moved to a page of their own on a new builder and were rewritten.
  if (existsSync(TERMS_WRAPPER_FILE)) {
    const terms = parseWrapper(readFileSync(TERMS_WRAPPER_FILE, 'utf8'), TERMS_WRAPPER_FILE);
    const before = runWrapper(terms, parseHtml(readFileSync(TERMS_PAGE, 'utf8')), 'legal/terms.html');
    const page = parseHtml(readFileSync(MOVED_TERMS_PAGE, 'utf8'));
    const step = (settings: { content?: boolean; document?: boolean }): string => {
      const r = runWrapper(terms, page, 'moved/terms.html', { settings }).reports[0]!;
      return r.step === 'not-found' ? 'could not adapt' : `${r.step} ${(r.similarity ?? 0).toFixed(2)} → ${r.newSelector}`;
    };
    const after = runWrapper(terms, page, 'moved/terms.html');
    // Right when the words found are those of the new page's terms (its title and its text blocks).
    const expected = textOf(page, selectAll(page, 'div.fr-3e4f')[0]!);
    const right = after.record['terms'] !== null && textWords(String(after.record['terms'])).join(' ') === textWords(expected).join(' ');
    say(`terms moved from ${terms.url} to ${declaredUrl(page)} (a page of their own, a new builder, the text rewritten):`);
    say(`   before the move: ${before.reports[0]!.step}`);
    say(`   element labels only: ${step({ content: false, document: false })}`);
    say(`   with the content view: ${step({ document: false })}`);
    say(`   with the document view (same site, same title): ${step({})}  ${right ? 'the new terms, whole' : after.reports[0]!.step === 'not-found' ? 'refused' : 'WRONG VALUE'}`);
    if (!right) ok = false;
  }
  return ok && wrong === 0;
}
