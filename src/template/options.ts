/**
 * One declaration per engine option (STYLE.md 16): an engine declares each option once, as a zod schema
 * with a description, and everything else follows from that declaration:
 *  - the option's type (`OptionValues`) and its default (the schema's `.default`);
 *  - validation, for library callers and the command line alike: `parse` fills defaults, rejects unknown
 *    names and bad values with an `EngineError` of code `bad-option` naming the option;
 *  - the command-line flag (`cliFlags`): `--kebab-name <arg>`, or for a boolean `--name` (default false) /
 *    `--no-name` (default true), with the raw string converted by the schema's base type;
 *  - the generated reference (docs/cli.md) and `--help`, from the description and default.
 */
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { EngineError } from '../errors.ts';

/** The EngineError code of a bad option value (the command line exits 2 on it). */
export const BAD_OPTION = 'bad-option';

/** What an option says of itself besides its schema. */
export interface OptionMeta {
  /** What the option does; for a boolean that defaults to true, what its `--no-` flag does. */
  description: string;
  /** Placeholder of the value in the flag (`n` gives `--sample <n>`); booleans take none. */
  arg?: string;
  /** How the default is shown when it depends on the machine (e.g. `min(2, cores)`). */
  defaultText?: string;
  /** Library-only option: no command-line flag. */
  cli?: false;
  /** One-letter alias of the flag (`o` gives `-o, --out <dir>`). */
  short?: string;
  /** Where the option comes from in the papers (`paper 4, section 3.1`), when it does. */
  section?: string;
  /** The flag's value may be left out (`--update [file]`): given alone, the option is `true`. */
  optionalValue?: true;
}

/** One declared option: its schema (type, default, constraints) and its meta. */
export interface OptionSpec<T extends z.ZodTypeAny = z.ZodTypeAny> extends OptionMeta {
  readonly schema: T;
}

/** Declares one option. */
export function option<T extends z.ZodTypeAny>(schema: T, meta: OptionMeta): OptionSpec<T> {
  return { ...meta, schema };
}

export type OptionShape = Readonly<Record<string, OptionSpec>>;
/** The names of a declaration's options that may be left without a value (no default, optional). */
type OptionalNames<S extends OptionShape> = { [K in keyof S]: undefined extends z.output<S[K]['schema']> ? K : never }[keyof S];
/** The resolved options of a declaration (defaults filled; an option without a value is left out). */
export type OptionValues<S extends OptionShape> = { -readonly [K in Exclude<keyof S, OptionalNames<S>>]: z.output<S[K]['schema']> } & {
  -readonly [K in OptionalNames<S>]?: Exclude<z.output<S[K]['schema']>, undefined>;
};

/** A command-line flag derived from a declared option. */
export interface CliFlag {
  /** The option's name (camelCase, as commander's attribute name). */
  name: string;
  /** Commander flags, e.g. `--sample <n>`, `-o, --out <dir>` or `--no-line-rule`. */
  flags: string;
  description: string;
  /** The default as shown in --help and docs/cli.md ('' when none or for a `--no-` flag). */
  defaultText: string;
  /** The default value (undefined when none). */
  defaultValue: unknown;
  /** Whether the flag takes no value (a boolean). */
  boolean: boolean;
  /** The values allowed (an enum), listed by --help. */
  choices?: readonly string[];
  /** Whether the flag may be given several times, its values gathered into a list. */
  repeatable: boolean;
  /** Whether the command line must give it (no default and not optional). */
  mandatory: boolean;
  /** Whether its value may be left out (`--update [file]`: `true` then). */
  optionalValue: boolean;
  /** Converts the raw string of the command line to the option's value (throws Error with a message); `previous` is the list so far of a repeatable flag. */
  convert(raw: string, previous?: unknown): unknown;
}

/** camelCase → kebab-case. */
function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
}

