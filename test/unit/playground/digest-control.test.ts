// What the page's "Post the weekly digest now" says: the channel to open, or why nothing was posted.
import { describe, expect, it } from 'vitest';
import { digestControlOutcome } from '../../../playground/digest-control.js';

describe("the playground's digest control", () => {
  it('opens the channel the digest was posted to', () => {
    expect(digestControlOutcome([{ channelId: 'C0KBREVIEW', outcome: 'posted' }], 'Acme')).toEqual({
      ok: true,
      channel: 'C0KBREVIEW',
    });
  });

  it('says no digest is scheduled when the gateway runs without DIGEST_SCHEDULE', () => {
    expect(digestControlOutcome(undefined, 'Acme')).toEqual({
      ok: false,
      error: 'No digest is scheduled: the gateway runs without DIGEST_SCHEDULE.',
    });
  });

  it('says where to name the channel when the workspace set-up names none', () => {
    expect(digestControlOutcome([], 'Globex (playground)')).toEqual({
      ok: false,
      error:
        'Globex (playground) names no digest channel: Home → Set up the platform account → Weekly figures channel.',
    });
  });

  it('says the digest was not posted when its tick failed, or its targets were not read', () => {
    for (const postings of [
      [{ channelId: 'C0KBREVIEW', outcome: 'failed' as const }],
      [{ outcome: 'failed' as const }],
    ]) {
      expect(digestControlOutcome(postings, 'Acme')).toEqual({
        ok: false,
        error: "The digest was not posted (failed): the gateway's log says why.",
      });
    }
  });
});
