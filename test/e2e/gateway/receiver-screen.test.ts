// What the receiver settles itself, with the real gateway over signed HTTP: chatter in a channel that
// answers on the app's own is acknowledged before Bolt (counted as ignored, nothing asked, nothing
// posted) while the questions beside it are answered; and a slash command too long to run is told
// to the person in Slack, never refused with an HTTP error Slack would show as "failed".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeChannelSettings } from '../../../src/stores/sqlite.js';
import { slackEventCount, waitForEventCount } from '../../support/event-verdicts.js';
import { SIGNING_SECRET, textOf, useGatewayHarness } from '../../support/gateway-harness.js';
import {
  appMention,
  botMessage,
  channelMessage,
  eventCallback,
  IDS,
  messageChanged,
  nextTs,
} from '../../support/slack-payloads.js';
import {
  FORM_CONTENT_TYPE,
  postToSlackApp,
  sendEvent,
  sendSlashCommand,
} from '../../support/slack-signing.js';

const EVERYTHING = 'C0SCREENALL';
const WAIT_MS = 8_000;

const folder = mkdtempSync(join(tmpdir(), 'receiver-screen-'));
const statePath = join(folder, 'gateway.sqlite');
await writeChannelSettings(statePath, { [EVERYTHING]: { answer: 'all' } }, 'U0OPERATOR');

const harness = useGatewayHarness({ env: { STATE_PATH: statePath, PLACEHOLDER_DELAY_MS: '10000' } });

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

async function scrape(): Promise<string> {
  const response = await fetch(`${harness().url}/metrics`);
  return response.text();
}

