// A local ESLint rule that enforces the controller's layering (see controller/README.md).
// Each folder directly under controller/ is a layer; a layer may import only itself and the layers
// listed for it below. `rules` is the pure centre: it may import nothing outside itself — no other
// layer, no npm package, no Node built-in (so no I/O, no clock, no randomness can creep in).
import path from 'node:path';

/** layer → layers it may import (besides itself). '*' = any layer. */
export const LAYERS = {
  // The time kernel: event times, intervals and their order, one seeded PRNG, statistics, the Result shape.
  // Pure and at the very bottom: every layer may import it, it imports nothing.
  kernel: [],
  rules: [],
  bots: ['rules'],
  scenarios: ['rules'],
  protocol: [],
  hardware: ['protocol'],
  // Pure buzzer logic; it ranks by the kernel's arbitrate() and takes only the lamp pattern type from hardware/interface.ts.
  buzzer: ['hardware'],
  config: ['rules'],
  persistence: ['rules'],
  runtime: ['rules', 'hardware', 'protocol', 'persistence', 'config', 'buzzer'],
  transport: ['rules', 'runtime', 'config', 'buzzer'],
  cli: ['*'],
  app: ['*'],
  // Benchmarks and their simulated worlds (bench/sim/: drifting clocks, USB links): above everything. No
  // production module imports them, '*' included; only the `zaptable bench …` commands load them.
  bench: ['*'],
};

/** The layer nothing in production may import: benchmarks and their simulated worlds. */
const BENCH_LAYER = 'bench';
/** The only production files that may load a benchmark: the `zaptable bench …` commands (loaded on demand). */
const BENCH_COMMANDS = /^cli[\\/]commands[\\/]bench[^\\/]*\.ts$/;

/** Layers that may import no package at all (only their own files). */
const NO_PACKAGES = new Set(['kernel', 'rules', 'buzzer']);

const controllerRoot = path.resolve(import.meta.dirname, '..', 'controller');

function layerOf(file) {
  const rel = path.relative(controllerRoot, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const first = rel.split(path.sep)[0];
  return first && first !== rel ? first : undefined;
}

export const layersPlugin = {
  rules: {
    layers: {
      meta: {
        type: 'problem',
        docs: { description: 'Enforce the controller layer import rules from controller/README.md' },
        schema: [],
        messages: {
          unknownLayer: 'Folder controller/{{layer}}/ is not a declared layer: add it to tools/eslint-layers.js and controller/README.md.',
          forbidden: 'Layer "{{from}}" may not import layer "{{to}}" (allowed: {{allowed}}). See controller/README.md.',
          noPackages: 'Layer "{{from}}" is pure and may not import the package "{{spec}}".',
          bench: 'Production code may not import benchmark or simulation code (controller/bench/); only the `zaptable bench` commands (cli/commands/bench*.ts) load it.',
        },
      },
      create(context) {
        const file = context.filename;
        const from = layerOf(file);
        if (!from) return {};
        const allowed = LAYERS[from];
        function check(node, spec) {
          if (typeof spec !== 'string') return;
          if (!allowed) {
            context.report({ node, messageId: 'unknownLayer', data: { layer: from } });
            return;
          }
          if (!spec.startsWith('.')) {
            if (NO_PACKAGES.has(from)) context.report({ node, messageId: 'noPackages', data: { from, spec } });
            return;
          }
          const to = layerOf(path.resolve(path.dirname(file), spec));
          if (to === 'kernel') return; // the kernel is below every layer
          if (to === BENCH_LAYER && from !== BENCH_LAYER) {
            if (!BENCH_COMMANDS.test(path.relative(controllerRoot, file))) context.report({ node, messageId: 'bench' });
            return;
          }
          if (to === undefined || to === from || allowed.includes('*') || allowed.includes(to)) return;
          context.report({ node, messageId: 'forbidden', data: { from, to, allowed: allowed.join(', ') || 'none' } });
        }
        return {
          ImportDeclaration: (node) => check(node, node.source.value),
          ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
          ExportAllDeclaration: (node) => check(node, node.source.value),
          ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
        };
      },
    },
  },
};
