// The answer an operator edits in Slack survives the round trip: what a reader of the robot's HTML
// sees (its lines, links, images, bold, italics, list items) is in the HTML sent back, for every
// answer of the simulator's knowledge base. Both sides are read with a real HTML parser (parse5).
import { type DefaultTreeAdapterTypes, parseFragment } from 'parse5';
import { describe, expect, it } from 'vitest';
import {
  EDITABLE_MARKUP_MAX,
  fitsEditor,
  htmlToMarkup,
  markupToHtml,
  unsupportedMarkup,
} from '../../../src/answer-html/editor-markdown.js';
import { seedEntries } from '../../../src/simulator/knowledge-base.js';

type Node = DefaultTreeAdapterTypes.ChildNode;
type Element = DefaultTreeAdapterTypes.Element;

const BLOCKS = new Set([
  'p',
  'div',
  'li',
  'ul',
  'ol',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'hr',
  'table',
  'tr',
  'td',
  'th',
]);
const MARKS: Record<string, string> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  del: 'struck',
  s: 'struck',
  strike: 'struck',
  code: 'code',
  pre: 'preformatted',
  blockquote: 'quote',
  h1: 'heading 1',
  h2: 'heading 2',
  h3: 'heading 3',
};

const isElement = (node: Node): node is Element => 'tagName' in node;
const attribute = (element: Element, name: string) =>
  element.attrs.find((attr) => attr.name === name)?.value ?? '';
const parentTag = (node: Element) =>
  node.parentNode && 'tagName' in node.parentNode ? node.parentNode.tagName : undefined;
const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The text a reader sees in a node, a line break read as a space. */
function textOf(node: Node): string {
  if (node.nodeName === '#text' && 'value' in node) return node.value;
  if (!isElement(node)) return '';
  if (node.tagName === 'br') return ' ';
  return node.childNodes.map(textOf).join('');
}

/** What a reader of the answer notices: its lines, links, images, bold, italics, list items… */
function seen(html: string) {
  const lines: string[] = [];
  const links: string[] = [];
  const images: string[] = [];
  const marks: string[] = [];
  const items: string[] = [];
  let line = '';
  const endLine = () => {
    if (squeeze(line) !== '') lines.push(squeeze(line));
    line = '';
  };
  const walk = (node: Node) => {
    if (node.nodeName === '#text' && 'value' in node) {
      // A raw newline is a line break in the robot's answers; one at a block's edge makes an empty line, dropped.
      const [first = '', ...rest] = node.value.split('\n');
      line += first;
      for (const part of rest) {
        endLine();
        line = part;
      }
      return;
    }
    if (!isElement(node)) return;
    const tag = node.tagName;
    if (tag === 'br') return endLine();
    if (tag === 'a') links.push(`${attribute(node, 'href')} → ${squeeze(textOf(node))}`);
    if (tag === 'img') images.push(`${attribute(node, 'src')} | ${attribute(node, 'alt')}`);
    // Code inside <pre> is how Markdown writes a preformatted block: the <pre> is what a reader sees.
    const mark = tag === 'code' && parentTag(node) === 'pre' ? undefined : MARKS[tag];
    if (mark) marks.push(`${mark}: ${squeeze(textOf(node))}`);
    if (tag === 'li') items.push(`${listMarker(node)} ${squeeze(textOf(node))}`);
    if (BLOCKS.has(tag)) endLine();
    for (const child of node.childNodes) walk(child);
    if (BLOCKS.has(tag)) endLine();
  };
  for (const node of parseFragment(html).childNodes) walk(node);
  endLine();
  return { lines, links, images, marks, items };
}

/** `-` for a bullet, the number shown for an ordered item. */
function listMarker(item: Element): string {
  const list = item.parentNode;
  if (!list || !('tagName' in list) || list.tagName !== 'ol') return '-';
  const siblings = list.childNodes.filter((node) => isElement(node) && node.tagName === 'li');
  return `${Number(attribute(list, 'start') || '1') + siblings.indexOf(item)}.`;
}

