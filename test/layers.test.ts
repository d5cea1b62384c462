/**
 * Dependencies point one way (docs/architecture.md): a module of src/ imports only from its own area or
 * from the layers below it. Within the engines layer, areas are peers and do not import each other, except
 * where an engine is built on another one (ENGINE_USES). Every relative import of src/**\/*.ts (static,
 * `export … from`, `import()` and `import type`) is read with the TypeScript compiler's pre-processor.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

/**
 * The layers from the bottom up; each area is a folder (`html/`) or a file (`errors.ts`) under src/. An
 * area not listed here fails the check, so that a new folder gets a place on purpose.
 */
const LAYERS: readonly { name: string; areas: readonly string[]; open?: boolean }[] = [
  { name: 'base', areas: ['errors.ts', 'filled.ts'] },
  { name: 'html', areas: ['html/'] },
  // site/: sources, fetching, the page store.
  { name: 'site', areas: ['site/'] },
  {
    name: 'shared',
    open: true,
    // template/: the contract of a template engine (engine.ts, options.ts, result.ts, …) and what its engines share.
    areas: ['structure/', 'template/'],
  },
  {
    name: 'engines',
    areas: ['template/align/', 'template/hyperlink/', 'template/pagelets/', 'template/engines.ts', 'collect/', 'cluster/', 'content/', 'wrapper/', 'analysis/', 'eval/'],
  },
  { name: 'output', open: true, areas: ['output.ts', 'report/'] },
  { name: 'run', areas: ['run/', 'defaults.ts'] },
  { name: 'front ends', areas: ['ui/', 'demo/', 'crawlee/'] },
  { name: 'entry points', areas: ['cli/', 'index.ts'] },
];

/** The engines built on other engines: the one area may import the other, never the reverse. */
const ENGINE_USES: Readonly<Record<string, readonly string[]>> = {
  'template/engines.ts': ['template/align/', 'template/hyperlink/', 'template/pagelets/'],
  'content/': ['template/engines.ts'],
  'cluster/': ['template/align/'],
  'analysis/': ['template/pagelets/'],
};

/** Readers of the evaluation corpus: for tests and eval/ only, left out of the package (tsconfig.build.json). */
const DEV_ONLY = /^eval\/(corpus[\w-]*|reference-engines)\.ts$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The area holding a path relative to src/ (longest match), with its layer's index. */
function areaOf(path: string): { area: string; layer: number } | undefined {
  let best: { area: string; layer: number } | undefined;
  LAYERS.forEach((l, layer) => {
    for (const area of l.areas) {
      const hit = area.endsWith('/') ? path.startsWith(area) : path === area;
      if (hit && (best === undefined || area.length > best.area.length)) best = { area, layer };
    }
  });
  return best;
}

/** Why an import from `from` to `to` (paths relative to src/) points the wrong way, or undefined. */
export function backArrow(from: string, to: string): string | undefined {
  if (DEV_ONLY.test(to) && !DEV_ONLY.test(from)) return `${to} reads the evaluation corpus and is not part of the package`;
  const a = areaOf(from);
  const b = areaOf(to);
  if (a === undefined) return `${from} lies in no layer`;
  if (b === undefined) return `${to} lies in no layer`;
  if (a.area === b.area || b.layer < a.layer) return undefined;
  if (b.layer > a.layer) return `${LAYERS[a.layer]!.name} imports ${LAYERS[b.layer]!.name}`;
  if (LAYERS[a.layer]!.open === true || ENGINE_USES[a.area]?.includes(b.area)) return undefined;
  return `${a.area} and ${b.area} are peers in the ${LAYERS[a.layer]!.name} layer`;
}

test('the imports of src/ point down the layers (docs/architecture.md)', () => {
  const wrong: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const from = relative(SRC, file).split('\\').join('/');
    // The UI's front end runs in the browser, bundled apart; it only shares types with the server.
    if (from.startsWith('ui/app/')) continue;
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = posix.normalize(posix.join(posix.dirname(from), fileName));
      const why = backArrow(from, to);
      if (why !== undefined) wrong.push(`src/${from} → src/${to}: ${why}`);
    }
  }
  const layers = LAYERS.map((l) => `${l.name} (${l.areas.join(' ')})`).join(' → ');
  assert.deepEqual(
    wrong,
    [],
    `imports that point back up the layers; from the bottom: ${layers}. Move what both sides need down to the ` +
      `lower layer (docs/architecture.md):\n${wrong.join('\n')}`,
  );
});

test('the layer check names a back arrow and accepts a downward one', () => {
  assert.equal(backArrow('site/fetch.ts', 'html/parse.ts'), undefined);
  assert.equal(backArrow('cluster/content.ts', 'template/align/engine.ts'), undefined);
  assert.match(backArrow('template/engine.ts', 'output.ts') ?? '', /shared imports output/);
  assert.match(backArrow('template/align/navigation.ts', 'template/hyperlink/x.ts') ?? '', /peers in the engines layer/);
  assert.match(backArrow('template/align/x.ts', 'template/engines.ts') ?? '', /peers/);
  assert.match(backArrow('cluster/content.ts', 'eval/corpus.ts') ?? '', /not part of the package/);
  assert.match(backArrow('newarea/x.ts', 'html/parse.ts') ?? '', /no layer/);
});
