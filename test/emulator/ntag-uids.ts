import { SeededRandom } from '../../controller/kernel/random.ts';

/** Deterministic, distinct 7-byte NTAG-like UIDs (04 + 6 bytes) from the project's seeded generator, for the emulator tests' cards. */
export function ntagUids(count: number, seed: number): string[] {
  const random = new SeededRandom(`ntag-uids:${seed}`);
  const uids: string[] = [];
  while (uids.length < count) {
    const bytes = [0x04];
    for (let i = 0; i < 6; i++) bytes.push(random.int(256));
    const uid = Buffer.from(bytes).toString('hex').toUpperCase();
    if (!uids.includes(uid)) uids.push(uid);
  }
  return uids;
}
