// The receiver's pre-dispatch call under a real Bolt App: a signed event the step leaves alone is
// answered 200 by the receiver and never reaches Bolt's listeners; an unsigned one is refused before
// the step is asked; anything else reaches the listener as before.
import { App } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/logging/logger.js';
import { boltLogger } from '../../../../src/slack/transport/bolt-logger.js';
import { GatewayReceiver } from '../../../../src/slack/transport/receiver.js';
import { logSink } from '../../../support/log-sink.js';
import { channelMessage, eventCallback } from '../../../support/slack-payloads.js';
import { sendEvent } from '../../../support/slack-signing.js';
import { waitFor } from '../../../support/wait.js';

const SECRET = 'receiver-screen-test-secret';

describe('GatewayReceiver with a pre-dispatch step', () => {
  const screened: unknown[] = [];
  const heard: string[] = [];
  let receiver: GatewayReceiver;
  let url: string;

  beforeAll(async () => {
    const sink = logSink();
    receiver = new GatewayReceiver({
      logger: createLogger({ level: 'silent', destination: sink.destination }),
      health: { alive: () => true, ready: async () => true },
      slack: {
        signingSecret: SECRET,
        accepted: {
          viewCallbackIds: [],
          messageShortcutIds: [],
          slashCommand: undefined,
          // Asynchronous, as a step that reads a store is.
          preDispatch: async (envelope) => {
            const event = envelope.event as { text?: string };
            screened.push(event);
            return event.text !== 'chatter';
          },
        },
      },
    });
    const app = new App({
      receiver,
      token: 'xoxb-test',
      botId: 'BBOT',
      botUserId: 'UBOT',
      tokenVerificationEnabled: false,
      logger: boltLogger(createLogger({ level: 'silent', destination: logSink().destination })),
    });
    app.event('message', async ({ event }) => {
      heard.push('text' in event ? (event.text ?? '') : '');
    });
    const { port } = await receiver.start(0, '127.0.0.1');
    url = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await receiver.stop();
  });

  it('answers what it leaves alone with an empty 200, and Bolt never hears it', async () => {
    const response = await sendEvent(url, SECRET, eventCallback(channelMessage({ text: 'chatter' })));
    expect(response).toMatchObject({ status: 200, text: '' });
    const question = await sendEvent(url, SECRET, eventCallback(channelMessage({ text: 'a question?' })));
    expect(question.status).toBe(200);
    await waitFor(() => heard.includes('a question?'));
    expect(heard).toEqual(['a question?']);
  });

  it('refuses an unsigned event before asking the step', async () => {
    const before = screened.length;
    const response = await sendEvent(
      url,
      'not-the-secret',
      eventCallback(channelMessage({ text: 'chatter' })),
    );
    expect(response.status).toBe(401);
    expect(screened.length).toBe(before);
  });
});
