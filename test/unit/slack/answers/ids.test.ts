import { describe, expect, it } from 'vitest';
import {
  ACTION_RATE_DOWN,
  ACTION_RATE_UP,
  ACTION_TRY_AGAIN,
  RATING_ACTION_PATTERN,
  SUGGESTION_ACTION_PATTERN,
  suggestionActionId,
} from '../../../../src/slack/answers/ids.js';

describe('action ids', () => {
  it('are unique per suggestion and matched by the listener pattern', () => {
    expect(suggestionActionId(0)).toBe('suggestion:0');
    expect(SUGGESTION_ACTION_PATTERN.test(suggestionActionId(24))).toBe(true);
    expect(SUGGESTION_ACTION_PATTERN.test('suggestion')).toBe(false);
    expect(SUGGESTION_ACTION_PATTERN.test('suggestion:1x')).toBe(false);
  });

  it('route 👍 and 👎, and nothing else, to the rating listener', () => {
    expect(RATING_ACTION_PATTERN.test(ACTION_RATE_UP)).toBe(true);
    expect(RATING_ACTION_PATTERN.test(ACTION_RATE_DOWN)).toBe(true);
    expect(RATING_ACTION_PATTERN.test(ACTION_TRY_AGAIN)).toBe(false);
    expect(RATING_ACTION_PATTERN.test('rate_upx')).toBe(false);
    expect(SUGGESTION_ACTION_PATTERN.test(ACTION_TRY_AGAIN)).toBe(false);
  });
});
