/**
 * The front end's files (app/: TypeScript and CSS, bundled by esbuild). The package ships them built:
 * `npm run build` writes `dist/ui/app/app.js` and `app.css` beside the compiled server, which reads them
 * from there. Run from the sources (the repository, through tsx), there is no built copy beside this
 * file, and the front end is bundled in memory when the server starts (build.ts; esbuild is a dev
 * dependency), so the user never runs a build step either way.
 */
import { readFile } from 'node:fs/promises';

/** The bundled front end. */
export interface Assets {
  js: string;
  css: string;
}

/** The front end: the built files beside this module, else a bundle made now from the sources. */
export async function loadAssets(): Promise<Assets> {
  const dir = new URL('./app/', import.meta.url);
  try {
    const [js, css] = await Promise.all([readFile(new URL('app.js', dir), 'utf8'), readFile(new URL('app.css', dir), 'utf8')]);
    return { js, css };
  } catch (err) {
    if (!import.meta.url.endsWith('.ts')) throw new Error(`the UI's front end is missing from ${dir.pathname} (${(err as Error).message}); the package was built without it`);
  }
  // A path the compiler does not follow: build.ts stays out of the compiled package.
  const builder = './build.ts';
  const { bundleApp } = (await import(builder)) as { bundleApp(): Promise<Assets> };
  return bundleApp();
}
