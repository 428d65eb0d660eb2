// `/cs stats` over signed HTTP: the figures first, then the questions-a-day chart uploaded as a PNG
// to the operator's DM with its alt text, the ratings and tickets charts under it; a failed upload
// leaves the figures and offers Try again.
import { describe, expect, it } from 'vitest';
import { todayIn } from '../../../src/util/time-zone.js';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import {
  askByMention,
  buttonOf,
  clickButton,
  type GatewayHarness,
  SIGNING_SECRET,
  textOf,
  useGatewayHarness,
} from '../../support/gateway-harness.js';
import { viewOf } from '../../support/review-payloads.js';
import { ticketsCreatedIn } from '../../support/simulator-tickets.js';
import { blockActionsPayload, IDS } from '../../support/slack-payloads.js';
import { sendInteraction, sendSlashCommand } from '../../support/slack-signing.js';
import { waitFor } from '../../support/wait.js';

const OPERATOR = 'U0OPERATOR';
const OPERATOR_ZH = 'U0OPERZH';
/** An operator in Shanghai, looked up by no other test of the shared gateway. */
const OPERATOR_SHANGHAI = 'U0OPERSHA';
/** Seen by no other test: the gateway keeps a person's time zone once looked up. */
const OPERATOR_FAR = 'U0OPERFAR';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const WAIT_MS = 20_000;

const harness = useGatewayHarness({
  env: { OPERATOR_USER_IDS: `${OPERATOR},${OPERATOR_ZH},${OPERATOR_SHANGHAI},${OPERATOR_FAR}` },
});

async function stats(
  h: GatewayHarness,
  text: string,
  user: string,
): Promise<{ mark: number; figures: RecordedCall }> {
  const mark = h.slack.calls().length;
  const response = await sendSlashCommand(h.url, SIGNING_SECRET, {
    command: '/cs',
    text,
    user_id: user,
    team_id: IDS.team,
    channel_id: IDS.channel,
    response_url: h.slack.responseUrl(`stats-${mark}`),
  });
  expect(response.status).toBe(200);
  const figures = await h.slack.waitForCall('response_url', h.slack.madeSince(mark), WAIT_MS);
  return { mark, figures };
}

/** What the command said under its figures, after them. */
function noteAfter(h: GatewayHarness, mark: number, figures: RecordedCall): Promise<RecordedCall> {
  return h.slack.waitForCall(
    'response_url',
    (call) => h.slack.madeSince(mark)(call) && call !== figures,
    WAIT_MS,
  );
}

/** The operator clicks a button of an answer to the command; the mark of the calls after the click. */
async function clickIn(h: GatewayHarness, answer: RecordedCall, actionId: string): Promise<number> {
  const button = buttonOf(answer, actionId);
  const mark = h.slack.calls().length;
  const clicked = await sendInteraction(
    h.url,
    SIGNING_SECRET,
    blockActionsPayload(
      {
        user: OPERATOR,
        channel: IDS.channel,
        actions: [
          { action_id: button.actionId, block_id: button.blockId, value: button.value, text: button.text },
        ],
      },
      { response_url: h.slack.responseUrl(actionId) },
    ),
  );
  expect(clicked.status).toBe(200);
  return mark;
}

/** The operator's click on the Home tab's Statistics button. */
function homeStatisticsClick(user = OPERATOR) {
  const {
    channel: _channel,
    message: _message,
    response_url: _responseUrl,
    ...click
  } = blockActionsPayload({
    user,
    actions: [{ action_id: 'home_open_statistics', block_id: 'home', value: 'home_open_statistics' }],
  });
  return { ...click, container: { type: 'view', view_id: 'VHOME' }, view: { id: 'VHOME', type: 'home' } };
}

function since(h: GatewayHarness, mark: number, method: string): RecordedCall[] {
  return h.slack.calls().filter((call, index) => index >= mark && call.method === method);
}

/** Days the platform was asked for one at a time (the chart's reads), since `mark`. */
function singleDayReads(h: GatewayHarness, mark: number): string[] {
  return h.simulator.received.slice(mark).flatMap((request) => {
    const body = request.body as { action?: unknown; data?: { startDate?: unknown; endDate?: unknown } };
    const data = body.data;
    return body.action === 'wb_session_message' && data && String(data.startDate) === String(data.endDate)
      ? [String(data.startDate)]
      : [];
  });
}

