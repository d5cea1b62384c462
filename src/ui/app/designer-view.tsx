/**
 * Wrapper designer (paper 5's visual design: the user points at the data, the patterns follow): click an
 * element of the page, name the pattern (`name` a single value, `name[]` a list), nest it under another
 * pattern or not, choose its value (text, own text, an attribute), and see its selector, how many elements
 * it matches on this page and on the other pages, the constraints inferred, and the values the wrapper
 * extracts on every page of the source, with a warning where a single value is ambiguous. Saves the
 * wrapper file (the JSON `gabarit wrapper create` writes) or loads one.
 */
import { useEffect, useState } from 'preact/hooks';
import type { PatternDraft, PreviewResponse, Suggestion, WrapperText } from '../api.ts';
import { download, frameUrl, post } from './client.ts';
import { PageFrame } from './frame.tsx';

export interface DesignerProps {
  pageKey: string;
  keys: string[];
  drafts: PatternDraft[];
  name: string;
  onPage: (key: string) => void;
  onDrafts: (d: PatternDraft[]) => void;
  onName: (n: string) => void;
  /** A wrapper file was saved or loaded (the adaptation view runs it). */
  onWrapper: (w: WrapperText) => void;
}

/** The engine whose parse the designer works on: none (the page as it is). */
const METHOD = 'none';

