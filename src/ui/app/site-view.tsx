/**
 * Site view: the source's pages with their page class and, for the chosen engine, the template fraction
 * and main content of each, searchable; the engine's figures (as the report shows them), the size of what
 * it learned and the report's chart.
 */
import { useState } from 'preact/hooks';
import type { EngineInfo, SiteInfo } from '../api.ts';
import { pct } from './client.ts';

export interface SiteViewProps {
  site: SiteInfo;
  engine: EngineInfo | null;
  engineError: string | null;
  onOpen: (key: string) => void;
}

export function SiteView({ site, engine, engineError, onOpen }: SiteViewProps) {
  const [query, setQuery] = useState('');
  const [cluster, setCluster] = useState('');
  const byKey = new Map(engine?.pages.map((p) => [p.key, p]) ?? []);
  const failed = new Map(engine?.failures.map((f) => [f.key, f.message]) ?? []);
  const q = query.trim().toLowerCase();
  const shown = site.pages.filter((p) => (!q || p.key.toLowerCase().includes(q) || p.title.toLowerCase().includes(q)) && (!cluster || p.cluster === cluster));
  return (
    <section class="site-view">
      <div class="figures">
        {engineError && <p class="error">{engineError}</p>}
        {!engine && !engineError && <p class="busy">running the engine…</p>}
        {engine && (
          <>
            <p>
              Engine <b data-testid="engine-method">{engine.method}</b>
              {engine.requested === 'auto' ? ` (chosen: ${engine.reason})` : engine.reason ? ` (${engine.reason})` : ''} ·{' '}
              {engine.figures.pages} pages marked, {engine.figures.failed} failed · mean template fraction <b>{pct(engine.figures.meanTemplateFraction)}</b> · {(engine.figures.ms / 1000).toFixed(2)} s
            </p>
            <p>
              Template learned: <b data-testid="template-size">{(engine.template.bytes / 1024).toFixed(1)} KiB</b> of template.json
              {engine.template.about && <> · {Object.entries(engine.template.about).filter(([, v]) => typeof v === 'number' || typeof v === 'string').slice(0, 6).map(([k, v]) => `${k}: ${String(v)}`).join(' · ')}</>}
            </p>
            {engine.error && <p class="error">The engine stopped: {engine.error}</p>}
            <div class="chart" dangerouslySetInnerHTML={{ __html: engine.chart }} />
          </>
        )}
      </div>
      <div class="filters">
        <input type="search" placeholder="search pages (path or title)" value={query} onInput={(e) => setQuery((e.target as HTMLInputElement).value)} aria-label="search pages" />
        <select value={cluster} onChange={(e) => setCluster((e.target as HTMLSelectElement).value)} aria-label="page class">
          <option value="">every page class</option>
          {site.clusters.map((c) => (
            <option value={c.id}>
              {c.id}: {c.pages} pages{c.section ? ` in ${c.section}/` : ''}
            </option>
          ))}
        </select>
        <span>
          {shown.length} of {site.pages.length} pages
        </span>
      </div>
      <table class="pages" data-testid="pages">
        <thead>
          <tr>
            <th>page</th>
            <th>title</th>
            <th>class</th>
            <th>template</th>
            <th>main content</th>
            <th>words</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((p) => {
            const e = byKey.get(p.key);
            return (
              <tr key={p.key}>
                <td>
                  <a href="#" onClick={(ev) => (ev.preventDefault(), onOpen(p.key))}>
                    {p.key}
                  </a>
                </td>
                <td>{p.title}</td>
                <td>{p.cluster ?? '—'}</td>
                <td>{e ? <Bar value={e.templateFraction} /> : failed.get(p.key) ?? ''}</td>
                <td>{e ? pct(e.contentFraction) : ''}</td>
                <td>{e ? e.contentWords : ''}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {site.failures.length > 0 && (
        <>
          <h3>Pages that could not be read</h3>
          <ul>
            {site.failures.map((f) => (
              <li>
                {f.key}: {f.message}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function Bar({ value }: { value: number }) {
  return (
    <span class="bar" title={pct(value)}>
      <span style={{ width: `${Math.round(value * 100)}%` }} />
      <em>{pct(value)}</em>
    </span>
  );
}
