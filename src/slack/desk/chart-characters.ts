// Every character a desk chart can draw, so the chart font's subset is cut to hold them all.
import { LOCALES } from '../../conversation/locale.js';
import { messages } from './messages.js';

const PRINTABLE_ASCII = Array.from({ length: 0x7f - 0x20 }, (_, index) => String.fromCharCode(0x20 + index));
/** Punctuation the labels and Intl's dates and numbers may use in either language. */
const PUNCTUATION = '–—·…，。：；（）、％“”‘’ ';

/** Month and weekday names as the charts format them, in every language, across a whole year. */
function dateCharacters(): string {
  const parts: string[] = [];
  for (const locale of LOCALES) {
    const formats = [
      new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' }),
      new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }),
    ];
    for (let day = 0; day < 366; day += 1) {
      const date = new Date(Date.UTC(2024, 0, 1 + day));
      for (const format of formats) parts.push(format.format(date));
    }
  }
  return parts.join('');
}

/** The characters of the chart labels' texts (all languages), dates, numbers and ASCII, each once, sorted. */
export function chartCharacters(): string {
  const labels = LOCALES.flatMap((locale) =>
    Object.entries(messages[locale])
      .filter(([key]) => key.startsWith('chart_label_'))
      .map(([, text]) => text),
  );
  const all = new Set([...PRINTABLE_ASCII, ...PUNCTUATION, ...dateCharacters(), ...labels.join('')]);
  return [...all].sort().join('');
}
