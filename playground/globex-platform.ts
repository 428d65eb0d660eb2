// Globex's own customer-service platform: a second simulator with an account of its own, its knowledge
// base rewritten at start (through the platform's own update operation) so its answers say Globex and
// never read like Acme's.
import { randomBytes } from 'node:crypto';
import { PlatformClient, type RobotDocUpdateRequest, StaticTokenProvider } from '../src/platform/index.js';
import { type Simulator, startSimulator } from '../src/simulator/index.js';
import type { PlatformAccount } from './protocol.js';

/** Globex's versions of a few of the knowledge base's entries. */
const GLOBEX_ENTRIES: readonly RobotDocUpdateRequest[] = [
  {
    docId: 'doc-password-reset',
    questionTitle: 'How do I reset my Globex password?',
    answerDesc:
      '<p>Globex passwords are reset at the <b>Globex ID kiosk</b>: <a href="https://id.globex.example">id.globex.example</a> → <b>Lost my password</b>.</p><p>Your Globex badge number is the verification code.</p>',
  },
  {
    docId: 'doc-wifi',
    questionTitle: 'How do I connect to the Globex Wi-Fi?',
    answerDesc:
      '<p>Join <b>GLOBEX-HAMMOCK</b> with your Globex ID. Visitors use <b>GLOBEX-VOLCANO-GUEST</b>; the lobby robot tells them the code.</p>',
  },
  {
    docId: 'doc-vpn-connect',
    questionTitle: 'How do I connect to the Globex VPN?',
    answerDesc:
      '<p>Globex uses <b>WireGuard</b>: import your profile from <a href="https://vpn.globex.example">vpn.globex.example</a> and switch it on.</p>',
  },
  {
    docId: 'doc-laptop-request',
    questionTitle: 'How do I request a new laptop at Globex?',
    answerDesc:
      '<p>Globex laptops are handed out at the <b>Cypress Creek</b> gadget desk, second floor, every Tuesday.</p>',
  },
];

export interface GlobexPlatform {
  simulator: Simulator;
  /** The account its admin types in the Home tab's set-up form. */
  account: PlatformAccount;
}

export async function startGlobexPlatform(): Promise<GlobexPlatform> {
  const accessToken = `globex-${randomBytes(8).toString('hex')}`;
  const account = { sysNum: 'globex', appId: 'globex-app', appKey: randomBytes(12).toString('hex') };
  const simulator = await startSimulator({
    accessToken,
    appId: account.appId,
    appKey: account.appKey,
    seed: 'globex',
    host: '127.0.0.1',
    port: 0,
  });
  const platform = new PlatformClient({
    openUrl: simulator.url,
    baseUrl: simulator.url,
    tokenProvider: new StaticTokenProvider(accessToken),
    timeouts: { connectMs: 1000, headersMs: 2000, bodyMs: 2000 },
  });
  try {
    for (const entry of GLOBEX_ENTRIES) await platform.updateRobotDoc(entry);
  } catch (error) {
    await simulator.close();
    throw error;
  } finally {
    await platform.close();
  }
  return { simulator, account: { url: simulator.url, ...account } };
}
