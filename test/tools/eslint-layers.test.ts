/**
 * The layer rule (tools/eslint-layers.js) really rejects imports that cross the architecture, and accepts
 * the ones controller/README.md allows. Runs ESLint on in-memory snippets placed at real paths.
 */
import { ESLint } from 'eslint';
import path from 'node:path';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { layersPlugin } from '../../tools/eslint-layers.js';

const root = path.resolve(import.meta.dirname, '..', '..');
// The snippets are not files of the TypeScript project, so they are linted with the layer rule alone
// (no type-aware rules); a separate test checks that the project's own config turns the rule on.
const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: true,
  overrideConfig: [{
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { zaptable: layersPlugin },
    rules: { 'zaptable/layers': 'error' },
  }],
});

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'zaptable/layers').map((m) => m.message);
}

describe('zaptable/layers', () => {
  it('is switched on as an error for every controller file by the project config', async () => {
    const project = new ESLint({ cwd: root });
    const config = await project.calculateConfigForFile(path.join(root, 'controller/rules/zip-zap/engine.ts')) as { rules: Record<string, unknown> };
    expect(config.rules['zaptable/layers']).toEqual([2]);
  });

  it('keeps the rules pure: no other layer, no package, no Node built-in', async () => {
    expect(await layerErrors('controller/rules/zip-zap/x.ts', 'import { main } from \'../../cli/main.ts\';\nexport const m = main;\n'))
      .toEqual([expect.stringContaining('Layer "rules" may not import layer "cli"')]);
    expect(await layerErrors('controller/rules/x.ts', 'import { readFile } from \'node:fs/promises\';\nexport const r = readFile;\n'))
      .toEqual([expect.stringContaining('may not import the package "node:fs/promises"')]);
    expect(await layerErrors('controller/rules/x.ts', 'import { seedRng } from \'./common/rng.ts\';\nexport const s = seedRng;\n')).toEqual([]);
  });

  it('lets a layer import the layers listed for it, and nothing else', async () => {
    expect(await layerErrors('controller/bots/x.ts', 'import { seedRng } from \'../rules/common/rng.ts\';\nexport const s = seedRng;\n')).toEqual([]);
    expect(await layerErrors('controller/hardware/x.ts', 'import { main } from \'../scenarios/scenario.ts\';\nexport const m = main;\n'))
      .toEqual([expect.stringContaining('Layer "hardware" may not import layer "scenarios"')]);
    expect(await layerErrors('controller/cli/x.ts', 'import { seedRng } from \'../rules/common/rng.ts\';\nexport const s = seedRng;\n')).toEqual([]);
  });

  it('keeps benchmark and simulation code out of production: only the bench commands load it', async () => {
    const sim = 'import { REALISTIC_LINK } from \'../../bench/sim/simulated-link.ts\';\nexport const l = REALISTIC_LINK;\n';
    expect(await layerErrors('controller/hardware/serial/x.ts', sim))
      .toEqual([expect.stringContaining('Production code may not import benchmark or simulation code')]);
    // `app` and `cli` may import any layer, but not this one.
    expect(await layerErrors('controller/app/x/y.ts', sim)).toEqual([expect.stringContaining('may not import benchmark')]);
    expect(await layerErrors('controller/cli/setup/x.ts', sim)).toEqual([expect.stringContaining('may not import benchmark')]);
    expect(await layerErrors('controller/cli/commands/bench-x.ts', sim)).toEqual([]);
    expect(await layerErrors('controller/bench/timing/x.ts', 'import { s } from \'../sim/simulated-clock.ts\';\nexport const t = s;\n')).toEqual([]);
  });

  it('refuses a folder that is not a declared layer', async () => {
    expect(await layerErrors('controller/misc/x.ts', 'import { seedRng } from \'../rules/common/rng.ts\';\nexport const s = seedRng;\n'))
      .toEqual([expect.stringContaining('controller/misc/ is not a declared layer')]);
  });
});