/** Every element name in the HTML, once each, sorted. */
function elements(html: string): string[] {
  const names = new Set<string>();
  const walk = (node: Node) => {
    if (!isElement(node)) return;
    names.add(node.tagName);
    node.childNodes.forEach(walk);
  };
  parseFragment(html).childNodes.forEach(walk);
  return [...names].sort();
}

const roundTrip = (html: string) => markupToHtml(htmlToMarkup(html));

const entries = seedEntries();
const byDocId = (docId: string) => {
  const entry = entries.find((candidate) => candidate.docId === docId);
  if (!entry) throw new Error(`seed entry ${docId} renamed`);
  return entry;
};

/** Formatting the seed answers do not use, as the robot's answers may hold it. */
const SHAPES: [string, string][] = [
  ['a bullet list with a nested list', '<ul><li>one</li><li>two<ul><li>two and a half</li></ul></li></ul>'],
  [
    'a numbered list from 9',
    '<p>Steps:</p><ol start="9"><li>open</li><li>click <b>Save</b><br>then wait</li></ol>',
  ],
  ['a list laid out over lines', '<ul>\n  <li>first</li>\n  <li>second</li>\n</ul>'],
  ['raw newlines in text and between inline tags', '<p>line one\nline two\n<b>bold</b>\n<i>italic</i></p>'],
  ['a blank line of two <br>', '<p>before<br><br>after</p>'],
  ['italics inside a word', '<p>Follow<i>Me</i>Print and 添加<i>提示：</i>好</p>'],
  ['bold across a line break', '<p><strong>first<br>second</strong> plain</p>'],
  [
    'struck text, code and a quote',
    '<p><s>old</s> <code>a*b</code></p><blockquote>quoted<br>twice</blockquote>',
  ],
  ['headings', '<h1>Title</h1><p>body</p><h2>Part</h2><p>more</p>'],
  ['preformatted text', '<pre>line 1\n  line 2 with **stars**</pre>'],
  ['divs as paragraphs', '<div>one</div><div>two <a href="https://x.example/a">link</a></div>'],
  [
    'an image inside a link',
    '<p><a href="https://x.example/big"><img src="https://x.example/s.png" alt="small"></a></p>',
  ],
  [
    'targets with spaces and parentheses',
    '<p><a href="https://x.example/a b(1)">odd</a> <img src="https://x.example/a(1).png" alt="a [1] *x*"></p>',
  ],
  ['a mailto link', '<p>Write to <a href="mailto:it@example.com">IT</a>.</p>'],
];

