import { describe, expect, it } from 'vitest';
import {
  ANSWER_HTML_MAX,
  type AnswerSegment,
  answerToMrkdwn,
  convertAnswer,
  escapeMrkdwn,
  toPlainText,
} from '../../../src/answer-html/mrkdwn.js';

const ZWSP = '\u200B';

/** The answer's text segments joined, as the user would read them one after another. */
function text(html: string): string {
  return convertAnswer(html)
    .map((segment) => (segment.kind === 'text' ? segment.mrkdwn : '[image]'))
    .join('\n\n');
}

describe('convertAnswer', () => {
  it('converts a real-looking Chinese answer: paragraphs, a link with &amp; in it, an image', () => {
    const html =
      '<p>您好！关于退款：</p>\n<p>请访问 <a href="https://help.example.com/refund?a=1&amp;b=2">帮助中心</a> 查看流程。</p>\n' +
      '<p><img src="https://img.example.com/flow.png" alt="退款流程图"></p><p>如有疑问请联系客服。</p>';
    expect(convertAnswer(html)).toEqual<AnswerSegment[]>([
      {
        kind: 'text',
        mrkdwn:
          '您好！关于退款：\n\n请访问 <https://help.example.com/refund?a=1&amp;b=2|帮助中心> 查看流程。',
      },
      { kind: 'image', url: 'https://img.example.com/flow.png', alt: '退款流程图' },
      { kind: 'text', mrkdwn: '如有疑问请联系客服。' },
    ]);
  });

  it('keeps raw newlines mixed with <br> as line breaks', () => {
    expect(text('第一行\n第二行<br>第三行')).toBe('第一行\n第二行\n第三行');
    expect(text('<span>第一行</span>\n<span>第二行</span>')).toBe('第一行\n第二行');
  });

  it('keeps a blank line from raw text or from two <br>, but never more than one', () => {
    expect(text('one\n\ntwo')).toBe('one\n\ntwo');
    expect(text('one<br><br>two')).toBe('one\n\ntwo');
    expect(text('one\n\n\n\n\ntwo<br><br><br><br>three')).toBe('one\n\ntwo\n\nthree');
  });

  it('does not turn layout newlines between block tags into extra blank lines', () => {
    expect(text('<p>one</p>\n\n\n<p>two</p>')).toBe('one\n\ntwo');
    expect(text('<ul>\n  <li>a</li>\n  <li>b</li>\n</ul>')).toBe('• a\n• b');
    expect(text('line<br>\nnext')).toBe('line\nnext');
  });

  it('leaves bare URLs as text Slack can link, unmangled by markdown escaping', () => {
    expect(text('详情见 https://example.com/a_b_c?x=1&y=2\n谢谢')).toBe(
      '详情见 https://example.com/a_b_c?x=1&amp;y=2\n谢谢',
    );
  });

  it('escapes &, < and > exactly once', () => {
    expect(text('a &lt; b &amp;&amp; c &gt; d, AT&amp;T')).toBe('a &lt; b &amp;&amp; c &gt; d, AT&amp;T');
    expect(text('a < b & c')).toBe('a &lt; b &amp; c');
    expect(text('already &amp;amp; double')).toBe('already &amp;amp; double');
  });

  it('keeps plain text without tags intact, markdown-looking characters included', () => {
    expect(text('Price: 5 * 3 = 15_000 [see] #1 `x` ~y')).toBe('Price: 5 * 3 = 15_000 [see] #1 `x` ~y');
  });

  describe('emphasis that Slack renders', () => {
    it('puts zero-width spaces around bold that touches CJK characters', () => {
      expect(text('请<b>注意</b>安全')).toBe(`请${ZWSP}*注意*${ZWSP}安全`);
    });

    it('adds nothing around bold between spaces in Latin text', () => {
      expect(text('Please <b>note</b> this')).toBe('Please *note* this');
      expect(text('Please <strong>note</strong>, this')).toBe('Please *note*, this');
    });

    it('separates bold that ends in CJK punctuation from the following character', () => {
      expect(text('<b>注意：</b>请带好证件')).toBe(`*注意：*${ZWSP}请带好证件`);
    });

    it('renders italic, strike and code, each guarded the same way', () => {
      expect(text('正文<i>斜体</i>和<del>删除</del>和<code>a &lt; b</code>')).toBe(
        `正文${ZWSP}_斜体_${ZWSP}和${ZWSP}~删除~${ZWSP}和${ZWSP}\`a &lt; b\``,
      );
    });

    it('leaves no stray markers for empty or whitespace-only emphasis', () => {
      expect(text('<b></b>a<b>  </b>b<strong>\n</strong>c<i> </i>')).toBe('a b\nc');
    });

    it('keeps whitespace outside the markers and does not nest the same marker', () => {
      expect(text('Say <b> hello </b>now')).toBe('Say *hello* now');
      expect(text('<b>outer <strong>inner</strong></b>')).toBe('*outer inner*');
    });

    it('wraps each line of multi-line bold separately, since Slack bold cannot span lines', () => {
      expect(text('<b>one<br>two</b>')).toBe('*one*\n*two*');
    });
  });

  describe('links', () => {
    it('writes a bare <url> when the text is the URL', () => {
      expect(text('<a href="https://x.example.com/p">https://x.example.com/p</a>')).toBe(
        '<https://x.example.com/p>',
      );
    });

    it('links mailto addresses', () => {
      expect(text('<a href="mailto:help@example.com">写信给我们</a>')).toBe(
        '<mailto:help@example.com|写信给我们>',
      );
    });

    it('keeps only the text of javascript:, relative and missing hrefs', () => {
      expect(text('<a href="javascript:alert(1)">click</a> <a href="/kb/1">rel</a> <a>none</a>')).toBe(
        'click rel none',
      );
    });

    it('percent-encodes characters that would end the link syntax', () => {
      expect(text('<a href="https://x.example.com/a|b c">label</a>')).toBe(
        '<https://x.example.com/a%7Cb%20c|label>',
      );
    });

    it('escapes < and > in the label so the link cannot be broken or forged', () => {
      expect(text('<a href="https://x.example.com">a &lt;!channel&gt; b</a>')).toBe(
        '<https://x.example.com|a &lt;!channel&gt; b>',
      );
    });

    it('shows the real destination when the label is a URL or host of another host', () => {
      expect(text('<a href="https://evil.example/login">https://bank.example/login</a>')).toBe(
        '<https://evil.example/login|https://evil.example/login>',
      );
      expect(text('请登录<a href="https://evil.example/login"><b>bank.example</b></a>')).toBe(
        '请登录<https://evil.example/login|https://evil.example/login>',
      );
      expect(toPlainText(text('<a href="https://evil.example/?a=1&amp;b=2">bank.example</a>'))).toBe(
        'https://evil.example/?a=1&amp;b=2',
      );
    });

    it('keeps a URL label that names the target host, and labels of ordinary words', () => {
      expect(text('<a href="https://bank.example/login">bank.example</a>')).toBe(
        '<https://bank.example/login|bank.example>',
      );
      expect(text('<a href="https://evil.example/">点击这里</a>')).toBe('<https://evil.example/|点击这里>');
    });

    it('never shows credentials in front of the host, as a label or as a bare link', () => {
      expect(
        text('<a href="https://bank.example.com@evil.example/">https://bank.example.com@evil.example/</a>'),
      ).toBe('<https://bank.example.com@evil.example/|https://evil.example/>');
      expect(text('<a href="https://bank.example.com@evil.example/">网上银行</a>')).toBe(
        '<https://bank.example.com@evil.example/|https://evil.example/>',
      );
      expect(text('登录 https://bank.example.com@evil.example/login。')).toBe(
        '登录 https://evil.example/login。',
      );
    });

    it('shows the real address of a mailto link labelled with another address', () => {
      expect(text('<a href="mailto:phish@evil.example">support@bank.example</a>')).toBe(
        '<mailto:phish@evil.example|phish@evil.example>',
      );
      expect(text('<a href="mailto:support@bank.example">support@bank.example</a>')).toBe(
        '<mailto:support@bank.example|support@bank.example>',
      );
    });

    it('links nothing but http(s) and mailto, whatever the label claims', () => {
      for (const href of [
        'javascript:alert(1)',
        'JaVa\tScRiPt:alert(1)',
        'data:text/html,x',
        'vbscript:x',
        'file:///etc/passwd',
      ]) {
        expect(text(`<a href="${href}">https://bank.example/</a>`)).toBe('https://bank.example/');
      }
    });

    it('checks the alt text of an image written as a link like any label', () => {
      expect(
        convertAnswer('<img src="https://evil.example/a.png" alt="https://bank.example/">', {
          images: 'links',
        }),
      ).toEqual([{ kind: 'text', mrkdwn: '<https://evil.example/a.png|https://evil.example/a.png>' }]);
    });
  });

  describe('emoticons', () => {
    it("shows the platform's emoticon codes as emoji in text, links and alt text; unknown codes stay", () => {
      expect(text('<p>您好[微笑]，请看<a href="https://x.example.com">说明[OK]</a>[未知]</p>')).toBe(
        '您好🙂，请看<https://x.example.com|说明👌>[未知]',
      );
      expect(convertAnswer('<img src="https://i.example.com/a.png" alt="[玫瑰]">')).toEqual([
        { kind: 'image', url: 'https://i.example.com/a.png', alt: '🌹' },
      ]);
    });

    it('leaves codes inside code spans and code blocks as written', () => {
      expect(text('<p>[强] <code>[强]</code></p><pre>[OK] [微笑]</pre>')).toBe(
        '👍 `[强]`\n\n```\n[OK] [微笑]\n```',
      );
    });
  });

  it('renders headings as bold lines and lists as bullets and numbers', () => {
    const html =
      '<h2>办理步骤</h2><ol><li>登录</li><li>提交<ul><li>附件</li></ul></li></ol><ul><li>备注</li></ul>';
    expect(text(html)).toBe('*办理步骤*\n\n1. 登录\n2. 提交\n    ◦ 附件\n\n• 备注');
    expect(text('<ol start="3"><li>c</li><li>d</li></ol>')).toBe('3. c\n4. d');
  });

  it('renders tables as one readable line per row', () => {
    const html =
      '<table><thead><tr><th>套餐</th><th>价格</th></tr></thead><tbody><tr><td>基础</td><td>10元</td></tr><tr><td>高级</td><td>20元</td></tr></tbody></table>';
    expect(text(html)).toBe('*套餐* | *价格*\n基础 | 10元\n高级 | 20元');
  });

  it('keeps preformatted text as a code block, escaped once', () => {
    expect(text('<pre>if (a &lt; b) {\n  go();\n}</pre>')).toBe('```\nif (a &lt; b) {\n  go();\n}\n```');
  });

  describe('images', () => {
    it('gives only http(s) images a segment, with "image" as the default alt text', () => {
      expect(
        convertAnswer(
          '<img src="https://i.example.com/a.png"><img src="data:image/png;base64,AAAA" alt="inline">',
        ),
      ).toEqual([
        { kind: 'image', url: 'https://i.example.com/a.png', alt: 'image' },
        { kind: 'text', mrkdwn: 'inline' },
      ]);
    });

    it('keeps an image inside a link or bold without leaving stray markers', () => {
      expect(
        convertAnswer('<a href="https://x.example.com"><img src="https://i.example.com/a.png" alt="A"></a>'),
      ).toEqual([{ kind: 'image', url: 'https://i.example.com/a.png', alt: 'A' }]);
      expect(convertAnswer('<b>看图<img src="https://i.example.com/a.png"></b>')).toEqual([
        { kind: 'text', mrkdwn: '*看图*' },
        { kind: 'image', url: 'https://i.example.com/a.png', alt: 'image' },
      ]);
    });

    it('can write images as links instead', () => {
      expect(
        convertAnswer('见<img src="https://i.example.com/a.png" alt="图">', { images: 'links' }),
      ).toEqual([{ kind: 'text', mrkdwn: '见<https://i.example.com/a.png|图>' }]);
    });
  });

  describe('garbage', () => {
    it('drops script and style content entirely', () => {
      expect(
        text('<script>alert("x")</script><style>p { color: red }</style>可见<noscript>no</noscript>'),
      ).toBe('可见');
    });

    it('never throws on broken HTML', () => {
      const inputs = [
        '<div>unclosed <b>bold <i>it',
        '</p></b>stray closers',
        '<<<>>>',
        '<a href=',
        '<!-- open comment',
        '<img',
        '',
      ];
      for (const input of inputs) expect(() => convertAnswer(input)).not.toThrow();
      expect(text('<div>unclosed <b>bold')).toBe('unclosed *bold*');
      expect(convertAnswer('   \n  ')).toEqual([]);
    });

    it('gives no segment for markup with nothing visible in it', () => {
      expect(convertAnswer('<p></p><br><div> </div>&nbsp;')).toEqual([]);
      expect(
        convertAnswer(
          '<p>&#8203;&zwnj;&zwj;&#8288;&#65279;&shy;&#12288;</p><b> </b><a href="https://x.example"> </a>',
        ),
      ).toEqual([]);
    });

    it('ignores private-use characters smuggled into the input', () => {
      expect(text('a\uE000' + '0\uE001b')).toBe('a0b');
    });
  });
});

