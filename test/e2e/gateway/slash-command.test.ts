// The slash command over HTTP, signed as Slack signs it: help for everyone (and for anything not
// understood), the agents of a service group for operators only, answered through response_url.
import { describe, expect, it } from 'vitest';
import { PlatformClient, StaticTokenProvider } from '../../../src/platform/index.js';
import { DEFAULT_SIMULATOR_TOKEN } from '../../../src/simulator/index.js';
import { todayIn } from '../../../src/util/time-zone.js';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import {
  buttonOf,
  buttonsOf,
  type GatewayHarness,
  SIGNING_SECRET,
  textOf,
  useGatewayHarness,
} from '../../support/gateway-harness.js';
import { blockActionsPayload, IDS } from '../../support/slack-payloads.js';
import {
  FORM_CONTENT_TYPE,
  interactionBody,
  postToSlackApp,
  sendInteraction,
  sendSlashCommand,
} from '../../support/slack-signing.js';

const OPERATOR = 'U0OPERATOR';

async function run(
  h: GatewayHarness,
  text: string,
  user: string = IDS.user,
  command = '/cs',
): Promise<RecordedCall> {
  const mark = h.slack.calls().length;
  const response = await sendSlashCommand(h.url, SIGNING_SECRET, {
    command,
    text,
    user_id: user,
    team_id: IDS.team,
    channel_id: IDS.channel,
    response_url: h.slack.responseUrl(),
  });
  expect(response.status).toBe(200);
  // One command at a time: its answer is the first response_url call after it was sent.
  return h.slack.waitForCall('response_url', (call) => h.slack.calls().indexOf(call) >= mark, 5_000);
}

/** Clicks a button of an ephemeral answer, signed or not; resolves with the next response_url call after it. */
async function click(
  h: GatewayHarness,
  answer: RecordedCall,
  actionId: string,
  user = OPERATOR,
): Promise<RecordedCall> {
  const button = buttonOf(answer, actionId);
  const mark = h.slack.calls().length;
  const payload = blockActionsPayload(
    {
      user,
      channel: IDS.channel,
      actions: [
        { action_id: button.actionId, block_id: button.blockId, value: button.value, text: button.text },
      ],
    },
    { response_url: h.slack.responseUrl('clicked') },
  );
  const response = await sendInteraction(h.url, SIGNING_SECRET, payload);
  expect(response.status).toBe(200);
  return h.slack.waitForCall('response_url', (call) => h.slack.calls().indexOf(call) >= mark, 10_000);
}

/** Platform requests for agents since `mark`. */
function agentRequestsSince(h: GatewayHarness, mark: number) {
  return h.simulator.received
    .slice(mark)
    .filter(
      (request) =>
        typeof request.body === 'object' &&
        request.body !== null &&
        Reflect.get(request.body, 'action') === 'queryServiceList',
    );
}

/**
 * Runs `/cs help`, signed, as the control after requests that must be refused: its answer must be
 * the only Slack call (or response_url post) since `mark`.
 */
async function expectOnlyTheControlSince(h: GatewayHarness, mark: number): Promise<void> {
  const control = await run(h, 'help');
  expect(h.slack.calls().slice(mark)).toEqual([control]);
}

function agentCalls(h: GatewayHarness): number {
  return h.simulator.received.filter(
    (request) =>
      typeof request.body === 'object' &&
      request.body !== null &&
      Reflect.get(request.body, 'action') === 'queryServiceList',
  ).length;
}

