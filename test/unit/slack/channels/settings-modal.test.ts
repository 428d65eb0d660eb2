// The settings modal: built from a channel's settings, and read back as Slack submits it.
import { describe, expect, it } from 'vitest';
import {
  CHANNEL_FIELDS,
  channelFormProblemText,
  readChannelForm,
  readChannelModalMetadata,
  renderChannelSettingsModal,
} from '../../../../src/slack/channels/settings-modal.js';
import type { UsergroupChoice } from '../../../../src/slack/kit/usergroups.js';
import { viewSubmissionPayload } from '../../../support/review-payloads.js';

const METADATA = { channelId: 'C0HELP', responseUrl: 'https://hooks.slack.com/actions/T1/1/x' };
const USERGROUPS: UsergroupChoice[] = [
  { id: 'S0HR', handle: 'hr-desk', name: 'HR desk' },
  { id: 'S0IT', handle: 'it-oncall', name: 'IT on call' },
];

/** The modal of a channel whose list of user groups could not be read: ids are typed. */
const view = renderChannelSettingsModal(
  'en',
  METADATA,
  { robot: 2, reply: 'ephemeral', askers: { users: ['U0ALICE'], groups: ['S0HR'] } },
  undefined,
);

type Element = Record<string, unknown>;

function elementOf(modal: { blocks: unknown[] }, blockId: string): Element | undefined {
  const block = modal.blocks.find(
    (candidate): candidate is { block_id: string; element: Element } =>
      typeof candidate === 'object' &&
      candidate !== null &&
      'block_id' in candidate &&
      candidate.block_id === blockId,
  );
  return block?.element;
}

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
    expect(readChannelForm(form)).toEqual({
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

  it('offers the user groups by handle from usergroups.list, the current ones chosen, a vanished one kept', () => {
    const modal = renderChannelSettingsModal(
      'en',
      METADATA,
      { escalate: { users: [], groups: ['S0IT', 'S0GONE'] } },
      USERGROUPS,
    );
    const escalate = elementOf(modal, CHANNEL_FIELDS.escalateGroups);
    const option = (text: string, value: string) => ({
      text: { type: 'plain_text', text, emoji: true },
      value,
    });
    expect(escalate).toMatchObject({
      type: 'multi_static_select',
      options: [
        option('@hr-desk (HR desk)', 'S0HR'),
        option('@it-oncall (IT on call)', 'S0IT'),
        option('S0GONE', 'S0GONE'),
      ],
      initial_options: [option('@it-oncall (IT on call)', 'S0IT'), option('S0GONE', 'S0GONE')],
    });
    expect(elementOf(modal, CHANNEL_FIELDS.askersGroups)).toMatchObject({ type: 'multi_static_select' });
    expect(elementOf(modal, CHANNEL_FIELDS.askersGroups)).not.toHaveProperty('initial_options');

    const submittedView = viewSubmissionPayload(
      { view: { ...modal }, id: 'V1' },
      {
        [CHANNEL_FIELDS.escalateGroups]: { options: ['S0HR', 'S0IT'] },
        [CHANNEL_FIELDS.askersPeople]: { users: ['U0BOB'] },
      },
    ).view as Parameters<typeof readChannelForm>[0];
    expect(readChannelForm(submittedView)).toEqual({
      kind: 'settings',
      settings: {
        escalate: { users: [], groups: ['S0HR', 'S0IT'] },
        askers: { users: ['U0BOB'], groups: [] },
      },
    });
  });

  it('asks for ids only when the list could not be read or holds more than a select does; none without groups', () => {
    expect(elementOf(view, CHANNEL_FIELDS.askersGroups)).toMatchObject({
      type: 'plain_text_input',
      initial_value: 'S0HR',
    });
    const many = Array.from({ length: 101 }, (_, index) => ({
      id: `S${String(index).padStart(4, '0')}`,
      handle: `team-${index}`,
      name: '',
    }));
    const long = renderChannelSettingsModal('en', METADATA, {}, many);
    expect(elementOf(long, CHANNEL_FIELDS.escalateGroups)).toMatchObject({ type: 'plain_text_input' });
    const none = renderChannelSettingsModal('en', METADATA, {}, []);
    expect(elementOf(none, CHANNEL_FIELDS.escalateGroups)).toBeUndefined();
    expect(elementOf(none, CHANNEL_FIELDS.escalatePeople)).toMatchObject({ type: 'multi_users_select' });
  });

  it('labels its inputs in plain words, without the platform’s field names or the modes’ keywords', () => {
    for (const locale of ['en', 'zh-CN'] as const) {
      const labels = renderChannelSettingsModal(locale, METADATA, {}, USERGROUPS)
        .blocks.map((block) => ('label' in block ? block.label.text : ''))
        .join('\n');
      expect(labels).not.toMatch(/robotFlag|questions|\ball\b|mode|模式/);
    }
    const labels = renderChannelSettingsModal('en', METADATA, {}, USERGROUPS).blocks.flatMap((block) =>
      'label' in block ? [block.label.text] : [],
    );
    expect(labels).toContain('Robot number');
    expect(labels).toContain('When answering on its own, answer only these people');
  });

  it('reads no metadata from a view it did not build', () => {
    expect(
      readChannelModalMetadata({ ...submitted({}), private_metadata: '{"v":1,"c":"D0DM"}' }),
    ).toBeUndefined();
  });
});