/** Two answers rated, 👍 and 👎, and counted: the ratings chart has something to draw. */
async function rateTwoAnswers(h: GatewayHarness): Promise<void> {
  for (const [question, button] of [
    ['How do I reset my password?', 'rate_up'],
    ['How do I connect to the VPN?', 'rate_down'],
  ] as const) {
    const { answer, threadTs } = await askByMention(h, question);
    await h.click(clickButton(answer, buttonOf(answer, button), { threadTs }));
    await h.slack.waitForCall(
      'chat.update',
      (call) => call.body.ts === answer.body.ts && textOf(call).includes('rated this answer'),
      WAIT_MS,
    );
  }
  // Each is counted right after its rated line is shown, long before a command reads them.
  await waitFor(() => h.logs.filter((line) => line.msg === 'answer rated').length >= 2, {
    message: 'two answers rated',
  });
}

describe('/cs stats with a chart', () => {
  it('draws 👍/👎 a day under the questions once answers are rated, and the share left unanswered, each stated in alt text', async () => {
    const h = harness();
    // Asked here and not matched: the third of this workspace's questions, the only one unanswered.
    await askByMention(h, 'Which llama grooms alpacas on Mars?');
    await rateTwoAnswers(h);

    const { mark } = await stats(h, 'stats', OPERATOR);
    const completed = await h.slack.waitForCall(
      'files.completeUploadExternal',
      h.slack.madeSince(mark),
      WAIT_MS,
    );
    const asked = since(h, mark, 'files.getUploadURLExternal');
    const names = asked.map((call) => String(call.body.filename));
    expect(names).toEqual([
      expect.stringMatching(/^questions-/),
      expect.stringMatching(/^ratings-/),
      expect.stringMatching(/^tickets-/),
    ]);
    // The three images in one message in the DM, the ratings and the tickets under the questions.
    expect((completed.response?.files as unknown[] | undefined)?.length).toBe(3);
    const questions = asked.find((call) => String(call.body.filename).startsWith('questions-'));
    expect(String(questions?.body.alt_text)).toMatch(
      /\. Unanswered: 33% of 3 questions counted here; unknown the period before\.$/,
    );
    const ratings = asked.find((call) => String(call.body.filename).startsWith('ratings-'));
    expect(String(ratings?.body.alt_text)).toMatch(/^Chart of answers rated a day, /);
    expect(String(ratings?.body.alt_text)).toMatch(/Total 1 helpful, 1 not helpful; 50% helpful\.$/);
    const uploads = since(h, mark, 'file_upload').map((call) =>
      Buffer.from(String(call.body.base64), 'base64'),
    );
    expect(uploads).toHaveLength(3);
    for (const png of uploads) expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  });

  it('uploads tickets opened a day by group as the third file, its alt text stating each group’s total and the busiest day in the operator’s days', async () => {
    const h = harness();
    h.slack.setUser(OPERATOR_SHANGHAI, { displayName: 'Wei', locale: 'en-US', timeZone: 'Asia/Shanghai' });
    await rateTwoAnswers(h);
    const { mark } = await stats(h, 'stats', OPERATOR_SHANGHAI);
    const completed = await h.slack.waitForCall(
      'files.completeUploadExternal',
      h.slack.madeSince(mark),
      WAIT_MS,
    );
    expect((completed.response?.files as unknown[] | undefined)?.length).toBe(3);
    const asked = since(h, mark, 'files.getUploadURLExternal');
    const tickets = asked[2];
    const [, from = '', to = ''] =
      /^tickets-(\d{4}-\d{2}-\d{2})-(\d{4}-\d{2}-\d{2})\.png$/.exec(String(tickets?.body.filename)) ?? [];
    const held = await ticketsCreatedIn(h.simulator.url, { from, to, offset: '+08:00' });
    const byGroup = new Map<string, number>();
    const byDay = new Map<string, number>();
    for (const ticket of held) {
      const group = ticket.dealGroupName || 'No group';
      byGroup.set(group, (byGroup.get(group) ?? 0) + 1);
      const day = new Date(ticket.createTime + 8 * 3_600_000).toISOString().slice(0, 10);
      byDay.set(day, (byDay.get(day) ?? 0) + 1);
    }
    expect(byGroup.size).toBeGreaterThanOrEqual(3);
    const altText = String(tickets?.body.alt_text);
    expect(altText).toMatch(/^Chart of tickets opened a day by handling group, /);
    expect(altText).toContain(`total ${held.length.toLocaleString('en')};`);
    for (const [group, count] of byGroup) expect(altText).toContain(`${group} ${count.toLocaleString('en')}`);
    expect(altText, altText).toMatch(
      new RegExp(`Busiest day: \\w+, \\w+ \\d+, ${Math.max(...byDay.values())}\\.$`),
    );
    const png = since(h, mark, 'file_upload').map((call) =>
      Buffer.from(String(call.body.base64), 'base64'),
    )[2];
    expect(png?.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  });

  it('still sends the other two charts when the ticket list fails, and says the tickets chart is missing and why', async () => {
    const h = harness();
    await rateTwoAnswers(h);
    h.simulator.faults.set({ kind: 'code', code: '1001', actions: ['getTicketInfoList'] });
    const { mark, figures } = await stats(h, 'stats', OPERATOR);
    const note = await noteAfter(h, mark, figures);
    expect(textOf(figures)).toContain('Service desk');
    const names = since(h, mark, 'files.getUploadURLExternal').map((call) => String(call.body.filename));
    expect(names).toEqual([expect.stringMatching(/^questions-/), expect.stringMatching(/^ratings-/)]);
    expect(since(h, mark, 'files.completeUploadExternal')).toHaveLength(1);
    expect(textOf(note)).toContain(
      'The chart of tickets opened a day is missing: the platform refused the ticket list query.',
    );
  });

  it('shows the figures, then uploads a PNG of questions a day to the DM, with alt text stating the figures', async () => {
    const h = harness();
    const platformMark = h.simulator.received.length;
    const { mark, figures } = await stats(h, 'stats 2026-11-01 2026-11-07', OPERATOR);
    expect(textOf(figures)).toContain('Service desk, 2026-11-01 – 2026-11-07');
    const completed = await h.slack.waitForCall(
      'files.completeUploadExternal',
      h.slack.madeSince(mark),
      WAIT_MS,
    );

    // Each day of the week and of the week before, asked on its own.
    expect(new Set(singleDayReads(h, platformMark))).toEqual(
      new Set(
        [...Array(14).keys()].map(
          (index) =>
            `2026-${index < 7 ? '11' : '10'}-${String(index < 7 ? index + 1 : 25 + index - 7).padStart(2, '0')}`,
        ),
      ),
    );
    const [asked] = since(h, mark, 'files.getUploadURLExternal');
    const [upload] = since(h, mark, 'file_upload');
    expect(asked?.body.filename).toBe('questions-2026-11-01-2026-11-07.png');
    const png = Buffer.from(String(upload?.body.base64), 'base64');
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 600]);
    expect(png.length).toBeGreaterThan(10_000);
    expect(png.length).toBeLessThan(200_000);
    expect(Number(asked?.body.length)).toBe(png.length);
    const altText = String(asked?.body.alt_text);
    expect(altText).toMatch(
      /^Chart of questions a day \(customer messages\), Nov 1 – Nov 7: Nov 1 [\d,]+, Nov 2 [\d,]+/,
    );
    expect(altText).toMatch(/Total [\d,]+; the 7 days before \(Oct 25 – Oct 31\): [\d,]+\.$/);

    // Shared in the operator's DM once complete, the figures posted before any of it.
    expect(completed.body.channel_id).toBe('D0OPERATOR');
    expect(String(completed.body.initial_comment)).toContain('Questions a day, Nov 1 – Nov 7');
    const order = [figures, asked, upload, completed].map((call) =>
      h.slack.calls().indexOf(call as RecordedCall),
    );
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Nothing but the figures went to the command's response_url: the file in the DM is its own news.
    expect(since(h, mark, 'response_url')).toEqual([figures]);
  });

  it('names the file /cs stats shared in the Home’s Statistics view of the same days, rather than share it again', async () => {
    const h = harness();
    // The Home's view reads the last 7 days in UTC: the command is typed in the same zone.
    h.slack.setUser(OPERATOR, { displayName: 'Olivia', locale: 'en-US', timeZone: 'UTC' });
    const { mark } = await stats(h, 'stats', OPERATOR);
    const shared = await h.slack.waitForCall(
      'files.completeUploadExternal',
      h.slack.madeSince(mark),
      WAIT_MS,
    );
    const fileId = (shared.response?.files as Array<{ id: string }> | undefined)?.[0]?.id;
    const homeMark = h.slack.calls().length;
    await sendInteraction(h.url, SIGNING_SECRET, homeStatisticsClick());
    const shown = await h.slack.waitForCall(
      'views.update',
      (call) => h.slack.madeSince(homeMark)(call) && JSON.stringify(viewOf(call)).includes('slack_file'),
      WAIT_MS,
    );
    expect(JSON.stringify(viewOf(shown))).toContain(`"slack_file":{"id":"${fileId}"}`);
    expect(since(h, homeMark, 'files.completeUploadExternal')).toEqual([]);
  });

  it('shows 👍/👎 a day and the tickets under the questions in the Home’s Statistics view once answers are rated, each by slack_file', async () => {
    const h = harness();
    const { answer, threadTs } = await askByMention(h, 'How do I reset my password?');
    await h.click(clickButton(answer, buttonOf(answer, 'rate_up'), { threadTs }));
    await waitFor(() => h.logs.some((line) => line.msg === 'answer rated'), { message: 'an answer rated' });
    const homeMark = h.slack.calls().length;
    await sendInteraction(h.url, SIGNING_SECRET, homeStatisticsClick());
    const shown = await h.slack.waitForCall(
      'views.update',
      (call) => h.slack.madeSince(homeMark)(call) && JSON.stringify(viewOf(call)).includes('slack_file'),
      WAIT_MS,
    );
    const images = (viewOf(shown).blocks as Array<Record<string, unknown>>).filter(
      (block) => block.type === 'image',
    );
    expect(images.map((image) => String(image.alt_text))).toEqual([
      expect.stringMatching(/^Chart of questions a day \(customer messages\), /),
      expect.stringMatching(/^Chart of answers rated a day, .+; [1-9]\d*% helpful\.$/),
      expect.stringMatching(/^Chart of tickets opened a day by handling group, .+: total [\d,]+; /),
    ]);
    // The three files are the operator's own, shared in their DM in one message.
    const fileIds = images.map((image) => (image.slack_file as { id?: string } | undefined)?.id);
    const shared = h.slack
      .calls('files.completeUploadExternal')
      .find((call) => (call.response?.files as Array<{ id: string }> | undefined)?.[0]?.id === fileIds[0]);
    expect(shared?.body.channel_id).toBe('D0OPERATOR');
    expect((shared?.response?.files as Array<{ id: string }> | undefined)?.map((file) => file.id)).toEqual(
      fileIds,
    );
  });

  it('follows the figures that Try again brings back with the chart, as on a first success', async () => {
    const h = harness();
    h.simulator.faults.set({ kind: 'http500' });
    let failed: RecordedCall;
    try {
      ({ figures: failed } = await stats(h, 'stats 2026-11-01 2026-11-07', OPERATOR));
    } finally {
      h.simulator.faults.clear();
    }
    expect(textOf(failed)).toContain('The platform answered with an error instead of the statistics');
    expect(since(h, 0, 'files.getUploadURLExternal')).toEqual([]);

    const clickMark = await clickIn(h, failed, 'stats_retry');
    const figures = await h.slack.waitForCall('response_url', h.slack.madeSince(clickMark), WAIT_MS);
    expect(figures.body.replace_original).toBe(true);
    expect(textOf(figures)).toContain('Service desk, 2026-11-01 – 2026-11-07');
    const completed = await h.slack.waitForCall(
      'files.completeUploadExternal',
      h.slack.madeSince(clickMark),
      WAIT_MS,
    );
    expect(completed.body.channel_id).toBe('D0OPERATOR');
    expect(String(completed.body.initial_comment)).toContain('Questions a day, Nov 1 – Nov 7');
    expect(h.slack.calls().indexOf(figures)).toBeLessThan(h.slack.calls().indexOf(completed));
    // The chart in the DM is its own news: nothing more to the response_url.
    expect(since(h, clickMark, 'response_url')).toEqual([figures]);
  });

  it('ends the Home’s Statistics view on the operator’s today, as /cs stats does', async () => {
    const h = harness();
    const utcToday = todayIn('UTC', new Date());
    // Fourteen hours ahead of UTC or twelve behind: one of them is on another date than UTC now.
    const zone = ['Pacific/Kiritimati', 'Etc/GMT+12'].find(
      (candidate) => todayIn(candidate, new Date()) !== utcToday,
    );
    if (!zone) throw new Error('no zone on another date than UTC');
    h.slack.setUser(OPERATOR_FAR, { displayName: 'Farah', locale: 'en-US', timeZone: zone });
    const mark = h.slack.calls().length;
    await sendInteraction(h.url, SIGNING_SECRET, homeStatisticsClick(OPERATOR_FAR));
    const figures = await h.slack.waitForCall(
      'views.update',
      (call) => h.slack.madeSince(mark)(call) && JSON.stringify(viewOf(call)).includes('Total messages'),
      WAIT_MS,
    );
    expect(JSON.stringify(viewOf(figures))).toContain(`– ${todayIn(zone, new Date())}*`);
    // Its chart follows; waited for, so that no update of this view lands in the next test.
    await h.slack.waitForCall(
      'views.update',
      (call) => h.slack.madeSince(mark)(call) && JSON.stringify(viewOf(call)).includes('slack_file'),
      WAIT_MS,
    );
  });

  it('writes the chart in the operator’s language', async () => {
    const h = harness();
    h.slack.setUser(OPERATOR_ZH, { displayName: '王芳', locale: 'zh-CN' });
    const { mark } = await stats(h, 'stats 2026-11-01 2026-11-30', OPERATOR_ZH);
    const completed = await h.slack.waitForCall(
      'files.completeUploadExternal',
      h.slack.madeSince(mark),
      WAIT_MS,
    );
    const [asked] = since(h, mark, 'files.getUploadURLExternal');
    expect(String(asked?.body.alt_text)).toMatch(
      /^每日提问（客户消息）图表，11月1日 – 11月30日：11月1日 [\d,]+，/,
    );
    expect(String(completed.body.initial_comment)).toContain('每日提问，11月1日 – 11月30日');
  });

  it('draws no chart for a range past 31 days, says so, and asks the platform for no single day', async () => {
    const h = harness();
    const platformMark = h.simulator.received.length;
    const { mark, figures } = await stats(h, 'stats 2026-09-01 2026-10-31', OPERATOR);
    const note = await noteAfter(h, mark, figures);
    expect(textOf(figures)).toContain('Service desk, 2026-09-01 – 2026-10-31');
    expect(textOf(note)).toContain('Charts are drawn for up to 31 days: shorten the range to see one.');
    expect(singleDayReads(h, platformMark)).toEqual([]);
    expect(since(h, mark, 'files.getUploadURLExternal')).toEqual([]);
  });

  it('keeps the figures when the platform fails for the days, says the chart could not be made, uploads nothing', async () => {
    const h = harness();
    // The platform breaks once the figures are posted: the command waits for this answer before its chart.
    h.slack.setHandler('response_url', (call) => {
      if (textOf(call).includes('Service desk'))
        h.simulator.faults.set({ kind: 'http500', actions: ['wb_session_message'] });
      return { ok: true };
    });
    const { mark, figures } = await stats(h, 'stats 2026-11-01 2026-11-07', OPERATOR);
    const note = await noteAfter(h, mark, figures);
    expect(textOf(figures)).toContain('Service desk, 2026-11-01 – 2026-11-07');
    expect(textOf(note)).toContain('The chart could not be made this time; the figures above stand.');
    expect(buttonOf(note, 'stats_chart_retry').value).toBe('2026-11-01/2026-11-07');
    expect(since(h, mark, 'files.getUploadURLExternal')).toEqual([]);
  });

  it('keeps the figures when the upload fails, says the chart could not be made, and Try again sends it', async () => {
    const h = harness();
    h.slack.failNext('files.getUploadURLExternal', { error: 'file_uploads_disabled' });
    const { mark, figures } = await stats(h, 'stats 2026-11-01 2026-11-07', OPERATOR);
    const note = await noteAfter(h, mark, figures);
    expect(textOf(figures)).toContain('Service desk, 2026-11-01 – 2026-11-07');
    expect(note.body.replace_original).toBe(false);
    expect(textOf(note)).toContain('The chart could not be made this time; the figures above stand.');
    expect(since(h, mark, 'files.completeUploadExternal')).toEqual([]);

    const clickMark = await clickIn(h, note, 'stats_chart_retry');
    const replaced = await h.slack.waitForCall('response_url', h.slack.madeSince(clickMark), WAIT_MS);
    expect(replaced.body.replace_original).toBe(true);
    expect(textOf(replaced)).toContain('The charts are in your DM with me.');
    const completed = since(h, clickMark, 'files.completeUploadExternal');
    expect(completed).toHaveLength(1);
    expect(h.slack.calls().indexOf(completed[0] as RecordedCall)).toBeLessThan(
      h.slack.calls().indexOf(replaced),
    );
  });
});
