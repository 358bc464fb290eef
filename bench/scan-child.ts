// Runs one scan in a fresh process and prints its wall time, peak memory and component count,
// so the scan.bench figures are not polluted by the benchmark runner's own heap.
import { loadExtractors, scanTree } from '../server/engine/index.ts';

const { allExtractors } = await loadExtractors();
const started = performance.now();
const result = await scanTree(process.argv[2]!, { extractors: allExtractors });
const ms = performance.now() - started;
const components = new Set(result.targets.flatMap((t) => t.components.map((c) => c.purl))).size;
console.log(JSON.stringify({ ms, maxRssMB: process.resourceUsage().maxRSS / 1024, components, problems: result.problems.length }));