function ignoredMessages(metrics: string): number {
  const line = metrics
    .split('\n')
    .find((candidate) =>
      candidate.startsWith('cs_gateway_slack_events_total{type="message",outcome="ignored"}'),
    );
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('chatter in a channel in `all` mode', () => {
  const chatter = () => [
    {
      ...channelMessage({ channel: EVERYTHING, user: 'U0DEPLOYBOT', text: 'Deploy #7 finished' }),
      bot_id: 'B0DEPLOY',
    },
    botMessage({ channel: EVERYTHING }),
    messageChanged({ channel: EVERYTHING, text: 'the build is green again (fixed)' }),
    channelMessage({ channel: EVERYTHING, text: '<@U0ALICE> can you look at the deploy?' }),
    channelMessage({ channel: EVERYTHING, user: IDS.botUser, text: 'my own words' }),
    channelMessage({ channel: EVERYTHING, text: 'on it, will report back', thread_ts: nextTs() }),
  ];

  it('is acknowledged 200 and counted as ignored, with no robot call and no Slack call', async () => {
    const h = harness();
    const before = ignoredMessages(await scrape());
    const asks = h.robotAsks().length;
    const calls = h.slack.calls().length;
    for (const event of chatter()) expect((await h.sendEvent(event)).status).toBe(200);
    // The gateway's verdict on every one of them, rather than a pause.
    await waitForEventCount(h.url, 'message', 'ignored', before + chatter().length);
    expect(h.robotAsks().length).toBe(asks);
    expect(h.slack.calls().slice(calls)).toEqual([]);
  });

  it('unsigned, is refused 401 and not counted', async () => {
    const h = harness();
    const before = ignoredMessages(await scrape());
    const event = botMessage({ channel: EVERYTHING });
    const body = JSON.stringify(eventCallback(event));
    const wronglySigned = await postToSlackApp(h.url, {
      body,
      contentType: 'application/json',
      secret: 'not-the-signing-secret',
    });
    expect(wronglySigned.status).toBe(401);
    const unsigned = await fetch(new URL('/slack/events', h.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(unsigned.status).toBe(401);
    // The control, signed: counted, and the only one counted since.
    expect((await h.sendEvent(botMessage({ channel: EVERYTHING }))).status).toBe(200);
    await waitForEventCount(h.url, 'message', 'ignored', before + 1);
  });

  it('leaves the questions beside it answered: a person’s message, and a mention of the app', async () => {
    const h = harness();
    const plain = channelMessage({
      channel: EVERYTHING,
      text: 'the printer on the third floor is jammed again',
    });
    expect((await h.sendEvent(plain)).status).toBe(200);
    await h.slack.waitForCall(
      'chat.postMessage',
      (call) => call.body.channel === EVERYTHING && call.body.thread_ts === plain.ts,
      WAIT_MS,
    );
    // Slack sends a mention of the app twice: as a message (screened: it mentions someone) and as
    // app_mention (answered).
    const text = `<@${IDS.botUser}> how do I reset my password?`;
    const asMessage = channelMessage({ channel: EVERYTHING, text });
    const mention = appMention({ channel: EVERYTHING, text, ts: asMessage.ts });
    expect((await h.sendEvent(asMessage)).status).toBe(200);
    expect((await h.sendEvent(mention)).status).toBe(200);
    const answer = await h.slack.waitForCall(
      'chat.postMessage',
      (call) => call.body.channel === EVERYTHING && call.body.thread_ts === mention.ts,
      WAIT_MS,
    );
    expect(textOf(answer).toLowerCase()).toContain('password');
  });

  it('of a shape the listener does not take goes to the listener, which refuses it as malformed', async () => {
    const h = harness();
    const odd = { ...botMessage({ channel: EVERYTHING }), bot_id: { not: 'a string' } };
    const before = await scrape();
    const malformed = await slackEventCount(h.url, 'message', 'malformed');
    expect((await h.sendEvent(odd)).status).toBe(200);
    // Counted malformed once more (not only present from an earlier event), and not as ignored.
    await waitForEventCount(h.url, 'message', 'malformed', malformed + 1);
    expect(ignoredMessages(await scrape())).toBe(ignoredMessages(before));
  });
});

describe('a slash command longer than the app takes', () => {
  async function command(text: string) {
    const h = harness();
    const mark = h.slack.calls().length;
    const response = await sendSlashCommand(h.url, SIGNING_SECRET, {
      command: '/cs',
      text,
      user_id: IDS.user,
      team_id: IDS.team,
      channel_id: IDS.channel,
      response_url: h.slack.responseUrl(),
    });
    const answer = await h.slack.waitForCall(
      'response_url',
      (call) => h.slack.calls().indexOf(call) >= mark,
      WAIT_MS,
    );
    return { response, answer };
  }

  it('of 5,000 characters is answered 200, and the person is told its length and the limit', async () => {
    const { response, answer } = await command(`tickets ${'x'.repeat(4_992)}`);
    expect(response.status).toBe(200);
    expect(answer.body.response_type).toBe('ephemeral');
    expect(textOf(answer)).toContain('5,000 characters');
    expect(textOf(answer)).toContain('at most 4,000');
  });

  it('of 4,000 characters is still run (here: help, for a word it does not know)', async () => {
    const { answer } = await command('x'.repeat(4_000));
    expect(textOf(answer)).toContain('/cs channel reset');
  });

  it('unsigned, is refused 401 whatever its length', async () => {
    const h = harness();
    const mark = h.slack.calls().length;
    const fields = {
      command: '/cs',
      text: 'x'.repeat(5_000),
      user_id: IDS.user,
      team_id: IDS.team,
      channel_id: IDS.channel,
      response_url: h.slack.responseUrl(),
    };
    const wronglySigned = await sendSlashCommand(h.url, 'not-the-signing-secret', fields);
    expect(wronglySigned.status).toBe(401);
    const unsigned = await fetch(new URL('/slack/events', h.url), {
      method: 'POST',
      headers: { 'content-type': FORM_CONTENT_TYPE },
      body: new URLSearchParams(fields).toString(),
    });
    expect(unsigned.status).toBe(401);
    // The control, signed: its answer is the only one since.
    const { answer } = await command('help');
    expect(h.slack.calls().slice(mark)).toEqual([answer]);
  });
});

// The screen must not reach past the receiver's own checks.
describe('a signed event_callback without an event object', () => {
  it('is still refused as of unknown shape', async () => {
    const response = await sendEvent(harness().url, SIGNING_SECRET, {
      type: 'event_callback',
      event: 'message',
    });
    expect(response.status).toBe(400);
  });
});
