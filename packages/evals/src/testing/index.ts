export { caseRun, evalCase } from './case-runs.js';
