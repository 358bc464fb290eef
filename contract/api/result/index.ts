// Result area (issue 6, spec doc 1 §7 "Task", "Batch", "Mark", "VEX", "History", "Home"): every
// read and audit call of an analysis's results. The spec names the calls but gives no payloads;
// these are the ones the task-detail tabs, the comparison screens and the home dashboard need.
// One file per sub-resource, as the server's handlers are split (server/routes/result/<same name>.ts);
// the codes, counts and row shapes several of them use are in common.ts (read its terms first).
import { resultCompareCalls } from './compare.ts';
import { resultComponentCalls } from './components.ts';
import { resultHistoryCalls } from './history.ts';
import { resultHomeCalls } from './home.ts';
import { resultLicenceCalls } from './licences.ts';
import { resultMarkCalls } from './marks.ts';
import { resultTreeCalls } from './trees.ts';

export * from './common.ts';
export * from './trees.ts';
export * from './components.ts';
export * from './licences.ts';
export * from './compare.ts';
export * from './marks.ts';
export * from './history.ts';
export * from './home.ts';

/**
 * Every result call of issue 6. The server registers each with its handler (server/routes/result/,
 * one module per group above) and refuses to start when one is missing.
 */
export const resultCalls = {
  ...resultTreeCalls, ...resultComponentCalls, ...resultLicenceCalls, ...resultCompareCalls, ...resultMarkCalls, ...resultHistoryCalls, ...resultHomeCalls,
};
