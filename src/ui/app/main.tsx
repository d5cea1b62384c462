/**
 * The UI's front end: four views over one source (site, page, wrapper designer, adaptation), the chosen
 * engine and page shared between them, the current place kept in the URL's hash so that reloading keeps it.
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { EngineInfo, PatternDraft, SiteInfo, WrapperText } from '../api.ts';
import { AdaptView } from './adapt-view.tsx';
import { get } from './client.ts';
import { DesignerView } from './designer-view.tsx';
import { PageView } from './page-view.tsx';
import { SiteView } from './site-view.tsx';
import './style.css';

type View = 'site' | 'page' | 'design' | 'adapt';
const VIEWS: Array<[View, string]> = [
  ['site', 'Site'],
  ['page', 'Page'],
  ['design', 'Wrapper designer'],
  ['adapt', 'Adaptation'],
];

/** The place in the hash: `#view/method/key`. */
function readHash(): { view: View; method: string; key: string } {
  const [view = 'site', method = 'auto', ...key] = location.hash.slice(1).split('/').map(decodeURIComponent);
  return { view: (VIEWS.some(([v]) => v === view) ? view : 'site') as View, method, key: key.join('/') };
}

function App() {
  const start = readHash();
  const [site, setSite] = useState<SiteInfo | null>(null);
  const [error, setError] = useState('');
  const [view, setView] = useState<View>(start.view);
  const [method, setMethod] = useState(start.method);
  const [key, setKey] = useState(start.key);
  const [engines, setEngines] = useState<Record<string, EngineInfo | string>>({});
  const [drafts, setDrafts] = useState<PatternDraft[]>([]);
  const [name, setName] = useState('');
  const [wrapper, setWrapper] = useState<WrapperText | null>(null);

  useEffect(() => {
    get<SiteInfo>('/api/site')
      .then((s) => {
        setSite(s);
        if (!s.engines.includes(method)) setMethod(s.engines[0] ?? 'auto');
        setKey((k) => (s.pages.some((p) => p.key === k) ? k : (s.pages[0]?.key ?? '')));
      })
      .catch((e: Error) => setError(e.message));
  }, []);
  useEffect(() => {
    if (!site || engines[method] !== undefined) return;
    get<EngineInfo>('/api/engine', { method })
      .then((e) => setEngines((all) => ({ ...all, [method]: e })))
      .catch((e: Error) => setEngines((all) => ({ ...all, [method]: e.message })));
  }, [site, method]);
  useEffect(() => {
    location.hash = [view, method, ...key.split('/')].map(encodeURIComponent).join('/');
  }, [view, method, key]);

  if (error) return <p class="error">{error}</p>;
  if (!site) return <p class="busy">reading the source…</p>;
  const engine = engines[method];
  const keys = site.pages.map((p) => p.key);
  const openPage = (k: string): void => {
    setKey(k);
    setView('page');
  };
  return (
    <>
      <header class="top">
        <h1>gabarit</h1>
        <span class="source" title={site.source}>
          {site.source} · {site.pages.length} pages · {site.clusters.length} page classes
        </span>
        <nav>
          {VIEWS.map(([v, label]) => (
            <button class={v === view ? 'tab active' : 'tab'} onClick={() => setView(v)} data-view={v}>
              {label}
            </button>
          ))}
        </nav>
        <label>
          engine{' '}
          <select value={method} onChange={(e) => setMethod((e.target as HTMLSelectElement).value)} data-testid="engine">
            {site.engines.map((m) => (
              <option value={m}>{m}</option>
            ))}
          </select>
        </label>
      </header>
      <main>
        {view === 'site' && <SiteView site={site} engine={typeof engine === 'object' ? engine : null} engineError={typeof engine === 'string' ? engine : null} onOpen={openPage} />}
        {view === 'page' && key && <PageView pageKey={key} method={method} engine={typeof engine === 'object' ? engine : null} onDesign={() => setView('design')} />}
        {view === 'design' && key && <DesignerView pageKey={key} keys={keys} drafts={drafts} name={name} onPage={setKey} onDrafts={setDrafts} onName={setName} onWrapper={setWrapper} />}
        {view === 'adapt' && <AdaptView wrapper={wrapper} keys={keys} onWrapper={setWrapper} />}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
