// The Home tab as people in Slack see it, against the real gateway, the platform simulator and the
// fake Slack Web API, with signed requests: how to ask and example questions for everyone, figures,
// review cards and unanswered questions for operators only, an example click answered in the DM, a
// platform failure that leaves the Home standing, Chinese for Chinese readers, and garbage ignored.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import {
  askByMention,
  buttonOf,
  buttonsOf,
  clickButton,
  type GatewayHarness,
  isRecord,
  SIGNING_SECRET,
  textsIn,
  useGatewayHarness,
} from '../../support/gateway-harness.js';
import { viewOf } from '../../support/review-payloads.js';
import { eventCallback, eventFromTeam, IDS, nextTs } from '../../support/slack-payloads.js';
import { sendEvent } from '../../support/slack-signing.js';
import { waitFor } from '../../support/wait.js';

const OPERATOR = 'U0OPERATOR';
const REVIEW_CHANNEL = 'C0REVIEW';
/** Generous: a busy two-core machine runs other e2e files beside this one. */
const WAIT_MS = 8_000;
const SLOW_TEST_MS = 40_000;
/** The DM the fake Slack opens with a user (conversations.open). */
const dmOf = (user: string) => `D${user.replace(/^[UW]/, '')}`;

/** A workspace of the test's own: the figures are cached per workspace. */
const newTeam = () => `T${randomBytes(4).toString('hex').toUpperCase()}`;

function homeOpened(user: string, tab = 'home') {
  return { type: 'app_home_opened', user, channel: dmOf(user), tab, event_ts: nextTs() };
}

/** Opens the Home tab as `user` and returns the view published for them. */
async function openHome(
  h: GatewayHarness,
  user: string,
  team = newTeam(),
): Promise<{ call: RecordedCall; view: Record<string, unknown>; text: string }> {
  const mark = h.slack.calls().length;
  const response = await sendEvent(h.url, SIGNING_SECRET, eventFromTeam(homeOpened(user), team));
  expect(response.status).toBe(200);
  const call = await h.slack.waitForCall(
    'views.publish',
    (published) => published.body.user_id === user && h.slack.madeSince(mark)(published),
    WAIT_MS,
  );
  const view = viewOf(call);
  return { call, view, text: textsIn(view.blocks) };
}

/** The view's buttons, as buttonsOf reads a message's. */
function viewButtons(view: Record<string, unknown>) {
  const call: RecordedCall = {
    method: 'views.publish',
    body: { blocks: view.blocks },
    token: undefined,
    contentType: undefined,
    status: 200,
    response: undefined,
    at: 0,
    remotePort: undefined,
  };
  return buttonsOf(call);
}

/** The example questions the view offers. */
function examplesOf(view: Record<string, unknown>): string[] {
  return viewButtons(view)
    .filter((button) => button.actionId.startsWith('home_example:'))
    .map((button) => button.value);
}

/** A click on a Home tab button, as Slack posts it: from a view, with no channel and no message. */
function homeClick(
  view: Record<string, unknown>,
  button: ReturnType<typeof viewButtons>[number],
  user: string,
) {
  return {
    type: 'block_actions',
    user: { id: user, username: 'jane.doe', name: 'jane.doe', team_id: IDS.team },
    api_app_id: IDS.app,
    token: IDS.verificationToken,
    container: { type: 'view', view_id: 'V0HOME' },
    trigger_id: `${Date.now()}.1234567890.0123456789abcdef`,
    team: { id: IDS.team, domain: IDS.teamDomain },
    enterprise: null,
    is_enterprise_install: false,
    view: {
      id: 'V0HOME',
      team_id: IDS.team,
      type: 'home',
      blocks: view.blocks,
      hash: '1.a',
      app_id: IDS.app,
    },
    actions: [
      {
        action_id: button.actionId,
        block_id: button.blockId,
        text: { type: 'plain_text', text: button.text, emoji: true },
        value: button.value,
        type: 'button',
        action_ts: nextTs(),
      },
    ],
  };
}

