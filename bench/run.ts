// `npm run bench`: runs every bench/*.bench.ts in turn and prints its figures. Benchmarks are
// not tests: nothing here asserts a timing. Record notable figures in bench/README.md.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const only = process.argv[2];
const files = readdirSync(import.meta.dirname).filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only))).sort();
for (const file of files) {
  console.log(`\n# ${file}`);
  const mod = (await import(join(import.meta.dirname, file))) as { run: () => Promise<void> };
  await mod.run();
}
