import { App, type BlockAction, type ButtonAction, LogLevel, SocketModeReceiver } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSlackApi, startFakeSlackApi } from '../../support/fake-slack-api.js';
import { type FakeSocketModeServer, startFakeSocketMode } from '../../support/fake-socket-mode.js';
import { appMention, blockActionsPayload, eventCallback } from '../../support/slack-payloads.js';
import { sleep, waitFor } from '../../support/wait.js';

// SocketModeClient pings every clientPingTimeout/3 and waits clientPingTimeout * n before reconnecting.
const CLIENT_PING_TIMEOUT_MS = 600;

describe('fake Socket Mode server, driven by a real Bolt app (SocketModeReceiver + SocketModeClient)', () => {
  let api: FakeSlackApi;
  let socket: FakeSocketModeServer;
  let app: App;
  const seen: { text: string; retryNum: number | undefined; retryReason: string | undefined }[] = [];
  const clicks: string[] = [];
  // Bare Bolt has no guard on its socket client's reconnect (slackapi/node-slack-sdk#2656): a test
  // that stopped the app before a reconnect finished would leave an unhandled rejection behind.
  let connectedCount = 0;
  const waitUntilConnected = (count: number) =>
    waitFor(() => connectedCount >= count, { message: `the app connected ${connectedCount} time(s)` });

  beforeEach(async () => {
    seen.length = 0;
    clicks.length = 0;
    connectedCount = 0;
    api = await startFakeSlackApi();
    socket = await startFakeSocketMode();
    api.setSocketModeUrl(socket.url);
    const clientOptions = { slackApiUrl: api.url, retryConfig: { retries: 0 } };
    const receiver = new SocketModeReceiver({
      appToken: 'xapp-1-test',
      clientPingTimeout: CLIENT_PING_TIMEOUT_MS,
      // The receiver's SocketModeClient takes its WebClient options from here, not from App's clientOptions.
      installerOptions: { clientOptions },
      logLevel: LogLevel.ERROR,
    });
    receiver.client.on('connected', () => {
      connectedCount += 1;
    });
    app = new App({
      receiver,
      token: 'xoxb-test',
      botId: 'BBOT',
      botUserId: 'UBOT',
      tokenVerificationEnabled: false,
      clientOptions,
      logLevel: LogLevel.ERROR,
    });
    app.event('app_mention', async ({ event, context, say }) => {
      seen.push({ text: event.text, retryNum: context.retryNum, retryReason: context.retryReason });
      await say(`echo: ${event.text}`);
    });
    app.action<BlockAction<ButtonAction>>('faq_feedback_helpful', async ({ ack, action }) => {
      clicks.push(action.value ?? '');
      await ack();
    });
    await app.start();
  });

  afterEach(async () => {
    // Stop the app first: closing the fake first would make the client reconnect into a closed API.
    await app.stop();
    await socket.waitForNoOpenConnections();
    await socket.close();
    await api.close();
  });

  it('greets the app, which opened the connection with its app-level token', async () => {
    await socket.waitForConnection(1);
    expect(api.calls('apps.connections.open').map((c) => c.token)).toEqual(['xapp-1-test']);
    expect(socket.openConnectionCount).toBe(1);
  });

  it('delivers an events_api envelope to the listener and records its ack', async () => {
    const ack = await socket.sendEventsApi(eventCallback(appMention({ text: 'over the socket' })));

    expect(ack.payload).toEqual({});
    expect(socket.acks().map((a) => a.envelope_id)).toEqual([ack.envelope_id]);
    await api.waitForCall('chat.postMessage', (c) => c.body.text === 'echo: over the socket');
    expect(seen).toEqual([{ text: 'over the socket', retryNum: 0, retryReason: '' }]);
  });

  it('passes retry_attempt / retry_reason to context.retryNum / retryReason', async () => {
    await socket.sendEventsApi(eventCallback(appMention({ text: 'again' })), {
      retryAttempt: 2,
      retryReason: 'timeout',
    });
    await api.waitForCall('chat.postMessage');
    expect(seen).toEqual([{ text: 'again', retryNum: 2, retryReason: 'timeout' }]);
  });

  it('delivers an interactive envelope and resolves when the listener acks', async () => {
    const ack = await socket.sendInteractive(
      blockActionsPayload({ actions: [{ action_id: 'faq_feedback_helpful', value: 'v-9' }] }),
    );
    expect(ack.payload).toEqual({});
    expect(clicks).toEqual(['v-9']);
  });

  it('rejects when nothing acks the envelope in time', async () => {
    const unhandled = blockActionsPayload({ actions: [{ action_id: 'nobody_listens' }] });
    await expect(socket.sendInteractive(unhandled, { timeoutMs: 300 })).rejects.toThrow(/was not acked/);
  });

  it('survives garbage frames', async () => {
    socket.sendRaw('{not json');
    const ack = await socket.sendEventsApi(eventCallback(appMention({ text: 'after garbage' })));
    expect(ack.envelope_id).toBeTypeOf('string');
  });

  it('answers the client pings, so the connection stays up', async () => {
    await sleep(CLIENT_PING_TIMEOUT_MS * 2.5);
    expect(socket.connectionCount).toBe(1);
    expect(socket.openConnectionCount).toBe(1);
  });

  it("reconnects after Slack's disconnect message, via a fresh apps.connections.open", async () => {
    await socket.disconnect('refresh_requested');
    await socket.waitForConnection(2);

    expect(api.calls('apps.connections.open')).toHaveLength(2);
    const ack = await socket.sendEventsApi(eventCallback(appMention({ text: 'after reconnect' })));
    expect(ack.connectionId).toBe(2);
  });

  it('reconnects after the server closes the socket', async () => {
    await socket.disconnect('warning', { close: true });
    await socket.waitForConnection(2);
    await waitUntilConnected(2);
    expect(socket.openConnectionCount).toBe(1);
  });
});
