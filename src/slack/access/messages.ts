// What the operator gate says to whoever is not an operator, in English and Simplified Chinese.
// ICU MessageFormat; how to add a message: src/slack/kit/i18n.ts and ARCHITECTURE.md.
import { catalog, translator } from '../kit/i18n.js';

const en = {
  operators_only:
    'Only knowledge-base operators can do this. Ask whoever runs this app to add you (OPERATOR_USER_IDS or the operator user group).',
  operators_none_configured:
    'No knowledge-base operators are set up, so nobody can do this yet. Whoever runs this app can name them in OPERATOR_USER_IDS or OPERATOR_USERGROUP_ID.',
} as const;

export const messages = catalog(en, {
  operators_only:
    '只有知识库管理员才能执行此操作。请联系本应用的维护者添加您（OPERATOR_USER_IDS 或管理员用户组）。',
  operators_none_configured:
    '尚未设置知识库管理员，目前没有人能执行此操作。本应用的维护者可以在 OPERATOR_USER_IDS 或 OPERATOR_USERGROUP_ID 中指定。',
});

export const t = translator(messages);
