/**
 * The one configuration schema (design principle 9, like Zigbee2MQTT's settings schema): TypeBox, compiled to
 * JSON Schema for ajv. Every key has a description (docs/configuration.md is generated from them) and, unless
 * it must be chosen, a default. Unknown keys are errors everywhere except inside `tables.N.rules`, which the
 * rules engine checks with its own list.
 */
import { Type, type Static } from '@sinclair/typebox';
import { DEMO_TABLES } from './defaults.ts';
import { Section } from './schema-helpers.ts';
import { Hardware } from './schema-hardware.ts';
import { Controller, Dashboard, Log, Mqtt, Storage } from './schema-mqtt.ts';
import { Table } from './schema-tables.ts';

export const ZaptableSchema = Section({
  tables: Type.Array(Table, {
    minItems: 1, default: DEMO_TABLES,
    description: 'The tables this controller runs (one or more).',
    'x-default-text': 'one Zapp Zerapp table `table-1` with seats red, green, blue, yellow on stations seat-1…seat-4',
  }),
  hardware: Hardware,
  controller: Controller,
  mqtt: Mqtt,
  dashboard: Dashboard,
  storage: Storage,
  log: Log,
}, { description: 'zaptable.yaml' });

type RawConfig = Static<typeof ZaptableSchema>;
type RawTable = RawConfig['tables'][number];
type RawSeat = RawTable['seats'][number];

/** A seat after validation: its name, station and bot flag are always known (derived when not written). */
export type SeatConfig = Omit<RawSeat, 'name' | 'station' | 'bot'> & {
  readonly name: string;
  readonly station: string;
  readonly bot: boolean;
};

/** A table after validation. Zapp Zerapp seats always have a colour. */
export type TableConfig = Omit<RawTable, 'name' | 'seats'> & {
  readonly name: string;
  readonly seats: SeatConfig[];
};

/** The effective configuration: file, environment and defaults merged and validated. */
export type ZaptableConfig = Omit<RawConfig, 'tables' | 'controller'> & {
  readonly tables: TableConfig[];
  /** `controller.id` is always known after validation (the host name when not written). */
  readonly controller: { readonly id: string };
};

export type { Mode } from './schema-tables.ts';
