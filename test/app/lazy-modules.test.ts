/**
 * A controller with its dashboard off (a Pi whose venue serves the dashboard) never loads the dashboard's npm
 * packages, nor johnny-five without a buzzer hub: in the prebuilt bundle, as a Pi runs it. They are ~35 MB of
 * resident memory together (docs/performance.md, "Memory"). In one bundle file every package import was
 * hoisted to the top and loaded by every command; the build is code-split now, and `zaptable start` imports
 * the dashboard only when it starts it. The dashboard-on case shows that the probe does see them, and that the
 * dashboard serves the browser files the build wrote beside the bundle (dist/web/): no esbuild, no bundling and
 * compressing at start-up (seconds of a Pi's CPU, and ~12 MB the thread pool's malloc arenas kept).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../../controller/bench/mosquitto.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
/** A build of its own, inside the project so that the external npm packages resolve. */
const outdir = path.join(root, 'dist', `test-lazy-modules-${process.pid}`);

/** The command lines of a process's children (Linux: /proc/PID/task/PID/children). */
function childCommands(pid: number): string[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter((c) => c !== '');
  return children.flatMap((child) => {
    try {
      return [readFileSync(`/proc/${child}/cmdline`, 'utf8').replaceAll('\0', ' ')];
    } catch {
      return []; // gone meanwhile
    }
  });
}

/**
 * The npm packages (CommonJS, as every one of these is) loaded by `zaptable start` from the bundle, and its child
 * processes once it is running (after up to 5 s for one being stopped to be gone).
 */
async function packagesLoadedByStart(
  env: Readonly<Record<string, string>>,
): Promise<{ packages: Set<string>; children: string[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-lazy-'));
  const record = path.join(dir, 'modules.json');
  // Preloaded into the controller's process: on exit, the modules in the CommonJS cache (ESM imports of
  // CommonJS packages are there too).
  const probe = `import { createRequire } from 'node:module'; import { writeFileSync } from 'node:fs';
    const cache = createRequire(${JSON.stringify(`${root}/`)}).cache;
    process.on('exit', () => writeFileSync(${JSON.stringify(record)}, JSON.stringify(Object.keys(cache))));`;
  const { ZAPTABLE_CONFIG: _file, ...inherited } = process.env;
  const child = spawn(process.execPath, [`--import=data:text/javascript,${encodeURIComponent(probe)}`, path.join(outdir, 'zaptable.mjs'), 'start'], {
    cwd: dir, stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...inherited, ...env,
      ZAPTABLE__MQTT__EMBEDDED__PORT: String(await freeLoopbackPort()),
      ZAPTABLE__DASHBOARD__PORT: String(await freeLoopbackPort()), ZAPTABLE__DASHBOARD__HOST: '127.0.0.1',
    },
  });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    const started = Date.now();
    while (!text.includes('Press Ctrl-C to stop.')) {
      if (child.exitCode !== null || Date.now() - started > 90_000) throw new Error(`the controller did not start:\n${text}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    let children = childCommands(child.pid ?? 0);
    for (let waited = 0; children.length > 0 && waited < 5000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      children = childCommands(child.pid ?? 0);
    }
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    const files = JSON.parse(readFileSync(record, 'utf8')) as string[];
    const packages = new Set(files.flatMap((file) => {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file.slice(file.lastIndexOf('node_modules/')));
      return match?.[1] === undefined ? [] : [match[1]];
    }));
    return { packages, children };
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('zaptable start from the bundle loads only what it runs', () => {
  beforeAll(() => {
    const built = spawnSyncBuild();
    expect(built.status, built.output).toBe(0);
  }, 120_000);
  afterAll(() => {
    rmSync(outdir, { recursive: true, force: true });
  });

  it('with the dashboard off: no Fastify, no esbuild, no johnny-five', async () => {
    const { packages: loaded, children } = await packagesLoadedByStart({ ZAPTABLE__DASHBOARD__ENABLED: 'false' });
    expect(children).toEqual([]);
    // What the controller does use is seen: the probe works.
    for (const used of ['aedes', 'better-sqlite3', 'mqtt', 'serialport']) expect(loaded).toContain(used);
    for (const unused of ['fastify', '@fastify/helmet', '@fastify/static', '@fastify/websocket', 'esbuild', 'johnny-five', 'avrgirl-arduino']) {
      expect(loaded).not.toContain(unused);
    }
  }, 150_000);

  it('with the dashboard on: Fastify is loaded (the probe sees it), esbuild is not (the browser files are prebuilt)', async () => {
    const { packages: loaded, children } = await packagesLoadedByStart({});
    expect(loaded).toContain('fastify');
    expect(loaded).not.toContain('esbuild');
    expect(loaded).not.toContain('johnny-five');
    expect(children).toEqual([]);
  }, 150_000);
});

function spawnSyncBuild(): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [path.join(root, 'tools', 'build.mjs'), '--outdir', outdir], { encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}
