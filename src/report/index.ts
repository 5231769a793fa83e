/** The report: one Report (report.json) and every view rendered from it. */
export type * from './types.js';
export { summarize, type SummaryOptions } from './summary.js';
export { computeCoverage, coverageLine, isJudged, grouped } from './coverage.js';
export { renderMarkdown } from './markdown.js';
export { renderHtml } from './html.js';
export { renderJUnit } from './junit.js';
export { renderSummary, MAX_SUMMARY_BYTES } from './pr-summary.js';
export {
  loadExpectations, parseExpectations, applyExpectations, expectationsInfo, isExpired,
  type Expectation, type AppliedExpectations,
} from './expectations.js';
export { diffBaseline, loadReport, deepEqual } from './baseline.js';
export {
  compareReports, renderCompareMarkdown, renderCompareHtml,
  type Comparison, type CheckComparison, type ObservationComparison, type CompareSide,
} from './compare.js';
export { writeReports, writeFileAtomic, redactReport, REPORT_FILES, SECRET_PLACEHOLDER, type WrittenReports } from './write.js';
export { buildMatrix, worstStatus, STATUS_SEVERITY, type Matrix, type MatrixCell } from './common.js';
