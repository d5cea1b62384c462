/**
 * A Tree back to HTML, optionally with marks: `mark(i)` returns extra attributes for element i (e.g.
 * `data-gabarit="template"`). Text is escaped; script/style content is written raw; void elements get no
 * end tag. The output parses back to the same Tree (up to the marks), a tested invariant.
 */
import { NodeKind, type Tree, VOID_TAGS } from './tree.ts';

const RAW_TEXT = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext', 'noscript']);

export function escapeText(s: string): string {
  return s.replace(/[&<>\u00a0]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&nbsp;'));
}
export function escapeAttr(s: string): string {
  return s.replace(/[&"\u00a0]/g, (c) => (c === '&' ? '&amp;' : c === '"' ? '&quot;' : '&nbsp;'));
}

export interface SerializeOptions {
  /** Root of the subtree to write (default: the document). */
  root?: number;
  /** Extra attributes for element i, or undefined. */
  mark?: (i: number) => Readonly<Record<string, string>> | undefined;
  /** Write `<!DOCTYPE html>` first when serialising the whole document (default true). */
  doctype?: boolean;
  /**
   * Raw HTML written as the first thing inside the document's `<head>` (e.g. a `<style>`), or, when the
   * document has no head, right after the `<html>` start tag, else first. Only when serialising the whole
   * document.
   */
  inject?: string;
}

export function serialize(tree: Tree, options: SerializeOptions = {}): string {
  const root = options.root ?? 0;
  const out: string[] = [];
  if (root === 0 && (options.doctype ?? true)) out.push('<!DOCTYPE html>');
  // The element the injected HTML goes into (-1: written first).
  let injectAt = -1;
  if (root === 0 && options.inject !== undefined) {
    injectAt = tree.find('head');
    if (injectAt < 0) injectAt = tree.find('html');
    if (injectAt < 0) out.push(options.inject);
  }
  const closers: number[] = [];
  const last = tree.end[root]!;
  const raw: boolean[] = [];
  let inRaw = 0;
  const closeUntil = (pos: number): void => {
    while (closers.length > 0 && tree.end[closers[closers.length - 1]!]! <= pos) {
      const e = closers.pop()!;
      if (raw.pop()) inRaw--;
      out.push(`</${tree.tag(e)}>`);
    }
  };
  for (let i = root; i < last; i++) {
    closeUntil(i);
    const k = tree.kind[i];
    if (k === NodeKind.Element) {
      const tag = tree.tag(i);
      let s = '<' + tag;
      for (let a = tree.attrStart[i]!, e = tree.attrStart[i + 1]!; a < e; a++) {
        s += ` ${tree.attrNames[a]}="${escapeAttr(tree.attrValues[a]!)}"`;
      }
      const extra = options.mark?.(i);
      if (extra) for (const [n, v] of Object.entries(extra)) s += ` ${n}="${escapeAttr(v)}"`;
      out.push(s + '>');
      if (i === injectAt) out.push(options.inject!);
      if (!VOID_TAGS.has(tag)) {
        closers.push(i);
        const r = RAW_TEXT.has(tag);
        raw.push(r);
        if (r) inRaw++;
      }
    } else if (k === NodeKind.Text || k === NodeKind.Blank) {
      const t = tree.nodeText(i);
      out.push(inRaw > 0 ? t : escapeText(t));
    } else if (k === NodeKind.Comment) {
      out.push(`<!--${tree.nodeText(i).replace(/--!?>/g, '')}-->`);
    }
  }
  closeUntil(last + 1 > tree.size ? tree.size : last);
  while (closers.length > 0) {
    out.push(`</${tree.tag(closers.pop()!)}>`);
  }
  return out.join('');
}
