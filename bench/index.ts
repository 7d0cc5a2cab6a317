// `npm run bench`: runs every `bench/*.bench.ts` module in name order (or only those
// whose name contains one of the arguments) and prints their figures. Each module
// exports `run(): Promise<void>` and prints its own lines. Record the figures in
// docs/benchmarks.md together with this command.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

console.log(`chessclock bench — node ${process.version}, ${process.platform}/${process.arch}`);
for (const file of files) {
  console.log(`\n== ${file}`);
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { run: () => Promise<void> };
  await mod.run();
}
