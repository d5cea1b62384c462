/**
 * A page of the source in a sandboxed frame (no `allow-scripts`: the site's scripts never run; the server
 * adds a CSP that forbids them too). `allow-same-origin` lets this front end reach into the frame's
 * document: hovering an element reports its node number (`data-gabarit-node`, set by the server),
 * clicking one picks it (links and forms do nothing), and nodes given in `highlight` / `picked` get the
 * classes the server's frame style draws.
 */
import { useEffect, useRef, useState } from 'preact/hooks';

const NODE_ATTR = 'data-gabarit-node';

export interface FrameProps {
  src: string;
  title: string;
  onHover?: (node: number | null) => void;
  onPick?: (node: number) => void;
  /** Nodes drawn as matches. */
  highlight?: readonly number[];
  /** The node drawn as picked. */
  picked?: number | null;
}

function nodeOf(target: EventTarget | null): Element | null {
  const el = target as Element | null;
  return el && typeof el.closest === 'function' ? el.closest(`[${NODE_ATTR}]`) : null;
}

function mark(doc: Document, cls: string, nodes: readonly number[]): void {
  for (const el of Array.from(doc.querySelectorAll(`.${cls}`))) el.classList.remove(cls);
  for (const n of nodes) doc.querySelector(`[${NODE_ATTR}="${n}"]`)?.classList.add(cls);
}

export function PageFrame(p: FrameProps) {
  const ref = useRef<HTMLIFrameElement>(null);
  const [doc, setDoc] = useState<Document | null>(null);
  const handlers = useRef(p);
  handlers.current = p;

  const attach = (): void => {
    const d = ref.current?.contentDocument;
    if (!d) return;
    let hovered: Element | null = null;
    d.addEventListener('mouseover', (e) => {
      const el = nodeOf(e.target);
      if (el === hovered) return;
      hovered?.classList.remove('gabarit-hover');
      hovered = el;
      el?.classList.add('gabarit-hover');
      handlers.current.onHover?.(el ? Number(el.getAttribute(NODE_ATTR)) : null);
    });
    d.addEventListener(
      'click',
      (e) => {
        e.preventDefault();
        e.stopPropagation();
        const el = nodeOf(e.target);
        if (el) handlers.current.onPick?.(Number(el.getAttribute(NODE_ATTR)));
      },
      true,
    );
    d.addEventListener('submit', (e) => e.preventDefault(), true);
    setDoc(d);
  };

  useEffect(() => {
    if (doc) mark(doc, 'gabarit-match', p.highlight ?? []);
  }, [doc, p.highlight]);
  useEffect(() => {
    if (!doc) return;
    mark(doc, 'gabarit-picked', p.picked != null ? [p.picked] : []);
    if (p.picked != null) doc.querySelector(`[${NODE_ATTR}="${p.picked}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [doc, p.picked]);

  return <iframe ref={ref} class="page-frame" sandbox="allow-same-origin" src={p.src} title={p.title} onLoad={attach} />;
}
