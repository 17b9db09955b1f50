/**
 * A WebSocket viewer of the dashboard's `/live` (dashboard/server/live.ts), as the benchmarks open it: no
 * compression (a browser on a LAN gets none either), every frame handed to `onFrame` as it arrives, and a count
 * of closes (a viewer the server closed for being too far behind shows up there). Shared by `bench dashboard`'s
 * world and `bench venue`'s dashboard viewers.
 */
import { WebSocket } from 'ws';

/** Opens `url` (`ws://…/live[?tables=…]`); resolves once open. */
export async function connectLiveViewer(
  url: string, onFrame: (data: Buffer) => void, counters: { closes: number },
): Promise<WebSocket> {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  socket.on('message', onFrame);
  socket.on('close', () => {
    counters.closes++;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => {
      resolve();
    });
    socket.once('error', reject);
  });
  return socket;
}
