// A link in the robot's answer may not pose as another address: Slack shows only a link's label, so
// a label naming one host over a target on another, or a target hiding its host behind credentials,
// is shown as the real destination; only http(s) and mailto targets become links at all.
import { describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import { askByMention, blocksOf, isRecord, useGatewayHarness } from '../../support/gateway-harness.js';
import { updateKnowledgeEntry } from '../../support/knowledge-base.js';

/** The mrkdwn of the answer's section blocks, where the links are. */
function sectionsOf(call: RecordedCall): string {
  return blocksOf(call)
    .flatMap((block) => (block.type === 'section' && isRecord(block.text) ? [String(block.text.text)] : []))
    .join('\n');
}

describe('an answer with links that pretend to go elsewhere', () => {
  const harness = useGatewayHarness();

  it('shows where each link really goes, and keeps honest links as written', async () => {
    const h = harness();
    await updateKnowledgeEntry(h.simulator, {
      docId: 'doc-password-reset',
      answerDesc: [
        '<p>Reset it at <a href="https://evil.example/login">https://bank.example/login</a>.</p>',
        '<p>Or sign in at <a href="https://bank.example.com@evil.example/">https://bank.example.com@evil.example/</a>',
        ' or https://bank.example.com@evil.example/reset</p>',
        '<p>Write to <a href="mailto:phish@evil.example">support@bank.example</a>,',
        ' <a href="javascript:alert(1)">https://bank.example/help</a>,',
        ' or use <a href="https://password.example.com">the password portal</a>.</p>',
      ].join(''),
    });

    const { answer } = await askByMention(h, 'How do I reset my password?');
    const shown = sectionsOf(answer);
    expect(shown).toContain('<https://evil.example/login|https://evil.example/login>');
    expect(shown).toContain('<https://bank.example.com@evil.example/|https://evil.example/>');
    expect(shown).toContain(' or https://evil.example/reset');
    expect(shown).toContain('<mailto:phish@evil.example|phish@evil.example>');
    expect(shown).toContain('<https://password.example.com|the password portal>');
    // No label names a host its link does not go to, and nothing links to a script.
    const labels = [...shown.matchAll(/<[^<>|]+\|([^<>]*)>/g)].map((match) => match[1]);
    expect(labels.filter((label) => label?.includes('bank.example'))).toEqual([]);
    expect(shown).not.toMatch(/<javascript:/i);
    expect(shown).toContain('https://bank.example/help,');
    // The notification text shows the same real destinations, never a host behind credentials.
    const text = String(answer.body.text);
    expect(text).toContain('https://evil.example/login');
    expect(text).not.toContain('bank.example.com@');
  });
});
