/**
 * The configuration layer: one YAML file, one schema, validated once at start-up with every error reported
 * at once (design principle 9). See docs/configuration.md.
 */
export { loadConfig, randomSecret, type LoadOptions, type LoadResult } from './load-config.ts';
export { validateConfig, type ValidationResult } from './validate.ts';
export { ZaptableSchema, type ZaptableConfig, type TableConfig, type SeatConfig, type Mode } from './schema.ts';
export { MODES, SEAT_LIMITS, GAME_COLOURS } from './schema-tables.ts';
export { CONFIG_ERRORS, formatConfigError, type ConfigError, type ConfigErrorCode } from './errors.ts';
export { applyEnvOverrides, SECRET_VARIABLES, GENERIC_PREFIX, type Env } from './env-overrides.ts';
export { maskSecrets, MASK, type GeneratedSecret } from './secrets.ts';
export { DEFAULT_CONFIG_FILE, CONFIG_FILE_ENV, DEMO_TABLES } from './defaults.ts';
export { referenceMarkdown, referenceRows, type ReferenceRow } from './reference.ts';
