// Types for the local ESLint layer rule (tools/eslint-layers.js), so TypeScript tests can import it.
import type { ESLint } from 'eslint';

export const LAYERS: Readonly<Record<string, readonly string[]>>;
export const layersPlugin: ESLint.Plugin;
