// A channel's own settings: what a stored value may be read back as, and how a change lands on them.
import { describe, expect, it } from 'vitest';
import {
  type ChannelSettings,
  channelSettingsSchema,
  mergeChannelSettings,
} from '../../../src/conversation/channel-settings.js';

const FULL: ChannelSettings = {
  robot: 2,
  answer: 'questions',
  reply: 'ephemeral',
  escalate: { users: ['U123'], groups: ['S456'] },
  askers: 'anyone',
  lang: 'zh',
};

describe('channelSettingsSchema', () => {
  it('reads back every key, none of them, and the word forms of escalate and askers', () => {
    expect(channelSettingsSchema.parse(FULL)).toEqual(FULL);
    expect(channelSettingsSchema.parse({})).toEqual({});
    expect(channelSettingsSchema.parse({ escalate: 'off', askers: { users: [], groups: ['S1'] } })).toEqual({
      escalate: 'off',
      askers: { users: [], groups: ['S1'] },
    });
    expect(channelSettingsSchema.parse({ robot: 0 })).toEqual({ robot: 0 });
    expect(channelSettingsSchema.parse({ robot: 2 ** 31 - 1 })).toEqual({ robot: 2 ** 31 - 1 });
  });

  it.each([
    ['an unknown key', { robot: 1, colour: 'blue' }],
    ['a negative robot', { robot: -1 }],
    ['a fractional robot', { robot: 2.5 }],
    ['a robot past 32 bits', { robot: 2 ** 31 }],
    ['a robot as text', { robot: '2' }],
    ['an unknown answer mode', { answer: 'always' }],
    ['an upper-case answer mode', { answer: 'ALL' }],
    ['an unknown reply style', { reply: 'dm' }],
    ['an unknown language', { lang: 'zh-CN' }],
    ['escalate to nobody', { escalate: { users: [], groups: [] } }],
    ['askers as off', { askers: 'off' }],
    ['escalate as anyone', { escalate: 'anyone' }],
    ['a user id where a group goes', { escalate: { users: [], groups: ['U1'] } }],
    ['a mention instead of an id', { escalate: { users: ['<@U1>'], groups: [] } }],
    ['a person list with an extra field', { askers: { users: ['U1'], groups: [], channels: [] } }],
  ])('refuses %s', (_name, stored) => {
    expect(channelSettingsSchema.safeParse(stored).success).toBe(false);
  });
});

describe('mergeChannelSettings', () => {
  it('changes only the keys the change names', () => {
    expect(mergeChannelSettings(FULL, { robot: 3, lang: 'en' })).toEqual({ ...FULL, robot: 3, lang: 'en' });
    expect(mergeChannelSettings({}, { answer: 'all' })).toEqual({ answer: 'all' });
    expect(mergeChannelSettings(FULL, {})).toEqual(FULL);
  });

  it('replaces a list whole rather than adding to it, and a list by its word form', () => {
    const merged = mergeChannelSettings(FULL, { escalate: { users: ['U9'], groups: [] } });
    expect(merged.escalate).toEqual({ users: ['U9'], groups: [] });
    expect(mergeChannelSettings(FULL, { escalate: 'off' }).escalate).toBe('off');
  });

  it('keeps a key given as undefined, and robot 0 as a real value', () => {
    expect(mergeChannelSettings(FULL, { robot: undefined, answer: undefined })).toEqual(FULL);
    expect(mergeChannelSettings(FULL, { robot: 0 }).robot).toBe(0);
  });

  it('leaves both inputs as they were', () => {
    const current: ChannelSettings = { robot: 1 };
    const change: ChannelSettings = { reply: 'thread' };
    mergeChannelSettings(current, change);
    expect(current).toEqual({ robot: 1 });
    expect(change).toEqual({ reply: 'thread' });
  });
});