describe('the round trip on the knowledge base', () => {
  it('covers English and Chinese answers, with links, images, bold, italics and line breaks among them', () => {
    expect(entries.some((entry) => entry.language === 'en')).toBe(true);
    expect(entries.some((entry) => entry.language === 'zh')).toBe(true);
    const all = entries.map((entry) => seen(entry.answerDesc));
    expect(all.some((answer) => answer.links.length > 0)).toBe(true);
    expect(all.some((answer) => answer.images.length > 0)).toBe(true);
    expect(all.some((answer) => answer.marks.some((mark) => mark.startsWith('bold')))).toBe(true);
    expect(all.some((answer) => answer.marks.some((mark) => mark.startsWith('italic')))).toBe(true);
    expect(entries.some((entry) => /[^>\s]\n[^<\s]/.test(entry.answerDesc))).toBe(true);
  });

  it.each(entries.map((entry) => [entry.docId, entry.answerDesc] as const))(
    '%s keeps its lines, links, images, bold and italics',
    (_docId, html) => {
      expect(seen(roundTrip(html))).toEqual(seen(html));
    },
  );

  it.each(entries.map((entry) => [entry.docId, entry.answerDesc] as const))(
    '%s gives the same markup after a second round trip',
    (_docId, html) => {
      const markup = htmlToMarkup(html);
      expect(htmlToMarkup(markupToHtml(markup))).toBe(markup);
    },
  );

  it.each(SHAPES)('keeps %s', (_shape, html) => {
    expect(seen(roundTrip(html))).toEqual(seen(html));
    const markup = htmlToMarkup(html);
    expect(htmlToMarkup(markupToHtml(markup))).toBe(markup);
  });

  it('shows the markup an operator expects to edit', () => {
    expect(htmlToMarkup(byDocId('doc-zh-expense').answerDesc)).toBe(
      '登录[费用系统](https://expenses.example.com)，上传发票照片并选择费用类别，提交给直属经理审批。\n\n' +
        '**注意：**请在费用发生后30天内提交，逾期不予报销。\n发票抬头必须是公司全称。',
    );
    expect(htmlToMarkup(SHAPES[1]?.[1] ?? '')).toBe('Steps:\n\n9. open\n10. click **Save**\n    then wait');
    expect(htmlToMarkup('<p>x\ny</p><p>a <i>b</i> c</p>')).toBe('x\ny\n\na _b_ c');
  });

  it('changes only the changed word, in English and in Chinese, in text, links and bold', () => {
    for (const [docId, word, replacement] of [
      ['doc-vpn-connect', 'usual', 'normal'],
      ['doc-printer', 'badge', 'card'],
      ['doc-mfa', 'MFA page', 'MFA site'],
      ['doc-zh-expense', '直属经理', '部门经理'],
      ['doc-zh-password', '忘记密码', '找回密码'],
      ['doc-zh-invoice', '税号', '纳税人识别号'],
    ] as const) {
      const html = byDocId(docId).answerDesc;
      // Once in the answer, and not in a URL: changing it in the HTML is what the operator means.
      expect(html.split(word)).toHaveLength(2);
      const markup = htmlToMarkup(html);
      const edited = markupToHtml(markup.replace(word, replacement));
      expect(edited).toBe(markupToHtml(markup).replace(word, replacement));
      expect(seen(edited)).toEqual(seen(html.replace(word, replacement)));
    }
  });

  it('sees what a reader would miss: the comparison fails when formatting is lost', () => {
    const html = '<ul><li><a href="https://x.example">link</a> <b>bold</b><br><i>next</i></li></ul>';
    for (const poorer of [
      '<ul><li>link <b>bold</b><br><i>next</i></li></ul>',
      '<ul><li><a href="https://x.example">link</a> bold<br><i>next</i></li></ul>',
      '<ul><li><a href="https://x.example">link</a> <b>bold</b> <i>next</i></li></ul>',
      '<p><a href="https://x.example">link</a> <b>bold</b><br><i>next</i></p>',
    ]) {
      expect(seen(poorer)).not.toEqual(seen(html));
    }
  });
});

describe('text that looks like markup', () => {
  it('comes back literally from the HTML, with no formatting added', () => {
    const literal = [
      '2 * 3 * 4 = 24, **not bold**',
      'file_name and _not italic_',
      '[draft](https://not.a.link) <https://nor.this>',
      '<script>alert(1)</script>',
      '1. not a list',
      '2) not a list either',
      '# not a heading',
      '- not a bullet',
      '> not a quote',
      '~~not struck~~ `not code` back\\slash',
      '&copy; &amp; stay as written',
      '---',
      '===',
    ];
    const asHtmlText = (text: string) =>
      text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const back = roundTrip(`<p>${literal.map(asHtmlText).join('<br>')}</p>`);
    expect(seen(back).lines).toEqual(literal);
    expect(elements(back)).toEqual(['br', 'p']);
  });

  it('keeps tags an operator types as text, never as HTML', () => {
    const typed =
      '<script>alert(1)</script> <img src=x onerror=alert(1)> <b>not bold</b>\n<img src=x onerror=y';
    const html = markupToHtml(typed);
    expect(elements(html)).toEqual(['br', 'p']);
    expect(seen(html).lines).toEqual([
      '<script>alert(1)</script> <img src=x onerror=alert(1)> <b>not bold</b>',
      '<img src=x onerror=y',
    ]);
  });

  it('makes links only of http(s) and mailto targets, and images only of http(s) ones', () => {
    const html = markupToHtml(
      '[click](javascript:alert(1)) [mail](mailto:it@example.com) ![x](data:image/png;base64,AA) ' +
        '![pic](https://x.example/p.png) [site](https://x.example) [rel](/relative)',
    );
    expect(seen(html).links).toEqual(['mailto:it@example.com → mail', 'https://x.example → site']);
    expect(seen(html).images).toEqual(['https://x.example/p.png | pic']);
    expect(seen(html).lines).toEqual(['click mail x site rel']);
  });
});

