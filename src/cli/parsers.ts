/**
 * The parsers of option values (commander `argParser`), one per kind of value, shared by every command: a
 * bad value is an InvalidArgumentError, which commander reports as a usage error (exit 2) naming the option.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { CliFlag, EngineOptions, OptionShape } from '../template/options.ts';

/** Parses a non-negative integer option value. */
export function parseCount(raw: string): number {
  const n = Number(raw);
  if (!/^\s*\d+\s*$/.test(raw) || !Number.isSafeInteger(n)) throw new InvalidArgumentError('expected a whole number (0, 1, 2…).');
  return n;
}

/** Parses a positive integer option value. */
export function parsePositive(raw: string): number {
  const n = parseCount(raw);
  if (n < 1) throw new InvalidArgumentError('expected a whole number of at least 1.');
  return n;
}

/** Parses a TCP port (0 = any free port). */
export function parsePort(raw: string): number {
  const n = parseCount(raw);
  if (n > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535.');
  return n;
}

/** Parses a threshold in (0, 1] (a similarity that pages must reach). */
export function parseThreshold(raw: string): number {
  const x = Number(raw);
  if (!Number.isFinite(x) || x <= 0 || x > 1) throw new InvalidArgumentError('expected a number in (0, 1].');
  return x;
}

/** Parses a weight or share in [0, 1]. */
export function parseShare(raw: string): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError('expected a number from 0 to 1.');
  return n;
}

/** A parser of one of `choices` (the message lists them). */
export function parseChoice<T extends string>(choices: readonly T[]): (raw: string) => T {
  return (raw) => {
    if ((choices as readonly string[]).includes(raw)) return raw as T;
    throw new InvalidArgumentError(`expected ${choices.slice(0, -1).join(', ')}${choices.length > 1 ? ' or ' : ''}${choices[choices.length - 1]!}.`);
  };
}

/** Collects a repeatable `key=value` option into a list. */
export function parseKeyValue(value: string, previous: string[] = []): string[] {
  if (!/^[^=]+=/.test(value)) throw new InvalidArgumentError('expected key=value.');
  return [...previous, value];
}

/**
 * The commander option of an engine option's flag (src/template/options.ts `cliFlags`): the raw value
 * converted by the option's schema, a bad one a usage error (its range is checked when the engine's
 * options are parsed).
 */
export function engineOption(flag: CliFlag, description = flag.description): Option {
  return new Option(flag.flags, description).argParser((raw: string, previous: unknown) => {
    try {
      return flag.convert(raw, previous);
    } catch (err) {
      throw new InvalidArgumentError((err as Error).message);
    }
  });
}

/**
 * The commander option of a command's own declared option: as `engineOption`, with the declaration's
 * default (shown by --help and docs/cli.md), its choices, and mandatory when it has no default.
 */
export function commandOption(flag: CliFlag): Option {
  const o = flag.boolean ? new Option(flag.flags, flag.description) : engineOption(flag);
  if (flag.choices) o.choices(flag.choices);
  if (flag.mandatory) o.makeOptionMandatory();
  // a `--no-x` flag defaults to true in commander already
  if (flag.defaultValue !== undefined && !(flag.boolean && flag.defaultValue === true)) {
    o.default(flag.defaultValue, flag.defaultText === String(flag.defaultValue) ? undefined : flag.defaultText);
  }
  return o;
}

/** Adds the flags of a declaration's options to a command (library-only ones left out). */
export function addDeclaredOptions(cmd: Command, declaration: EngineOptions<OptionShape>): Command {
  for (const flag of declaration.cliFlags()) cmd.addOption(commandOption(flag));
  return cmd;
}
