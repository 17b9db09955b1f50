/** Waits for a condition instead of sleeping a fixed time (tests run on slow 2-core machines too). */
type Probe<T> = () => T | undefined | false | Promise<T | undefined | false>;

/** How long a test waits for something to show up before it calls it missing (generous: a busy machine is slow). */
export const WAIT_MS = 10_000;

export async function waitFor<T>(probe: Probe<T>, what: string, timeoutMs = WAIT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
