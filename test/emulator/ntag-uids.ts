/** Deterministic 7-byte NTAG-like UIDs (04 + 6 bytes) from a small LCG, for the emulator tests' cards. */
export function ntagUids(count: number, seed: number): string[] {
  let x = seed;
  const uids: string[] = [];
  while (uids.length < count) {
    const bytes = [0x04];
    for (let i = 0; i < 6; i++) {
      x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
      bytes.push((x >>> 16) & 0xff);
    }
    const uid = Buffer.from(bytes).toString('hex').toUpperCase();
    if (!uids.includes(uid)) uids.push(uid);
  }
  return uids;
}
