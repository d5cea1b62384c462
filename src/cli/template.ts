/**
 * `gabarit template <source> --method <name>`: learns the site template with one engine of the registry
 * (src/template/engines.ts) and writes the output contract (src/output.ts): `<page>.txt`, `<page>.html`
 * for every page the engine marked, `template.json` (what was learned) and `summary.json` (pages done and
 * failed, pages loaded, timings, the engine's own summary).
 *
 * The command is generic over engines: each engine's `options` (EngineOption[]) become flags of the
 * command. They are added just before the command parses its arguments (commander's `preSubcommand`
 * hook), so only `gabarit template …` loads the engines. A flag shared by several engines is declared
 * once; its value is parsed and defaulted by the engine that runs, and a flag of another engine is a usage
 * error. Exit codes: see main.ts.
 */
import { Option, type Command } from 'commander';
import { EngineError, PageError, UsageError } from '../errors.ts';
import type { RenderedPage, Summary } from '../output.ts';
import type { EngineRun, TemplateEngine } from '../template/engine.ts';
import type { PageMarks } from '../template/result.ts';
import { ENGINES } from '../template/engines.ts';
import {
  addOutOption,
  addSourceOptions,
  createReporter,
  emit,
  globalOptions,
  NothingDone,
  openFromFlags,
  networkLoads,
  outDir,
  since,
  summaryLines,
  type Reporter,
  type SourceFlags,
} from './run.ts';

/** The EngineError code with which an engine rejects an option value (the command exits 2). */
export const BAD_OPTION = 'bad-option';

/** The engines' options as declared on the command: attribute name → engines that declare it. */
type Declared = Map<string, { flag: string; engines: string[] }>;

/** What `addEngineOptions` learned: the engines that loaded and the flags they declared. */
interface EngineOptions {
  engines: Map<string, TemplateEngine>;
  declared: Declared;
  /** Engines that could not be loaded, with why. */
  broken: Map<string, string>;
}

/** The long flag of an option (`--sample`), for messages. */
function longFlag(o: Option): string {
  return o.long ?? o.short ?? o.flags;
}

/** Loads every registered engine and declares its options on `cmd` (once per run). */
async function addEngineOptions(cmd: Command): Promise<EngineOptions> {
  const names = Object.keys(ENGINES);
  const loaded = await Promise.allSettled(names.map((n) => ENGINES[n]!()));
  const engines = new Map<string, TemplateEngine>();
  const broken = new Map<string, string>();
  const declared: Declared = new Map();
  const existing = new Map(cmd.options.map((o) => [o.attributeName(), o] as const));
  names.forEach((name, i) => {
    const r = loaded[i]!;
    if (r.status === 'rejected') {
      broken.set(name, (r.reason as Error)?.message ?? String(r.reason));
      return;
    }
    engines.set(name, r.value);
    for (const eo of r.value.options) {
      const opt = new Option(eo.flags, eo.description);
      const attr = opt.attributeName();
      const d = declared.get(attr);
      if (d) {
        d.engines.push(name);
        const o = existing.get(attr);
        if (o) o.description += ` [${name}${eo.defaultValue !== undefined ? `: ${String(eo.defaultValue)}` : ''}]`;
        continue;
      }
      if (existing.has(attr)) {
        // The engine reuses a source option (e.g. --max-pages): it receives that option's value.
        declared.set(attr, { flag: longFlag(opt), engines: [name] });
        continue;
      }
      opt.description = `${eo.description} [${name}${eo.defaultValue !== undefined ? `: ${String(eo.defaultValue)}` : ''}]`;
      cmd.addOption(opt);
      existing.set(attr, opt);
      declared.set(attr, { flag: longFlag(opt), engines: [name] });
    }
  });
  return { engines, declared, broken };
}

/**
 * The engine's options from the command line: a value the user gave is parsed by the engine's `parse`;
 * otherwise the engine's default. A flag that belongs only to other engines is a usage error.
 */
