// `npm run charts:font`: cuts the registry's Noto Sans SC down to the characters the desk's charts draw
// (here, beside the labels, so that src/charts knows no room).
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import subsetFont from 'subset-font';
import { CHART_FONT } from '../../charts/chart-font.js';
import { chartCharacters } from './chart-characters.js';

const require = createRequire(import.meta.url);
const source = require.resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf');
const characters = chartCharacters();
const subset = await subsetFont(await readFile(source), characters, { targetFormat: 'truetype' });
await writeFile(CHART_FONT.path, subset);
await writeFile(CHART_FONT.charactersPath, `${characters}\n`);
process.stdout.write(`${CHART_FONT.path}: ${subset.length} bytes, ${[...characters].length} characters\n`);