describe('what an operator types', () => {
  it('makes every newline a line break, a blank line a new paragraph, and lists lists', () => {
    expect(markupToHtml('one\ntwo\n\nthree')).toBe('<p>one<br>two</p><p>three</p>');
    expect(markupToHtml('- a\n- b\n\n1. c\n2. d')).toBe(
      '<ul><li>a</li><li>b</li></ul><ol><li>c</li><li>d</li></ol>',
    );
  });

  it('reads bold and italics whose delimiters touch Chinese punctuation', () => {
    expect(markupToHtml('**注意：**请提交 _提示：_好')).toBe(
      '<p><strong>注意：</strong>请提交 <em>提示：</em>好</p>',
    );
  });

  it('leaves underscores inside words, bare URLs and indented lines alone', () => {
    expect(markupToHtml('snake_case_name https://x.example/a_b_c www.x.example\n    indented')).toBe(
      '<p>snake_case_name https://x.example/a_b_c www.x.example<br>indented</p>',
    );
  });

  it('gives compact HTML: no newlines between blocks, quotes kept as typed', () => {
    const html = markupToHtml('# Title\n\nIt\'s "here"\n\n- a\n\n---\n\n```\nx\ny\n```\n');
    expect(html).toBe('<h1>Title</h1><p>It\'s "here"</p><ul><li>a</li></ul><hr><pre><code>x\ny</code></pre>');
  });
});

describe('limits and losses', () => {
  it('does not fit the long travel policy into the editor, and does not cut it to fit', () => {
    const travel = byDocId('doc-travel-policy').answerDesc;
    expect(travel.length).toBeGreaterThan(5000);
    const markup = htmlToMarkup(travel);
    expect(fitsEditor(markup)).toBe(false);
    expect(markup).toContain('[travel@example.com](mailto:travel@example.com)');
    expect(fitsEditor('x'.repeat(EDITABLE_MARKUP_MAX))).toBe(true);
    expect(fitsEditor('x'.repeat(EDITABLE_MARKUP_MAX + 1))).toBe(false);
  });

  it('lists the elements a changed answer would drop, each once', () => {
    expect(
      unsupportedMarkup(
        '<p><span style="color:red">x</span><font color="red">y</font><font size="2">z</font><u>u</u></p>' +
          '<table><tr><td>1</td></tr></table>',
      ),
    ).toEqual(['font', 'span', 'table', 'u']);
  });

  it('names styling on kept elements, and links and images whose target is not kept', () => {
    expect(unsupportedMarkup('<p style="color:red">x</p><p align="center">y</p>')).toEqual(['style']);
    expect(unsupportedMarkup('<a href="/relative">x</a><img src="data:image/png;base64,AA" alt="">')).toEqual(
      ['a', 'img'],
    );
  });

  it('lists nothing for what the round trip keeps, for a bare span, or for a comment', () => {
    expect(
      unsupportedMarkup(
        '<div><h2>t</h2><ul><li><i>x</i></li></ul><ol start="2"><li><s>y</s></li></ol><blockquote>q</blockquote>' +
          '<pre><code>c</code></pre><hr><span>plain</span><!-- <font color="red"> --></div>',
      ),
    ).toEqual([]);
    for (const entry of entries) expect(unsupportedMarkup(entry.answerDesc)).toEqual([]);
  });
});
