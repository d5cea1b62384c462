/**
 * `gabarit template <source> --method <name>`: learns the site template with one engine and writes the
 * output contract (the library's `detectTemplate` and `writeOutputs`, src/run/): `<page>.txt`,
 * `<page>.html`, `template.json` (what was learned, readable by `gabarit apply`) and `summary.json`; or,
 * with `--format jsonl`, one record per page in `pages.jsonl` (or on stdout with `--out -`).
 *
 * Each engine's options (their declarations, src/template/options.ts) become flags of the command. They
 * are added just before the command parses its arguments (commander's `preSubcommand` hook), so only
 * `gabarit template …` loads them. A flag shared by several engines is declared once; a flag of another
 * engine than the one run is a usage error. Exit codes: see main.ts and pipeline.ts.
 */
import type { Command } from 'commander';
import { METHODS, methodTally, TEMPLATE_OPTIONS, type TemplateFlags } from '../run/options.ts';
import { UsageError } from '../errors.ts';
import type { EngineOptionValues, Method } from '../template/engines.ts';
import type { WrittenSummary } from '../run/write.ts';
import type { CliFlag } from '../template/options.ts';
import { destination, finishRun, pipelineLines } from './pipeline.ts';
import { addDeclaredOptions, engineOption } from './parsers.ts';
import { addOutOption, addSourceOptions, commandHooks, createReporter, globalOptions, type OutFlags, prepareBeforeParse, type SourceFlags, SOURCE_ARGUMENT } from './run.ts';

export { METHODS } from '../run/options.ts';

/** The engines' flags as declared on a command: attribute name → the flag and the engines that declare it. */
export type Declared = Map<string, { flag: CliFlag; engines: string[] }>;

/** Declares every engine's flags on `cmd` (once); returns who declares what. */
export async function addEngineFlags(cmd: Command): Promise<Declared> {
  const { ENGINE_OPTIONS } = await import('../template/engines.ts');
  const declared: Declared = new Map();
  const existing = new Map(cmd.options.map((o) => [o.attributeName(), o] as const));
  // A flag the command declares itself (`--workers`) is the command's, handed to the engines that take it.
  const own = new Set(existing.keys());
  for (const [name, decl] of Object.entries(ENGINE_OPTIONS)) {
    for (const flag of decl.cliFlags()) {
      if (own.has(flag.name)) continue;
      const tag = ` [${name}${flag.defaultText ? `: ${flag.defaultText}` : ''}]`;
      const d = declared.get(flag.name);
      if (d) {
        d.engines.push(name);
        const o = existing.get(flag.name);
        if (o) o.description += tag;
        continue;
      }
      const opt = engineOption(flag, flag.description + tag);
      cmd.addOption(opt);
      existing.set(flag.name, opt);
      declared.set(flag.name, { flag, engines: [name] });
    }
  }
  return declared;
}

/**
 * The options given on the command line for `method` (its declaration fills the defaults and checks the
 * values when the run starts). A flag that belongs only to other engines is a usage error.
 */
export function engineFlagValues(cmd: Command, method: string, declared: Declared): Partial<EngineOptionValues> {
  for (const [name, d] of declared) {
    if (cmd.getOptionValueSource(name) === 'cli' && !d.engines.includes(method)) {
      throw new UsageError(`${d.flag.flags.split(' ')[0]!} is an option of method${d.engines.length > 1 ? 's' : ''} ${d.engines.join(', ')}, not of ${method}`);
    }
  }
  return givenFlagValues(cmd, declared);
}

/** The engine options given on the command line, whichever engines take them. */
export function givenFlagValues(cmd: Command, declared: Declared): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const name of declared.keys()) if (cmd.getOptionValueSource(name) === 'cli') values[name] = cmd.getOptionValue(name);
  return values;
}


export function register(program: Command): void {
  const cmd = program
    .command('template')
    .description('learn the template of a site and mark it on every page (the output contract in --out)')
    .argument('<source>', SOURCE_ARGUMENT);
  addDeclaredOptions(cmd, TEMPLATE_OPTIONS);
  addSourceOptions(cmd);
  addOutOption(cmd, 'template');

  const prepare = prepareBeforeParse(program, cmd, () => addEngineFlags(cmd));

  cmd.action(async (spec: string, opts: TemplateFlags & SourceFlags & OutFlags, self: Command) => {
    const g = globalOptions(self);
    const declared = await prepare();
    const method = opts.method;
    if (!(METHODS as readonly string[]).includes(method)) throw new UsageError(`unknown method "${method}" (known: ${METHODS.join(', ')})`);
    const values = engineFlagValues(self, method, declared);
    const to = destination(opts.out, opts.format, g);
    const { templateCommand } = await import('../run/template.ts');
    const written = await templateCommand(spec, { ...opts, method: method as Method }, values, to, commandHooks(createReporter(g)));
    finishRun(g, written, to, spec, templateLines(written.summary, to.dir ?? 'stdout'));
  });
}

/** Mean, min and max template fraction of the pages done (undefined when none or not listed). */
export function fractionStats(summary: Pick<WrittenSummary, 'pages'>): { mean: number; min: number; max: number } | undefined {
  const xs = (summary.pages ?? []).map((p) => p.templateFraction);
  if (xs.length === 0) return undefined;
  return { mean: xs.reduce((a, b) => a + b, 0) / xs.length, min: Math.min(...xs), max: Math.max(...xs) };
}

/** The human lines of a template run's result. */
export function templateLines(summary: WrittenSummary, dir: string): string[] {
  const lines = [`method: ${String(summary.method)}`, ...pipelineLines(summary, { dir })];
  const f = fractionStats(summary);
  if (f) lines.splice(3, 0, `template fraction: mean ${f.mean.toFixed(3)}, min ${f.min.toFixed(3)}, max ${f.max.toFixed(3)}`);
  const engine = (summary['engine'] ?? {}) as Record<string, unknown>;
  const sites = engine['sites'];
  if (Array.isArray(sites)) {
    const alone = sites.filter((s: { method?: string }) => s.method === 'main-block').length;
    const by = methodTally((sites as Array<{ method?: string }>).filter((s) => s.method !== 'main-block').map((s) => String(s.method)));
    lines[0] += ` (${sites.length} site(s): a template learned on ${sites.length - alone}${by}; ${alone} page(s) alone, where all but the main block is template)`;
  }
  for (const [k, v] of Object.entries(engine)) {
    if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') lines.push(`${k}: ${String(v)}`);
  }
  return lines;
}