const STATISTICS_ACTIONS = new Set(['wb_session_message', 'wb_human_satisfaction']);

function statisticsAsks(h: GatewayHarness): number {
  return h.simulator.received.filter(
    (request) => isRecord(request.body) && STATISTICS_ACTIONS.has(String(request.body.action)),
  ).length;
}

async function metricValue(h: GatewayHarness, line: string): Promise<number> {
  const body = await (await fetch(`${h.url}/metrics`)).text();
  const found = body.split('\n').find((candidate) => candidate.startsWith(`${line} `));
  return found ? Number(found.split(' ')[1]) : 0;
}

describe('the Home tab, with operators and a review channel', () => {
  const harness = useGatewayHarness({
    env: { OPERATOR_USER_IDS: OPERATOR, REVIEW_CHANNEL_ID: REVIEW_CHANNEL, CS_HEADERS_TIMEOUT_MS: '6000' },
  });

  it('shows a plain user how to ask and example questions as buttons, and no figures, cards or questions', async () => {
    const h = harness();
    const published = 'cs_gateway_home_publishes_total{outcome="published"}';
    const before = await metricValue(h, published);
    const asksBefore = statisticsAsks(h);
    const { view, text } = await openHome(h, IDS.user);

    expect(view.type).toBe('home');
    expect(text).toContain('How to ask');
    expect(text).toContain('mention me with your question');
    expect(text).toContain('ask a follow-up without mentioning me again');
    expect(viewButtons(view).map((button) => [button.actionId, button.value])).toEqual([
      ['home_example:0', 'How do I reset my password?'],
      ['home_example:1', 'How do I connect to the VPN?'],
      ['home_example:2', 'How do I request annual leave?'],
      ['home_example:3', 'When is payday?'],
    ]);
    for (const hidden of ['Last 7 days', 'Review cards', 'unanswered', 'For operators', 'review loop']) {
      expect(text).not.toContain(hidden);
    }
    // Nobody asked the platform for figures a plain user will not see.
    expect(statisticsAsks(h)).toBe(asksBefore);
    expect(await metricValue(h, published)).toBe(before + 1);
  });

  it(
    'shows an operator the figures with their comparison, the cards waiting after a 👎, the unanswered questions and the two buttons',
    async () => {
      const h = harness();
      // A 👎 on an answer from the password entry, and a question the robot cannot answer: two cards.
      const asked = await askByMention(h, 'How do I reset my password?');
      const mark = h.slack.calls().length;
      await h.click(
        clickButton(asked.answer, buttonOf(asked.answer, 'rate_down'), { threadTs: asked.threadTs }),
      );
      await h.slack.waitForCall(
        'chat.postMessage',
        (call) => call.body.channel === REVIEW_CHANNEL && h.slack.madeSince(mark)(call),
        WAIT_MS,
      );
      const unanswered = h.slack.calls().length;
      await askByMention(h, 'Which llama grooms alpacas on Mars?');
      await h.slack.waitForCall(
        'chat.postMessage',
        (call) => call.body.channel === REVIEW_CHANNEL && h.slack.madeSince(unanswered)(call),
        WAIT_MS,
      );

      const { view, text } = await openHome(h, OPERATOR);
      const today = new Date().toISOString().slice(0, 10);
      expect(text).toContain(`*Last 7 days*, `);
      expect(text).toContain(` – ${today}`);
      expect(text).toMatch(/\*Total messages\*\n[\d,]+ {3}[↑↓→] [+−±][\d,.]+/);
      expect(text).toMatch(/\*Resolved\*\n/);
      expect(text).toContain('Beside the 7 days before');
      expect(text).toContain('*Review cards waiting: 2*  ·  👎 1 disliked  ·  ❓ 1 unanswered');
      // The card's entry, linked to the card where it is posted in the review channel.
      expect(text).toMatch(
        /\*Most disliked answers\*\n• <https:\/\/acme\.slack\.com\/archives\/C0REVIEW\/p\d+\|How do I reset my password\?> · 👎 1/,
      );
      expect(text).toMatch(
        /\*Most asked unanswered questions\*\n• <https:[^|]+\|Which llama grooms alpacas on Mars\?> · asked 1×/,
      );
      expect(viewButtons(view).map((button) => button.actionId)).toEqual([
        'home_example:0',
        'home_example:1',
        'home_example:2',
        'home_example:3',
        'home_open_tickets',
        'home_open_statistics',
      ]);
      expect(JSON.stringify(view.blocks).length).toBeLessThan(12_000);
      expect(Array.isArray(view.blocks) && view.blocks.length).toBeLessThanOrEqual(100);
    },
    SLOW_TEST_MS,
  );

  it('reads the figures from the platform once per workspace while they are fresh', async () => {
    const h = harness();
    const team = newTeam();
    const before = statisticsAsks(h);
    await openHome(h, OPERATOR, team);
    const once = statisticsAsks(h);
    // This period and the one before, messages and satisfaction.
    expect(once - before).toBe(4);
    await openHome(h, OPERATOR, team);
    expect(statisticsAsks(h)).toBe(once);
  });

  it(
    "asks an example question in the user's DM when clicked, showing what was asked and then the answer with its ratings",
    async () => {
      const h = harness();
      const { view } = await openHome(h, IDS.user);
      const button = viewButtons(view).find((candidate) => candidate.value === 'How do I reset my password?');
      if (!button) throw new Error('no password example on the Home');
      const mark = h.slack.calls().length;
      const response = await h.click(homeClick(view, button, IDS.user));
      expect(response.status).toBe(200);

      const opened = await h.slack.waitForCall('conversations.open', h.slack.madeSince(mark), WAIT_MS);
      expect(opened.body.users).toBe(IDS.user);
      const dm = dmOf(IDS.user);
      const shown = await h.slack.waitForCall(
        'chat.postMessage',
        (call) => call.body.channel === dm && h.slack.madeSince(mark)(call),
        WAIT_MS,
      );
      expect(shown.body.text).toBe('🏠 You asked from the Home tab:\n>How do I reset my password?');
      expect(shown.body.thread_ts).toBeUndefined();
      const answer = await waitFor(
        () =>
          h.slack
            .calls()
            .filter(h.slack.madeSince(mark))
            .find(
              (call) =>
                (call.method === 'chat.postMessage' || call.method === 'chat.update') &&
                call.body.channel === dm &&
                buttonsOf(call).some((candidate) => candidate.actionId === 'rate_down'),
            ),
        { timeoutMs: WAIT_MS, message: () => JSON.stringify(h.slack.calls().map((call) => call.method)) },
      );
      expect(answer.body.thread_ts).toBeUndefined();
      expect(textsIn(answer.body.blocks)).toContain('password');
      expect(h.robotAsks().map((ask) => ask.question)).toContain('How do I reset my password?');
    },
    SLOW_TEST_MS,
  );

  it('still publishes the Home when the platform fails, with a line saying the figures are unavailable', async () => {
    const h = harness();
    h.simulator.faults.set({ kind: 'http500', actions: ['wb_session_message', 'wb_human_satisfaction'] });
    try {
      const { view, text } = await openHome(h, OPERATOR);
      expect(text).toContain('The figures are unavailable right now: the platform answered with an error.');
      expect(text).not.toContain('Last 7 days');
      expect(text).toContain('How to ask');
      expect(viewButtons(view).map((button) => button.actionId)).toContain('home_open_statistics');
    } finally {
      h.simulator.faults.clear();
    }
  });

  it('says when the figures were read in the operator’s Slack time zone, as people read times', async () => {
    const h = harness();
    // The fake Slack's users.info gives everyone Asia/Tokyo unless told: neither UTC nor this process's zone.
    const before = Date.now();
    const { text } = await openHome(h, OPERATOR);
    const asOf = /as of <!date\^(\d+)\^[^|]*\|([^>]*)>/.exec(text);
    expect(asOf).not.toBeNull();
    const at = Number(asOf?.[1]) * 1000;
    expect(at).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 60_000);
    // The fallback as every moment the app shows one reader: in their zone, as people write a date.
    const expected = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Asia/Tokyo',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(at);
    expect(asOf?.[2]).toBe(expected);
  });

  it('speaks Chinese to a Chinese user, examples included', async () => {
    const h = harness();
    h.slack.setUser('U_ZH', { displayName: '王小明', locale: 'zh-CN' });
    const { view, text } = await openHome(h, 'U_ZH');
    expect(text).toContain('如何提问');
    expect(examplesOf(view)).toContain('忘记密码怎么办？');
    expect(text).not.toContain('How to ask');
  });

  it('ignores garbage: a signed app_home_opened of the wrong shape, the Messages tab, a forged example click', async () => {
    const h = harness();
    const asks = h.robotAsks().length;
    for (const event of [
      { type: 'app_home_opened' },
      { type: 'app_home_opened', user: { id: IDS.user } },
      { type: 'app_home_opened', user: 'U'.repeat(500), tab: 'home' },
      { type: 'app_home_opened', user: IDS.user, tab: { home: true } },
      { type: 'app_home_opened', user: 42 },
      homeOpened(IDS.user, 'messages'),
    ]) {
      const response = await sendEvent(h.url, SIGNING_SECRET, eventCallback(event));
      expect([200, 400]).toContain(response.status);
    }
    const { view } = await openHome(h, IDS.user);
    const button = viewButtons(view)[0];
    if (!button) throw new Error('no example on the Home');
    for (const value of ['', '   ', 'x'.repeat(151)]) {
      expect((await h.click(homeClick(view, { ...button, value }, IDS.user))).status).toBe(200);
    }
    await waitFor(
      () =>
        h.logs.filter((record) => record.msg === 'ignored a home example click with a malformed value')
          .length === 3,
    );
    // Only the well-formed opening was published; nothing was asked, no DM was opened.
    expect(h.slack.calls('views.publish')).toHaveLength(1);
    expect(h.slack.calls('conversations.open')).toEqual([]);
    expect(h.robotAsks()).toHaveLength(asks);
    expect(
      h.logs.filter((record) => record.msg === 'ignored an app_home_opened of unexpected shape').length,
    ).toBeGreaterThanOrEqual(3);
    // Not taken for a message either.
    expect(h.logs.some((record) => record.msg === 'ignored a message event of unexpected shape')).toBe(false);
  });
});

describe('the Home tab, with configured examples and no review channel', () => {
  const harness = useGatewayHarness({
    env: {
      OPERATOR_USER_IDS: OPERATOR,
      HOME_EXAMPLE_QUESTIONS:
        'How do I add a printer? | Laptop, phone or tablet: how do I set up email on my phone?',
    },
  });

  it('offers the configured examples, to Chinese readers too, and tells operators the review loop is off', async () => {
    const h = harness();
    const { view, text } = await openHome(h, OPERATOR);
    expect(examplesOf(view)).toEqual([
      'How do I add a printer?',
      'Laptop, phone or tablet: how do I set up email on my phone?',
    ]);
    expect(text).toContain('The review loop is off');
    expect(text).not.toContain('Review cards waiting');
    h.slack.setUser('U_ZH', { displayName: '王小明', locale: 'zh-CN' });
    const chinese = await openHome(h, 'U_ZH');
    expect(examplesOf(chinese.view)).toEqual(examplesOf(view));
    expect(chinese.text).not.toContain('审核流程');
  });
});
