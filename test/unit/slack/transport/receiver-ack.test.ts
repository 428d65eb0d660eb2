// The receiver as Bolt's Receiver: a real Bolt App on top of it, driven with signed requests, shows that
// the ack answers HTTP as Bolt's HTTPReceiver does (processBeforeResponse off), that a request nobody
// acknowledges and a processEvent failure get Bolt's answers, and that the listener sees what was verified.
import { App, ReceiverMultipleAckError } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/logging/logger.js';
import { boltLogger } from '../../../../src/slack/transport/bolt-logger.js';
import { GatewayReceiver } from '../../../../src/slack/transport/receiver.js';
import { type LogSink, logSink } from '../../../support/log-sink.js';
import { appMention, eventCallback, IDS } from '../../../support/slack-payloads.js';
import {
  JSON_CONTENT_TYPE,
  postToSlackApp,
  retryHeaders,
  sendEvent,
  sendInteraction,
  sendSlashCommand,
} from '../../../support/slack-signing.js';
import { waitFor } from '../../../support/wait.js';

const SECRET = 'receiver-ack-test-secret';
const CALLBACK_IDS = [
  'acks_object',
  'acks_nothing',
  'acks_twice',
  'never_acks',
  'throws_before_ack',
  'throws_after_ack',
] as const;

function viewSubmission(callbackId: string, extra: Record<string, unknown> = {}) {
  return {
    type: 'view_submission',
    team: { id: IDS.team },
    user: { id: IDS.user },
    view: { id: 'V1', type: 'modal', callback_id: callbackId, state: { values: {} }, private_metadata: '' },
    trigger_id: '1.2.3',
    ...extra,
  };
}

interface Started {
  receiver: GatewayReceiver;
  url: string;
  sink: LogSink;
}

async function startApp(configure: (receiver: GatewayReceiver) => App): Promise<Started> {
  const sink = logSink();
  const receiver = new GatewayReceiver({
    logger: createLogger({ level: 'debug', destination: sink.destination }),
    health: { alive: () => true, ready: async () => true },
    slack: {
      signingSecret: SECRET,
      accepted: { viewCallbackIds: CALLBACK_IDS, messageShortcutIds: [], slashCommand: '/probe' },
    },
  });
  configure(receiver);
  const { port } = await receiver.start(0, '127.0.0.1');
  return { receiver, url: `http://127.0.0.1:${port}`, sink };
}

function quietBoltLogger() {
  return boltLogger(createLogger({ level: 'silent', destination: logSink().destination }));
}

