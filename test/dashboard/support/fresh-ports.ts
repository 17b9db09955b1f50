/**
 * Starting a controller on free ports, again with new ones when a port was taken: a port found free can be
 * bound by another test file between the probe and the bind (EADDRINUSE). Any other error, or a third
 * EADDRINUSE, is thrown with the lines the controller printed.
 */

/** What one attempt returns: the started thing, and the controller's printed lines for the error message. */
export interface Attempt<T> {
  readonly start: () => Promise<T>;
  readonly lines: readonly string[];
}

export async function startOnFreshPorts<T>(attempt: () => Promise<Attempt<T>>, tries = 3): Promise<T> {
  for (let n = 1; ; n++) {
    const { start, lines } = await attempt();
    try {
      return await start();
    } catch (error) {
      if (n >= tries || !String(error).includes('EADDRINUSE')) {
        throw new Error(`controller did not start: ${String(error)}\n${lines.join('\n')}`, { cause: error });
      }
    }
  }
}
