import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on a free loopback port; `close` also drops kept-alive connections. */
export async function listenOnLoopback(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
