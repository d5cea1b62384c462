/**
 * Adaptation view: a wrapper (saved or loaded in the designer, or loaded here) run on a changed page (a
 * page of the source, or an HTML file such as a later snapshot): for each pattern, the step that found it
 * (selector, an element-label algorithm, the content view, the document view, or not found), the
 * similarity, the value, and the subtree stored at design time beside the one found, matched nodes
 * numbered alike (hover one to see its partner). Saves the updated wrapper.
 */
import { useState } from 'preact/hooks';
import type { AdaptReport, AdaptRequest, AdaptResponse, OutlineNode, WrapperText } from '../api.ts';
import { download, post } from './client.ts';
import { PageFrame } from './frame.tsx';

export interface AdaptProps {
  wrapper: WrapperText | null;
  keys: string[];
  onWrapper: (w: WrapperText) => void;
}

/** How a step is named for people. */
function stepName(r: AdaptReport): string {
  if (r.step === 'selector') return 'selector';
  if (r.step === 'not-found') return 'not found';
  if (r.view === 'content') return `content view (${r.step})`;
  if (r.view === 'document' || r.step === 'document') return 'document view';
  return `element labels (${r.step})`;
}

export function AdaptView(p: AdaptProps) {
  const [key, setKey] = useState(p.keys[0] ?? '');
  const [upload, setUpload] = useState<{ name: string; html: string } | null>(null);
  const [result, setResult] = useState<AdaptResponse | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const run = (page: AdaptRequest['page']): void => {
    if (!p.wrapper) return setError('save or load a wrapper first');
    setBusy(true);
    post<AdaptResponse>('/api/adapt', { wrapper: p.wrapper.text, page })
      .then((r) => {
        setResult(r);
        setOpen(r.reports.find((x) => x.step !== 'selector')?.pattern ?? r.reports[0]?.pattern ?? null);
        setError('');
      })
      .catch((e: Error) => setError(e.message))
      .finally(() => setBusy(false));
  };
  const loadWrapper = async (file: File): Promise<void> => {
    try {
      p.onWrapper(await post<WrapperText>('/api/wrapper/load', { text: await file.text(), file: file.name }));
      setResult(null);
      setError('');
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const loadPage = async (file: File): Promise<void> => {
    const page = { name: file.name, html: await file.text() };
    setUpload(page);
    run(page);
  };
  const shown = result?.reports.find((r) => r.pattern === open) ?? null;

  return (
    <section class="adapt">
      <div class="page-head">
        <span>
          wrapper: <b data-testid="adapt-wrapper">{p.wrapper ? `${p.wrapper.name || '(unnamed)'} · ${p.wrapper.patterns.length} patterns` : 'none yet'}</b>
        </span>
        <label class="file">
          load wrapper <input type="file" accept=".json,application/json" data-testid="adapt-load-wrapper" onChange={(e) => { const f = (e.target as HTMLInputElement).files?.[0]; if (f) void loadWrapper(f); }} />
        </label>
        <label>
          run on page{' '}
          <select value={key} onChange={(e) => setKey((e.target as HTMLSelectElement).value)} aria-label="page of the source">
            {p.keys.map((k) => (
              <option value={k}>{k}</option>
            ))}
          </select>
        </label>
        <button onClick={() => run({ key, method: 'none' })} disabled={!p.wrapper || busy} data-testid="adapt-run">
          run
        </button>
        <label class="file">
          or a changed page (HTML file) <input type="file" accept=".html,.htm,text/html" data-testid="adapt-page" onChange={(e) => { const f = (e.target as HTMLInputElement).files?.[0]; if (f) void loadPage(f); }} />
        </label>
        {upload && <span>uploaded: {upload.name}</span>}
      </div>
      {error && <p class="error">{error}</p>}
      {result && (
        <>
          <p>
            <b data-testid="adapt-page-name">{result.page}</b>: {result.ok ? 'every pattern found' : 'some pattern not found'}
            {result.adapted ? ', the wrapper adapted' : ', every selector worked'}{' '}
            {result.updated && (
              <button onClick={() => download(`${p.wrapper?.name || 'wrapper'}.updated.wrapper.json`, result.updated!)} data-testid="save-updated">
                save the updated wrapper
              </button>
            )}
          </p>
          <table class="reports" data-testid="reports">
            <thead>
              <tr>
                <th>pattern</th>
                <th>step</th>
                <th>similarity</th>
                <th>selector</th>
                <th>value</th>
              </tr>
            </thead>
            <tbody>
              {result.reports.map((r) => (
                <tr class={`${r.pattern === open ? 'selected' : ''} step-${r.step}`} onClick={() => setOpen(r.pattern)} data-pattern={r.pattern}>
                  <td>
                    <b>{r.pattern}</b>
                  </td>
                  <td data-testid="step">{stepName(r)}{r.trigger ? ` (${r.trigger})` : ''}</td>
                  <td data-testid="similarity">{r.similarity === null ? '—' : r.similarity.toFixed(3)}</td>
                  <td>
                    <code>{r.newSelector ? `${r.selector} → ${r.newSelector}` : r.selector}</code>
                    {r.violations.length > 0 && <div class="warn">{r.violations.join('; ')}</div>}
                    {r.cause.length > 0 && <div class="hint" data-testid="cause">the selector: {r.cause.join('; ')}</div>}
                  </td>
                  <td data-testid="value">{r.value === null ? <em>none</em> : Array.isArray(r.value) ? r.value.join(' | ') : String(r.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {shown && <Subtrees report={shown} />}
          <PageFrame src={result.frame} title={result.page} highlight={shown?.nodes ?? []} picked={shown?.nodes[0] ?? null} />
        </>
      )}
    </section>
  );
}

/** The stored subtree beside the found one, matched nodes numbered alike. */
function Subtrees({ report }: { report: AdaptReport }) {
  const [hover, setHover] = useState<number | null>(null);
  const oldPair = new Map(report.links.map(([a], k) => [a, k]));
  const newPair = new Map(report.links.map(([, b], k) => [b, k]));
  return (
    <div class="subtrees" data-testid="subtrees">
      <div>
        <h4>stored at design time ({report.old?.length ?? 0} nodes)</h4>
        <Outline nodes={report.old} pairs={oldPair} hover={hover} onHover={setHover} />
      </div>
      <div>
        <h4>
          found on this page ({report.found?.length ?? 0} nodes, {report.links.length} matched)
        </h4>
        <Outline nodes={report.found} pairs={newPair} hover={hover} onHover={setHover} />
      </div>
    </div>
  );
}

function Outline({ nodes, pairs, hover, onHover }: { nodes: OutlineNode[] | null; pairs: Map<number, number>; hover: number | null; onHover: (k: number | null) => void }) {
  if (!nodes) return <p class="hint">nothing</p>;
  return (
    <ol class="outline">
      {nodes.map((n, i) => {
        const k = pairs.get(i);
        return (
          <li style={{ paddingLeft: `${n.depth * 1.1}em` }} class={k === undefined ? 'unmatched' : k === hover ? 'matched hover' : 'matched'} onMouseEnter={() => onHover(k ?? null)} onMouseLeave={() => onHover(null)}>
            {k !== undefined && <span class="pair">{k + 1}</span>}
            {n.tag === '#text' ? <span class="txt">“{n.text}”</span> : <code>{`<${n.tag}${n.id ? '#' + n.id : ''}${n.cls ? '.' + n.cls.split(/\s+/).join('.') : ''}>`}</code>}
          </li>
        );
      })}
    </ol>
  );
}
