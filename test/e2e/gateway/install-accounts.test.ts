// Installed in many workspaces with no platform account of its own: each workspace is told it is not
// set up (naming who installed the app), its installer sets its account up in the Home tab, and from
// then on its questions and ratings go to its own platform account only, sealed at rest.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../../src/simulator/index.js';
import {
  ACME,
  accountOf,
  ask,
  askerOf,
  COMPANIES,
  feedbacks,
  fromTeam,
  GLOBEX,
  INITECH,
  INITECH_ONE,
  INITECH_TWO,
  installedInTwo,
  openHome,
  robotAsks,
  SIGNING_SECRET,
  setUp,
  since,
  statisticsReads,
  viewText,
  WAIT_MS,
} from '../../support/companies.js';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import { blocksOf, buttonOf, textOf } from '../../support/gateway-harness.js';
import { installThroughPages } from '../../support/install-pages.js';
import { messageShortcutPayload, viewOf, viewSubmissionPayload } from '../../support/review-payloads.js';
import { blockActionsPayload, eventFromTeam } from '../../support/slack-payloads.js';
import { sendEvent, sendInteraction, sendSlashCommand } from '../../support/slack-signing.js';
import { waitFor } from '../../support/wait.js';

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

describe('each workspace its own platform account', () => {
  it('tells a workspace not set up whom to ask, and asks no platform', async () => {
    const started = await installedInTwo(stops);
    const told = await ask(started, ACME, 'How do I reset my password?');
    expect(textOf(told)).toContain('not set up in this workspace yet');
    expect(textOf(told)).toContain(`<@${ACME.installer}>`);
    expect(told.token).toBe(ACME.botToken);
    for (const simulator of started.platforms.values()) expect(robotAsks(simulator)).toEqual([]);

    // The installer sees what to do in the Home; someone else there sees no operator part.
    expect(viewText(await openHome(started, ACME, ACME.installer))).toContain('Not set up yet');
    expect(viewText(await openHome(started, ACME, 'U0ACMEPERSON'))).not.toContain('workspace_setup_open');
  });

  it('answers each workspace from the account its installer set up, and keeps the key sealed', async () => {
    const started = await installedInTwo(stops);
    for (const company of COMPANIES) {
      const platform = started.platforms.get(company);
      if (!platform) throw new Error('no platform');
      const saved = await setUp(started, company, {
        ...accountOf(company, platform),
        // Globex names its default robot; Acme leaves it to the platform.
        ...(company === GLOBEX ? { robot: '7' } : {}),
      });
      expect(saved.status).toBe(200);
      expect(saved.text).toBe('');
      // The Home published again for the installer shows the account.
      const shown = await started.slack.waitForCall(
        'views.publish',
        (call) => call.body.user_id === company.installer && viewText(call).includes(company.sysNum),
        WAIT_MS,
      );
      expect(viewText(shown)).not.toContain(company.appKey);
    }

    const acmeAnswer = await ask(started, ACME, 'How do I reset my password?');
    expect(textOf(acmeAnswer)).not.toContain('not set up');
    const globexAnswer = await ask(started, GLOBEX, 'How do I connect to the VPN?');
    expect(textOf(globexAnswer)).not.toContain('not set up');

    const acmeAsks = robotAsks(started.platforms.get(ACME) as Simulator);
    const globexAsks = robotAsks(started.platforms.get(GLOBEX) as Simulator);
    expect(acmeAsks.map((body) => [body.sysNum, body.question, body.robotFlag])).toEqual([
      ['acme-sys', 'How do I reset my password?', undefined],
    ]);
    expect(globexAsks.map((body) => [body.sysNum, body.question, body.robotFlag])).toEqual([
      ['globex-sys', 'How do I connect to the VPN?', 7],
    ]);

    // Its installer edits the entry from Slack: the form, prefilled from Acme's answer, opened with Acme's token.
    const markEdit = started.slack.calls().length;
    const shortcut = fromTeam(
      messageShortcutPayload({
        user: ACME.installer,
        channel: String(acmeAnswer.body.channel),
        message: { ts: String(acmeAnswer.body.ts), user: ACME.botUser, blocks: blocksOf(acmeAnswer) },
      }),
      ACME,
      ACME.installer,
    );
    expect((await sendInteraction(started.gateway.url, SIGNING_SECRET, shortcut)).status).toBe(200);
    const editForm = await started.slack.waitForCall('views.open', since(started.slack, markEdit), WAIT_MS);
    expect(editForm.token).toBe(ACME.botToken);
    expect(viewOf(editForm).callback_id).toBe('edit_entry');
    expect(started.slack.calls('chat.postEphemeral').filter(since(started.slack, markEdit))).toEqual([]);

    // Rated in Acme: the feedback goes to Acme's platform, none to Globex's.
    const up = buttonOf(acmeAnswer, 'rate_up');
    const rating = fromTeam(
      blockActionsPayload({
        user: askerOf(ACME),
        channel: String(acmeAnswer.body.channel),
        message: { ts: String(acmeAnswer.body.ts), blocks: blocksOf(acmeAnswer) },
        actions: [{ action_id: up.actionId, block_id: up.blockId, value: up.value, text: up.text }],
      }) as unknown as Record<string, unknown>,
      ACME,
      askerOf(ACME),
    );
    expect((await sendInteraction(started.gateway.url, SIGNING_SECRET, rating)).status).toBe(200);
    await waitFor(() => feedbacks(started.platforms.get(ACME) as Simulator).length === 1, {
      timeoutMs: WAIT_MS,
    });
    expect(feedbacks(started.platforms.get(GLOBEX) as Simulator)).toEqual([]);

    // Neither the app key nor a platform token is in the SQLite files in clear.
    const directory = dirname(started.statePath);
    const files = readdirSync(directory).filter((name) => name.startsWith(basename(started.statePath)));
    const tokens = [ACME, GLOBEX].flatMap((company) => [company.appKey]);
    for (const name of files) {
      const bytes = readFileSync(join(directory, name)).toString('latin1');
      for (const secret of tokens) expect(bytes).not.toContain(secret);
      expect(bytes).not.toContain('acme-sys');
    }
  });

  it("forgets a workspace's account when the app is uninstalled there", async () => {
    const started = await installedInTwo(stops);
    const platform = started.platforms.get(ACME) as Simulator;
    const saved = await setUp(started, ACME, accountOf(ACME, platform));
    expect(saved.text).toBe('');
    expect(textOf(await ask(started, ACME, 'How do I reset my password?'))).not.toContain('not set up');

    const uninstalled = {
      ...eventFromTeam({ type: 'app_uninstalled' }, ACME.team, ACME.botUser),
      // Sent after the install it removes.
      event_time: Math.floor(Date.now() / 1000) + 1,
    };
    expect((await sendEvent(started.gateway.url, SIGNING_SECRET, uninstalled)).status).toBe(200);
    await waitFor(() => started.gateway.logs.some((line) => line.msg === 'workspace data removed'), {
      timeoutMs: WAIT_MS,
    });
    await installThroughPages(started.gateway.url, ACME.name);
    expect(textOf(await ask(started, ACME, 'How do I reset my password?'))).toContain('not set up');
  });

  it("reads the operators' figures and statistics from the workspace's own account", async () => {
    const started = await installedInTwo(stops);
    const acme = started.platforms.get(ACME) as Simulator;
    const globex = started.platforms.get(GLOBEX) as Simulator;
    const stats = async () => {
      const mark = started.slack.calls().length;
      const typed = await sendSlashCommand(started.gateway.url, SIGNING_SECRET, {
        command: '/cs',
        text: 'stats',
        user_id: ACME.installer,
        team_id: ACME.team,
        channel_id: 'C0ACMEOPS',
        response_url: started.slack.responseUrl(`stats-${mark}`),
      });
      expect(typed.status).toBe(200);
      const shown = await started.slack.waitForCall(
        'response_url',
        (call) => since(started.slack, mark)(call) && !textOf(call).includes('Reading'),
        WAIT_MS,
      );
      return textOf(shown);
    };
    expect(await stats()).toContain('not set up yet');
    expect(statisticsReads(acme)).toBe(0);

    const saved = await setUp(started, ACME, accountOf(ACME, acme));
    expect(saved.text).toBe('');
    // The Home published after saving read its figures from Acme's platform.
    await waitFor(() => statisticsReads(acme) > 0, { timeoutMs: WAIT_MS });
    const before = statisticsReads(acme);
    expect(await stats()).not.toContain('not set up');
    expect(statisticsReads(acme)).toBeGreaterThan(before);
    expect(statisticsReads(globex)).toBe(0);
  });

  it("makes the members of the group a set-up names that workspace's operators", async () => {
    const started = await installedInTwo(stops);
    const platform = started.platforms.get(ACME) as Simulator;
    started.slack.setUsergroup('S0ACMEOPS', ['U0ACMEOPERATOR']);
    const member = () => openHome(started, ACME, 'U0ACMEOPERATOR').then(viewText);
    expect(await member()).not.toContain('workspace_setup_open');

    const invalid = await setUp(started, ACME, {
      ...accountOf(ACME, platform),
      operators: '@acme-ops',
    });
    expect(JSON.parse(invalid.text)).toMatchObject({
      errors: { setup_operators: expect.stringContaining('starts with S') },
    });
    // Slack lists the group, so the form offers it by its handle rather than asking for its id.
    const offered = JSON.stringify(invalid.modal);
    expect(offered).toContain('"static_select"');
    expect(offered).toContain('"value":"S0ACMEOPS"');
    const saved = await setUp(started, ACME, {
      ...accountOf(ACME, platform),
      operators: 'S0ACMEOPS',
    });
    expect(saved.text).toBe('');
    const home = await member();
    expect(home).toContain('workspace_setup_open');
    expect(home).toContain('<!subteam^S0ACMEOPS>');
    // Only in Acme: the group is Acme's, and Globex has no set-up naming it.
    expect(viewText(await openHome(started, GLOBEX, 'U0ACMEOPERATOR'))).not.toContain('workspace_setup_open');
  });

  it("posts each workspace's digest where its set-up says, from its own platform, with its own token", async () => {
    const started = await installedInTwo(stops, { DIGEST_SCHEDULE: '* * * * * *' });
    const { slack } = started;
    const acme = started.platforms.get(ACME) as Simulator;
    const globex = started.platforms.get(GLOBEX) as Simulator;
    const digests = (channel: string) =>
      slack.calls('chat.postMessage').filter((call) => call.body.channel === channel);
    const acmeSaved = await setUp(started, ACME, { ...accountOf(ACME, acme), digest: 'C0ACMEDIGEST' });
    expect(acmeSaved.text).toBe('');
    expect(JSON.stringify(acmeSaved.modal)).toContain('"conversations_select"');
    expect((await setUp(started, GLOBEX, { ...accountOf(GLOBEX, globex), digest: 'C0GXDIGEST' })).text).toBe(
      '',
    );
    await waitFor(() => digests('C0ACMEDIGEST').length > 0 && digests('C0GXDIGEST').length > 0, {
      timeoutMs: WAIT_MS,
      message: () => `${digests('C0ACMEDIGEST').length} and ${digests('C0GXDIGEST').length} digests`,
    });
    const [acmeDigest] = digests('C0ACMEDIGEST');
    const [globexDigest] = digests('C0GXDIGEST');
    expect(acmeDigest?.token).toBe(ACME.botToken);
    expect(globexDigest?.token).toBe(GLOBEX.botToken);
    expect(textOf(acmeDigest as RecordedCall)).toContain('Total messages');
    expect(statisticsReads(acme)).toBeGreaterThan(0);
    expect(statisticsReads(globex)).toBeGreaterThan(0);
    expect(viewText(await openHome(started, ACME, ACME.installer))).toContain('<#C0ACMEDIGEST>');

    // Globex names no channel any more: its digest stops (a tick already under way may still post).
    expect((await setUp(started, GLOBEX, accountOf(GLOBEX, globex))).text).toBe('');
    const globexBefore = digests('C0GXDIGEST').length;
    const acmeBefore = digests('C0ACMEDIGEST').length;
    await waitFor(() => digests('C0ACMEDIGEST').length >= acmeBefore + 3, { timeoutMs: WAIT_MS * 2 });
    expect(digests('C0GXDIGEST').length).toBeLessThanOrEqual(globexBefore + 1);
  });

  it('sets an org-wide install up once, for every workspace of the org', async () => {
    const started = await installedInTwo(stops);
    await installThroughPages(started.gateway.url, 'Initech');
    const initech = await startSimulator({
      accessToken: 'fixed-initech',
      appId: INITECH_ONE.appId,
      appKey: INITECH_ONE.appKey,
    });
    stops.push(() => initech.close());
    expect(textOf(await ask(started, INITECH_TWO, 'How do I reset my password?'))).toContain(
      `<@${INITECH_ONE.installer}>`,
    );

    const saved = await setUp(started, INITECH_ONE, accountOf(INITECH_ONE, initech));
    expect(saved.text).toBe('');
    for (const [workspace, question] of [
      [INITECH_ONE, 'How do I connect to the VPN?'],
      [INITECH_TWO, 'How do I request annual leave?'],
    ] as const) {
      const answer = await ask(started, workspace, question);
      expect(textOf(answer)).not.toContain('not set up');
      expect(answer.token).toBe(INITECH.token);
    }
    expect(robotAsks(initech).map((body) => [body.sysNum, body.question])).toEqual([
      ['initech-sys', 'How do I connect to the VPN?'],
      ['initech-sys', 'How do I request annual leave?'],
    ]);
    // Acme is not in the org: still not set up.
    expect(textOf(await ask(started, ACME, 'How do I reset my password?'))).toContain('not set up');
  });

  it('refuses an app key the platform refuses, and saves nothing', async () => {
    const started = await installedInTwo(stops);
    const platform = started.platforms.get(ACME) as Simulator;
    const refused = await setUp(started, ACME, {
      url: platform.url,
      sysNum: ACME.sysNum,
      appId: ACME.appId,
      appKey: 'not-the-key',
    });
    expect(refused.status).toBe(200);
    const body = JSON.parse(refused.text) as { response_action: string; errors: Record<string, string> };
    expect(body.response_action).toBe('errors');
    expect(body.errors.setup_app_key).toContain('refused');

    const unreachable = await setUp(started, ACME, {
      url: 'http://127.0.0.1:9',
      sysNum: ACME.sysNum,
      appId: ACME.appId,
      appKey: ACME.appKey,
    });
    const unreachableBody = JSON.parse(unreachable.text) as { errors: Record<string, string> };
    expect(unreachableBody.errors.setup_url).toContain('could not be reached');

    expect(textOf(await ask(started, ACME, 'How do I reset my password?'))).toContain('not set up');
  });

  it('checks a fixed access token with the platform before keeping it', async () => {
    const started = await installedInTwo(stops);
    const platform = started.platforms.get(ACME) as Simulator;
    const refused = await setUp(started, ACME, {
      url: platform.url,
      sysNum: ACME.sysNum,
      accessToken: 'not-the-token',
    });
    const body = JSON.parse(refused.text) as { response_action: string; errors: Record<string, string> };
    expect(body.response_action).toBe('errors');
    expect(body.errors.setup_access_token).toContain('refused this access token');
    expect(textOf(await ask(started, ACME, 'How do I reset my password?'))).toContain('not set up');

    const saved = await setUp(started, ACME, {
      url: platform.url,
      sysNum: ACME.sysNum,
      accessToken: `fixed-${ACME.appId}`,
    });
    expect(saved.text).toBe('');
    expect(textOf(await ask(started, ACME, 'How do I reset my password?'))).toContain('password portal');
    expect(robotAsks(platform).map((ask) => ask.sysNum)).toEqual([ACME.sysNum]);
  });

  it('lets only the installer (an operator) save a set-up', async () => {
    const started = await installedInTwo(stops);
    const platform = started.platforms.get(ACME) as Simulator;
    // Globex's installer is nobody in Acme: a submission of theirs from Acme is refused.
    const intruder = { ...ACME, installer: GLOBEX.installer };
    const home = await openHome(started, ACME, GLOBEX.installer);
    expect(viewText(home)).not.toContain('workspace_setup_open');
    const opened = { view: { type: 'modal', callback_id: 'workspace_setup', blocks: [] }, id: 'V1' };
    const submission = fromTeam(
      viewSubmissionPayload(opened, {}, intruder.installer),
      ACME,
      intruder.installer,
    );
    const state = {
      setup_url: { setup_url: { type: 'plain_text_input', value: platform.url } },
      setup_sys_num: { setup_sys_num: { type: 'plain_text_input', value: 'stolen' } },
      setup_app_id: { setup_app_id: { type: 'plain_text_input', value: ACME.appId } },
      setup_app_key: { setup_app_key: { type: 'plain_text_input', value: ACME.appKey } },
    };
    const view = submission.view as Record<string, unknown>;
    const refused = await sendInteraction(started.gateway.url, SIGNING_SECRET, {
      ...submission,
      view: { ...view, state: { values: state } },
    });
    expect(JSON.parse(refused.text)).toMatchObject({ response_action: 'errors' });
    expect(textOf(await ask(started, ACME, 'How do I reset my password?'))).toContain('not set up');
  });
});
