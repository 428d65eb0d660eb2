// A platform may answer the robot without a uid; the rating must then name the asker another way.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newContextKey } from '../../../src/conversation/context-key.js';
import { Conversation, singleAccount } from '../../../src/conversation/conversation.js';
import type { Asker } from '../../../src/conversation/types.js';
import { PlatformClient, StaticTokenProvider } from '../../../src/platform/index.js';
import { DEFAULT_SIMULATOR_TOKEN, type Simulator, startSimulator } from '../../../src/simulator/index.js';
import { MemoryContextStore } from '../../../src/stores/memory.js';
import { listen } from '../../../src/util/listen.js';
import { memoryRatings } from '../../support/memory-stores.js';

/** How the answer lacks its uid: no key, an empty string, or null (as some platforms send). */
type UidVariant = 'omitted' | 'empty' | 'null';

let simulator: Simulator;
let proxy: Server;
let platform: PlatformClient;
/** What the next robot answer's uid looks like on its way back. */
let variant: UidVariant = 'omitted';
/** The `data` of every robot_feedback request, as the platform received it. */
const feedbackSent: unknown[] = [];

const asker: Asker = { partnerId: 'slack-T1-U1', userId: 'U1', displayName: 'Jane', locale: 'en' };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

beforeAll(async () => {
  simulator = await startSimulator({ accessToken: DEFAULT_SIMULATOR_TOKEN });
  // The simulator always sends a uid: this relay in front of it answers like a platform that does not.
  proxy = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const sent: unknown = JSON.parse(raw);
      const action = isRecord(sent) ? sent.action : undefined;
      if (action === 'robot_feedback' && isRecord(sent)) feedbackSent.push(sent.data);
      const upstream = await fetch(new URL(request.url ?? '/', simulator.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: raw,
      });
      const answer: unknown = await upstream.json();
      if (action === 'chat_user_robot_ask' && isRecord(answer) && isRecord(answer.data)) {
        if (variant === 'omitted') delete answer.data.uid;
        else answer.data.uid = variant === 'empty' ? '' : null;
      }
      response.writeHead(upstream.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer));
    });
  });
  const { port } = await listen(proxy, 0, '127.0.0.1');
  const url = `http://127.0.0.1:${port}`;
  platform = new PlatformClient({
    openUrl: url,
    baseUrl: url,
    tokenProvider: new StaticTokenProvider(DEFAULT_SIMULATOR_TOKEN),
    timeouts: { connectMs: 1000, headersMs: 1000, bodyMs: 1000 },
    retry: { attempts: 0 },
  });
});

afterAll(async () => {
  await platform.close();
  await new Promise<void>((resolve) => {
    proxy.close(() => resolve());
    proxy.closeAllConnections();
  });
  await simulator.close();
});

beforeEach(() => {
  feedbackSent.length = 0;
});

function conversation(): Conversation {
  return new Conversation({
    accounts: singleAccount({ robot: platform, sysNum: 'acme', demo: false }),
    contexts: new MemoryContextStore({ maxEntries: 100, ttlSeconds: 3600 }),
    ratings: memoryRatings({ maxEntries: 100 }),
    settings: {
      maxQuestionLength: 1000,
      contextTtlSeconds: 3600,
    },
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    newKey: newContextKey,
  });
}

describe('rating an answer that came without a uid', () => {
  it.each<UidVariant>(['omitted', 'empty', 'null'])(
    'with the uid %s, sends sysNum, partnerId and from 0 instead, and the platform counts the rating',
    async (uid) => {
      variant = uid;
      const core = conversation();
      const reply = await core.ask({
        asker,
        text: 'VPN',
        conversationId: 'C1',
        threadId: undefined,
        placement: { robotFlag: undefined, source: undefined, language: 'auto', reply: 'thread' },
      });
      if (reply.kind !== 'answer') throw new Error(`expected an answer, got ${JSON.stringify(reply)}`);
      const accepted = Number(simulator.stats().feedback ?? 0);

      await expect(
        core.rate({ contextKey: reply.contextKey, rating: 2, userId: 'U1', locale: 'en' }),
      ).resolves.toMatchObject({ kind: 'rated', rating: 2 });

      expect(feedbackSent).toEqual([
        {
          cid: expect.stringMatching(/^c-\d{8}$/),
          docId: 'doc-vpn-connect',
          docName: 'How do I connect to the VPN?',
          robotFlag: 1,
          status: 2,
          msgId: expect.stringMatching(/^m-\d{8}$/),
          sysNum: 'acme',
          partnerId: 'slack-T1-U1',
          from: 0,
        },
      ]);
      // The simulator finds the asker from sysNum and partnerId; a wrong pair would be rejected.
      expect(Number(simulator.stats().feedback ?? 0)).toBe(accepted + 1);
      expect(simulator.stats().feedbackRejected ?? 0).toBe(0);
    },
  );
});