function engineOptionValues(cmd: Command, engine: TemplateEngine, declared: Declared): Record<string, unknown> {
  const mine = new Set<string>();
  const values: Record<string, unknown> = {};
  for (const eo of engine.options) {
    const opt = new Option(eo.flags);
    const attr = opt.attributeName();
    mine.add(attr);
    const given = cmd.getOptionValueSource(attr) === 'cli';
    const raw: unknown = cmd.getOptionValue(attr);
    if (!given) {
      if (eo.defaultValue !== undefined) values[attr] = eo.defaultValue;
      else if (raw !== undefined) values[attr] = raw; // a shared source option's default
      continue;
    }
    if (typeof raw === 'string' && eo.parse) {
      let v: unknown;
      try {
        v = eo.parse(raw);
      } catch (err) {
        throw new UsageError(`invalid value for ${longFlag(opt)}: "${raw}" (${(err as Error).message})`);
      }
      if (typeof v === 'number' && Number.isNaN(v)) throw new UsageError(`invalid value for ${longFlag(opt)}: "${raw}" (expected a number)`);
      values[attr] = v;
    } else {
      values[attr] = raw;
    }
  }
  for (const [attr, d] of declared) {
    if (mine.has(attr) || cmd.getOptionValueSource(attr) !== 'cli') continue;
    if (d.engines.length === 1 && cmd.options.some((o) => o.attributeName() === attr && !isSourceOption(o))) {
      throw new UsageError(`${d.flag} is an option of method ${d.engines.join(', ')}, not of ${engine.name}`);
    }
    if (d.engines.length > 1) throw new UsageError(`${d.flag} is an option of methods ${d.engines.join(', ')}, not of ${engine.name}`);
  }
  return values;
}

/** Source and output options are the command's own, not an engine's. */
const OWN_OPTIONS = new Set(['userAgent', 'delay', 'concurrency', 'maxPages', 'maxBytes', 'timeout', 'store', 'out', 'method']);
function isSourceOption(o: Option): boolean {
  return OWN_OPTIONS.has(o.attributeName());
}

/** The command's own options (engine options aside). */
export interface TemplateFlags extends SourceFlags {
  method?: string;
  out: string;
}

export function register(program: Command): void {
  const names = Object.keys(ENGINES);
  const cmd = program
    .command('template')
    .description('learn the template of a site and mark it on every page (the output contract in --out)')
    .argument('<source>', 'directory of pages, .warc/.warc.gz file, or http(s) URL');
  const method = new Option('-m, --method <name>', `template engine: ${names.length > 0 ? names.join(', ') : '(none registered yet)'}`);
  if (names.length > 0) method.default(names[0]);
  else method.makeOptionMandatory(true);
  cmd.addOption(method);
  addSourceOptions(cmd);
  addOutOption(cmd, 'template');

  let prepared: Promise<EngineOptions> | undefined;
  const prepare = (): Promise<EngineOptions> => (prepared ??= addEngineOptions(cmd));
  program.hook('preSubcommand', async (_program, sub) => {
    if (sub === cmd) await prepare();
  });

  cmd.action(async (spec: string, opts: TemplateFlags, self: Command) => {
    const g = globalOptions(self);
    const { engines, declared, broken } = await prepare();
    const name = opts.method ?? '';
    if (!Object.hasOwn(ENGINES, name)) {
      throw new UsageError(`unknown method "${name}" (known: ${names.length > 0 ? names.join(', ') : 'none registered'})`);
    }
    const engine = engines.get(name);
    if (!engine) throw new NothingDone(`method ${name} could not be loaded: ${broken.get(name) ?? 'unknown reason'}`);
    const options = engineOptionValues(self, engine, declared);
    const reporter = createReporter(g);
    for (const [n, why] of broken) reporter.warn(`method ${n} could not be loaded: ${why}`);
    const { summary, dir, failure } = await runTemplate(spec, engine, options, opts, reporter);
    // Engines reject bad option values with EngineError code 'bad-option': a usage error (exit 2).
    if (failure instanceof EngineError && failure.code === BAD_OPTION) throw new UsageError(failure.message);
    emit(g, summary, templateLines(summary, dir));
    if (failure) throw failure;
    if (summary.pagesDone === 0) {
      throw new NothingDone(`no page processed from ${spec} (${summary.pagesFailed} failed; see ${dir}/summary.json)`);
    }
  });
}

/** An engine's options at their defaults (what `gabarit template --method <name>` uses when given none). */
export function engineDefaults(engine: TemplateEngine): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const eo of engine.options) {
    const opt = new Option(eo.flags);
    if (eo.defaultValue !== undefined) values[opt.attributeName()] = eo.defaultValue;
    else if (opt.negate) values[opt.attributeName()] = true;
  }
  return values;
}

