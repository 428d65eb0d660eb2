// `/cs tickets` over HTTP, signed as Slack signs it, against the platform simulator's months of tickets:
// long ranges cut into month windows and paged across, every status and source by name, the filter
// modal, the CSV checked row by row against the simulator, failures, and the Home tab's buttons.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { PlatformClient, StaticTokenProvider, type Ticket } from '../../../src/platform/index.js';
import type { TicketFilter } from '../../../src/service-desk/tickets.js';
import { DEFAULT_SIMULATOR_TOKEN } from '../../../src/simulator/index.js';
import { SOURCE_WORDS, STATUS_WORDS } from '../../../src/slack/desk/command-grammar.js';
import { addDays, todayIn } from '../../../src/util/time-zone.js';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import {
  blocksOf,
  buttonOf,
  type GatewayHarness,
  isRecord,
  SIGNING_SECRET,
  textOf,
  useGatewayHarness,
} from '../../support/gateway-harness.js';
import { openedViewId, viewOf, viewSubmissionPayload } from '../../support/review-payloads.js';
import { blockActionsPayload, IDS } from '../../support/slack-payloads.js';
import { sendInteraction, sendSlashCommand } from '../../support/slack-signing.js';
import { waitFor } from '../../support/wait.js';

const OPERATOR = 'U0OPERATOR';
const ZONE = 'America/New_York';

function platformOf(h: GatewayHarness): PlatformClient {
  return new PlatformClient({
    openUrl: h.simulator.url,
    baseUrl: h.simulator.url,
    tokenProvider: new StaticTokenProvider(DEFAULT_SIMULATOR_TOKEN),
    timeouts: { connectMs: 1000, headersMs: 2000, bodyMs: 2000 },
  });
}

/**
 * Midnight starting `date` (YYYY-MM-DD) in `timeZone`, in epoch seconds, found with Intl alone: the
 * oracle below shares no date arithmetic with src/service-desk.
 */
function midnightSeconds(date: string, timeZone: string): number {
  const wanted = Date.parse(`${date}T00:00:00Z`);
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  let guess = wanted;
  // Twice: the zone's offset at the first guess may differ from the offset at midnight (DST).
  for (let round = 0; round < 2; round += 1) {
    const part = (type: string) =>
      format.formatToParts(new Date(guess)).find((candidate) => candidate.type === type)?.value;
    const shown = Date.parse(
      `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}:${part('second')}Z`,
    );
    guess -= shown - wanted;
  }
  return Math.floor(guess / 1000);
}

/** The day after `date` (YYYY-MM-DD), by the calendar. */
function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * Every ticket the simulator holds for the filter, newest first: what the gateway must show. Asked
 * one calendar day and one page at a time, so it shares neither the gateway's creation range nor its
 * month windows and paging (src/platform/pagination.ts): a mistake there would not be copied here.
 */
async function expectedTickets(h: GatewayHarness, filter: TicketFilter): Promise<Ticket[]> {
  const platform = platformOf(h);
  const statuses = filter.statuses.length > 0 ? filter.statuses : [undefined];
  const sources = filter.sources.length > 0 ? filter.sources : [undefined];
  const tickets: Ticket[] = [];
  try {
    for (let day = filter.from; day <= filter.to; day = nextDay(day)) {
      const window = {
        createStartTime: midnightSeconds(day, filter.timeZone),
        createEndTime: midnightSeconds(nextDay(day), filter.timeZone) - 1,
      };
      for (const ticketStatus of statuses) {
        for (const ticketFrom of sources) {
          for (let pageNo = 1; ; pageNo += 1) {
            const page = await platform.listTickets({
              ...window,
              ...(ticketStatus !== undefined ? { ticketStatus } : {}),
              ...(ticketFrom !== undefined ? { ticketFrom } : {}),
              pageNo,
              pageSize: 50,
            });
            tickets.push(...page.tickets);
            if (pageNo >= page.pageCount) break;
          }
        }
      }
    }
  } finally {
    await platform.close();
  }
  return tickets.sort((a, b) => (b.createTime ?? 0) - (a.createTime ?? 0));
}

