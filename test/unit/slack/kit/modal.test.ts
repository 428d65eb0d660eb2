import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { modal, PRIVATE_METADATA_MAX, readPrivateMetadata } from '../../../../src/slack/kit/modal.js';

describe('modal', () => {
  it('cuts the title and buttons to Slack’s 24 characters and leaves out what was not given', () => {
    const view = modal({ title: 'x'.repeat(40), close: 'Close', blocks: [] });
    expect(view.title.text.length).toBeLessThanOrEqual(24);
    expect(view).not.toHaveProperty('submit');
    expect(view).not.toHaveProperty('callback_id');
    expect(view).not.toHaveProperty('private_metadata');
    const form = modal({
      callbackId: 'cb',
      title: 'T',
      submit: 's'.repeat(30),
      close: 'C',
      privateMetadata: '{}',
      blocks: [],
    });
    expect(form).toMatchObject({ callback_id: 'cb', private_metadata: '{}' });
    expect(form.submit?.text.length).toBeLessThanOrEqual(24);
  });
});

describe('readPrivateMetadata', () => {
  const schema = z.object({ k: z.string() }).strict();

  it('reads JSON the schema accepts, and nothing else', () => {
    expect(readPrivateMetadata('{"k":"a"}', schema)).toEqual({ k: 'a' });
    for (const raw of [undefined, 1, '', '{', '{"k":1}', '{"k":"a","x":1}']) {
      expect(readPrivateMetadata(raw, schema)).toBeUndefined();
    }
  });

  it('does not parse metadata longer than Slack allows', () => {
    expect(
      readPrivateMetadata(JSON.stringify({ k: 'a'.repeat(PRIVATE_METADATA_MAX) }), schema),
    ).toBeUndefined();
  });
});
