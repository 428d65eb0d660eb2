// What the slash command's seam says before any surface's subcommand runs.
import { catalog, translator } from '../kit/i18n.js';

const en = {
  command_too_long:
    'That was {length, number} characters after `{command}`; it takes at most {limit, number}. Nothing was done: shorten it and try again.',
} as const;

export const messages = catalog(en, {
  command_too_long:
    '`{command}` 后面有 {length, number} 个字符，最多只能有 {limit, number} 个。什么也没有做：请缩短后再试。',
});

export const t = translator(messages);
