/**
 * `zaptable bench memory` reads a process's resident memory from /proc/<pid>/status; here, this test's own
 * process. The benchmark's figures are not checked: benchmarks print figures.
 */
import { describe, expect, it } from 'vitest';
import { procStatus } from '../../controller/bench/memory-bench.ts';

describe.runIf(process.platform === 'linux')('zaptable bench memory: /proc/<pid>/status', () => {
  it('reads VmRSS and its anonymous and file-backed parts, in MB', () => {
    const status = procStatus(process.pid);
    expect(status).toBeDefined();
    if (status === undefined) return;
    // VmRSS is RssAnon + RssFile + RssShmem; this process holds far more than 1 MB of each of the first two.
    expect(status.anon).toBeGreaterThan(1);
    expect(status.file).toBeGreaterThan(1);
    expect(status.rss).toBeGreaterThanOrEqual(status.anon + status.file);
    expect(status.rss).toBeLessThan(status.anon + status.file + 64);
    expect(status.peak).toBeGreaterThanOrEqual(status.rss);
    expect(Math.abs(status.rss * 1024 * 1024 - process.memoryUsage().rss)).toBeLessThan(32 * 1024 * 1024);
  });

  it('is undefined for a process that is gone', () => {
    expect(procStatus(2 ** 22 + 1)).toBeUndefined();
  });
});
