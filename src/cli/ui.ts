/**
 * `gabarit ui <source> [--port N]`: the local web UI (src/ui/): the source's pages with their template and
 * page class, each engine's overlay, a visual wrapper designer and the adaptation view. Listens on
 * 127.0.0.1 only (a free port unless --port), prints the URL to open (it carries the run's token) and runs
 * until Ctrl-C (SIGINT) or SIGTERM, then ends with exit code 0.
 */
import type { Command } from 'commander';
import { UI_OPTIONS } from '../run/options.ts';
import { interruptedBy, unwatchInterrupts } from './interrupt.ts';
import { addDeclaredOptions } from './parsers.ts';
import { addSourceOptions, createReporter, emit, globalOptions, NothingDone, openFromFlags, type SourceFlags } from './run.ts';

export function register(program: Command): void {
  const cmd = program
    .command('ui')
    .description('local web UI on 127.0.0.1: template overlay per engine, wrapper designer, adaptation view')
    .argument('<source>', 'directory of pages, .warc/.warc.gz file, or http(s) URL');
  addDeclaredOptions(cmd, UI_OPTIONS);
  addSourceOptions(cmd);
  cmd.action(async (spec: string, opts: SourceFlags & { port: number }, self: Command) => {
    const g = globalOptions(self);
    const reporter = createReporter(g);
    const { startUi } = await import('../ui/server.ts');
    const opened = await openFromFlags(spec, opts, reporter);
    let ui: Awaited<ReturnType<typeof startUi>>;
    try {
      ui = await startUi(opened.source, {
        port: opts.port,
        label: spec,
        ...(opts.maxPages !== undefined ? { maxPages: opts.maxPages } : {}),
        onCut: (c) => reporter.progress.log(`gabarit: ${spec}: the UI read the first ${c.maxPages} pages (${c.left} or more left unread); give --max-pages to read more`),
      });
    } catch (err) {
      await opened.close();
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') throw new NothingDone(`port ${opts.port} is in use on 127.0.0.1 (try --port 0 for any free port)`);
      if (code === 'EACCES') throw new NothingDone(`not allowed to listen on port ${opts.port} (try a port above 1023)`);
      throw err;
    } finally {
      reporter.stop();
    }
    // A signal while the pages were read ends the command (main.ts names it); from here on a signal is its normal end.
    if (interruptedBy() !== undefined) {
      await ui.close();
      await opened.close();
      return;
    }
    unwatchInterrupts();
    const site = ui.session.site();
    if (site.pages.length === 0) {
      await ui.close();
      await opened.close();
      throw new NothingDone(`no page could be read from ${spec}`);
    }
    for (const f of site.failures) reporter.warn(`${f.key}: ${f.message}`);
    emit(g, { url: ui.url, port: ui.port, source: spec, pages: site.pages.length }, [`gabarit ui: ${site.pages.length} pages of ${spec}`, `open ${ui.url}`]);
    if (!g.json && !g.quiet) process.stderr.write('press Ctrl-C to stop\n');
    await new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    await ui.close();
    await opened.close();
  });
}
