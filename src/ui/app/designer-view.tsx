/**
 * Wrapper designer (paper 5's visual design: the user points at the data, the patterns follow): click an
 * element of the page, name the pattern (`name` a single value, `name[]` a list), nest it under another
 * pattern or not, choose its value (text, own text, an attribute), and see its selector, how many elements
 * it matches on this page and on the other pages, the constraints inferred, and the values the wrapper
 * extracts on every page of the source, with a warning where a single value is ambiguous. Saves the
 * wrapper file (the JSON `gabarit wrapper create` writes) or loads one.
 *
 * A field can also be given by example ("add by example"): the element clicked (for a list `name[]`, the
 * last two clicked, two of its items) is its example on this page, and the server learns the pattern from
 * the examples as `gabarit wrapper create --example` does. The values table lists first the pages where a
 * pattern is ambiguous or absent, with the reason; "add an example here" opens such a page, and the next
 * click there becomes one more example of the field, which is then learned again from all its examples.
 */
import { useEffect, useState } from 'preact/hooks';
import type { ExampleDraft, LearnResponse, PatternDraft, PreviewResponse, Suggestion, WrapperText } from '../api.ts';
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

/** Elements kept as the items of a list given by example: the last ones clicked. */
const LIST_PICKS = 2;

/** A name as typed: `name` for a single value, `name[]` for a list; null when it is not a pattern name. */
function parseName(raw: string): { name: string; multiple: boolean } | null {
  const multiple = raw.trim().endsWith('[]');
  const name = multiple ? raw.trim().slice(0, -2) : raw.trim();
  return /^[A-Za-z_][\w-]*$/.test(name) ? { name, multiple } : null;
}

/** Why a pattern has no value on a page, as the values table says it. */
const NOT_FOUND_WORDS: Record<string, string> = { ambiguous: 'ambiguous', absent: 'absent', 'wrong-value': 'wrong value' };

