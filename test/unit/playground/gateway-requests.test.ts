// What the playground sends the gateway for the assistant panel and Slack's feedback buttons: each a
// request Slack would send, signed with the v0 scheme, checked here by a stand-in for the gateway.
import { createServer, type Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatewayRequests } from '../../../playground/gateway-requests.js';
import { SlackStandIn } from '../../../playground/slack-stand-in/web-api.js';
import { APP, dmOf, IT_HELP_CHANNEL, REVIEW_CHANNEL, Workspace } from '../../../playground/workspace.js';
import { hasValidSignature } from '../../../src/slack/transport/v0-signature.js';
import { listen } from '../../../src/util/listen.js';

const SECRET = 'playground-test-secret';
const ALICE = 'U0ALICE';

type Json = Record<string, unknown>;

let server: Server;
let received: Array<{ signed: boolean; body: Json }>;
let workspace: Workspace;
let requests: GatewayRequests;

beforeEach(async () => {
  received = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const signed = hasValidSignature(
        SECRET,
        Number(req.headers['x-slack-request-timestamp']),
        raw,
        String(req.headers['x-slack-signature']),
      );
      const text = raw.toString('utf8');
      // An interaction's payload, an event's JSON, or a slash command's form.
      const body = text.startsWith('payload=')
        ? (JSON.parse(decodeURIComponent(text.slice('payload='.length))) as Json)
        : text.startsWith('{')
          ? (JSON.parse(text) as Json)
          : Object.fromEntries(new URLSearchParams(text));
      received.push({ signed, body });
      res.writeHead(200).end();
    });
  });
  const { port } = await listen(server, 0, '127.0.0.1');
  workspace = new Workspace('/cs');
  const standIn = new SlackStandIn(workspace, { botToken: undefined, origin: () => 'http://127.0.0.1:9' });
  requests = new GatewayRequests({
    gatewayUrl: `http://127.0.0.1:${port}`,
    signingSecret: SECRET,
    workspace,
    standIn,
  });
});

afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const events = () => received.map(({ body }) => body.event as Json);

describe('the playground’s slash commands', () => {
  const OLIVIA = 'U0OLIVIA';

  it('escapes channels, people and user groups by name as Slack does with should_escape, leaving unknown names as typed', async () => {
    const outcome = await requests.send({
      userId: OLIVIA,
      channel: IT_HELP_CHANNEL,
      text: '/cs channel #it-help escalate:@it-oncall,@nobody askers:@Alice @王芳 @bob.okafor lang:a<b&c',
    });
    expect(outcome).toEqual({ ok: true });
    const [command] = received;
    expect(command?.signed).toBe(true);
    expect(command?.body).toMatchObject({
      command: '/cs',
      user_id: OLIVIA,
      text: 'channel <#C0ITHELP|it-help> escalate:<!subteam^S0ITONCALL|it-oncall>,@nobody askers:<@U0ALICE|alice.martin> <@U0WANGFANG|王芳> <@U0BOB|bob.okafor> lang:a&lt;b&amp;c',
    });
  });

  it('writes a user group typed in a message as Slack does, <!subteam^S…>, with a usergroup element', async () => {
    await requests.send({
      userId: ALICE,
      channel: IT_HELP_CHANNEL,
      text: '@it-oncall the printer is on fire',
    });
    const [event] = events();
    expect(event?.text).toBe('<!subteam^S0ITONCALL> the printer is on fire');
    expect(JSON.stringify(event?.blocks)).toContain('{"type":"usergroup","usergroup_id":"S0ITONCALL"}');
  });

  it('leaves a # or @ inside a word alone', async () => {
    await requests.send({
      userId: OLIVIA,
      channel: IT_HELP_CHANNEL,
      text: '/cs help mail@it-oncall C#it-help',
    });
    expect(received[0]?.body.text).toBe('help mail@it-oncall C#it-help');
  });
});

