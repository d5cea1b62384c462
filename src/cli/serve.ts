/**
 * `gabarit serve <dir> [--port N]`: serves a local mirror on 127.0.0.1 (src/site/serve.ts) so that crawls,
 * the engines and a browser see it over real HTTP. Prints the URL and runs until Ctrl-C (SIGINT) or
 * SIGTERM, then closes the server and ends with exit code 0.
 */
import type { Command } from 'commander';
import { SERVE_OPTIONS } from '../run/options.ts';
import { addDeclaredOptions } from './parsers.ts';
import { emit, globalOptions, NothingDone } from './run.ts';

/** The port `gabarit serve` listens on unless told otherwise (a common development-server port). */
export function register(program: Command): void {
  addDeclaredOptions(program.command('serve').description('serve a directory of pages on 127.0.0.1 until Ctrl-C').argument('<dir>', 'directory to serve'), SERVE_OPTIONS)
    .action(async (dir: string, opts: { port: number }, cmd: Command) => {
      const g = globalOptions(cmd);
      const { serveDirectory } = await import('../site/serve.ts');
      let served: Awaited<ReturnType<typeof serveDirectory>>;
      try {
        served = await serveDirectory(dir, { port: opts.port });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE') throw new NothingDone(`port ${opts.port} is in use on 127.0.0.1 (try --port 0 for any free port)`);
        if (code === 'EACCES') throw new NothingDone(`not allowed to listen on port ${opts.port} (try a port above 1023)`);
        throw err;
      }
      emit(g, { url: served.url, port: served.port, dir }, [`serving ${dir} at ${served.url}`]);
      if (!g.json && !g.quiet) process.stderr.write('press Ctrl-C to stop\n');
      await new Promise<void>((resolve) => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      });
      await served.close();
    });
}
