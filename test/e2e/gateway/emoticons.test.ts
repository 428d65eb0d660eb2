// The platform's emoticon codes ([微笑], [OK], …) reach Slack as the emoji they stand for, in the
// answer and on the suggestion buttons; code keeps them as written, and unknown codes stay text.
import { describe, expect, it } from 'vitest';
import { askByMention, buttonsOf, textOf, useGatewayHarness } from '../../support/gateway-harness.js';
import { updateKnowledgeEntry } from '../../support/knowledge-base.js';

describe('an answer with emoticon codes', () => {
  const harness = useGatewayHarness();

  it('shows them as emoji, except in code and where the code is unknown', async () => {
    const h = harness();
    h.slack.setUser('U_ZH', { displayName: '王小明', locale: 'zh-CN' });
    await updateKnowledgeEntry(h.simulator, {
      docId: 'doc-zh-expense',
      answerDesc: '<p>您好[微笑]，报销请走费用系统[OK][玫瑰]。命令：<code>[微笑]</code> [未知表情]</p>',
    });
    // A related entry's title is shown on a suggestion button.
    await updateKnowledgeEntry(h.simulator, {
      docId: 'doc-zh-invoice',
      questionTitle: '发票抬头怎么开[疑问]',
    });

    const { answer } = await askByMention(h, '如何报销差旅费用？', { user: 'U_ZH' });
    const shown = textOf(answer);
    // In the blocks, with the code span's backticks (the notification text drops them) and the
    // zero-width space that lets Slack see code right after a CJK colon.
    expect(shown).toContain('您好🙂，报销请走费用系统👌🌹。命令：\u200B`[微笑]` [未知表情]');
    expect(String(answer.body.text)).toContain('您好🙂');
    expect(buttonsOf(answer).map((button) => button.text)).toContain('发票抬头怎么开❓');
    expect(shown).not.toContain('[OK]');
  });
});
