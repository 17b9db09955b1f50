/**
 * `zaptable venue acl`: the venue broker's ACL from the controllers' own files, and the mistakes it refuses
 * before event day (two controllers with one id, one account or one table id; different base topics). The
 * ACL it prints is the one Mosquitto enforces in test/venue/venue.test.ts (the same `mosquittoAcl`).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { venueCommand } from '../../controller/cli/commands/venue.ts';
import { memoryOutput } from '../../controller/cli/output.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'zaptable-venue-acl-'));

function controllerFile(
  name: string, id: string | undefined, tables: readonly string[], extra: readonly string[] = [], username = name,
): string {
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(file, [
    'tables:',
    ...tables.map((t) => `  - { id: ${t}, mode: zip-zap, seats: [{ id: a }, { id: b }] }`),
    ...(id === undefined ? [] : [`controller: { id: ${id} }`]),
    'mqtt:',
    '  broker: external',
    '  external: { url: "mqtt://venue.local:1883" }',
    `  controller: { username: ${username} }`,
    ...extra,
    '',
  ].join('\n'));
  return file;
}

describe('zaptable venue acl', () => {
  it('gives each controller its own bridge topics and tables, then the dashboard and viewer accounts', () => {
    const io = memoryOutput();
    const code = venueCommand(['acl', controllerFile('pi-1', 'pi-bar-1', ['bar-1', 'bar-2']), controllerFile('pi-2', 'pi-bar-2', ['bar-3']),
      '--referee', 'venue-dashboard', '--viewer', 'big-screen'], io);
    expect(io.errors).toEqual([]);
    expect(code).toBe(0);
    const text = io.lines.join('\n');
    expect(text).toContain([
      'user pi-1', 'topic readwrite zaptable/bridge/pi-bar-1/#', 'topic readwrite zaptable/bar-1/#', 'topic readwrite zaptable/bar-2/#',
      'topic read zaptable/bridge/+/status', 'topic read zaptable/bridge/+/tables',
    ].join('\n'));
    expect(text).toContain('user pi-2\ntopic readwrite zaptable/bridge/pi-bar-2/#\ntopic readwrite zaptable/bar-3/#\n');
    expect(text).toContain('user venue-dashboard\n');
    expect(text).toContain('user big-screen\n');
    // No controller may write everything.
    expect(text).not.toContain('topic readwrite zaptable/#');
  });

  it('refuses a table id on two controllers, a shared id or account, and different base topics, and prints no ACL', () => {
    const cases: readonly (readonly [readonly string[], RegExp])[] = [
      [[controllerFile('pi-3', 'pi-3', ['t1']), controllerFile('pi-4', 'pi-4', ['t1'])], /^TABLE_ID_TAKEN: table id t1 is configured in .*pi-3\.yaml and in .*pi-4\.yaml$/],
      [[controllerFile('pi-5', undefined, ['t5']), controllerFile('pi-6', undefined, ['t6'])], /^CONTROLLER_ID_TAKEN: controller id /],
      [[controllerFile('pi-7', 'same', ['t7']), controllerFile('pi-8', 'same', ['t8'])], /^CONTROLLER_ID_TAKEN: controller id same /],
      [[controllerFile('pi-9', 'pi-9', ['t9']), controllerFile('pi-10', 'pi-10', ['t10'], ['  baseTopic: other'])], /^BASE_TOPICS_DIFFER: /],
      [[controllerFile('pi-11', 'pi-11', ['t11'], [], 'shared'), controllerFile('pi-12', 'pi-12', ['t12'], [], 'shared')], /^ACCOUNT_SHARED: broker account shared /],
    ];
    for (const [files, message] of cases) {
      const io = memoryOutput();
      expect(venueCommand(['acl', ...files], io)).toBe(1);
      expect(io.lines).toEqual([]);
      expect(io.errors[0]).toMatch(message);
    }
  });
});
