// The settings modal: built from a channel's settings, and read back as Slack submits it.
import { describe, expect, it } from 'vitest';
import {
  CHANNEL_FIELDS,
  channelFormProblemText,
  readChannelForm,
  readChannelModalMetadata,
  renderChannelSettingsModal,
} from '../../../../src/slack/channels/settings-modal.js';
import { viewSubmissionPayload } from '../../../support/review-payloads.js';

const view = renderChannelSettingsModal(
  'en',
  { channelId: 'C0HELP', responseUrl: 'https://hooks.slack.com/actions/T1/1/x' },
  { robot: 2, reply: 'ephemeral', askers: { users: ['U0ALICE'], groups: ['S0HR'] } },
);

function submitted(values: Parameters<typeof viewSubmissionPayload>[1]) {
  const payload = viewSubmissionPayload({ view: { ...view }, id: 'V1' }, values);
  const submittedView = payload.view as {
    id: string;
    callback_id: string;
    private_metadata: string;
    state: unknown;
  };
  return submittedView;
}

describe('the settings modal', () => {
  it('opens with what the channel has: the robot, the chosen options, the people and the groups', () => {
    const json = JSON.stringify(view);
    expect(view.callback_id).toBe('channel_settings');
    expect(json).toContain('"initial_value":"2"');
    expect(json).toContain('"initial_users":["U0ALICE"]');
    expect(json).toContain('"initial_value":"S0HR"');
    expect(json).toContain(
      '"initial_option":{"text":{"type":"plain_text","text":"shown only to whoever asked"',
    );
    expect(json).toContain('Default (only when mentioned)');
    expect(view.blocks.length).toBeLessThanOrEqual(100);
  });

  it('reads back its metadata, and the form whole: Default and empty leave a key out', () => {
    const form = submitted({
      [CHANNEL_FIELDS.robot]: { text: ' 7 ' },
      [CHANNEL_FIELDS.answer]: { option: 'all' },
      [CHANNEL_FIELDS.reply]: { option: 'default' },
      [CHANNEL_FIELDS.escalatePeople]: { users: ['U0BOB'] },
      [CHANNEL_FIELDS.escalateGroups]: { text: '<!subteam^S0IT|@it>, S0NET <@U0BOB>' },
      [CHANNEL_FIELDS.lang]: { option: 'zh' },
    });
    expect(readChannelModalMetadata(form)).toEqual({
      channelId: 'C0HELP',
      responseUrl: 'https://hooks.slack.com/actions/T1/1/x',
    });
    expect(readChannelForm(form, '/cs')).toEqual({
      kind: 'settings',
      settings: {
        robot: 7,
        answer: 'all',
        lang: 'zh',
        escalate: { users: ['U0BOB'], groups: ['S0IT', 'S0NET'] },
      },
    });
  });

  it('names what it cannot read under its input', () => {
    const form = readChannelForm(
      submitted({
        [CHANNEL_FIELDS.robot]: { text: '99999999999' },
        [CHANNEL_FIELDS.askersGroups]: { text: '@hr-team' },
      }),
      '/cs',
    );
    expect(form.kind).toBe('invalid');
    if (form.kind !== 'invalid') return;
    expect(form.problems.map((problem) => problem.block)).toEqual([
      CHANNEL_FIELDS.robot,
      CHANNEL_FIELDS.askersGroups,
    ]);
    expect(form.problems.map((problem) => channelFormProblemText('en', problem))).toEqual([
      'A whole number from 0 to 2147483647, or empty for the default.',
      'Not a user group: @hr-team. Give ids like S0123ABCD.',
    ]);
  });

  it('reads no metadata from a view it did not build', () => {
    expect(
      readChannelModalMetadata({ ...submitted({}), private_metadata: '{"v":1,"c":"D0DM"}' }),
    ).toBeUndefined();
  });
});
