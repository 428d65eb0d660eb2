// What the compiled gateway reads beside its code and tsc does not emit: copied into a build's dist
// folder by `npm run build` and by every test or bench that builds the app. Usage: node <this> <dist>
import { cpSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folders under src/ whose files the code opens at run time (the charts' font). */
const ASSET_FOLDERS = ['charts/fonts'];

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = process.argv[2];
if (!dist) {
  process.stderr.write('usage: node scripts/copy-build-assets.mjs <dist folder>\n');
  process.exit(2);
}
for (const folder of ASSET_FOLDERS) {
  cpSync(join(root, 'src', folder), join(dist, folder), { recursive: true });
}