/** The schema below defaults, optionals and refinements. */
function baseOf(schema: z.ZodTypeAny): z.ZodTypeAny {
  let s = schema;
  for (;;) {
    if (s instanceof z.ZodDefault || s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s._def.innerType as z.ZodTypeAny;
    else if (s instanceof z.ZodEffects) s = s._def.schema as z.ZodTypeAny;
    else return s;
  }
}

/** The default of an option (undefined when it has none). */
export function defaultOf(spec: OptionSpec): unknown {
  const r = spec.schema.safeParse(undefined);
  return r.success ? r.data : undefined;
}

/** One message for the issues of a value: `--sample: Number must be greater than or equal to 1`. */
function issuesText(error: z.ZodError): string {
  return error.issues.map((i) => i.message).join('; ');
}

/** The options of one engine (or command), declared once. */
export class EngineOptions<S extends OptionShape> {
  readonly engine: string;
  readonly shape: S;

  constructor(engine: string, shape: S) {
    this.engine = engine;
    this.shape = shape;
  }

  /** The names of the options. */
  get names(): string[] {
    return Object.keys(this.shape);
  }

  /** Every option at its default. */
  defaults(): OptionValues<S> {
    return this.parse({});
  }

  /**
   * Validates `input` (option name → value, any subset) and fills the defaults. An unknown name, or a value
   * the schema rejects, is an EngineError `bad-option` naming the option and the method.
   */
  parse(input: Readonly<Record<string, unknown>> = {}): OptionValues<S> {
    const out: Record<string, unknown> = {};
    for (const name of Object.keys(input)) {
      if (input[name] !== undefined && !Object.hasOwn(this.shape, name)) {
        throw new EngineError(BAD_OPTION, `${this.engine}: unknown option "${name}" (known: ${this.names.join(', ') || 'none'})`);
      }
    }
    for (const [name, spec] of Object.entries(this.shape)) {
      const r = spec.schema.safeParse(input[name]);
      if (!r.success) {
        throw new EngineError(BAD_OPTION, `${this.engine}: option ${name} (${this.flagOf(name)}) ${issuesText(r.error)}, got ${JSON.stringify(input[name])}`);
      }
      if (r.data !== undefined) out[name] = r.data;
    }
    return out as OptionValues<S>;
  }

  /** The long flag of an option (`--min-evidence`), for messages. */
  flagOf(name: string): string {
    const spec = this.shape[name];
    if (spec && baseOf(spec.schema) instanceof z.ZodBoolean && defaultOf(spec) === true) return `--no-${kebab(name)}`;
    return `--${kebab(name)}`;
  }

  /** The command-line flags of the options (library-only ones left out). */
  cliFlags(): CliFlag[] {
    const out: CliFlag[] = [];
    for (const [name, spec] of Object.entries(this.shape)) {
      if (spec.cli === false) continue;
      const base = baseOf(spec.schema);
      const d = defaultOf(spec);
      const isBool = base instanceof z.ZodBoolean;
      const arg = spec.optionalValue ? `[${spec.arg ?? 'value'}]` : `<${spec.arg ?? 'value'}>`;
      const long = isBool ? this.flagOf(name) : `--${kebab(name)} ${arg}`;
      const flags = spec.short ? `-${spec.short}, ${long}` : long;
      const defaultText = spec.defaultText ?? (d === undefined || (isBool && d === true) ? '' : String(d));
      // a list, or a list beside `true` (`--sitemap [url]`: alone, or given URLs)
      const list = base instanceof z.ZodArray ? base : base instanceof z.ZodUnion ? (base.options as z.ZodTypeAny[]).map(baseOf).find((o) => o instanceof z.ZodArray) : undefined;
      const repeatable = list !== undefined;
      // a boolean flag takes no value: giving it means the opposite of its default (commander calls the
      // parser with no string for it); a repeatable one checks each value and adds it to the list
      const convert = isBool
        ? () => d !== true
        : repeatable
          ? (raw: string, previous?: unknown) => [...(Array.isArray(previous) ? (previous as unknown[]) : []), convertRaw(list.element as z.ZodTypeAny, baseOf(list.element as z.ZodTypeAny), raw)]
          : (raw: string) => convertRaw(spec.schema, base, raw);
      const choices = base instanceof z.ZodEnum ? (base.options as string[]) : undefined;
      const mandatory = !spec.schema.safeParse(undefined).success;
      const description = spec.section ? `${spec.description} (${spec.section})` : spec.description;
      out.push({ name, flags, description, defaultText, defaultValue: d, boolean: isBool, ...(choices ? { choices } : {}), repeatable, mandatory, optionalValue: spec.optionalValue === true, convert });
    }
    return out;
  }

  /** A declaration of some of these options (the same specs), for a command that takes only those. */
  only<K extends keyof S & string>(names: readonly K[]): EngineOptions<Pick<S, K>> {
    return new EngineOptions(this.engine, Object.fromEntries(names.map((n) => [n, this.shape[n]])) as Pick<S, K>);
  }

  /**
   * This declaration's options among `values` (a command's flags, validated as they were parsed and with
   * the declared defaults), the others left.
   */
  pick(values: object): OptionValues<S> {
    const v = values as Readonly<Record<string, unknown>>;
    return Object.fromEntries(this.names.filter((n) => v[n] !== undefined).map((n) => [n, v[n]])) as OptionValues<S>;
  }
}

/** The value of a raw command-line string for an option, validated by its schema (throws Error). */
function convertRaw(schema: z.ZodTypeAny, base: z.ZodTypeAny, raw: string): unknown {
  let value: unknown = raw;
  if (base instanceof z.ZodNumber) {
    value = raw.trim() === '' ? NaN : Number(raw);
    if (Number.isNaN(value)) throw new Error('expected a number');
  }
  const r = schema.safeParse(value);
  if (!r.success) throw new Error(issuesText(r.error));
  return r.data;
}

/** Declares the options of an engine or command. */
export function declareOptions<S extends OptionShape>(engine: string, shape: S): EngineOptions<S> {
  return new EngineOptions(engine, shape);
}

// Schemas the engines share.
/** A whole number of at least `min`. */
export function wholeNumber(min: number): z.ZodNumber {
  return z.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').min(min, `must be at least ${min}`);
}
/** A share or weight in [0, 1]. */
export function share(): z.ZodNumber {
  return finiteNumber().min(0, 'must be at least 0').max(1, 'must be at most 1');
}
/** A threshold in (0, 1]: a similarity that pages must reach. */
export function threshold(): z.ZodNumber {
  return finiteNumber().gt(0, 'must be above 0').max(1, 'must be at most 1');
}
/** A number (finite). */
export function finiteNumber(): z.ZodNumber {
  return z.number({ invalid_type_error: 'must be a number' }).finite('must be finite');
}

/** The declaration of an engine without options. */
export function noOptions(engine: string): EngineOptions<Record<string, never>> {
  return new EngineOptions(engine, {});
}

/**
 * `--workers`: the worker threads of the per-page work, one declaration for every command that has some
 * (the pagelets engine, template, content, apply, wrapper run, cluster). Default: one per core the process may use.
 */
export const WORKERS = option(wholeNumber(0).default(() => availableParallelism()), {
  arg: 'n',
  defaultText: 'cores',
  description: 'worker threads for per-page work (0: the main thread only; runs under 48 pages stay on the main thread)',
});
