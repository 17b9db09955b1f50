/**
 * The texts `zaptable mosquitto-config` prints for the public broadcast, layer by layer (the system test,
 * broadcast-bridge.test.ts, checks the three together with real brokers): the bridge carries the public topics
 * out and nothing in; the public broker lets anonymous clients read them and write nothing; the bridge's
 * account writes only them.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../controller/cli/main.ts';
import { memoryOutput } from '../../controller/cli/output.ts';
import { PUBLIC_READ } from '../../controller/transport/acl.ts';
import { mosquittoPublicBridge, publicBrokerAcl, publicTopics } from '../../controller/transport/mosquitto-bridge.ts';

const OPTIONS = { baseTopic: 'club/zt', address: 'public.example.org:1883', remoteUsername: 'venue-bridge', remotePassword: 'pw-123' };

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryOutput();
  const code = await main(argv, io);
  return { code, out: io.lines.join('\n'), err: io.errors.join('\n') };
}

describe('the venue broker\'s bridge', () => {
  it('carries exactly the public topics, out only, and never a request or a response', () => {
    const text = mosquittoPublicBridge(OPTIONS);
    const topics = text.split('\n').filter((l) => l.startsWith('topic '));
    expect(topics).toEqual(PUBLIC_READ.map((rel) => `topic club/zt/${rel} out 1`));
    expect(text).not.toMatch(/\b(in|both)\b \d$/m);
    expect(text).not.toMatch(/request|response/);
    expect(text).toContain('notifications false');
  });

  it('refuses what would break the file', () => {
    expect(() => mosquittoPublicBridge({ ...OPTIONS, address: 'no-port' })).toThrow(/host:port/);
    expect(() => mosquittoPublicBridge({ ...OPTIONS, name: 'two words' })).toThrow(/bridge name/);
    expect(() => mosquittoPublicBridge({ ...OPTIONS, remotePassword: 'a b' })).toThrow(/password/);
    expect(() => mosquittoPublicBridge({ ...OPTIONS, baseTopic: 'a/#' })).toThrow(/\+, #/);
  });
});

describe('the public broker\'s ACL', () => {
  it('lets anonymous clients read the public topics and write nothing; the bridge writes only them', () => {
    const lines = publicBrokerAcl('club/zt', 'venue-bridge').split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    const userAt = lines.indexOf('user venue-bridge');
    const anonymous = lines.slice(0, userAt);
    expect(anonymous).toEqual(publicTopics('club/zt').map((t) => `topic read ${t}`));
    expect(lines.slice(userAt + 1)).toEqual(publicTopics('club/zt').map((t) => `topic readwrite ${t}`));
  });
});

describe('zaptable mosquitto-config', () => {
  it('prints the bridge with a fresh password and the line that sets it on the public broker', async () => {
    const a = await run('mosquitto-config', 'bridge', '--to', 'public.example.org:1883', '--base', 'club/zt');
    const b = await run('mosquitto-config', 'bridge', '--to', 'public.example.org:1883', '--base', 'club/zt');
    expect(a.code).toBe(0);
    const password = /^remote_password (\S+)$/m.exec(a.out)?.[1] ?? '';
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect(a.out).toContain(`mosquitto_passwd -b /etc/mosquitto/zaptable-public.passwd venue-bridge '${password}'`);
    expect(b.out).not.toContain(password);
  });

  it('prints the public broker\'s settings and ACL', async () => {
    const conf = await run('mosquitto-config', 'public', '--port', '1884');
    expect(conf.out).toMatch(/^listener 1884$/m);
    expect(conf.out).toContain('allow_anonymous true');
    const acl = await run('mosquitto-config', 'public', '--acl', '--base', 'club/zt');
    expect(acl.out).toContain(publicBrokerAcl('club/zt', 'venue-bridge'));
  });

  it('answers a usage error without --to or with an unknown part, and a clear error for a bad address', async () => {
    expect((await run('mosquitto-config', 'bridge')).code).toBe(2);
    expect((await run('mosquitto-config', 'everything')).code).toBe(2);
    const bad = await run('mosquitto-config', 'bridge', '--to', 'nowhere');
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('invalid public broker address');
  });
});