describe('GatewayReceiver under a Bolt App', () => {
  let started: Started;
  const seen: { callbackId: string; body: unknown }[] = [];
  const mentions: { text: string; retryNum: number | undefined; retryReason: string | undefined }[] = [];
  const secondAcks: unknown[] = [];

  beforeAll(async () => {
    started = await startApp((receiver) => {
      // No app.error: Bolt's default error handler rethrows, so a listener's error rejects processEvent.
      const app = new App({
        receiver,
        token: 'xoxb-test',
        botId: 'BBOT',
        botUserId: 'UBOT',
        tokenVerificationEnabled: false,
        logger: quietBoltLogger(),
      });
      app.view('acks_object', async ({ ack, body }) => {
        seen.push({ callbackId: 'acks_object', body });
        await ack({ response_action: 'errors', errors: { title: 'The title cannot be empty.' } });
      });
      app.command('/probe', async ({ ack }) => {
        await ack('plain words');
      });
      app.view('acks_nothing', async ({ ack }) => {
        await ack();
      });
      app.view('acks_twice', async ({ ack }) => {
        await ack({ response_action: 'clear' });
        await ack({ response_action: 'clear' }).catch((error: unknown) => secondAcks.push(error));
      });
      app.view('never_acks', async ({ body }) => {
        seen.push({ callbackId: 'never_acks', body });
      });
      app.view('throws_before_ack', async () => {
        throw new Error('listener failed before ack');
      });
      app.view('throws_after_ack', async ({ ack }) => {
        await ack();
        throw new Error('listener failed after ack');
      });
      app.event('app_mention', async ({ event, context }) => {
        mentions.push({ text: event.text, retryNum: context.retryNum, retryReason: context.retryReason });
      });
      return app;
    });
  });
  afterAll(async () => {
    await started.receiver.stop();
  });

  it('answers an object ack on a view_submission with its JSON (response_action errors)', async () => {
    const response = await sendInteraction(started.url, SECRET, viewSubmission('acks_object'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(response.text)).toEqual({
      response_action: 'errors',
      errors: { title: 'The title cannot be empty.' },
    });
  });

  it('answers a string ack with the text, and an empty ack with an empty 200', async () => {
    const text = await sendSlashCommand(started.url, SECRET, {
      command: '/probe',
      text: 'hi',
      user_id: IDS.user,
      channel_id: IDS.channel,
      team_id: IDS.team,
      response_url: 'https://hooks.slack.com/commands/T/1/x',
    });
    expect(text).toMatchObject({ status: 200, text: 'plain words' });
    expect(text.headers.get('content-type')).toBeNull();
    const empty = await sendInteraction(started.url, SECRET, viewSubmission('acks_nothing'));
    expect(empty).toMatchObject({ status: 200, text: '' });
  });

  it('hands the listener the very object that was verified, fields the checks do not name included', async () => {
    const payload = viewSubmission('acks_object', { api_app_id: 'A123', is_enterprise_install: false });
    await sendInteraction(started.url, SECRET, payload);
    expect(seen.at(-1)).toEqual({ callbackId: 'acks_object', body: payload });
  });

  it('answers with the first ack and rejects the second with ReceiverMultipleAckError', async () => {
    const response = await sendInteraction(started.url, SECRET, viewSubmission('acks_twice'));
    expect(JSON.parse(response.text)).toEqual({ response_action: 'clear' });
    await waitFor(() => secondAcks.length === 1);
    expect(secondAcks[0]).toBeInstanceOf(ReceiverMultipleAckError);
  });

  it('answers 404 after 3 s when no listener acknowledges, as Bolt does, and logs it', async () => {
    const started3 = Date.now();
    const response = await sendInteraction(started.url, SECRET, viewSubmission('never_acks'));
    const waited = Date.now() - started3;
    expect(response).toMatchObject({ status: 404, text: '' });
    expect(waited).toBeGreaterThanOrEqual(2_900);
    expect(waited).toBeLessThan(4_500);
    expect(seen.some((entry) => entry.callbackId === 'never_acks')).toBe(true);
    expect(started.sink.records).toContainEqual(
      expect.objectContaining({ level: 50, msg: expect.stringMatching(/not acknowledged within 3 seconds/) }),
    );
  }, 10_000);

  it('answers 500 when processing fails before any ack (defaultProcessEventErrorHandler)', async () => {
    const response = await sendInteraction(started.url, SECRET, viewSubmission('throws_before_ack'));
    expect(response).toMatchObject({ status: 500, text: '' });
  });

  it('keeps the ack when processing fails after it, and logs the failure', async () => {
    const response = await sendInteraction(started.url, SECRET, viewSubmission('throws_after_ack'));
    expect(response).toMatchObject({ status: 200, text: '' });
    await waitFor(() => started.sink.records.some((record) => /after ack\(\)/.test(record.msg)));
  });

  it("passes Slack's retry headers to context.retryNum and context.retryReason", async () => {
    const response = await sendEvent(
      started.url,
      SECRET,
      eventCallback(appMention({ text: '<@UBOT> again' })),
      retryHeaders(2, 'http_timeout'),
    );
    expect(response.status).toBe(200);
    await waitFor(() => mentions.length === 1);
    expect(mentions).toEqual([{ text: '<@UBOT> again', retryNum: 2, retryReason: 'http_timeout' }]);
  });

  it('hands nothing unsigned to the app', async () => {
    const response = await postToSlackApp(started.url, {
      body: JSON.stringify(eventCallback(appMention({ text: '<@UBOT> forged' }))),
      contentType: JSON_CONTENT_TYPE,
      secret: 'not-the-secret',
    });
    expect(response.status).toBe(401);
    expect(mentions.some((mention) => mention.text.includes('forged'))).toBe(false);
  });
});

describe('GatewayReceiver when authorization fails', () => {
  let started: Started;

  beforeAll(async () => {
    started = await startApp(
      (receiver) =>
        new App({
          receiver,
          authorize: async () => {
            throw new Error('no installation for this team');
          },
          logger: quietBoltLogger(),
        }),
    );
  });
  afterAll(async () => {
    await started.receiver.stop();
  });

  it('answers 401, as Bolt maps an AuthorizationError', async () => {
    const response = await sendInteraction(started.url, SECRET, viewSubmission('acks_nothing'));
    expect(response).toMatchObject({ status: 401, text: '' });
  });
});
