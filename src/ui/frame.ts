/**
 * A page of the source as the UI shows it in a frame: the page's own HTML (html/serialize.ts) with each
 * element numbered (`data-gabarit-node`, its node in the page's Tree, so that a click or a hover names a
 * node the library knows) and, when an engine marked it, the report's overlay marks (`data-gabarit`
 * template / content, styled by OVERLAY_CSS). The site's scripts never run: the frame is sandboxed
 * without `allow-scripts` and served with FRAME_CSP (no script, no network beyond this server, no form,
 * no base URL, no plugin); a `<meta http-equiv=refresh>` is dropped (it would navigate the frame).
 */
import { contentRoots } from '../content/format.ts';
import { serialize } from '../html/serialize.ts';
import type { Tree } from '../html/tree.ts';
import { OVERLAY_CSS } from '../output.ts';
import type { PageMarks } from '../template/result.ts';

/** The attribute holding an element's node number. */
export const NODE_ATTR = 'data-gabarit-node';

/** The Content-Security-Policy of a frame and of the source's files (stylesheets, images, fonts of this server only). */
export const FRAME_CSP =
  "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; media-src 'self'; " +
  "script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-src 'none'; frame-ancestors 'self'; sandbox allow-same-origin";

/** How the UI marks what the user points at, picked and matched (classes set by the front end). */
const UI_CSS = `.gabarit-hover{outline:2px dashed #1565c0!important;outline-offset:1px;cursor:crosshair!important}
.gabarit-match{outline:2px solid #2e7d32!important;background:rgba(46,125,50,.12)!important}
.gabarit-picked{outline:3px solid #6a1b9a!important;background:rgba(106,27,154,.14)!important}`;

/** The page's HTML for the frame (see the module comment). */
export function frameHtml(tree: Tree, marks: PageMarks | null): string {
  const roots = marks ? new Set(contentRoots(marks)) : new Set<number>();
  const tpl = marks?.template;
  const html = serialize(tree, {
    mark: (i) => {
      const attrs: Record<string, string> = { [NODE_ATTR]: String(i) };
      if (tpl?.[i] === 1) attrs['data-gabarit'] = 'template';
      else if (roots.has(i)) attrs['data-gabarit'] = 'content';
      return attrs;
    },
  }).replace(/<meta\b[^>]*http-equiv\s*=\s*["']?refresh[^>]*>/gi, '');
  const style = `<style data-gabarit-overlay>${marks ? OVERLAY_CSS + '\n' : ''}${UI_CSS}</style>`;
  const head = /<head\b[^>]*>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + style + html.slice(head.index + head[0].length);
  return style + html;
}
