/**
 * No empty success: a page the run marked but whose kept text is empty (no word), or nearly all of whose
 * text was marked template, is named (code `no-content`) rather than written as if it were a result. Text is
 * counted in characters other than white space, inside `<body>`, outside scripts, styles and other non-text
 * elements (html/text.ts), as the kept text is. The share is of text left outside the template, not of the
 * kept text: a main content that is a small part of a page (an article above a long comment thread, which
 * is not template) is no sign of a lost page (docs/library.md).
 */
import { isNonText } from '../html/text.ts';
import { NodeKind } from '../html/tree.ts';
import type { PageFailure, RenderedPage } from '../output.ts';
import type { PageMarks } from '../template/result.ts';
import { RUN_DEFAULTS } from './defaults.ts';
import type { PageDone } from './types.ts';

/** The code of a page with no content. */
export const NO_CONTENT = 'no-content';

const WORD = /[\p{L}\p{N}]/u;

/**
 * Non-space characters of the body's text, of its kept text and of its text outside the template; whether
 * the kept text holds a word.
 */
export function keptShare(m: PageMarks): { all: number; kept: number; free: number; word: boolean } {
  const tree = m.tree;
  const body = tree.body();
  const keep = m.content;
  const tpl = m.template;
  let all = 0;
  let kept = 0;
  let free = 0;
  let word = false;
  for (let i = body, e = tree.end[body]!; i < e; i++) {
    const k = tree.kind[i];
    if (k === NodeKind.Element) {
      if (i !== body && isNonText(tree, i)) i = tree.end[i]! - 1;
      continue;
    }
    if (k !== NodeKind.Text) continue;
    let n = 0;
    for (let c = tree.textStart[i]!, end = tree.textEnd[i]!; c < end; c++) {
      const ch = tree.text.charCodeAt(c);
      if (ch > 32 && ch !== 160) n++;
    }
    all += n;
    if (tpl[i] !== 1) free += n;
    const isKept = keep ? keep[i] === 1 : tpl[i] !== 1;
    if (!isKept) continue;
    kept += n;
    if (!word && n > 0 && WORD.test(tree.nodeText(i))) word = true;
  }
  return { all, kept, free, word };
}

/** The `no-content` failure of a marked page, or undefined when it kept text worth the name. */
export function noContentOf(m: PageMarks, maxShare = RUN_DEFAULTS.noContentShare): PageFailure | undefined {
  const s = keptShare(m);
  let why: string | undefined;
  if (s.all === 0) why = 'the page has no text in its body';
  else if (!s.word) why = 'no text kept: all of the page’s text was marked template';
  else if (s.free / s.all < maxShare) why = `nearly all of the page’s text was marked template (${((100 * s.free) / s.all).toFixed(1)}% left)`;
  return why === undefined ? undefined : { url: m.url, key: m.key, code: NO_CONTENT, message: `${m.url}: ${why}` };
}

/** The `no-content` failure of a page rendered without its tree (its kept text and template fraction). */
export function renderedNoContent(r: RenderedPage, maxShare = RUN_DEFAULTS.noContentShare): PageFailure | undefined {
  let why: string | undefined;
  if (!WORD.test(r.text)) why = 'no text kept: all of the page’s text was marked template';
  else if (1 - r.templateFraction < maxShare) why = `nearly all of the page’s text was marked template (${(100 * (1 - r.templateFraction)).toFixed(1)}% left)`;
  return why === undefined ? undefined : { url: r.url, key: r.key, code: NO_CONTENT, message: `${r.url}: ${why}` };
}

/** The outcome of a marked page (with its no-content check). */
export function doneOutcome(marks: PageMarks, info: Record<string, unknown> = {}): PageDone {
  const nc = noContentOf(marks);
  return nc ? { ok: true, key: marks.key, url: marks.url, marks, info, noContent: nc } : { ok: true, key: marks.key, url: marks.url, marks, info };
}