describe('/cs', () => {
  const harness = useGatewayHarness({ env: { OPERATOR_USER_IDS: OPERATOR } });

  it('answers help to anyone, only to them, for an empty command, "help", or anything not understood', async () => {
    const h = harness();
    for (const text of ['', 'help', 'frobnicate now', '%%% \u0007 <script>', 'x'.repeat(3000)]) {
      const answer = await run(h, text);
      expect(answer.body.response_type).toBe('ephemeral');
      expect(textOf(answer)).toContain('/cs agents [group]');
      // Every surface's subcommands are in the help, not only the desk's.
      expect(textOf(answer)).toContain('/cs channel reset');
      expect(textOf(answer)).toContain('/cs channels');
    }
  });

  it('speaks the asker’s language', async () => {
    const h = harness();
    h.slack.setUser('U_ZH', { displayName: '王小明', locale: 'zh-CN' });
    const help = textOf(await run(h, 'help', 'U_ZH'));
    expect(help).toContain('列出某个客服组的客服');
    expect(help).toContain('列出所有有自己设置的频道');
  });

  it('refuses the agent list to someone who is not an operator, and does not ask the platform', async () => {
    const h = harness();
    const before = agentCalls(h);
    const answer = await run(h, 'agents g-it');
    expect(textOf(answer)).toBe(
      'Only operators can see the service desk’s agents. To be made one, ask the app’s administrators.',
    );
    expect(agentCalls(h)).toBe(before);
  });

  it('tells an employee what was refused, naming no setting and not the knowledge base, in their language', async () => {
    const h = harness();
    for (const [text, what] of [
      ['tickets 2026-11-01', 'the service desk’s tickets'],
      ['stats', 'the service desk’s statistics'],
    ]) {
      const refusal = textOf(await run(h, text ?? ''));
      expect(refusal).toContain(`Only operators can see ${what}`);
      expect(refusal).not.toMatch(/knowledge|[A-Z]{2,}_[A-Z_]+/);
    }
    h.slack.setUser('U_ZH', { displayName: '王小明', locale: 'zh-CN' });
    const chinese = textOf(await run(h, 'agents g-it', 'U_ZH'));
    expect(chinese).toBe('只有管理员才能查看客服组的客服。如需开通，请联系本应用的管理员。');
    expect(chinese).not.toContain('您');
  });

  it('lists a group’s agents for an operator, sorted by name, with their ids', async () => {
    const h = harness();
    const text = textOf(await run(h, 'agents g-it', OPERATOR));
    const names = ['Alice Chen', 'Bob Martin', 'Dana Kim', '王伟'];
    const positions = names.map((name) => text.indexOf(name));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(text).toContain('`s-it-01`');
    expect(text).toContain('(4)');
  });

  it('says plainly when a group has no agents or is not a group id, and how to name one', async () => {
    const h = harness();
    expect(textOf(await run(h, 'agents g-nowhere', OPERATOR))).toContain('knows no agents in `g-nowhere`');
    expect(textOf(await run(h, `agents ${'g'.repeat(40)}`, OPERATOR))).toContain('is not a service group id');
    expect(textOf(await run(h, 'agents', OPERATOR))).toContain('/cs agents <groupId>');
  });

  it('tells a platform that answered with an error from one that did not answer, each with Try again', async () => {
    const h = harness();
    h.simulator.faults.set({ kind: 'http500', actions: ['queryServiceList'] });
    let failed: RecordedCall;
    try {
      failed = await run(h, 'agents g-hr', OPERATOR);
    } finally {
      h.simulator.faults.clear();
    }
    expect(textOf(failed)).toContain('The platform answered with an error instead of the agents of `g-hr`');
    expect(buttonOf(failed, 'agents_retry').text).toBe('Try again');
    const retried = await click(h, failed, 'agents_retry');
    expect(retried.body.replace_original).toBe(true);
    expect(textOf(retried)).toContain('李娜');

    h.simulator.faults.set({ kind: 'drop', actions: ['queryServiceList'] });
    try {
      const dropped = await run(h, 'agents g-hr', OPERATOR);
      expect(textOf(dropped)).toContain('The platform could not be reached to list the agents of `g-hr`');
      expect(buttonOf(dropped, 'agents_retry').value).toBe('g-hr');
    } finally {
      h.simulator.faults.clear();
    }
  });

  it('shows a range’s figures, each beside the period of the same length before it, as the platform counts them', async () => {
    const h = harness();
    const platform = new PlatformClient({
      openUrl: h.simulator.url,
      baseUrl: h.simulator.url,
      tokenProvider: new StaticTokenProvider(DEFAULT_SIMULATOR_TOKEN),
      timeouts: { connectMs: 1000, headersMs: 2000, bodyMs: 2000 },
    });
    try {
      const now = await platform.getHumanSatisfactionStatistics({
        startDate: '2026-10-01',
        endDate: '2026-10-31',
      });
      const before = await platform.getHumanSatisfactionStatistics({
        startDate: '2026-08-31',
        endDate: '2026-09-30',
      });
      const mark = h.slack.calls().length;
      const text = textOf(await run(h, 'stats 2026-10-01 2026-10-31', OPERATOR));
      // Its charts go on after the figures: done here, so no later test sees their calls. A month's
      // three charts read the platform ~70 times: a busy machine takes seconds more than a quiet one.
      await h.slack.waitForCall(
        'files.completeUploadExternal',
        (call) => h.slack.calls().indexOf(call) >= mark,
        30_000,
      );
      expect(text).toContain('Service desk, 2026-10-01 – 2026-10-31');
      expect(text).toContain('2026-08-31 – 2026-09-30, the 31 days before');
      const current = now.effectSessionCount ?? 0;
      const change = current - (before.effectSessionCount ?? 0);
      const arrow =
        change === 0
          ? '→ ±0'
          : change > 0
            ? `↑ +${change.toLocaleString('en')}`
            : `↓ −${Math.abs(change).toLocaleString('en')}`;
      expect(text).toContain(`*Effective sessions*\n${current.toLocaleString('en')}   ${arrow}`);
      for (const label of [
        'Total messages',
        'Robot share',
        'Resolved',
        'Average score',
        'Score 4',
        'Score 1',
      ]) {
        expect(text).toContain(label);
      }
    } finally {
      await platform.close();
    }
  }, 45_000);

  it('takes the last 7 days by default, and explains bad dates instead of asking the platform', async () => {
    const h = harness();
    // The operator's own today: the fake Slack gives people Asia/Tokyo unless told otherwise.
    const today = todayIn('Asia/Tokyo', new Date());
    const mark = h.slack.calls().length;
    expect(textOf(await run(h, 'stats', OPERATOR))).toContain(`– ${today}*`);
    // Its chart goes on after the figures: done here, so no later test sees its calls.
    await h.slack.waitForCall(
      'files.completeUploadExternal',
      (call) => h.slack.calls().indexOf(call) >= mark,
    );
    expect(textOf(await run(h, 'stats 2026-13-01', OPERATOR))).toContain('Dates are yyyy-MM-dd');
    expect(textOf(await run(h, 'stats 2026-11-20 2026-11-01', OPERATOR))).toContain(
      'end date is before the start',
    );
    expect(textOf(await run(h, 'stats 2020-01-01 2026-11-01', OPERATOR))).toContain('At most 366 days');
    expect((await run(h, 'stats 2027-01-01', OPERATOR)).body.text).toBe(
      '2027-01-01 is in the future: there are no figures for it yet.',
    );
    expect(textOf(await run(h, 'stats 2026-10-01 2026-10-02 2026-10-03', OPERATOR))).toContain(
      'One date too many',
    );
    h.simulator.faults.set({ kind: 'http500', actions: ['wb_session_message'] });
    let failed: RecordedCall;
    try {
      failed = await run(h, 'stats 2026-10-01 2026-10-07', OPERATOR);
    } finally {
      h.simulator.faults.clear();
    }
    expect(textOf(failed)).toContain('The platform answered with an error instead of the statistics');
    const retried = await click(h, failed, 'stats_retry');
    expect(retried.body.replace_original).toBe(true);
    expect(textOf(retried)).toContain('Service desk, 2026-10-01 – 2026-10-07');
  });

  it('refuses a signed command it cannot answer (no response_url, a repeated field) with 400, asking nothing', async () => {
    const h = harness();
    const before = h.slack.calls().length;
    const noUrl = await postToSlackApp(h.url, {
      body: 'command=%2Fcs&text=help&user_id=U1&team_id=T1&channel_id=C1',
      contentType: FORM_CONTENT_TYPE,
      secret: SIGNING_SECRET,
    });
    expect(noUrl.status).toBe(400);
    const repeated = await postToSlackApp(h.url, {
      body: `command=%2Fcs&text=help&text=agents&user_id=U1&team_id=T1&channel_id=C1&response_url=${encodeURIComponent(h.slack.responseUrl())}`,
      contentType: FORM_CONTENT_TYPE,
      secret: SIGNING_SECRET,
    });
    expect(repeated.status).toBe(400);
    await expectOnlyTheControlSince(h, before);
  });

  it('refuses another app’s command with 400, and an unsigned one with 401', async () => {
    const h = harness();
    const before = { slack: h.slack.calls().length, platform: h.simulator.received.length };
    const fields = {
      command: '/cs',
      text: 'agents',
      user_id: OPERATOR,
      response_url: h.slack.responseUrl('refused'),
    };
    const other = await sendSlashCommand(h.url, SIGNING_SECRET, { ...fields, command: '/other' });
    expect(other.status).toBe(400);
    const wronglySigned = await sendSlashCommand(h.url, 'not-the-secret', fields);
    expect(wronglySigned.status).toBe(401);
    const unsigned = await fetch(new URL('/slack/events', h.url), {
      method: 'POST',
      headers: { 'content-type': FORM_CONTENT_TYPE },
      body: new URLSearchParams({ ...fields, team_id: IDS.team, channel_id: IDS.channel }).toString(),
    });
    expect(unsigned.status).toBe(401);
    await expectOnlyTheControlSince(h, before.slack);
    expect(agentRequestsSince(h, before.platform)).toEqual([]);
  });
});