function ticketCalls(h: GatewayHarness): Array<Record<string, unknown>> {
  return h.simulator.received
    .filter((request) => request.path.endsWith('/getTicketInfoList') && isRecord(request.body))
    .map((request) => request.body as Record<string, unknown>);
}

async function command(
  h: GatewayHarness,
  text: string,
  user = OPERATOR,
  key?: string,
): Promise<RecordedCall> {
  const mark = h.slack.calls().length;
  const response = await sendSlashCommand(h.url, SIGNING_SECRET, {
    command: '/cs',
    text,
    user_id: user,
    team_id: IDS.team,
    channel_id: IDS.channel,
    response_url: h.slack.responseUrl(key),
  });
  expect(response.status).toBe(200);
  return h.slack.waitForCall('response_url', (call) => h.slack.calls().indexOf(call) >= mark, 10_000);
}

/** Clicks a button of an ephemeral result; resolves with the next response_url call after it. */
async function clickResult(
  h: GatewayHarness,
  result: RecordedCall,
  actionId: string,
  user = OPERATOR,
  isLast: (call: RecordedCall) => boolean = () => true,
): Promise<RecordedCall> {
  const button = buttonOf(result, actionId);
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
  return h.slack.waitForCall(
    'response_url',
    (call) => h.slack.calls().indexOf(call) >= mark && isLast(call),
    15_000,
  );
}

type Row = string[];

/** The rows of the result's table (header first), as the cells' text. */
function tableOf(call: RecordedCall): Row[] {
  const table = blocksOf(call).find((block) => block.type === 'table');
  if (!table || !Array.isArray(table.rows)) return [];
  return table.rows.map((row) =>
    Array.isArray(row) ? row.map((cell) => (isRecord(cell) ? String(cell.text ?? '') : '')) : [],
  );
}

function hasButton(call: RecordedCall, actionId: string): boolean {
  return blocksOf(call).some(
    (block) =>
      block.type === 'actions' &&
      Array.isArray(block.elements) &&
      block.elements.some((element) => isRecord(element) && element.action_id === actionId),
  );
}