/** What a template run gives: the summary written, where, and the error that ended it early (if any). */
export interface TemplateRun {
  summary: Summary;
  dir: string;
  /** The engine could not justify a result, or lacked a page it needed: exit 1 after the summary. */
  failure?: EngineError | PageError;
}

/** What a command built on `runTemplate` adds to it (`gabarit content`). */
export interface RunHooks {
  /** Called after each page is written (e.g. to write another format beside it). */
  onPage?(marks: PageMarks, extra?: Record<string, unknown>): Promise<void>;
  /** summary.json fields that replace the template command's (`command`, `method`, …). */
  summary?(run: EngineRun | undefined): Record<string, unknown>;
}

/**
 * Runs one engine on a source and writes the output contract in `flags.out` (the command's action
 * without printing): every marked page, template.json and summary.json (with the error, if any).
 */
export async function runTemplate(
  spec: string,
  engine: TemplateEngine,
  options: Record<string, unknown>,
  flags: SourceFlags & { out: string },
  reporter: Reporter,
  hooks: RunHooks = {},
): Promise<TemplateRun> {
  const start = performance.now();
  const [{ OutputWriter }, { LabelTable }] = await Promise.all([import('../output.ts'), import('../html/labels.ts')]);
  const opened = await openFromFlags(spec, flags, reporter);
  const dir = outDir(flags.out);
  const writer = new OutputWriter(dir, { onFailure: (f) => reporter.failure(f) });
  let written = 0;
  let run: EngineRun | undefined;
  let failure: EngineError | PageError | undefined;
  try {
    run = await engine.run({
      source: opened.source,
      labels: new LabelTable(),
      options,
      onPage: async (marks, extra) => {
        // A page that cannot be written is a named failure (the writer records it); the run goes on.
        if (await writer.writePage(marks, extra)) await hooks.onPage?.(marks, extra);
        reporter.progress.update('write', ++written);
      },
      // pages an engine renders without their tree (a hook that needs the tree gets trees instead)
      ...(hooks.onPage
        ? {}
        : {
            onRendered: async (page: RenderedPage, extra?: Record<string, unknown>) => {
              await writer.writeRendered(page, extra);
              reporter.progress.update('write', ++written);
            },
          }),
      onFailure: (f) => writer.fail(f),
      onProgress: (phase, done, total) => reporter.progress.update(phase, done, total),
      onWarning: (m) => reporter.warn(m),
    });
  } catch (err) {
    // An engine that cannot justify a result, or a page it cannot do without: the run is over, but the
    // summary still says what happened.
    if (err instanceof EngineError || err instanceof PageError) failure = err;
    else throw err;
  } finally {
    reporter.stop();
    await opened.close();
  }
  const summary = await writer.finish(
    {
      command: 'template',
      method: engine.name,
      source: spec,
      pagesLoaded: networkLoads(opened.source),
      timings: { ...(run?.timings ?? {}), total: since(start) },
      engine: run?.summary ?? {},
      options,
      ...(hooks.summary?.(run) ?? {}),
      ...(failure ? { error: { code: failure.code, message: failure.message } } : {}),
    },
    run?.template,
  );
  return failure ? { summary, dir, failure } : { summary, dir };
}

/** Mean, min and max template fraction of the pages done (undefined when none). */
export function fractionStats(summary: Summary): { mean: number; min: number; max: number } | undefined {
  const xs = summary.pages.map((p) => p.templateFraction);
  if (xs.length === 0) return undefined;
  return { mean: xs.reduce((a, b) => a + b, 0) / xs.length, min: Math.min(...xs), max: Math.max(...xs) };
}

/** The human lines of a template run's result. */
export function templateLines(summary: Summary, dir: string): string[] {
  const lines = [`method: ${String(summary.method)}`, ...summaryLines(summary, dir)];
  const f = fractionStats(summary);
  if (f) lines.splice(3, 0, `template fraction: mean ${f.mean.toFixed(3)}, min ${f.min.toFixed(3)}, max ${f.max.toFixed(3)}`);
  const engine = (summary['engine'] ?? {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(engine)) {
    if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') lines.push(`${k}: ${String(v)}`);
  }
  return lines;
}
