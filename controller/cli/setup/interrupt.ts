/**
 * Ctrl-C and Enter for the set-up commands. Ctrl-C does not kill the process: the flows save after every
 * finished item or station, so it only has to stop the flow, close the ports and say where to resume.
 */
import { createInterface, type Interface } from 'node:readline';

/** Aborts on Ctrl-C (SIGINT), and when `outer` aborts; `dispose()` removes the handler. */
export function interruptController(
  outer: AbortSignal | undefined, useProcess: boolean,
): { signal: AbortSignal; abort(): void; dispose(): void } {
  const controller = new AbortController();
  const abort = (): void => {
    controller.abort();
  };
  if (outer?.aborted === true) abort();
  outer?.addEventListener('abort', abort, { once: true });
  if (useProcess) process.on('SIGINT', abort);
  return {
    signal: controller.signal,
    abort,
    dispose: () => {
      outer?.removeEventListener('abort', abort);
      if (useProcess) process.off('SIGINT', abort);
    },
  };
}

/**
 * Calls `onEnter` for every line typed on stdin. On a terminal readline takes Ctrl-C itself (it does not
 * reach the process as SIGINT), so it is forwarded to `onInterrupt`.
 */
export function enterPresses(onEnter: () => void, onInterrupt: () => void): Interface {
  const rl = createInterface({ input: process.stdin, terminal: process.stdin.isTTY });
  rl.on('line', onEnter);
  rl.on('SIGINT', onInterrupt);
  return rl;
}

/** A promise and its resolve function, for "the flow has ended" signals raised from callbacks. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
