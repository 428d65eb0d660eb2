// The `markdown` block: standard Markdown read by marked's lexer and drawn node by node, so nothing
// an app sends can become live HTML on the page (raw HTML is shown as text, as Slack shows it).
import { marked, type Token, type Tokens } from 'marked';
import { h } from './dom.js';
import { isSafeUrl } from './mrkdwn.js';

export function renderMarkdown(text: string): HTMLElement {
  return h('div', { class: 'markdown' }, ...drawTokens(marked.lexer(text)));
}

function drawTokens(tokens: Token[]): Node[] {
  return tokens.map(drawToken);
}

function inline(token: { tokens?: Token[]; text?: string }): Node[] {
  return token.tokens ? drawTokens(token.tokens) : [document.createTextNode(token.text ?? '')];
}

function drawToken(token: Token): Node {
  switch (token.type) {
    case 'heading': {
      const heading = token as Tokens.Heading;
      const level = Math.min(Math.max(heading.depth, 1), 6);
      return h(`h${level}` as 'h1', {}, ...inline(heading));
    }
    case 'paragraph':
      return h('p', {}, ...inline(token as Tokens.Paragraph));
    case 'text':
      return h('span', {}, ...inline(token as Tokens.Text));
    case 'strong':
      return h('b', {}, ...inline(token as Tokens.Strong));
    case 'em':
      return h('i', {}, ...inline(token as Tokens.Em));
    case 'del':
      return h('s', {}, ...inline(token as Tokens.Del));
    case 'codespan':
      return h('code', {}, (token as Tokens.Codespan).text);
    case 'code':
      return h('pre', {}, (token as Tokens.Code).text);
    case 'blockquote':
      return h('blockquote', {}, ...drawTokens((token as Tokens.Blockquote).tokens));
    case 'hr':
      return h('hr');
    case 'br':
      return h('br');
    case 'space':
      return document.createTextNode('');
    case 'escape':
      return document.createTextNode((token as Tokens.Escape).text);
    case 'link': {
      const link = token as Tokens.Link;
      return isSafeUrl(link.href)
        ? h('a', { href: link.href, target: '_blank', rel: 'noopener noreferrer' }, ...inline(link))
        : h('span', {}, ...inline(link));
    }
    case 'image': {
      const image = token as Tokens.Image;
      return h('span', { class: 'remote-image', title: image.href }, `🖼 ${image.text || 'image'}`);
    }
    case 'list': {
      const list = token as Tokens.List;
      return h(
        list.ordered ? 'ol' : 'ul',
        {},
        ...list.items.map((item) => h('li', {}, ...drawTokens(item.tokens))),
      );
    }
    case 'table': {
      const table = token as Tokens.Table;
      return h(
        'table',
        { class: 'table' },
        h('thead', {}, h('tr', {}, ...table.header.map((cell) => h('th', {}, ...drawTokens(cell.tokens))))),
        h(
          'tbody',
          {},
          ...table.rows.map((row) =>
            h('tr', {}, ...row.map((cell) => h('td', {}, ...drawTokens(cell.tokens)))),
          ),
        ),
      );
    }
    default:
      return document.createTextNode(token.raw);
  }
}
