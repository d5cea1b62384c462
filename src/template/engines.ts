/**
 * The registry of template engines, loaded lazily (the CLI only pays for the engine it runs).
 * Each engine module default-exports a TemplateEngine.
 */
import type { TemplateEngine } from './engine.ts';

export const ENGINES: Readonly<Record<string, () => Promise<TemplateEngine>>> = {
  align: () => import('./align/engine.ts').then((m) => m.default),
  hyperlink: () => import('./hyperlink/engine.ts').then((m) => m.default),
  pagelets: () => import('./pagelets/engine.ts').then((m) => m.default),
};

export async function loadEngine(name: string): Promise<TemplateEngine> {
  const load = ENGINES[name];
  if (!load) throw new Error(`unknown method "${name}" (known: ${Object.keys(ENGINES).join(', ') || 'none'})`);
  return load();
}
