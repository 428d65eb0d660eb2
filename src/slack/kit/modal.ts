// A modal and its private_metadata, defined once so every room's modals are built and read the same way.
import type { types } from '@slack/bolt';
import type { z } from 'zod';
import { parseJsonWith } from '../../util/json.js';
import { BLOCK_KIT } from './block-kit-limits.js';
import { plainText } from './elements.js';

export const PRIVATE_METADATA_MAX = BLOCK_KIT.view.privateMetadata;

export function modal(input: {
  callbackId?: string;
  title: string;
  /** Without one the modal only informs. */
  submit?: string;
  close: string;
  privateMetadata?: string;
  blocks: types.KnownBlock[];
}): types.ModalView {
  return {
    type: 'modal',
    ...(input.callbackId === undefined ? {} : { callback_id: input.callbackId }),
    title: plainText(input.title, BLOCK_KIT.view.title),
    ...(input.submit === undefined ? {} : { submit: plainText(input.submit, BLOCK_KIT.view.submit) }),
    close: plainText(input.close, BLOCK_KIT.view.close),
    ...(input.privateMetadata === undefined ? {} : { private_metadata: input.privateMetadata }),
    blocks: input.blocks,
  };
}

/** Untrusted: an oversized one is not even parsed; undefined for anything `schema` refuses. */
export function readPrivateMetadata<T>(raw: unknown, schema: z.ZodType<T>): T | undefined {
  if (typeof raw !== 'string' || raw.length > PRIVATE_METADATA_MAX) return undefined;
  return parseJsonWith(raw, schema);
}