describe('escapeMrkdwn', () => {
  it('escapes only &, < and >', () => {
    expect(escapeMrkdwn('<@U1> & *b* _i_')).toBe('&lt;@U1&gt; &amp; *b* _i_');
  });
});

describe('answerToMrkdwn', () => {
  it('joins the text and writes images as links', () => {
    expect(answerToMrkdwn('<p>a</p><img src="https://i.example.com/x.png" alt="X"><p>b</p>')).toBe(
      'a\n\n<https://i.example.com/x.png|X>\n\nb',
    );
  });
});

describe('toPlainText', () => {
  it('removes markers, zero-width spaces and link syntax', () => {
    const mrkdwn = text(
      '请<b>注意</b>安全，见<a href="https://x.example.com/a">帮助</a>和 <a href="https://y.example.com">https://y.example.com</a>。<i>谢谢</i>',
    );
    expect(toPlainText(mrkdwn)).toBe('请注意安全，见帮助和 https://y.example.com。谢谢');
  });

  it('keeps markers that are not formatting, and entities escaped for Slack', () => {
    expect(toPlainText('2*3*4 and a &lt; b')).toBe('2*3*4 and a &lt; b');
    expect(toPlainText('*bold* and _it_ and ~s~ and `c`')).toBe('bold and it and s and c');
  });
});

describe('convertAnswer on oversized input', () => {
  it('stays fast and bounded on a huge answer', () => {
    const huge = `<p>${'一段文字，带<b>粗体</b>和链接 https://x.example.com/a?b=1&c=2 。\n'.repeat(20_000)}</p>`;
    const started = Date.now();
    const segments = convertAnswer(huge);
    expect(Date.now() - started).toBeLessThan(5_000);
    const total = segments.reduce(
      (sum, segment) => sum + (segment.kind === 'text' ? segment.mrkdwn.length : 0),
      0,
    );
    expect(total).toBeLessThan(ANSWER_HTML_MAX * 2);
  });

  it('falls back to readable text when the parser gives up on deep nesting', () => {
    const nested = `${'<b>'.repeat(5000)}AT&amp;T &lt;ok&gt;${'</b>'.repeat(5000)}`;
    expect(() => convertAnswer(nested)).not.toThrow();
    expect(text(nested).replace(/[*\u200B]/g, '')).toBe('AT&amp;T &lt;ok&gt;');
  });
});
