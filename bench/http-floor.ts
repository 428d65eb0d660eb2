// The least a Node process does for each request Slack sends: a bare node:http server that reads the
// body, parses its JSON and answers an empty 200 (no signature, no routing). The chatter phase sends
// it the same messages at the same rate as the gateway, so a message's CPU can be read against what
// any HTTP receiver on Node pays for it on this machine.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function startHttpFloor(host: string): Promise<{ port: number; stop: () => Promise<void> }> {
  let parsed = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (typeof body === 'object' && body !== null) parsed += 1;
      response.writeHead(200);
      response.end();
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        // Read, so the parse cannot be optimised away.
        if (parsed < 0) console.log(parsed);
      }),
  };
}