describe('a renamed command', () => {
  const harness = useGatewayHarness({ env: { SLASH_COMMAND: '/helpdesk' } });

  it('answers under its own name only', async () => {
    const h = harness();
    const help = textOf(await run(h, 'help', IDS.user, '/helpdesk'));
    expect(help).toContain('/helpdesk agents [group]');
    expect(help).toContain('/helpdesk channel reset');
    const old = await sendSlashCommand(h.url, SIGNING_SECRET, { command: '/cs', text: 'help' });
    expect(old.status).toBe(400);
  });
});

describe('/cs agents with named groups (AGENT_GROUPS)', () => {
  const harness = useGatewayHarness({
    env: {
      OPERATOR_USER_IDS: OPERATOR,
      AGENT_GROUPS: 'g-it=IT Service Desk, g-hr=HR Service, g-finance=Finance Service',
      OPERATOR_CONTACT: 'the IT desk in #it-help',
    },
  });

  it('lists the groups as buttons; a click shows that group’s agents, named by its name, below the list', async () => {
    const h = harness();
    const groups = await run(h, 'agents', OPERATOR);
    expect(buttonsOf(groups).map((button) => [button.text, button.value])).toEqual([
      ['IT Service Desk', 'g-it'],
      ['HR Service', 'g-hr'],
      ['Finance Service', 'g-finance'],
    ]);
    const before = agentCalls(h);
    const listed = await click(h, groups, 'agents_group:1');
    expect(listed.body.replace_original).toBe(false);
    expect(textOf(listed)).toContain('Agents of HR Service (3)');
    expect(textOf(listed)).toContain('Emma Johnson');
    expect(agentCalls(h)).toBe(before + 1);
  });

  it('refuses a copied group button to someone who is not an operator, saying who can grant access', async () => {
    const h = harness();
    const groups = await run(h, 'agents', OPERATOR);
    const before = agentCalls(h);
    const refused = await click(h, groups, 'agents_group:0', IDS.user);
    expect(textOf(refused)).toContain(
      'Only operators can see the service desk’s agents. To be made one, ask the IT desk in #it-help.',
    );
    expect(agentCalls(h)).toBe(before);
  });

  it('refuses an unsigned group click with 401, asking the platform nothing', async () => {
    const h = harness();
    const before = agentCalls(h);
    const mark = h.slack.calls().length;
    const payload = blockActionsPayload(
      { user: OPERATOR, actions: [{ action_id: 'agents_group:0', value: 'g-it', text: 'IT Service Desk' }] },
      { response_url: h.slack.responseUrl('unsigned') },
    );
    const response = await sendInteraction(h.url, 'not-the-secret', payload);
    expect(response.status).toBe(401);
    const unsigned = await fetch(new URL('/slack/events', h.url), {
      method: 'POST',
      headers: { 'content-type': FORM_CONTENT_TYPE },
      body: interactionBody(payload),
    });
    expect(unsigned.status).toBe(401);
    // The control: the same click, signed, asks the platform once, and the refused ones asked nothing.
    const groups = await run(h, 'agents', OPERATOR);
    const listed = await click(h, groups, 'agents_group:0');
    expect(textOf(listed)).toContain('Agents of IT Service Desk');
    expect(agentCalls(h)).toBe(before + 1);
    expect(h.slack.calls().slice(mark)).toEqual([groups, listed]);
  });

  it('resolves a group typed by its name, in any case, several words long', async () => {
    const h = harness();
    const text = textOf(await run(h, 'agents it   SERVICE desk', OPERATOR));
    expect(text).toContain('Agents of IT Service Desk (4)');
    expect(text).toContain('Alice Chen');
    // Its id still works too.
    expect(textOf(await run(h, 'agents g-finance', OPERATOR))).toContain('Agents of Finance Service (2)');
  });

  it('answers a name no group has with the groups there are, asking the platform nothing', async () => {
    const h = harness();
    const before = agentCalls(h);
    const answer = await run(h, 'agents Sales Team', OPERATOR);
    expect(textOf(answer)).toContain('No service group is called `Sales Team`');
    expect(buttonsOf(answer).map((button) => button.text)).toEqual([
      'IT Service Desk',
      'HR Service',
      'Finance Service',
    ]);
    expect(agentCalls(h)).toBe(before);
  });
});
