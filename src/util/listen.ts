// listen() reports a taken port as an 'error' event: as a promise it rejects.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** 0 picks a free port. */
export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}
