/**
 * The options of the commands' pipelines (src/run/), each declared once (src/template/options.ts): name,
 * type, default, range, help and, where it comes from a paper, the section. From a declaration follow the
 * typed values a pipeline takes, validation, the command-line flag, its --help and docs/cli.md. The
 * defaults are those of the library (src/defaults.ts), read from there so that each has one source.
 * This module stays light: every command's help reads it.
 */
import { z } from 'zod';
import { FETCH_DEFAULTS } from '../site/defaults.ts';
import { declareOptions, option, type OptionValues, wholeNumber } from '../template/options.ts';

/** The source options of every command with a `<source>` (a directory, a WARC file, a URL). */
export const SOURCE_OPTIONS = declareOptions('source', {
  userAgent: option(z.string().default(FETCH_DEFAULTS.userAgent), { arg: 'ua', description: 'user agent sent over HTTP and matched in robots.txt' }),
  delay: option(wholeNumber(0).default(FETCH_DEFAULTS.delayMs), { arg: 'ms', description: 'least time between two requests to one host, ms' }),
  concurrency: option(wholeNumber(1).default(FETCH_DEFAULTS.concurrencyPerHost), { arg: 'n', description: 'requests at once per host' }),
  maxPages: option(wholeNumber(1).optional(), {
    arg: 'n',
    description: `pages read at most (default: none for a local source, ${FETCH_DEFAULTS.maxPages} for a crawl of a URL); a cap that leaves pages out is named on stderr and in summary.json`,
  }),
  maxBytes: option(wholeNumber(1).default(FETCH_DEFAULTS.maxBytes), {
    arg: 'n',
    description: 'largest page accepted, bytes, from any source, counted decoded when the server compresses it (a larger one is refused and named)',
  }),
  timeout: option(wholeNumber(1).default(FETCH_DEFAULTS.timeoutMs), { arg: 'ms', description: 'time allowed for one request, ms' }),
  store: option(z.string().optional(), { arg: 'file', description: 'DuckDB file keeping fetched pages: a rerun, after an interruption too, resumes without refetching them' }),
  include: option(z.array(z.string()).optional(), {
    arg: 'glob',
    description: 'crawl of a URL: follow links only to pages whose path under the crawl root matches (`blog/**`); repeat for several',
  }),
  exclude: option(z.array(z.string()).optional(), {
    arg: 'glob',
    description: 'crawl of a URL: do not follow links to pages whose path under the crawl root matches (`**/tag/**`); repeat for several',
  }),
});
/** The source options' values. */
export type SourceFlags = OptionValues<typeof SOURCE_OPTIONS.shape>;

/** `--out <dir>` of a command, by default `out/<command>`. */
export function outOptions(command: string) {
  return declareOptions(command, { out: option(z.string().default(`out/${command}`), { short: 'o', arg: 'dir', description: 'output directory' }) });
}