describe('/cs tickets', () => {
  const harness = useGatewayHarness({ env: { OPERATOR_USER_IDS: OPERATOR } });
  const setUp = (h: GatewayHarness) => {
    h.slack.setUser(OPERATOR, { displayName: 'Olivia Operator', locale: 'en-US', timeZone: ZONE });
    return todayIn(ZONE, new Date());
  };

  it('refuses someone who is not an operator, and asks the platform nothing', async () => {
    const h = harness();
    setUp(h);
    const before = ticketCalls(h).length;
    const answer = await command(h, 'tickets', IDS.user);
    expect(textOf(answer)).toContain('Only operators can see the service desk’s tickets');
    expect(answer.body.response_type).toBe('ephemeral');
    expect(ticketCalls(h)).toHaveLength(before);
    expect(h.slack.calls('views.open')).toHaveLength(0);
  });

  it('splits 75 days into three windows of at most a month and pages across them, newest first', async () => {
    const h = harness();
    const today = setUp(h);
    const from = addDays(today, -74);
    const filter: TicketFilter = { from, to: today, timeZone: ZONE, statuses: [], sources: [] };
    const expected = await expectedTickets(h, filter);
    expect(expected.length).toBeGreaterThan(30);
    const before = ticketCalls(h).length;

    let page = await command(h, `tickets ${from} ${today}`);
    const windows = new Map<string, [number, number]>();
    for (const body of ticketCalls(h).slice(before)) {
      const start = Number(body.createStartTime);
      const end = Number(body.createEndTime);
      expect(end - start).toBeLessThanOrEqual(30 * 24 * 3600);
      windows.set(`${start}-${end}`, [start, end]);
    }
    const ordered = [...windows.values()].sort((a, b) => a[0] - b[0]);
    expect(ordered).toHaveLength(3);
    // From midnight of the first day to the last second of today, in the zone (computed apart from src).
    expect(ordered[0]?.[0]).toBe(midnightSeconds(from, ZONE));
    expect(ordered[2]?.[1]).toBe(midnightSeconds(nextDay(today), ZONE) - 1);
    // Contiguous: each window starts the second after the one before ends.
    expect(ordered[1]?.[0]).toBe((ordered[0]?.[1] ?? 0) + 1);
    expect(ordered[2]?.[0]).toBe((ordered[1]?.[1] ?? 0) + 1);

    const pages = Math.ceil(expected.length / 10);
    expect(textOf(page)).toContain(`${expected.length} tickets · page 1 of ${pages}`);
    expect(textOf(page)).toContain(`times in ${ZONE}`);
    const [header, ...firstRows] = tableOf(page);
    expect(header).toEqual([
      'No.',
      'Title',
      'Status',
      'Level',
      'Source',
      'Handler · group',
      'Category',
      'Created',
      'Updated',
    ]);
    expect(firstRows).toHaveLength(10);
    expect(hasButton(page, 'tickets_page:prev')).toBe(false);

    const seen: string[] = firstRows.map((row) => row[0] ?? '');
    for (let shown = 2; shown <= pages; shown += 1) {
      page = await clickResult(h, page, 'tickets_page:next');
      expect(page.body.replace_original).toBe(true);
      expect(textOf(page)).toContain(`page ${shown} of ${pages}`);
      seen.push(
        ...tableOf(page)
          .slice(1)
          .map((row) => row[0] ?? ''),
      );
    }
    expect(hasButton(page, 'tickets_page:next')).toBe(false);
    expect(seen).toEqual(expected.map((ticket) => String(ticket.ticketCode)));

    const back = await clickResult(h, page, 'tickets_page:prev');
    expect(textOf(back)).toContain(`page ${pages - 1} of ${pages}`);
  });

  it('shows each ticket in words and in the operator’s time zone', async () => {
    const h = harness();
    const today = setUp(h);
    const filter: TicketFilter = {
      from: addDays(today, -6),
      to: today,
      timeZone: ZONE,
      statuses: [],
      sources: [],
    };
    const [newest] = await expectedTickets(h, filter);
    // One date runs to today.
    const page = await command(h, `tickets ${filter.from}`);
    const row = tableOf(page)[1] ?? [];
    expect(row[0]).toBe(String(newest?.ticketCode));
    expect(row[1]).toBe(newest?.ticketTitle);
    const created = new Intl.DateTimeFormat('en-CA', {
      timeZone: ZONE,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .format(new Date(newest?.createTime ?? 0))
      .replace(',', '');
    expect(row[7]).toBe(created);
    expect([
      'not yet accepted',
      'being handled',
      'waiting for reply',
      'solved',
      'closed',
      'deleted',
    ]).toContain(row[2]);
    expect(['low', 'medium', 'high', 'urgent']).toContain(row[3]);
  });

  it('filters by every status and every source by name, one platform call per value', async () => {
    const h = harness();
    const today = setUp(h);
    const from = addDays(today, -29);
    const labels: Record<string, string> = {
      unaccepted: 'not yet accepted',
      handling: 'being handled',
      waiting: 'waiting for reply',
      solved: 'solved',
      closed: 'closed',
      deleted: 'deleted',
    };
    const statusesWithTickets: string[] = [];
    for (const [status, word] of Object.entries(STATUS_WORDS)) {
      const expected = await expectedTickets(h, {
        from,
        to: today,
        timeZone: ZONE,
        statuses: [Number(status) as 0],
        sources: [],
      });
      const page = await command(h, `tickets ${from} status:${word}`);
      if (expected.length === 0) {
        expect(textOf(page)).toContain('No tickets were created');
        continue;
      }
      statusesWithTickets.push(word);
      expect(textOf(page)).toContain(`${expected.length} tickets`);
      const rows = tableOf(page).slice(1);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((row) => row[2] === labels[word])).toBe(true);
    }
    // The label check above ran: the simulator's seed has tickets in more than one status.
    expect(statusesWithTickets.length).toBeGreaterThan(1);
    for (const [source, word] of Object.entries(SOURCE_WORDS)) {
      const expected = await expectedTickets(h, {
        from,
        to: today,
        timeZone: ZONE,
        statuses: [],
        sources: [Number(source) as 0],
      });
      const page = await command(h, `tickets ${from} source:${word}`);
      expect(textOf(page)).toContain(
        expected.length === 0 ? 'No tickets were created' : `${expected.length} tickets`,
      );
    }

    const before = ticketCalls(h).length;
    const open = await command(h, `tickets ${from} status:open source:email,call-center`);
    const calls = ticketCalls(h).slice(before);
    const pairs = new Set(calls.map((body) => `${body.ticketStatus}/${body.ticketFrom}`));
    expect([...pairs].sort()).toEqual(['0/12', '0/8', '1/12', '1/8', '2/12', '2/8']);
    expect(textOf(open)).toContain('Status: not yet accepted, being handled, waiting for reply');
    expect(textOf(open)).toContain('Source: e-mail message, call center');
  });

  it('explains a filter it cannot read, and asks the platform nothing', async () => {
    const h = harness();
    const today = setUp(h);
    const before = ticketCalls(h).length;
    expect(textOf(await command(h, 'tickets 2026-13-45'))).toContain('`2026-13-45` is not a date');
    expect(textOf(await command(h, 'tickets status:bogus'))).toContain('`bogus` is not a ticket status');
    expect(textOf(await command(h, 'tickets source:fax'))).toContain('`fax` is not a ticket source');
    expect(textOf(await command(h, `tickets ${today} ${addDays(today, -3)}`))).toContain(
      'The end date is before the start date',
    );
    expect(textOf(await command(h, `tickets ${addDays(today, 2)}`))).toContain('starts after today');
    expect(textOf(await command(h, `tickets category:${'x'.repeat(40)}`))).toContain('is not a category id');
    expect(textOf(await command(h, 'tickets <script> %%%'))).toContain('I did not understand');
    expect(ticketCalls(h)).toHaveLength(before);
  });

  it('says "no tickets" with the filters shown when nothing matches', async () => {
    const h = harness();
    setUp(h);
    const answer = await command(h, 'tickets category:tt-nowhere status:solved');
    expect(textOf(answer)).toContain('No tickets were created');
    expect(textOf(answer)).toContain('Status: solved');
    expect(textOf(answer)).toContain('Category: `tt-nowhere`');
  });

  it('tells a platform failure with Try again, which shows the tickets once the platform is back', async () => {
    const h = harness();
    const today = setUp(h);
    h.simulator.faults.set({ kind: 'http500', actions: ['getTicketInfoList'] });
    let failed: RecordedCall;
    try {
      failed = await command(h, `tickets ${addDays(today, -6)}`);
    } finally {
      h.simulator.faults.clear();
    }
    expect(textOf(failed)).toContain('The platform answered with an error instead of the tickets');
    expect(tableOf(failed)).toEqual([]);
    const retried = await clickResult(h, failed, 'tickets_retry');
    expect(retried.body.replace_original).toBe(true);
    expect(tableOf(retried).length).toBeGreaterThan(1);
  });

  it('refuses a copied Next click from someone who is not an operator', async () => {
    const h = harness();
    const today = setUp(h);
    const page = await command(h, `tickets ${addDays(today, -6)}`);
    const before = ticketCalls(h).length;
    const refused = await clickResult(h, page, 'tickets_page:next', IDS.user);
    expect(textOf(refused)).toContain('Only operators can see the service desk’s tickets');
    expect(refused.body.replace_original).toBe(false);
    expect(ticketCalls(h)).toHaveLength(before);
  });

  it('ignores signed clicks and submissions it cannot read, without a crash or a platform call', async () => {
    const h = harness();
    setUp(h);
    const before = ticketCalls(h).length;
    const values = [
      'not json',
      '{"v":1}',
      '{"v":1,"f":"2026-02-30","t":"2026-03-01","z":"UTC","s":[],"o":[],"p":1}',
      '{"v":1,"f":"2026-11-01","t":"2026-11-02","z":"Mars/Olympus","s":[],"o":[],"p":1}',
      '{"v":1,"f":"2026-11-01","t":"2026-11-02","z":"UTC","s":[5],"o":[],"p":1}',
      `{"v":1,"f":"2026-11-01","t":"2026-11-02","z":"UTC","s":[],"o":[],"p":1,"c":"${'x'.repeat(3000)}"}`,
    ];
    for (const value of values) {
      const payload = blockActionsPayload(
        { user: OPERATOR, actions: [{ action_id: 'tickets_csv', value, text: 'Download CSV' }] },
        { response_url: h.slack.responseUrl('garbage') },
      );
      expect((await sendInteraction(h.url, SIGNING_SECRET, payload)).status).toBe(200);
    }
    const submission = viewSubmissionPayload(
      { view: { callback_id: 'ticket_filter', private_metadata: 'not json', blocks: [] }, id: 'V1' },
      {},
      OPERATOR,
    );
    const submitted = await sendInteraction(h.url, SIGNING_SECRET, submission);
    expect(submitted.status).toBe(200);
    await waitFor(
      () =>
        h.logs.filter((line) => /^ignored a tickets (click|filter submission)/.test(String(line.msg)))
          .length ===
        values.length + 1,
      { message: () => `ignored: ${h.logs.filter((line) => String(line.msg).startsWith('ignored')).length}` },
    );
    expect(ticketCalls(h)).toHaveLength(before);
    expect(h.slack.calls('response_url')).toHaveLength(0);
    expect(await fetch(`${h.url}/healthz`).then((response) => response.status)).toBe(200);
  });

  it('sends every matching ticket as a CSV to the operator’s DM, row by row as the simulator has them', async () => {
    const h = harness();
    const today = setUp(h);
    const from = addDays(today, -44);
    const expected = await expectedTickets(h, { from, to: today, timeZone: ZONE, statuses: [], sources: [] });
    const page = await command(h, `tickets ${from} ${today}`);

    const done = await clickResult(h, page, 'tickets_csv', OPERATOR, (call) => textOf(call).includes('📎'));
    const progress = h.slack.calls('response_url').find((call) => textOf(call).includes('Gathering'));
    expect(progress && h.slack.calls().indexOf(progress)).toBeLessThan(h.slack.calls().indexOf(done));
    expect(textOf(done)).toContain(`Sent tickets-${from}-to-${today}.csv (${expected.length} tickets)`);
    // The page stays as it was under the note.
    expect(tableOf(done)).toEqual(tableOf(page));

    const opened = h.slack.calls('conversations.open').at(-1);
    expect(opened?.body.users).toBe(OPERATOR);
    const completed = h.slack.calls('files.completeUploadExternal').at(-1);
    expect(completed?.body.channel_id).toBe('D0OPERATOR');
    const upload = h.slack.calls('file_upload').at(-1);
    const content = String(upload?.body.content ?? '');
    expect(content.startsWith('\uFEFF')).toBe(true);
    const rows: string[][] = parse(content.slice(1));
    const [header, ...data] = rows;
    expect(header?.slice(0, 6)).toEqual(['ticketCode', 'ticketId', 'title', 'status', 'level', 'source']);
    expect(expected.length).toBeGreaterThan(0);
    expect(data).toHaveLength(expected.length);
    data.forEach((row, index) => {
      const ticket = expected[index];
      expect(row[0]).toBe(String(ticket?.ticketCode));
      expect(row[1]).toBe(ticket?.ticketId);
      expect(row[2]).toBe(ticket?.ticketTitle);
      expect(row[9]).toBe(ticket?.dealGroupName);
      expect(row[10]).toBe(ticket?.ticketTypeName);
      expect(row[13]).toBe(ticket?.ticketContent);
    });
    const audit = h.logs.find((line) => line.audit === 'tickets_export');
    expect(audit).toMatchObject({ operator: OPERATOR, rows: expected.length, result: 'sent' });
  });

  it('opens the filter modal, refuses a bad range inline, and answers a good one where the command was typed', async () => {
    const h = harness();
    const today = setUp(h);
    const response = await sendSlashCommand(h.url, SIGNING_SECRET, {
      command: '/cs',
      text: 'tickets',
      user_id: OPERATOR,
      team_id: IDS.team,
      channel_id: IDS.channel,
      response_url: h.slack.responseUrl('modal'),
      trigger_id: '123.456.abc',
    });
    expect(response.status).toBe(200);
    const open = await h.slack.waitForCall('views.open', () => true, 5_000);
    const view = viewOf(open);
    expect(view.callback_id).toBe('ticket_filter');
    const opened = { view, id: openedViewId(open) };
    const blocks = Array.isArray(view.blocks) ? view.blocks.filter(isRecord) : [];
    const from = blocks.find((block) => block.block_id === 'tickets_from');
    expect(isRecord(from?.element) && from.element.initial_date).toBe(addDays(today, -6));

    const bad = await sendInteraction(
      h.url,
      SIGNING_SECRET,
      viewSubmissionPayload(
        opened,
        { tickets_from: { date: today }, tickets_to: { date: addDays(today, -5) } },
        OPERATOR,
      ),
    );
    expect(bad.status).toBe(200);
    expect(JSON.parse(bad.text)).toEqual({
      response_action: 'errors',
      errors: { tickets_to: 'The end date is before the start date.' },
    });

    const mark = h.slack.calls().length;
    const good = await sendInteraction(
      h.url,
      SIGNING_SECRET,
      viewSubmissionPayload(
        opened,
        {
          tickets_from: { date: addDays(today, -20) },
          tickets_to: { date: today },
          tickets_statuses: { options: ['1', '3'] },
          tickets_sources: { options: ['12'] },
        },
        OPERATOR,
      ),
    );
    expect(good.status).toBe(200);
    expect(good.text).toBe('');
    const result = await h.slack.waitForCall(
      'response_url',
      (call) => h.slack.calls().indexOf(call) >= mark,
      10_000,
    );
    expect(result.body.response_type).toBe('ephemeral');
    expect(textOf(result)).toContain('Status: being handled, solved');
    expect(textOf(result)).toContain('Source: e-mail message');
  });
});

describe('the Home tab’s buttons to the tickets and statistics views', () => {
  const harness = useGatewayHarness({ env: { OPERATOR_USER_IDS: OPERATOR } });

  /** A click in a view (the Home tab, a modal), as Slack sends it: no channel, no message, no response_url. */
  function viewClick(
    action: { action_id: string; block_id: string; value?: string | undefined },
    view: { id: string; type: 'home' | 'modal' },
    user = OPERATOR,
  ) {
    const {
      channel: _channel,
      message: _message,
      response_url: _responseUrl,
      ...click
    } = blockActionsPayload({ user, actions: [action] });
    return { ...click, container: { type: 'view', view_id: view.id }, view };
  }

  function homeClick(actionId: string, user = OPERATOR) {
    return viewClick(
      { action_id: actionId, block_id: 'home', value: actionId },
      { id: 'VHOME', type: 'home' },
      user,
    );
  }

  it('opens the tickets modal, whose result an operator gets in their DM with the app', async () => {
    const h = harness();
    h.slack.setUser(OPERATOR, { displayName: 'Olivia Operator', locale: 'en-US', timeZone: ZONE });
    await sendInteraction(h.url, SIGNING_SECRET, homeClick('home_open_tickets'));
    const open = await h.slack.waitForCall('views.open', () => true, 5_000);
    const opened = { view: viewOf(open), id: openedViewId(open) };
    const today = todayIn(ZONE, new Date());
    await sendInteraction(
      h.url,
      SIGNING_SECRET,
      viewSubmissionPayload(
        opened,
        { tickets_from: { date: addDays(today, -3) }, tickets_to: { date: today } },
        OPERATOR,
      ),
    );
    const posted = await h.slack.waitForCall('chat.postMessage', () => true, 10_000);
    expect(posted.body.channel).toBe('D0OPERATOR');
    expect(tableOf(posted).length).toBeGreaterThan(1);
    // What the operator reads above the table in the DM says why it is there (not only the notification).
    expect(JSON.stringify(blocksOf(posted)[0])).toContain('Your tickets, as you asked from the Home tab.');
  });

  it('opens the statistics view at once and fills it with the last 7 days', async () => {
    const h = harness();
    await sendInteraction(h.url, SIGNING_SECRET, homeClick('home_open_statistics'));
    const open = await h.slack.waitForCall('views.open', () => true, 5_000);
    expect(JSON.stringify(viewOf(open))).toContain('Reading the last 7 days');
    const update = await h.slack.waitForCall('views.update', () => true, 10_000);
    expect(update.body.view_id).toBe(openedViewId(open));
    expect(JSON.stringify(viewOf(update))).toContain('Total messages');
    // A view to read, not a form: it closes, it does not cancel.
    expect(viewOf(update).close).toMatchObject({ text: 'Close' });
    // Its chart follows; waited for, so that no update of this view lands in the next test.
    await h.slack.waitForCall(
      'views.update',
      (call) => JSON.stringify(viewOf(call)).includes('slack_file'),
      20_000,
    );
  });

  it('shows the last 7 days’ chart under the figures, from a file shared in the operator’s DM, with alt text stating the figures', async () => {
    const h = harness();
    await sendInteraction(h.url, SIGNING_SECRET, homeClick('home_open_statistics'));
    const open = await h.slack.waitForCall('views.open', () => true, 5_000);
    const withChart = await h.slack.waitForCall(
      'views.update',
      (call) => JSON.stringify(viewOf(call)).includes('slack_file') && call.response?.ok === true,
      20_000,
    );
    const updates = h.slack.calls('views.update');
    // The figures at once with a line saying the chart is on its way, then the chart in its place.
    expect(JSON.stringify(viewOf(updates[0] as RecordedCall))).toContain('Drawing the charts…');
    expect(updates.every((call) => call.body.view_id === openedViewId(open))).toBe(true);
    expect(updates.at(-1)).toBe(withChart);

    const blocks = viewOf(withChart).blocks as Array<Record<string, unknown>>;
    const image = blocks.find((block) => block.type === 'image');
    const fileId = (image?.slack_file as { id?: string } | undefined)?.id;
    // The file named is one the app shared in the operator's DM (this test's, or an earlier open's).
    const shared = h.slack
      .calls('files.completeUploadExternal')
      .find((call) => (call.response?.files as Array<{ id: string }> | undefined)?.[0]?.id === fileId);
    expect(shared?.body.channel_id).toBe('D0OPERATOR');
    expect(JSON.stringify(blocks)).toContain('Total messages');
    expect(String(image?.alt_text)).toMatch(
      /^Chart of questions a day \(customer messages\), .+: .+ [\d,]+,/,
    );
    expect(String(image?.alt_text)).toMatch(/Total [\d,]+; the 7 days before \(.+\): [\d,]+\.$/);

    // Opened again: the same chart names the same file, and nothing is uploaded twice.
    const mark = h.slack.calls('views.update').length;
    const uploads = h.slack.calls('files.completeUploadExternal').length;
    await sendInteraction(h.url, SIGNING_SECRET, homeClick('home_open_statistics'));
    const again = await h.slack.waitForCall(
      'views.update',
      (call) =>
        h.slack.calls('views.update').indexOf(call) >= mark &&
        JSON.stringify(viewOf(call)).includes('slack_file'),
      20_000,
    );
    expect(
      (viewOf(again).blocks as Array<Record<string, unknown>>).find((block) => block.type === 'image'),
    ).toMatchObject({ slack_file: { id: fileId } });
    expect(h.slack.calls('files.completeUploadExternal')).toHaveLength(uploads);
  });

  it('says the charts are in the DM when Slack will not show their files in the view', async () => {
    const h = harness();
    h.slack.setHandler('views.update', (call) =>
      JSON.stringify(viewOf(call)).includes('slack_file')
        ? {
            ok: false,
            error: 'invalid_blocks',
            errors: ['invalid slack file [json-pointer:/blocks/3/slack_file]'],
          }
        : { ok: true, view: { id: call.body.view_id } },
    );
    await sendInteraction(h.url, SIGNING_SECRET, homeClick('home_open_statistics'));
    const told = await h.slack.waitForCall(
      'views.update',
      (call) => JSON.stringify(viewOf(call)).includes('are in your DM with me'),
      20_000,
    );
    expect(JSON.stringify(viewOf(told))).toContain('Total messages');
    // Refused, a file shared before is shared again once, then the view points to the DM.
    expect(h.slack.calls('files.completeUploadExternal')).toHaveLength(1);
  });

  /** A click on the statistics view's Try again. */
  function viewRetryClick(viewId: string, value: string | undefined, user = OPERATOR) {
    return viewClick(
      { action_id: 'stats_retry', block_id: 'retry', value },
      { id: viewId, type: 'modal' },
      user,
    );
  }

  it('tells a platform failure in the statistics view with Try again, which fills the view and its charts once the platform is back', async () => {
    const h = harness();
    let failed: RecordedCall;
    let viewId: string;
    try {
      h.simulator.faults.set({ kind: 'http500' });
      await sendInteraction(h.url, SIGNING_SECRET, homeClick('home_open_statistics'));
      const open = await h.slack.waitForCall('views.open', () => true, 5_000);
      viewId = openedViewId(open);
      failed = await h.slack.waitForCall('views.update', () => true, 10_000);
      expect(JSON.stringify(viewOf(failed))).toContain(
        'The platform answered with an error instead of the statistics',
      );
    } finally {
      h.simulator.faults.clear();
    }
    // The view's blocks, read as a message's.
    const retry = buttonOf({ ...failed, body: viewOf(failed) }, 'stats_retry');
    expect(retry.text).toBe('Try again');
    const updatesBefore = h.slack.calls('views.update').length;

    // Unsigned, and signed by someone who is not an operator: the view stays as it is.
    const unsigned = await sendInteraction(
      h.url,
      'not-the-signing-secret',
      viewRetryClick(viewId, retry.value),
    );
    expect(unsigned.status).toBe(401);
    // Someone of their own: the harness's logs are shared by this group's tests.
    const stranger = 'U0STRANGER';
    await sendInteraction(h.url, SIGNING_SECRET, viewRetryClick(viewId, retry.value, stranger));
    await waitFor(
      () =>
        h.logs.some(
          (line) => line.msg === 'operator action refused: not an operator' && line.userId === stranger,
        ),
      { message: 'the forged retry refused' },
    );
    expect(h.slack.calls('views.update')).toHaveLength(updatesBefore);

    await sendInteraction(h.url, SIGNING_SECRET, viewRetryClick(viewId, retry.value));
    const filled = await h.slack.waitForCall(
      'views.update',
      (call) => JSON.stringify(viewOf(call)).includes('Total messages'),
      10_000,
    );
    expect(filled.body.view_id).toBe(viewId);
    // The charts follow the figures that came back, as when the view first opened.
    const charted = await h.slack.waitForCall(
      'views.update',
      (call) => JSON.stringify(viewOf(call)).includes('slack_file'),
      20_000,
    );
    expect(JSON.stringify(viewOf(charted))).toContain('Total messages');
    // Reading again is said at once, in the same view, before the figures replace it.
    const updates = h.slack.calls('views.update').slice(updatesBefore);
    expect(JSON.stringify(viewOf(updates[0] as RecordedCall))).toContain('Reading the last 7 days');
    expect(updates.every((call) => call.body.view_id === viewId)).toBe(true);
  });

  it('opens nothing for someone who is not an operator', async () => {
    const h = harness();
    await sendInteraction(h.url, SIGNING_SECRET, homeClick('home_open_tickets', IDS.user));
    await sendInteraction(h.url, SIGNING_SECRET, homeClick('home_open_statistics', IDS.user));
    await waitFor(
      () =>
        h.logs.filter(
          (line) => line.msg === 'operator action refused: not an operator' && line.userId === IDS.user,
        ).length === 2,
      { message: 'both clicks refused' },
    );
    expect(h.slack.calls('views.open')).toHaveLength(0);
  });
});
