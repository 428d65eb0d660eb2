// SLASH_COMMAND is configurable: whatever the desk says about its command names the configured one,
// whether it was typed (the command's own name) or reached from the Home tab (the setting).
import type { ViewResponseAction } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { homeTicketsListener } from '../../../../src/slack/desk/home-buttons.js';
import { ACTION_HOME_OPEN_TICKETS } from '../../../../src/slack/desk/ids.js';
import { deskSubcommands } from '../../../../src/slack/desk/slash-command.js';
import { ticketFilterSubmitListener } from '../../../../src/slack/desk/ticket-filter-submit.js';
import { TICKET_FILTER_FIELDS } from '../../../../src/slack/desk/ticket-filter-view.js';
import { slashCommandListener } from '../../../../src/slack/handling/command.js';
import { clickArgs, type Fakes, fakes, noOperators, type RoomDeps } from '../../../support/listener-fakes.js';
import { viewSubmissionPayload } from '../../../support/review-payloads.js';
import { blockActionsPayload, IDS } from '../../../support/slack-payloads.js';

const COMMAND = '/help-desk';

function asOperator(f: Fakes): RoomDeps {
  return {
    ...f.deps,
    access: {
      operators: { ...noOperators(), check: async () => ({ kind: 'operator' }) },
      contact: undefined,
      onRefusal: () => {},
    },
  };
}

describe('the configured slash command', () => {
  it('is named by the Home tab’s tickets modal when a filter cannot be read', async () => {
    const f = fakes();
    const deps = asOperator(f);
    await homeTicketsListener(
      deps,
      COMMAND,
    )(clickArgs(blockActionsPayload({ actions: [{ action_id: ACTION_HOME_OPEN_TICKETS }] }), f.client));
    const open = f.slack.find((call) => call.method === 'views.open');
    const view = open?.options.view;
    expect(view).toBeDefined();
    const acks: (ViewResponseAction | undefined)[] = [];
    await ticketFilterSubmitListener(deps)({
      ack: async (response?: ViewResponseAction) => {
        acks.push(response);
      },
      body: viewSubmissionPayload(
        { view: view as Record<string, unknown>, id: 'V1' },
        {
          [TICKET_FILTER_FIELDS.from.block]: { date: '2026-02-30' },
          [TICKET_FILTER_FIELDS.to.block]: { date: '2026-03-01' },
        },
      ),
      client: f.client,
      context: { teamId: IDS.team },
    });
    const [ack] = acks;
    expect(ack).toMatchObject({ response_action: 'errors' });
    const shown = JSON.stringify(ack);
    expect(shown).toContain(`${COMMAND} tickets`);
    expect(shown).not.toContain('/cs');
  });

  it('is named by a typed filter that cannot be read', async () => {
    const f = fakes();
    const answers: string[] = [];
    const deps = asOperator(f);
    await slashCommandListener(
      deps,
      new Map(deskSubcommands(deps)),
    )({
      ack: async () => {},
      body: {
        command: COMMAND,
        text: 'tickets owner:me',
        user_id: IDS.user,
        channel_id: IDS.channel,
        team_id: IDS.team,
        response_url: 'https://hooks.slack.test/commands/1',
      },
      respond: async (message) => {
        answers.push(typeof message === 'string' ? message : (message.text ?? ''));
        return new Response(null);
      },
      client: f.client,
      context: { teamId: IDS.team },
    });
    expect(answers).toHaveLength(1);
    expect(answers[0]).toContain(`${COMMAND} help`);
    expect(answers[0]).not.toContain('/cs');
  });
});
