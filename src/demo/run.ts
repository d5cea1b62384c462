/**
 * The demo (`gabarit demo`, `npm start`). Serves the demo site (examples/site, a fictional outdoor-gear shop
 * written by examples/generate.ts, shipped in the package) on 127.0.0.1, then runs on it, over real HTTP
 * and through the library's pipelines (src/run/, the functions the command line runs):
 *  1. `crawl` (`gabarit crawl`): every page loaded, parsed, its links extracted, the link graph built;
 *  2. for every engine of the registry (src/template/engines.ts), `detectTemplate` (`gabarit template
 *     --method <name>`) with the engine's default options;
 *  3. the wrapper demo (./wrapper.ts);
 *  4. last, `report` (`gabarit report`): the main content of every page with the template greyed, figures
 *     per engine and a chart, in one offline HTML file (<out>/report/index.html), whose path it prints;
 * and it prints the command that opens the local web UI (`gabarit ui`) on the demo site.
 * Prints a short result of each, and where the output is. The server is ours and local, so the crawl runs
 * without a politeness delay.
 */
import { cp } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULTS } from '../defaults.ts';
import { crawl, writeCrawl } from '../run/crawl.ts';
import { REPORT_MAX_SHOWN, report, writeReport } from '../run/report.ts';
import { detectTemplate } from '../run/template.ts';
import { writeOutputs } from '../run/write.ts';
import { serveDirectory } from '../site/serve.ts';
import type { SourceOptions } from '../site/source.ts';
import { ENGINES, type Method } from '../template/engines.ts';
import { DEMO_SITE as SITE } from './files.ts';
import { wrapperDemo } from './wrapper.ts';

/** Source options of the demo: the defaults, without delay (our own server on 127.0.0.1). */
const SOURCE: SourceOptions = { delayMs: 0, concurrencyPerHost: DEFAULTS.concurrencyPerHost, maxPages: DEFAULTS.maxPages };

export interface DemoOptions {
  /** Where everything is written (`out/demo`). */
  out: string;
  /** Paths are printed relative to this folder. */
  base: string;
  /** The command that opens the web UI on the demo site, as the user types it. */
  uiCommand: string;
  /** Prints a line. */
  say(line?: string): void;
}

/** Runs the demo; true when every step did its work. */
export async function runDemo(options: DemoOptions): Promise<boolean> {
  const { say } = options;
  const out = options.out;
  const started = performance.now();
  const served = await serveDirectory(SITE, { port: 0 });
  let ok = true;
  const rel = (p: string): string => relative(options.base, p) || '.';
  try {
    say(`Demo site (${rel(SITE)}) served at ${served.url}`);
    say('');
    say(`== crawl ${served.url}`);
    const run = crawl(served.url, { sourceOptions: SOURCE, top: 5 });
    for await (const o of run) if (!o.ok) say(`   failed: ${o.failure.url}: ${o.failure.message}`);
    const c = await run.result();
    await writeCrawl(c, join(out, 'crawl'));
    const f = c.figures;
    say(`   pages found: ${c.pages.length}, failed: ${c.failures.length}, loaded over the network: ${c.pagesLoaded}`);
    say(`   link graph: ${f.pages} pages, ${f.links} links, ${f.mutualPairs} mutual pairs; most linked: ${f.mostLinked.map((p) => `${p.key} (${p.linksIn})`).join(', ')}`);
    say(`   output: ${rel(join(out, 'crawl'))}`);
    if (c.pages.length === 0) ok = false;

    for (const name of Object.keys(ENGINES) as Method[]) {
      say('');
      say(`== template --method ${name}`);
      const t0 = performance.now();
      const dir = join(out, name);
      const { summary, result } = await writeOutputs(detectTemplate(served.url, { method: name, sourceOptions: SOURCE }), { out: dir });
      const fr = (summary.pages ?? []).map((p) => p.templateFraction);
      say(`   pages marked: ${summary.pagesDone}, failed: ${summary.pagesFailed}, pages loaded: ${summary.pagesLoaded}`);
      if (fr.length > 0) say(`   template fraction of the page text: mean ${(fr.reduce((a, b) => a + b, 0) / fr.length).toFixed(3)} (min ${Math.min(...fr).toFixed(3)}, max ${Math.max(...fr).toFixed(3)})`);
      say(`   time: ${((performance.now() - t0) / 1000).toFixed(1)} s; output: ${rel(dir)}/`);
      // The site's stylesheet greys template elements (data-gabarit="template"): copy it beside the marked pages.
      for (const asset of ['css', 'img']) await cp(join(SITE, asset), join(dir, asset), { recursive: true });
      if (result.error) {
        say(`   the engine stopped: ${result.error.message}`);
        ok = false;
      } else if (summary.pagesDone === 0) ok = false;
    }
    say('');
    say('== wrapper: a wrapper built on the shop survives the redesign (examples/wrapper/)');
    if (!wrapperDemo((l = '') => say('   ' + l))) ok = false;
    say('');
    say(`== report: main content of every page, template greyed, figures per engine (gabarit report)`);
    const t0 = performance.now();
    const data = await report(served.url, { sourceOptions: SOURCE, maxShown: REPORT_MAX_SHOWN, otherEngines: true });
    const file = await writeReport(data, join(out, 'report'));
    say(`   pages: ${data.pages.length}, template engine: ${data.method} (${data.reason}); time: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    if (data.pages.length === 0) ok = false;
    say('');
    say(`Output: ${rel(out)}/ (each folder: summary.json, and for template runs <page>.txt, <page>.html, template.json)`);
    say(`Open a marked page in a browser: gabarit serve ${rel(out)} --port 0, then e.g. /align/shop/cairn-45-backpack.html`);
    say(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
    say('');
    say(`The report (offline, open it in a browser): ${rel(file)}`);
    say(`   ${pathToFileURL(file).href}`);
    say('');
    say(`The UI (the template of each engine on every page, a wrapper designer, a wrapper adapting to a redesign):`);
    say(`   ${options.uiCommand}    (it prints the URL to open)`);
  } finally {
    await served.close();
  }
  return ok;
}
