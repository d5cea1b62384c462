/**
 * The parsers of option values (commander `argParser`), one per kind of value, shared by every command: a
 * bad value is an InvalidArgumentError, which commander reports as a usage error (exit 2) naming the option.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { CliFlag, EngineOptions, OptionShape } from '../template/options.ts';

/** Parses a threshold in (0, 1] (a similarity that pages must reach). */
export function parseThreshold(raw: string): number {
  const x = Number(raw);
  if (!Number.isFinite(x) || x <= 0 || x > 1) throw new InvalidArgumentError('expected a number in (0, 1].');
  return x;
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
  // a flag whose value may be left out is checked by its declaration only when it gathers a list
  const o = flag.boolean || (flag.optionalValue && !flag.repeatable) ? new Option(flag.flags, flag.description) : engineOption(flag);
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
