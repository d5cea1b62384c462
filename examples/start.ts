/**
 * `npm start`: the demo. Serves the demo site (examples/site, a fictional outdoor-gear shop written by
 * examples/generate.ts) on 127.0.0.1, then runs on it, over real HTTP and through the very functions the
 * command line runs:
 *  1. the crawl (`gabarit crawl`): every page loaded, parsed, its links extracted, the link graph built;
 *  2. for every engine of the registry (src/template/engines.ts), `gabarit template --method <name>` with
 *     the engine's default options;
 *  3. the wrapper demo;
 *  4. last, `gabarit report`: the main content of every page with the template greyed, figures per engine
 *     and a chart, in one offline HTML file (out/demo/report/index.html), whose path it prints.
 * Prints a short result of each, and where the output is (out/demo/). Exits 0 only when every step did
 * its work. The server is ours and local, so the crawl runs without a politeness delay.
 */
import { cp } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { crawlLines, DEFAULT_TOP_PAGES, runCrawl } from '../src/cli/crawl.ts';
import { runReport } from '../src/cli/report.ts';
import { createReporter, type SourceFlags } from '../src/cli/run.ts';
import { REPORT_MAX_SHOWN } from '../src/report/build.ts';
import { engineDefaults, fractionStats, runTemplate } from '../src/cli/template.ts';
import { DEFAULTS } from '../src/defaults.ts';
import { serveDirectory } from '../src/site/serve.ts';
import { ENGINES } from '../src/template/engines.ts';
import { wrapperDemo } from './wrapper/demo.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SITE = join(ROOT, 'examples', 'site');
const OUT = join(ROOT, 'out', 'demo');

/** Source options of the demo: the defaults, without delay (our own server on 127.0.0.1). */
const FLAGS: SourceFlags = {
  userAgent: DEFAULTS.userAgent,
  delay: 0,
  concurrency: DEFAULTS.concurrencyPerHost,
  maxPages: DEFAULTS.maxPages,
  maxBytes: DEFAULTS.maxBytes,
  timeout: DEFAULTS.timeoutMs,
};

function say(line = ''): void {
  process.stdout.write(line + '\n');
}

async function demo(): Promise<boolean> {
  const started = performance.now();
  const served = await serveDirectory(SITE, { port: 0 });
  const reporter = createReporter({ json: false, quiet: !process.stderr.isTTY });
  let ok = true;
  try {
    say(`Demo site (examples/site) served at ${served.url}`);
    say('');
    say(`== crawl ${served.url}`);
    const crawl = await runCrawl(served.url, { ...FLAGS, out: join(OUT, 'crawl'), top: Math.min(5, DEFAULT_TOP_PAGES) }, reporter);
    for (const line of crawlLines(crawl.summary, relative(ROOT, crawl.dir))) say('   ' + line);
    if (crawl.summary.pagesDone === 0) ok = false;

    const names = Object.keys(ENGINES);
    if (names.length === 0) say('\n(no template engine is registered yet)');
    for (const name of names) {
      say('');
      say(`== template --method ${name}`);
      const t0 = performance.now();
      let engine;
      try {
        engine = await ENGINES[name]!();
      } catch (err) {
        say(`   could not load the engine: ${(err as Error).message}`);
        ok = false;
        continue;
      }
      const r = await runTemplate(served.url, engine, engineDefaults(engine), { ...FLAGS, out: join(OUT, name) }, createReporter({ json: false, quiet: !process.stderr.isTTY }));
      const f = fractionStats(r.summary);
      say(`   pages marked: ${r.summary.pagesDone}, failed: ${r.summary.pagesFailed}, pages loaded: ${r.summary.pagesLoaded}`);
      if (f) say(`   template fraction of the page text: mean ${f.mean.toFixed(3)} (min ${f.min.toFixed(3)}, max ${f.max.toFixed(3)})`);
      say(`   time: ${((performance.now() - t0) / 1000).toFixed(1)} s; output: ${relative(ROOT, r.dir)}/`);
      // The site's stylesheet greys template elements (data-gabarit="template"): copy it beside the marked pages.
      for (const asset of ['css', 'img']) await cp(join(SITE, asset), join(r.dir, asset), { recursive: true });
      if (r.failure) {
        say(`   the engine stopped: ${r.failure.message}`);
        ok = false;
      } else if (r.summary.pagesDone === 0) ok = false;
    }
    say('');
    say('== wrapper: a wrapper built on the shop survives the redesign (examples/wrapper/)');
    if (!wrapperDemo((l = '') => say('   ' + l))) ok = false;
    say('');
    say(`== report: main content of every page, template greyed, figures per engine (gabarit report)`);
    const t0 = performance.now();
    const report = await runReport(served.url, { ...FLAGS, out: join(OUT, 'report'), maxShown: REPORT_MAX_SHOWN, otherEngines: true }, createReporter({ json: false, quiet: !process.stderr.isTTY }));
    say(`   pages: ${report.data.pages.length}, template engine: ${report.data.method} (${report.data.reason}); time: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    say('');
    say(`Output: ${relative(ROOT, OUT)}/ (each folder: summary.json, and for template runs <page>.txt, <page>.html, template.json)`);
    say(`Open a marked page in a browser: gabarit serve ${relative(ROOT, OUT)} --port 0, then e.g. /align/shop/cairn-45-backpack.html`);
    say(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
    say('');
    say(`The report (offline, open it in a browser): ${relative(ROOT, report.file)}`);
    say(`   ${pathToFileURL(report.file).href}`);
  } finally {
    reporter.stop();
    await served.close();
  }
  return ok;
}

let ok = false;
try {
  ok = await demo();
} catch (err) {
  process.stderr.write(`demo failed: ${(err as Error).stack ?? String(err)}\n`);
}
process.exitCode = ok ? 0 : 1;