export function DesignerView(p: DesignerProps) {
  const [picked, setPicked] = useState<number | null>(null);
  const [suggestion, setSuggestion] = useState<Suggestion | null>(null);
  const [form, setForm] = useState({ name: '', parent: '', value: 'text', selector: '' });
  const [preview, setPreview] = useState<PreviewResponse | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [message, setMessage] = useState('');
  const [everyPage, setEveryPage] = useState(false);
  /** The elements clicked on this page, last ones last (the items of a list given by example). */
  const [picks, setPicks] = useState<Array<{ node: number; text: string }>>([]);
  /** The field given by examples whose next click on the page is one more example. */
  const [teach, setTeach] = useState<string | null>(null);

  // Node numbers are per page: what was picked on another page is not picked here.
  useEffect(() => {
    setPicks([]);
    setPicked(null);
    setSuggestion(null);
  }, [p.pageKey]);

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
        setPicks((ps) => ps.map((x) => (x.node === node ? { ...x, text: s.text } : x)));
        setForm((f) => ({ ...f, parent, selector: s.selector, value: 'text' }));
        setError('');
      })
      .catch((e: Error) => setError(e.message));
  };
  /** The field learned from its examples (a new draft, or the draft of that name replaced). */
  const learn = (name: string, multiple: boolean, examples: ExampleDraft[]): Promise<void> =>
    post<LearnResponse>('/api/learn', { name, multiple, examples })
      .then((r) => {
        const known = p.drafts.some((d) => d.name === name);
        p.onDrafts(known ? p.drafts.map((d) => (d.name === name ? r.pattern : d)) : [...p.drafts, r.pattern]);
        setSelected(name);
        setMessage(`${name}: learned from ${r.examplePages} example page${r.examplePages === 1 ? '' : 's'}, extracts the examples on ${r.pages}${r.label !== null ? `, label “${r.label}”` : ''}${r.rank !== null ? `, block ${r.rank} of its kind` : ''}`);
        setError('');
      })
      .catch((e: Error) => setError(e.message));
  /** The element clicked becomes an example of field `name` on this page, and the field is learned again. */
  const addExample = (name: string, node: number): void => {
    const d = p.drafts.find((x) => x.name === name);
    if (!d?.examples) return;
    setPicked(node);
    const here = d.examples.find((e) => e.key === p.pageKey);
    const nodes = d.multiple && here ? [...here.nodes.filter((n) => n !== node), node] : [node];
    const examples = here ? d.examples.map((e) => (e.key === p.pageKey ? { key: e.key, nodes } : e)) : [...d.examples, { key: p.pageKey, nodes }];
    void learn(name, d.multiple, examples).then(() => setTeach(null));
  };
  const pick = (node: number): void => {
    if (teach !== null) return addExample(teach, node);
    setPicked(node);
    setPicks((ps) => [...ps.filter((x) => x.node !== node), { node, text: '' }].slice(-LIST_PICKS));
    suggestFor(node, form.parent);
  };
  /** A new name, or why it cannot be one. */
  const newName = (): { name: string; multiple: boolean } | string => {
    const parsed = parseName(form.name);
    if (!parsed) return 'a pattern name is letters, digits, _ and - (add [] for a list: price[])';
    if (p.drafts.some((d) => d.name === parsed.name)) return `pattern "${parsed.name}" exists already`;
    return parsed;
  };
  const addByExample = (): void => {
    const parsed = newName();
    if (typeof parsed === 'string') return setError(parsed);
    if (form.parent) return setError('a field given by examples is not nested: choose “— (top level)”');
    const nodes = parsed.multiple ? picks.map((x) => x.node) : picked !== null ? [picked] : [];
    if (nodes.length === 0) return setError(parsed.multiple ? 'click two items of the list on the page first' : 'click the value on the page first');
    void learn(parsed.name, parsed.multiple, [{ key: p.pageKey, nodes }]).then(() => setForm((f) => ({ ...f, name: '' })));
  };
  const add = (): void => {
    const parsed = newName();
    if (typeof parsed === 'string') return setError(parsed);
    const { name, multiple } = parsed;
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
  const cell = new Map(preview?.patterns.flatMap((x) => x.perPage.map((q) => [`${x.name} ${q.key}`, q] as const)) ?? []);
  const shown = p.keys.filter((k) => everyPage || preview?.patterns.some((x) => cell.get(`${x.name} ${k}`)?.matches));
  // Pages where a pattern is ambiguous or absent first: an example there is what the designer needs.
  const flagged = new Set(shown.filter((k) => preview?.patterns.some((x) => ['ambiguous', 'absent'].includes(cell.get(`${x.name} ${k}`)?.notFound ?? ''))));
  const rows = [...shown.filter((k) => flagged.has(k)), ...shown.filter((k) => !flagged.has(k))];
  const listPicks = parseName(form.name)?.multiple && picks.length > 0;
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
          {teach !== null && (
            <p class="hint teach" data-testid="teach-hint">
              Click the value of “{teach}” on this page: it becomes an example, and the pattern is learned again from every example.{' '}
              <button onClick={() => setTeach(null)}>cancel</button>
            </p>
          )}
          {listPicks ? (
            <p class="hint">List items picked (the last {LIST_PICKS} clicked): {picks.map((x) => `“${x.text}”`).join(', ')}</p>
          ) : suggestion ? (
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
              {p.drafts.filter((d) => !d.examples).map((d) => (
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
          </button>{' '}
          <button onClick={addByExample} data-testid="add-by-example" title="learn the pattern from the element clicked (for a list name[], from the last two clicked)">
            add by example
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
                  {d.examples && <span class="by-example"> by example on {d.examples.length} page{d.examples.length === 1 ? '' : 's'}</span>}
                </td>
                <td data-testid="this-page">{x?.thisPage ?? ''}</td>
                <td>{x ? `${x.otherPages.matched} of ${x.otherPages.total} pages (${x.otherPages.elements} elements)` : ''}</td>
                <td>
                  {x ? Object.entries(x.constraints).map(([k, v]) => `${k} ${String(v)}`).join(' · ') : ''}
                </td>
                <td class="warn">{x?.warnings.join(' · ')}</td>
                <td>
                  {d.examples && (
                    <button onClick={(e) => (e.stopPropagation(), setTeach(d.name))} title="click the value on this page: it becomes one more example" data-testid="teach-here">
                      + example
                    </button>
                  )}
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
          {!everyPage && p.drafts.length > 0 && p.keys.length > shown.length ? ` (${p.keys.length - shown.length})` : ''}
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
            <tr data-page={k} class={flagged.has(k) ? 'flagged' : ''} data-flagged={flagged.has(k) ? 'true' : undefined}>
              <td>
                <a href="#" onClick={(e) => (e.preventDefault(), p.onPage(k))}>
                  {k}
                </a>
              </td>
              {p.drafts.map((d) => {
                const q = cell.get(`${d.name} ${k}`);
                return (
                  <td class={q?.problem ? 'problem' : ''} title={q?.problem || `${q?.matches ?? 0} matches`} data-pattern={d.name} data-flag={q?.notFound ?? undefined}>
                    {q?.example && <span class="example" title="an example page of this field">★ </span>}
                    <span class="values">{q?.values.join(' | ')}</span>
                    {q?.notFound && <b class="flag">{NOT_FOUND_WORDS[q.notFound]}</b>}
                    {q?.problem && <em> {q.problem}</em>}
                    {q?.notFound && d.examples && (
                      <button data-testid="teach" title="open this page: the next click there is one more example of this field" onClick={() => (p.onPage(k), setTeach(d.name))}>
                        add an example here
                      </button>
                    )}
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
