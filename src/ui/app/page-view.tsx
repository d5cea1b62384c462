/**
 * Page view: one page with the chosen engine's overlay (template greyed, main content outlined, as in the
 * report); hovering an element shows its CSS path, its XPath and whether it is template or main content.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { EngineInfo, NodeInfo } from '../api.ts';
import { frameUrl, get, pct } from './client.ts';
import { PageFrame } from './frame.tsx';

export interface PageViewProps {
  pageKey: string;
  method: string;
  engine: EngineInfo | null;
  onDesign: () => void;
}

export function PageView({ pageKey, method, engine, onDesign }: PageViewProps) {
  const [info, setInfo] = useState<NodeInfo | null>(null);
  const cache = useRef(new Map<string, NodeInfo>());
  const latest = useRef(0);
  useEffect(() => setInfo(null), [pageKey, method]);
  const hover = (node: number | null): void => {
    if (node === null) return;
    const id = `${method} ${pageKey} ${node}`;
    latest.current = node;
    const known = cache.current.get(id);
    if (known) return setInfo(known);
    get<NodeInfo>('/api/node', { method, key: pageKey, node })
      .then((n) => {
        cache.current.set(id, n);
        if (latest.current === node) setInfo(n);
      })
      .catch(() => undefined);
  };
  const figures = engine?.pages.find((p) => p.key === pageKey);
  return (
    <section class="page-view">
      <div class="page-head">
        <b>{pageKey}</b>
        {figures && (
          <span>
            {' '}
            · {pct(figures.templateFraction)} template · {figures.contentWords} words of main content
          </span>
        )}
        <span class="legend">
          <span class="t">template (greyed)</span>
          <span class="c">main content (outlined)</span>
        </span>
        <button onClick={onDesign}>design a wrapper on this page</button>
      </div>
      <div class="split">
        <PageFrame src={frameUrl(method, pageKey)} title={pageKey} onHover={hover} />
        <aside class="node-info" data-testid="node-info">
          {info ? (
            <>
              <p>
                <code>&lt;{info.tag}&gt;</code> {info.template ? <b class="tpl">template</b> : <b class="notpl">not template</b>}
                {info.content && <b class="cnt"> · main content</b>}
              </p>
              <p>
                CSS path: <code data-testid="css-path">{info.cssPath}</code>
              </p>
              <p>
                XPath: <code>{info.xpath}</code>
              </p>
              <p class="text">{info.text}</p>
            </>
          ) : (
            <p class="hint">Point at an element of the page to see its CSS path and whether it is template.</p>
          )}
        </aside>
      </div>
    </section>
  );
}