export function DesignerView(p: DesignerProps) {
  const [picked, setPicked] = useState<number | null>(null);
  const [suggestion, setSuggestion] = useState<Suggestion | null>(null);
  const [form, setForm] = useState({ name: '', parent: '', value: 'text', selector: '' });
  const [preview, setPreview] = useState<PreviewResponse | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [message, setMessage] = useState('');
  const [everyPage, setEveryPage] = useState(false);

  useEffect(() => {
    let live = true;
    post<PreviewResponse>('/api/preview', { method: METHOD, key: p.pageKey, patterns: p.drafts })
      .then((r) => live && setPreview(r))
      .catch((e: Error) => live && setError(e.message));
    return () => void (live = false);
  }, [p.drafts, p.pageKey]);

  const suggestFor = (node: number, parent: string): void => {
    post<Suggestion>('/api/suggest', { method: METHOD, key: p.pageKey, node, parent: parent || null, patterns: p.drafts })
      .then((s) => {
        setSuggestion(s);
        setForm((f) => ({ ...f, parent, selector: s.selector, value: 'text' }));
        setError('');
      })
      .catch((e: Error) => setError(e.message));
  };
  const pick = (node: number): void => {
    setPicked(node);
    suggestFor(node, form.parent);
  };
  const add = (): void => {
    const raw = form.name.trim();
    const multiple = raw.endsWith('[]');
    const name = multiple ? raw.slice(0, -2) : raw;
    if (!/^[A-Za-z_][\w-]*$/.test(name)) return setError('a pattern name is letters, digits, _ and - (add [] for a list: price[])');
    if (p.drafts.some((d) => d.name === name)) return setError(`pattern "${name}" exists already`);
    if (!form.selector.trim()) return setError('click an element of the page first');
    p.onDrafts([...p.drafts, { name, selector: form.selector.trim(), multiple, value: form.value, parent: form.parent || null }]);
    setSelected(name);
    setForm((f) => ({ ...f, name: '' }));
    setError('');
  };
  const remove = (name: string): void => p.onDrafts(p.drafts.filter((d) => d.name !== name && d.parent !== name));
  const save = (): void => {
    post<WrapperText>('/api/wrapper/create', { method: METHOD, key: p.pageKey, name: p.name, patterns: p.drafts })
      .then((w) => {
        const file = `${p.name || 'wrapper'}.wrapper.json`;
        download(file, w.text);
        p.onWrapper(w);
        setMessage(`saved ${file} (${w.patterns.length} patterns)`);
        setError('');
      })
      .catch((e: Error) => setError(e.message));
  };
  const loadFile = async (file: File): Promise<void> => {
    try {
      const w = await post<WrapperText>('/api/wrapper/load', { text: await file.text(), file: file.name });
      p.onDrafts(w.patterns);
      p.onName(w.name);
      p.onWrapper(w);
      setMessage(`loaded ${file.name} (${w.patterns.length} patterns)`);
      setError('');
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const shownPattern = preview?.patterns.find((x) => x.name === selected) ?? preview?.patterns[preview.patterns.length - 1];
  const rows = p.keys.filter((k) => everyPage || preview?.patterns.some((x) => x.perPage.find((q) => q.key === k)?.matches));
  const cell = new Map(preview?.patterns.flatMap((x) => x.perPage.map((q) => [`${x.name} ${q.key}`, q] as const)) ?? []);
  return (
    <section class="designer">
      <div class="page-head">
        <label>
          page{' '}
          <select value={p.pageKey} onChange={(e) => p.onPage((e.target as HTMLSelectElement).value)} aria-label="page to design on">
            {p.keys.map((k) => (
              <option value={k}>{k}</option>
            ))}
          </select>
        </label>
        <label>
          wrapper name <input value={p.name} onInput={(e) => p.onName((e.target as HTMLInputElement).value)} aria-label="wrapper name" />
        </label>
        <button onClick={save} disabled={p.drafts.length === 0} data-testid="save-wrapper">
          save wrapper
        </button>
        <label class="file">
          load wrapper <input type="file" accept=".json,application/json" data-testid="load-wrapper" onChange={(e) => { const f = (e.target as HTMLInputElement).files?.[0]; if (f) void loadFile(f); }} />
        </label>
        {message && <span class="ok">{message}</span>}
      </div>
      <div class="split">
        <PageFrame src={frameUrl(METHOD, p.pageKey)} title={p.pageKey} onPick={pick} picked={picked} highlight={shownPattern?.nodes ?? []} />
        <aside class="pattern-form">
          <h3>New pattern</h3>
          {suggestion ? (
            <p class="hint">
              Picked: “{suggestion.text}” — {suggestion.matches} match{suggestion.matches === 1 ? '' : 'es'} of this selector on the page
            </p>
          ) : (
            <p class="hint">Click the data on the page.</p>
          )}
          <label>
            name <input value={form.name} placeholder="price, or features[] for a list" data-testid="pattern-name" onInput={(e) => setForm({ ...form, name: (e.target as HTMLInputElement).value })} onKeyDown={(e) => e.key === 'Enter' && add()} />
          </label>
          <label>
            nested under{' '}
            <select value={form.parent} data-testid="pattern-parent" onChange={(e) => { const parent = (e.target as HTMLSelectElement).value; setForm({ ...form, parent }); if (picked !== null) suggestFor(picked, parent); }}>
              <option value="">— (top level)</option>
              {p.drafts.map((d) => (
                <option value={d.name}>{d.name}</option>
              ))}
            </select>
          </label>
          <label>
            value{' '}
            <select value={form.value} data-testid="pattern-value" onChange={(e) => setForm({ ...form, value: (e.target as HTMLSelectElement).value })}>
              <option value="text">text</option>
              <option value="own">own text (not its children's)</option>
              {Object.keys(suggestion?.attributes ?? {}).filter((a) => a !== 'data-gabarit-node').map((a) => (
                <option value={`@${a}`}>attribute {a}</option>
              ))}
            </select>
          </label>
          <label>
            selector <input class="selector" value={form.selector} data-testid="pattern-selector" onInput={(e) => setForm({ ...form, selector: (e.target as HTMLInputElement).value })} />
          </label>
          <button onClick={add} data-testid="add-pattern">
            add pattern
          </button>
          {error && <p class="error">{error}</p>}
          {preview?.problem && <p class="error">{preview.problem}</p>}
        </aside>
      </div>
      <h3>Patterns</h3>
      <table class="patterns" data-testid="patterns">
        <thead>
          <tr>
            <th>pattern</th>
            <th>selector</th>
            <th>this page</th>
            <th>other pages</th>
            <th>constraints</th>
            <th>warnings</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {p.drafts.map((d) => {
            const x = preview?.patterns.find((q) => q.name === d.name);
            return (
              <tr class={d.name === shownPattern?.name ? 'selected' : ''} onClick={() => setSelected(d.name)} data-pattern={d.name}>
                <td>
                  {d.parent ? `${d.parent} › ` : ''}
                  <b>{d.name}</b>
                  {d.multiple ? '[]' : ''}
                  {d.value !== 'text' ? ` (${d.value})` : ''}
                </td>
                <td>
                  <code>{d.selector}</code>
                </td>
                <td data-testid="this-page">{x?.thisPage ?? ''}</td>
                <td>{x ? `${x.otherPages.matched} of ${x.otherPages.total} pages (${x.otherPages.elements} elements)` : ''}</td>
                <td>
                  {x ? Object.entries(x.constraints).map(([k, v]) => `${k} ${String(v)}`).join(' · ') : ''}
                </td>
                <td class="warn">{x?.warnings.join(' · ')}</td>
                <td>
                  <button onClick={(e) => (e.stopPropagation(), remove(d.name))} title="remove">
                    ✕
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <h3>
        Values on every page{' '}
        <label class="small">
          <input type="checkbox" checked={everyPage} onChange={(e) => setEveryPage((e.target as HTMLInputElement).checked)} /> show pages where nothing matches
        </label>
      </h3>
      <table class="values" data-testid="values">
        <thead>
          <tr>
            <th>page</th>
            {p.drafts.map((d) => (
              <th>{d.name + (d.multiple ? '[]' : '')}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((k) => (
            <tr data-page={k}>
              <td>
                <a href="#" onClick={(e) => (e.preventDefault(), p.onPage(k))}>
                  {k}
                </a>
              </td>
              {p.drafts.map((d) => {
                const q = cell.get(`${d.name} ${k}`);
                return (
                  <td class={q?.problem ? 'problem' : ''} title={q?.problem || `${q?.matches ?? 0} matches`} data-pattern={d.name}>
                    {q?.values.join(' | ')}
                    {q?.problem && <em> {q.problem}</em>}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
