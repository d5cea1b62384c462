/**
 * The package as a user gets it: `npm pack` of this repository (its `prepack` builds dist/), then
 * `npm install <tarball>` into an empty project in a temporary folder, outside the repository. Used by
 * the installed-package checks (installed.pack.ts) and the start-up benchmark (bench/startup.bench.ts).
 * Installing needs the npm registry for the package's dependencies (npm's cache serves them when present).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runProcess, type Ran } from '../cli/gabarit-process.ts';

export interface Installed {
  /** The project the package is installed in (a temporary folder; the commands run from here). */
  project: string;
  /** The installed package's folder (node_modules/gabarit). */
  packageDir: string;
  /** The tarball npm pack made. */
  tarball: string;
  /** The version in the packed checkout's package.json. */
  version: string;
  /** Removes the temporary folder. */
  remove(): Promise<void>;
}

/** Runs npm with the given arguments in `cwd`; throws with npm's output when it fails. */
async function npm(args: readonly string[], cwd: string): Promise<Ran> {
  const env = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
  const r = await runProcess(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, { cwd, env });
  if (r.code !== 0) throw new Error(`npm ${args.join(' ')} failed (exit ${r.code}) in ${cwd}:\n${r.stderr}${r.stdout}`);
  return r;
}

/**
 * Packs the repository (or another checkout of it, `repo`) and installs the tarball, with `extra` packages
 * (e.g. `@types/node`), into a new empty project (`"type": "module"`) in a temporary folder.
 */
export async function packAndInstall(extra: readonly string[] = [], repo = ROOT): Promise<Installed> {
  const tmp = await mkdtemp(join(tmpdir(), 'gabarit-package-'));
  const remove = (): Promise<void> => rm(tmp, { recursive: true, force: true });
  try {
    const packed = await npm(['pack', '--json', '--pack-destination', tmp], repo);
    const filename = (JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Array<{ filename: string }>)[0]!.filename;
    const tarball = join(tmp, filename);
    const project = join(tmp, 'project');
    await mkdir(project);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'gabarit-install-check', private: true, type: 'module' }, null, 2) + '\n');
    await npm(['install', '--prefer-offline', '--no-package-lock', tarball, ...extra], project);
    const version = (JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as { version: string }).version;
    return { project, packageDir: join(project, 'node_modules', 'gabarit'), tarball, version, remove };
  } catch (err) {
    await remove();
    throw err;
  }
}

/** The installed `gabarit` command (node_modules/.bin/gabarit, as npm linked it), run with this node. */
export function installedBin(installed: Installed): string {
  return join(installed.project, 'node_modules', '.bin', 'gabarit');
}
