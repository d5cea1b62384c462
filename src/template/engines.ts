/**
 * The registry of template engines: each engine loaded lazily (the CLI only pays for the engine it runs),
 * its option declarations and the compiler of its learned templates loaded eagerly: options are validated,
 * flags declared and templates applied without loading any engine. Each engine module default-exports a
 * TemplateEngine.
 */
import { EngineError } from '../errors.ts';
import { ALIGN_OPTIONS } from './align/options.ts';
import type { LearningEngine } from './engine.ts';
import { compileAlign } from './align/learned.ts';
import { compileHyperlink } from './hyperlink/learned.ts';
import type { Applier, Template } from './learned.ts';
import { compilePagelets } from './pagelets/learned.ts';
import { HYPERLINK_OPTIONS } from './hyperlink/options.ts';
import { BAD_OPTION, type EngineOptions, type OptionShape, type OptionValues } from './options.ts';
import { PAGELET_OPTIONS } from './pagelets/options.ts';

/** The template engines by name. */
export type Method = 'align' | 'hyperlink' | 'pagelets';

/** What the registry holds of an engine: its options, how to load it, how to compile its templates. */
interface Registered {
  readonly options: EngineOptions<OptionShape>;
  readonly load: () => Promise<LearningEngine>;
  /** The engine's `compile`, without loading the engine (applying a template is synchronous). */
  readonly compile: (template: Template) => Applier;
}

/** The one list of engines: adding an engine is adding its line here. */
const REGISTRY = {
  align: { options: ALIGN_OPTIONS, load: () => import('./align/engine.ts').then((m) => m.default), compile: compileAlign },
  hyperlink: { options: HYPERLINK_OPTIONS, load: () => import('./hyperlink/engine.ts').then((m) => m.default), compile: compileHyperlink },
  pagelets: { options: PAGELET_OPTIONS, load: () => import('./pagelets/engine.ts').then((m) => m.default), compile: compilePagelets },
} as const satisfies Record<Method, Registered>;

/** Each engine's loader. */
export const ENGINES: Readonly<Record<string, () => Promise<LearningEngine>>> = Object.fromEntries(Object.entries(REGISTRY).map(([name, r]) => [name, r.load]));

/** Each engine's option declaration (the same object as its `options`). */
export const ENGINE_OPTIONS: { readonly [M in Method]: (typeof REGISTRY)[M]['options'] } = {
  align: REGISTRY.align.options,
  hyperlink: REGISTRY.hyperlink.options,
  pagelets: REGISTRY.pagelets.options,
};

/** The options of engine `M` as its declaration gives them (defaults filled); for `Method`, those of any one engine. */
export type EngineOptionValues<M extends Method = Method> = M extends Method ? OptionValues<(typeof ENGINE_OPTIONS)[M]['shape']> : never;

/** The compiler of an engine's learned templates, or undefined for an unknown engine. */
export function compilerOf(method: string): ((template: Template) => Applier) | undefined {
  return isMethod(method) ? REGISTRY[method].compile : undefined;
}

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
