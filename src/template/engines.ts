/**
 * The registry of template engines, loaded lazily (the CLI only pays for the engine it runs), and their
 * option declarations, loaded eagerly (they are small): options are validated, and flags declared, without
 * loading any engine. Each engine module default-exports a TemplateEngine.
 */
import { EngineError } from '../errors.ts';
import { ALIGN_OPTIONS } from './align/options.ts';
import type { LearningEngine } from './engine.ts';
import { HYPERLINK_OPTIONS } from './hyperlink/options.ts';
import { BAD_OPTION, type EngineOptions, type OptionShape } from './options.ts';
import { PAGELET_OPTIONS } from './pagelets/options.ts';

export const ENGINES: Readonly<Record<string, () => Promise<LearningEngine>>> = {
  align: () => import('./align/engine.ts').then((m) => m.default),
  hyperlink: () => import('./hyperlink/engine.ts').then((m) => m.default),
  pagelets: () => import('./pagelets/engine.ts').then((m) => m.default),
};

/** The template engines by name. */
export type Method = 'align' | 'hyperlink' | 'pagelets';

/** Each engine's option declaration (the same object as its `options`). */
export const ENGINE_OPTIONS = {
  align: ALIGN_OPTIONS,
  hyperlink: HYPERLINK_OPTIONS,
  pagelets: PAGELET_OPTIONS,
} as const satisfies Record<Method, EngineOptions<OptionShape>>;

/** True when `name` is a registered engine. */
export function isMethod(name: string): name is Method {
  return Object.hasOwn(ENGINES, name);
}

/** The option declaration of an engine; an unknown name is an EngineError `bad-option`. */
export function engineOptions(name: string): EngineOptions<OptionShape> {
  if (!isMethod(name)) throw unknownMethod(name);
  return ENGINE_OPTIONS[name];
}

function unknownMethod(name: string): EngineError {
  return new EngineError(BAD_OPTION, `unknown method "${name}" (known: ${Object.keys(ENGINES).join(', ') || 'none'})`);
}

export async function loadEngine(name: string): Promise<LearningEngine> {
  const load = ENGINES[name];
  if (!load) throw unknownMethod(name);
  return load();
}