describe('the playground’s requests for the assistant panel', () => {
  it('opens the panel with a signed assistant_thread_started carrying the channel beside it', async () => {
    expect(await requests.assistantOpened({ userId: ALICE, channel: IT_HELP_CHANNEL })).toMatchObject({
      ok: true,
    });
    const thread = workspace.latestAssistantThread(ALICE);
    expect(received.map(({ signed }) => signed)).toEqual([true]);
    expect(received[0]?.body).toMatchObject({
      type: 'event_callback',
      team_id: 'T0PLAY',
      api_app_id: APP.id,
    });
    expect(events()).toEqual([
      {
        type: 'assistant_thread_started',
        assistant_thread: {
          user_id: ALICE,
          context: { channel_id: IT_HELP_CHANNEL, team_id: 'T0PLAY', enterprise_id: null },
          channel_id: dmOf(ALICE),
          thread_ts: thread?.threadTs,
        },
        event_ts: expect.any(String),
      },
    ]);
    // The thread's root is the app's, in the person's DM, where the app posts its greeting.
    expect(workspace.message(dmOf(ALICE), thread?.threadTs ?? '')).toMatchObject({
      userId: APP.userId,
      subtype: 'assistant_app_thread',
    });
  });

  it('tells the app of a switch to another conversation once, and of Home without a channel', async () => {
    await requests.assistantOpened({ userId: ALICE, channel: IT_HELP_CHANNEL });
    await requests.assistantContextChanged({ userId: ALICE, channel: REVIEW_CHANNEL });
    await requests.assistantContextChanged({ userId: ALICE, channel: REVIEW_CHANNEL });
    await requests.assistantContextChanged({ userId: ALICE });
    expect(events().map((event) => [event.type, (event.assistant_thread as Json).context])).toEqual([
      ['assistant_thread_started', { channel_id: IT_HELP_CHANNEL, team_id: 'T0PLAY', enterprise_id: null }],
      [
        'assistant_thread_context_changed',
        { channel_id: REVIEW_CHANNEL, team_id: 'T0PLAY', enterprise_id: null },
      ],
      ['assistant_thread_context_changed', { team_id: 'T0PLAY', enterprise_id: null }],
    ]);
    expect(received.every(({ signed }) => signed)).toBe(true);
    expect(await requests.assistantContextChanged({ userId: 'U0BOB', channel: REVIEW_CHANNEL })).toEqual({
      ok: false,
      error: 'the assistant panel is not open',
    });
  });

  it('sends a message in the panel as message.im in its thread, and takes the suggested prompts away', async () => {
    await requests.assistantOpened({ userId: ALICE, channel: undefined });
    const thread = workspace.latestAssistantThread(ALICE);
    if (!thread) throw new Error('no thread');
    thread.prompts = [{ title: 'VPN', message: 'How do I connect to the VPN?' }];
    await requests.send({
      userId: ALICE,
      channel: thread.channel,
      text: 'How do I connect to the VPN?',
      threadTs: thread.threadTs,
    });
    expect(events().at(-1)).toMatchObject({
      type: 'message',
      channel: dmOf(ALICE),
      channel_type: 'im',
      user: ALICE,
      thread_ts: thread.threadTs,
      // The thread's root is the app's.
      parent_user_id: APP.userId,
    });
    expect(workspace.latestAssistantThread(ALICE)?.prompts).toEqual([]);
  });

  it("sends a click on Slack's feedback buttons as block_actions with the side's value and text", async () => {
    const posted = workspace.startAssistantThread(ALICE, undefined);
    await requests.click({
      userId: ALICE,
      source: { kind: 'message', channel: posted.channel, ts: posted.threadTs },
      blockId: 'rating',
      actionId: 'rate',
      element: { type: 'feedback_buttons', value: 'down', text: { type: 'plain_text', text: '👎' } },
    });
    expect(received[0]?.signed).toBe(true);
    expect(received[0]?.body).toMatchObject({
      type: 'block_actions',
      actions: [
        {
          type: 'feedback_buttons',
          action_id: 'rate',
          block_id: 'rating',
          value: 'down',
          text: { type: 'plain_text', text: '👎' },
        },
      ],
    });
  });
});
