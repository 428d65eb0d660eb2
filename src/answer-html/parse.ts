// The robot's answers are HTML fragments that also use raw newlines as line breaks. Both ways of
// showing them (Slack mrkdwn, and the Markdown an operator edits) read those newlines the same way,
// from here: next to a block tag a newline is layout, anywhere else it is a line break.

/** Elements that show nothing of the answer (code, styles, embeds): dropped with their content. */
export const NON_CONTENT_ELEMENTS = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'title',
  'meta',
  'link',
  'iframe',
  'object',
  'embed',
  'svg',
  'canvas',
]);

// Tags next to which a raw newline is layout, not a line break the author meant.
const BLOCK_TAGS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'br',
  'caption',
  'center',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'head',
  'header',
  'hr',
  'html',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'script',
  'section',
  'style',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'title',
  'tr',
  'ul',
]);
const RAW_TEXT_TAGS = new Set(['pre', 'textarea', 'script', 'style', 'xmp', 'listing']);

/**
 * The robot's answers use raw newlines as line breaks, which HTML would read as spaces: they become
 * <br> first. A newline that only separates block tags (`</p>\n<p>`, `<li>` indentation) is layout.
 */
export function rawNewlinesAsBreaks(html: string): string {
  if (!html.includes('\n')) return html;
  const tokens = htmlTokens(html);
  const isInline = (token: HtmlToken | undefined) => token?.kind === 'tag' && !BLOCK_TAGS.has(token.name);
  const toBreaks = (text: string) => text.replace(/[^\S\n]*\n[^\S\n]*/g, '<br>');
  let rawDepth = 0;
  let output = '';
  for (const [index, token] of tokens.entries()) {
    if (token.kind === 'tag') {
      if (RAW_TEXT_TAGS.has(token.name)) rawDepth = Math.max(0, rawDepth + (token.closing ? -1 : 1));
      output += token.raw;
      continue;
    }
    if (rawDepth > 0 || !token.text.includes('\n')) {
      output += token.text;
      continue;
    }
    const breaksBefore = isInline(tokens[index - 1]);
    const breaksAfter = isInline(tokens[index + 1]);
    const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(token.text);
    const [lead, middle, trail] = [match?.[1] ?? '', match?.[2] ?? '', match?.[3] ?? ''];
    if (middle === '') {
      output += breaksBefore && breaksAfter ? toBreaks(token.text) : token.text;
      continue;
    }
    output +=
      (breaksBefore ? toBreaks(lead) : lead) + toBreaks(middle) + (breaksAfter ? toBreaks(trail) : trail);
  }
  return output;
}

export type HtmlToken =
  | { kind: 'text'; text: string }
  | { kind: 'tag'; raw: string; name: string; closing: boolean };

/** Tags (comments and declarations with an empty name) and the text between them, in order. */
export function htmlTokens(html: string): HtmlToken[] {
  const tokens: HtmlToken[] = [];
  const tagPattern =
    // Quoted attributes may hold `>`; a stray quote falls back to the first `>`.
    /<!--[\s\S]*?(?:-->|$)|<[!?][^>]*>|<(\/?)([A-Za-z][\w:-]*)(?:(?:[^>"']|"[^"]*"|'[^']*')*|[^>]*)>/g;
  let last = 0;
  for (const match of html.matchAll(tagPattern)) {
    if (match.index > last) tokens.push({ kind: 'text', text: html.slice(last, match.index) });
    tokens.push({
      kind: 'tag',
      raw: match[0],
      name: (match[2] ?? '').toLowerCase(),
      closing: match[1] === '/',
    });
    last = match.index + match[0].length;
  }
  if (last < html.length) tokens.push({ kind: 'text', text: html.slice(last) });
  return tokens;
}
