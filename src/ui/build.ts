/**
 * Bundles the UI's front end (app/main.tsx and the CSS it imports) with esbuild: one ES module and one
 * stylesheet, Preact included, minified, no source map, nothing loaded from elsewhere at run time.
 * `bundleApp()` gives them in memory (the server run from the sources); run as a script,
 * `node --import tsx src/ui/build.ts DIR` writes DIR/app.js and DIR/app.css (`npm run build`).
 * Not part of the compiled package (tsconfig.build.json leaves it out): esbuild is a dev dependency.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Assets } from './assets.ts';

/** The front end bundled (see the module comment). */
export async function bundleApp(): Promise<Assets> {
  const { build } = await import('esbuild');
  const r = await build({
    entryPoints: [fileURLToPath(new URL('./app/main.tsx', import.meta.url))],
    bundle: true,
    write: false,
    outdir: 'app',
    entryNames: 'app',
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    minify: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    logLevel: 'silent',
  });
  const js = r.outputFiles.find((f) => f.path.endsWith('.js'));
  const css = r.outputFiles.find((f) => f.path.endsWith('.css'));
  if (!js || !css) throw new Error('the UI bundle lacks its script or its stylesheet');
  return { js: js.text, css: css.text };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: node --import tsx src/ui/build.ts DIR');
  const a = await bundleApp();
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'app.js'), a.js);
  await writeFile(join(dir, 'app.css'), a.css);
}
