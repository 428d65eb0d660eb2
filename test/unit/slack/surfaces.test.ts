// Routing is Bolt's: a real Bolt App with the listeners registered, fed requests as its receiver
// would feed them. Every click must be acknowledged exactly once (a second ack throws).

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, LogLevel } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import {
  encodeRatingValue,
  encodeSuggestionValue,
  encodeTryAgainValue,
} from '../../../src/slack/kit/button-values.js';
import {
  acceptedRequests,
  createRooms,
  preDispatchOf,
  ROOMS,
  registerRooms,
  subcommandTable,
} from '../../../src/slack/surfaces.js';
import { FIXTURE_ACTION, FIXTURE_VIEW, fixtureRoom } from '../../fixtures/fixture-room/surface.js';
import { fakes } from '../../support/listener-fakes.js';
import {
  appMention,
  blockActionsPayload,
  directMessage,
  eventCallback,
  IDS,
} from '../../support/slack-payloads.js';

function registered(rooms = ROOMS) {
  const f = fakes();
  const errors: unknown[] = [];
  const app = new App({
    token: 'xoxb-test',
    signingSecret: 'unused',
    botUserId: IDS.botUser,
    botId: IDS.bot,
    tokenVerificationEnabled: false,
    logLevel: LogLevel.ERROR,
    // Nothing listens there: a listener's Slack call fails at once, and is logged.
    clientOptions: { slackApiUrl: 'http://127.0.0.1:9/api/', retryConfig: { retries: 0 } },
  });
  app.error(async (error) => {
    errors.push(error);
  });
  registerRooms(app, f.deps, rooms);
  let acks = 0;
  const send = (body: Record<string, unknown>) =>
    app.processEvent({
      body,
      ack: async () => {
        acks += 1;
      },
    });
  return { f, errors, send, acks: () => acks };
}

const click = (actionId: string, value?: string) =>
  blockActionsPayload({ actions: [{ action_id: actionId, ...(value === undefined ? {} : { value }) }] });

describe('registerRooms', () => {
  it.each([
    ['an unknown action id', 'nope'],
    ['a link button', 'open_docs'],
  ])('acknowledges %s once, and nothing handles it', async (_name, actionId) => {
    const { f, errors, send, acks } = registered();
    await send({ ...click(actionId) });
    expect(acks()).toBe(1);
    expect(errors).toEqual([]);
    expect(f.asked).toEqual([]);
    expect(f.rated).toEqual([]);
    expect(f.logs).toEqual([]);
  });

  it('routes a suggestion click to the suggestion listener, acknowledged once', async () => {
    const { f, errors, send, acks } = registered();
    const value = encodeSuggestionValue({
      contextKey: 'ctx-1',
      docId: 'doc-1',
      question: 'How do I log in?',
    });
    await send({ ...click('suggestion:2', value) });
    expect(acks()).toBe(1);
    expect(errors).toEqual([]);
    expect(f.asked.map((ask) => ask.input.suggestion?.docId)).toEqual(['doc-1']);
  });

  it('routes Try again to its listener, acknowledged once', async () => {
    const { f, errors, send, acks } = registered();
    await send({ ...click('try_again', encodeTryAgainValue({ question: 'VPN?', docId: undefined })) });
    expect(acks()).toBe(1);
    expect(errors).toEqual([]);
    expect(f.asked.map((ask) => ask.input.text)).toEqual(['VPN?']);
  });

  it.each(['rate_up', 'rate_down'])(
    'routes %s to the rating listener, acknowledged once',
    async (actionId) => {
      const { f, errors, send, acks } = registered();
      await send({ ...click(actionId, encodeRatingValue({ contextKey: 'ctx-1', rating: 1 })) });
      expect(acks()).toBe(1);
      expect(errors).toEqual([]);
      expect(f.rated.map((rating) => rating.contextKey)).toEqual(['ctx-1']);
      expect(f.asked).toEqual([]);
    },
  );

  it.each([
    ['a mention', appMention()],
    ['a DM', directMessage()],
  ])('routes %s to the message listener', async (_name, event) => {
    const { f, errors, send } = registered();
    await send({ ...eventCallback(event) });
    expect(errors).toEqual([]);
    expect(f.asked).toHaveLength(1);
  });
});

describe('a room added from its own folder', () => {
  const withFixture = [...ROOMS, fixtureRoom];

  it('is routed from the kit and one line in the list of rooms', async () => {
    const { f, errors, send, acks } = registered(withFixture);
    await send({ ...click(FIXTURE_ACTION, 'page-7') });
    expect(acks()).toBe(1);
    expect(errors).toEqual([]);
    expect(f.events).toEqual(['fixture:clicked page-7']);
  });

  it('has its modal let through by the receiver with no change to the transport', () => {
    const settings = { slashCommand: '/cs' };
    const accepted = acceptedRequests(createRooms(fakes().deps, withFixture), settings);
    expect(accepted.viewCallbackIds).toContain(FIXTURE_VIEW);
    expect(acceptedRequests(createRooms(fakes().deps), settings).viewCallbackIds).not.toContain(FIXTURE_VIEW);
  });

  it('imports nothing of the app but the shared kit and handling', () => {
    const folder = join(import.meta.dirname, '../../fixtures/fixture-room');
    const specifiers = readdirSync(folder).flatMap((file) =>
      [...readFileSync(join(folder, file), 'utf8').matchAll(/from '([^']+)'/g)].map((match) => match[1]),
    );
    expect(specifiers.length).toBeGreaterThan(0);
    for (const specifier of specifiers) {
      expect(specifier).toMatch(/^(?:\.\.\/){3}src\/slack\/(?:kit|handling)\//);
    }
  });
});

describe('acceptedRequests', () => {
  it('lets through exactly the modals, shortcuts and command that the surfaces route', () => {
    const settings = { slashCommand: '/help-desk' };
    const accepted = acceptedRequests(createRooms({ ...fakes().deps, settings }), settings);
    expect([...accepted.viewCallbackIds].sort()).toEqual([
      'channel_settings',
      'dislike_reason',
      'edit_entry',
      'review_answer',
      'review_link',
      'ticket_filter',
    ]);
    expect(accepted.messageShortcutIds).toEqual(['edit_answer']);
    expect(accepted.slashCommand).toBe('/help-desk');
  });

  it('accepts no command when no surface handles one', () => {
    const settings = { slashCommand: '/cs' };
    const accepted = acceptedRequests(createRooms(fakes().deps).slice(0, 1), settings);
    expect(accepted).toEqual({ viewCallbackIds: [], messageShortcutIds: [], slashCommand: undefined });
  });
});

describe('preDispatchOf', () => {
  it('refuses an event type two surfaces read', () => {
    const read = () => undefined;
    expect(() =>
      preDispatchOf([{ readings: [['message', read]] }, { readings: [['message', read]] }], {
        slashCommand: '/cs',
      }),
    ).toThrow('two surfaces read the event type message');
  });
});

describe('subcommandTable', () => {
  const noop = async () => {};

  it('holds every surface’s words, lower-cased', () => {
    const table = subcommandTable([{ subcommands: [['Help', noop]] }, { subcommands: [['channel', noop]] }]);
    expect([...table.keys()]).toEqual(['help', 'channel']);
  });

  it('refuses a word two surfaces claim, whatever its case', () => {
    expect(() =>
      subcommandTable([{ subcommands: [['channel', noop]] }, { subcommands: [['CHANNEL', noop]] }]),
    ).toThrow('two surfaces handle the subcommand channel');
  });
});
